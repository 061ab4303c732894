"""Tournaments through each front door: a Swiss of dice with computer players filling the field,
and a race arena of four people on a fake clock, run to their final standings in chat."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.registry import Registry, load_default
from storage.tournament_records import ARENA, FINISHED, SWISS, Tournament
from tests.contract.harness import PlatformHarness

PEOPLE_IN_ARENA = ("ann", "bob", "cat", "dan")


@pytest.fixture
def registry() -> Registry:
    return load_default()


async def live_or_last(p: PlatformHarness) -> Tournament | None:
    store = p.store.tournaments
    chat = p.chat
    t = await store.live_tournament(chat.platform, chat.workspace_id, chat.channel_id)
    if t is None:
        recent = await store.recent_tournaments(chat.platform, chat.workspace_id, 1)
        t = recent[0] if recent else None
    return t


def sessions_of(p: PlatformHarness) -> list[Any]:
    return [s for c, s in p.manager.sessions.items() if c.channel_id == p.chat.channel_id]


async def play_ann(p: PlatformHarness, registry: Registry, game: str) -> None:
    """Ann takes her turn in whichever tournament game of hers is waiting for it."""
    info = registry.get(game)
    if not info.turn_moves:
        return  # (her turns run out on the turn clock, as a player who walked away)
    for session in sessions_of(p):
        if session.phase.value == "running" and p.seat("ann") in session.state.turn_seats():
            await p.say("ann", info.turn_moves[-1][1], thread=session.chat.thread_id)


async def test_a_nine_player_swiss_of_dice_runs_to_its_standings(
    p: PlatformHarness, registry: Registry
) -> None:
    await p.command("ann", "tournament swiss dice rounds=4 round=2h register=10m bots=8 live=on")
    await p.until(lambda: any("opened a Swiss tournament" in said for said in p.channel()))
    t = await live_or_last(p)
    assert t is not None and t.format == SWISS
    assert len(await p.store.tournaments.entries(t.tournament_id)) == 9
    await p.command("ann", "tournament start")
    for _step in range(6000):
        t = await live_or_last(p)
        assert t is not None
        if t.state == FINISHED:
            break
        await play_ann(p, registry, "dice")
        await p.advance(5.0)
    await p.drain()
    assert t.state == FINISHED, (t.state, t.round)
    games = await p.store.tournaments.tournament_games(t.tournament_id)
    rounds = sorted({g.round for g in games})
    assert rounds == [1, 2, 3, 4]
    for round_no in rounds:
        of_round = [g for g in games if g.round == round_no]
        assert len(of_round) == 5 and all(g.done for g in of_round)
        seated = [s.user_id for g in of_round for s in g.seats]
        assert len(seated) == len(set(seated)) == 9  # everyone once: four games and a bye
    for g in games:  # ann's games in a thread of their own each, the computers' played at once
        people = [s for s in g.seats if not s.user_id.startswith("bot:")]
        if len(g.seats) == 2 and not people:
            assert g.thread_id == "auto", g
        elif len(g.seats) == 2:  # (the terminal has no threads: its one person plays in its chat)
            assert g.thread_id not in (None, "auto", *(() if p.name == "terminal" else ("-",))), g
    pairs = [frozenset(s.user_id for s in g.seats) for g in games if len(g.seats) == 2]
    assert len(pairs) == len(set(pairs)), "no rematch"
    await p.until(lambda: any("Final standings" in said for said in p.channel()), most=300.0)
    said = "\n".join(p.channel())
    assert "Round 1" in said
    assert not p.rate_limited(), "the threads' posts count in their channel's limit"

    assert p.pings("ann") or p.name == "terminal"
    assert not p.manager.errors


async def test_a_thirty_minute_race_arena_of_four(p: PlatformHarness, registry: Registry) -> None:
    """Four play back-to-back races for 30 minutes of the fake clock; the arena closes with its
    podium, every game counted once with four seats."""
    if p.name == "terminal":  # (one person: You and three computer players)
        await p.command("ann", "tournament arena race 30m cards=3 bots=3")
        await p.until(lambda: any("opened an arena" in said for said in p.channel()))
    else:
        await p.command("ann", "tournament arena race 30m cards=3")
        await p.until(lambda: any("opened an arena" in said for said in p.channel()))
        for who in PEOPLE_IN_ARENA[1:]:
            await p.command(who, "tournament join")
        await p.until(lambda: any("(4 players)" in said for said in p.channel()))
    t = await live_or_last(p)
    assert t is not None and t.format == ARENA
    for _step in range(3000):
        t = await live_or_last(p)
        assert t is not None
        if t.state == FINISHED:
            break
        for session in sessions_of(p):
            if session.phase.value == "running" and session.engine is not None:
                snap = session.snapshot()
                letters = "".join(card.letter for card in snap.cards).lower()
                if len(letters) >= 2:
                    await p.say("ann", letters[:2])
        await p.advance(3.0)
    await p.until(lambda: any("Final standings" in said for said in p.channel()), most=300.0)
    assert t.state == FINISHED
    games = await p.store.tournaments.tournament_games(t.tournament_id)
    assert len(games) >= 2 and all(g.done for g in games), games
    assert all(len(g.seats) == 4 for g in games)
    assert not p.manager.errors


@pytest.mark.needs("people")
async def test_a_scheduled_arena_opens_on_time_once(p: PlatformHarness, registry: Registry) -> None:
    """``schedule daily 12:00 tournament arena …``: the arena opens at noon, mentioning nobody
    twice, and one run opens one arena."""
    await p.command("ada", "schedule daily 12:00 tournament arena race 30m cards=3 bots=2")
    await p.settle()
    now = p.clock.now()
    noon = (now // 86400) * 86400 + 12 * 3600
    noon += 86400 if noon <= now + 60 else 0
    await p.advance(noon - now - 60)  # a minute before noon: nothing yet
    assert await live_or_last(p) is None
    await p.until(lambda: any("opened an arena" in said for said in p.channel()), most=180.0)
    t = await live_or_last(p)
    assert t is not None and t.format == ARENA and t.created_by == p.seat("ada").split(":", 1)[1]
    said = p.channel()  # (one text per message)
    assert sum("Tournament time!" in m for m in said) == 1
    assert sum("opened an arena" in m for m in said) == 1
    assert not p.manager.errors


async def test_a_tournament_says_nothing_outside_the_catalogue(
    p: PlatformHarness, registry: Registry
) -> None:
    """In the pseudo-language every word a tournament shows is marked: each sentence comes from
    the catalogue, whole (docs/LANGUAGES.md)."""
    from bot.sessions.lobby import BOT_NAMES
    from games.common.speech import PSEUDO, speak_only
    from tests.contract.harness import PEOPLE
    from tests.contract.test_speech import shown
    from tests.speech.pseudo import unmarked, without_links

    with speak_only(PSEUDO):
        await p.command("ann", "tournament swiss dice rounds=2 round=1h bots=2 live=on")
        await p.until(lambda: any(t.startswith("🏆") or "🏆" in t for t in p.channel()))
        await p.command("ann", "tournament")
        await p.command("ann", "tournament start")
        for _step in range(3000):
            t = await live_or_last(p)
            if t is not None and t.state == FINISHED:
                break
            await p.advance(5.0)
        await p.command("ann", "tournament standings")
        await p.command("ann", "tournament pairings")
        await p.command("ann", "tournament rules")
        await p.settle()
    names = {*BOT_NAMES, *(who.title() for who in PEOPLE), "You"}
    found = {word for text in shown(p) for word in unmarked(without_links(text), names)}
    assert not found, sorted(found)
    assert not p.manager.errors


async def test_a_game_lost_to_a_crash_counts_as_a_draw_and_the_tournament_goes_on(
    p: PlatformHarness,
) -> None:
    """A pairing's game that crashed (voided by the manager's one error handler) runs nowhere
    and has no result: the director counts it a draw, once, and pairs on."""
    await p.command("ann", "tournament swiss dice rounds=2 round=1h bots=1 live=on")
    await p.until(lambda: any("opened a Swiss tournament" in said for said in p.channel()))
    await p.command("ann", "tournament start")

    def playing() -> list[Any]:
        return [s for s in sessions_of(p) if s.phase.value == "running" and s.game_id.startswith("tour-")]

    await p.until(playing, most=600.0)
    [session] = playing()
    await p.manager._crashed(session.chat, RuntimeError("a bug in the game"))
    for _step in range(3000):
        t = await live_or_last(p)
        assert t is not None
        if t.round == 2 or t.state == FINISHED:
            break
        await p.advance(5.0)
    games = await p.store.tournaments.tournament_games(t.tournament_id)
    first = [g for g in games if g.round == 1]
    assert len(first) == 1 and first[0].done and first[0].how == "adjudicated"
    assert [seat.points for seat in first[0].seats] == [0.5, 0.5]
    assert t.round == 2 or t.state == FINISHED


async def test_an_arena_of_a_turn_based_game_plays_it_live_two_seats_at_a_time(p: PlatformHarness) -> None:
    """Dice has a live mode, so it may be an arena's game: two seats a game, those who have
    played least first, until the window closes."""
    await p.command("ann", "tournament arena dice 30m bots=2")
    await p.until(lambda: any("opened an arena" in said for said in p.channel()))
    for _step in range(3000):
        t = await live_or_last(p)
        assert t is not None
        if t.state == FINISHED:
            break
        await p.advance(5.0)
    await p.until(lambda: any("Final standings" in said for said in p.channel()), most=300.0)
    games = await p.store.tournaments.tournament_games(t.tournament_id)
    assert games and all(g.done and len(g.seats) == 2 for g in games)
    played = [seat.user_id for g in games for seat in g.seats]
    entrants = [e.user_id for e in await p.store.tournaments.entries(t.tournament_id)]
    assert max(map(played.count, entrants)) - min(map(played.count, entrants)) <= 1  # (least first)
    assert not p.manager.errors


async def test_a_swiss_of_mojo_ends_each_round_on_time(p: PlatformHarness) -> None:
    """A week-long MOJO Swiss in small: turns of a day cannot fit a round of an hour, so each
    round's game of Ann's ends at the round's end on its scores so far, said in its chat, and
    the next round is paired."""
    await p.command("ann", "tournament swiss board rounds=2 round=1h bots=3")
    await p.until(lambda: any("opened a Swiss tournament" in said for said in p.channel()))
    await p.command("ann", "tournament start")
    for _step in range(3000):
        t = await live_or_last(p)
        assert t is not None
        if t.state == FINISHED:
            break
        await p.advance(60.0)
    await p.until(lambda: any("Final standings" in said for said in p.channel()), most=300.0)
    games = await p.store.tournaments.tournament_games(t.tournament_id)
    ann = p.seat("ann").split(":", 1)[1]
    hers = [g for g in games if any(s.user_id == ann for s in g.seats) and len(g.seats) == 2]
    assert hers and all(g.how == "adjudicated" for g in hers)
    assert not p.manager.errors
