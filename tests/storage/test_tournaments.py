"""The tournaments' tables on SQLite and PostgreSQL: what they keep, and each once-only step taken
once when two stores (two processes) race for it on the same database."""

from __future__ import annotations

import asyncio

from storage.sqlstore import SQLStore
from storage.tournament_records import BYE, NewGame, SeatResult, Tournament, tournament_game_id
from tests.storage.conftest import Factory

T0 = 1_800_000_000.0


def a_tournament(tid: str = "t1", channel: str = "C1", workspace: str = "W1") -> Tournament:
    return Tournament(
        tid, "discord", workspace, channel, "swiss", "dice", ("live=on",), 3, 3600.0, "en", "ann", "Ann", T0,
        starts_at=T0 + 600,
    )  # fmt: skip


async def two(make_store: Factory) -> tuple[SQLStore, SQLStore]:
    first, second = make_store(), make_store()
    await first.open()
    await second.open()
    return first, second


async def test_a_tournament_round_trips_and_one_is_live_per_channel(store: SQLStore) -> None:
    tours = store.tournaments
    t = a_tournament()
    assert await tours.create_tournament(t) == t
    assert await tours.tournament("t1") == t
    assert await tours.live_tournament("discord", "W1", "C1") == t
    # a second one in the channel: the live one is the answer
    assert (await tours.create_tournament(a_tournament("t2"))).tournament_id == "t1"
    assert await tours.tournament("t2") is None
    assert await tours.start_tournament("t1", T0 + 1) and not await tours.start_tournament("t1", T0 + 2)
    assert await tours.end_tournament("t1", "finished", T0 + 3)
    assert not await tours.end_tournament("t1", "cancelled", T0 + 4)
    assert await tours.live_tournament("discord", "W1", "C1") is None
    # once it has ended, the channel may open another
    assert (await tours.create_tournament(a_tournament("t2"))).tournament_id == "t2"
    assert [x.tournament_id for x in await tours.live_tournaments("discord")] == ["t2"]
    assert {x.tournament_id for x in await tours.recent_tournaments("discord", "W1", 10)} == {"t1", "t2"}


async def test_entries_join_leave_and_come_back(store: SQLStore) -> None:
    tours = store.tournaments
    await tours.create_tournament(a_tournament())
    assert await tours.join_tournament("t1", "ann", "Ann", 25.0, T0)
    assert await tours.join_tournament("t1", "bob", "Bob", 27.0, T0 + 1)
    assert not await tours.join_tournament("t1", "ann", "Ann", 25.0, T0 + 2)
    assert await tours.leave_tournament("t1", "ann", T0 + 3)
    assert not await tours.leave_tournament("t1", "ann", T0 + 4)
    entries = await tours.entries("t1")
    assert [(e.user_id, e.active) for e in entries] == [("ann", False), ("bob", True)]
    assert await tours.join_tournament("t1", "ann", "Annie", 25.0, T0 + 5)
    [ann, _bob] = await tours.entries("t1")
    assert ann.active and ann.name == "Annie"


async def test_a_round_is_paired_and_each_result_kept_once_however_many_race(make_store: Factory) -> None:
    first, second = await two(make_store)
    await first.tournaments.create_tournament(a_tournament())
    games = [
        NewGame(1, ("ann", "bob")),
        NewGame(2, ("cat",), (SeatResult("cat", None, 1, 1.0),), BYE),
    ]
    paired = await asyncio.gather(
        *(s.tournaments.begin_round("t1", 1, T0 + 3600, games, T0) for s in (first, second) * 4)
    )
    assert paired.count(True) == 1
    stored = await first.tournaments.tournament_games("t1")
    assert [(g.round, g.board, g.state, g.how) for g in stored] == [
        (1, 1, "playing", ""),
        (1, 2, "done", BYE),
    ]
    assert stored[1].seats == (SeatResult("cat", None, 1, 1.0),)
    # round 2 can't be paired twice either, nor round 1 again
    assert not await second.tournaments.begin_round("t1", 1, T0, games, T0)
    game_id = tournament_game_id("t1", 1, 1)
    claimed = await asyncio.gather(
        *(s.tournaments.claim_tournament_game(game_id, "th") for s in (first, second) * 3)
    )
    assert claimed.count(True) == 1
    await first.tournaments.release_tournament_game(game_id)
    assert await second.tournaments.claim_tournament_game(game_id, "th2")
    won = (SeatResult("ann", 40, 1, 1.0), SeatResult("bob", 30, 2, 0.0))
    drawn = (SeatResult("ann", 35, 1, 0.5), SeatResult("bob", 35, 1, 0.5))
    kept = await asyncio.gather(
        *(
            s.tournaments.finish_tournament_game(game_id, result, "played", T0 + 60)
            for s, result in ((first, won), (second, drawn)) * 3
        )
    )
    assert kept.count(True) == 1
    game = await first.tournaments.tournament_game(game_id)
    assert game is not None and game.done and game.thread_id == "th2"
    assert game.seats in (won, drawn)  # one result, whole: never half of each
    ended = await asyncio.gather(
        *(s.tournaments.end_tournament("t1", "finished", T0) for s in (first, second) * 2)
    )
    assert ended.count(True) == 1


async def test_forget_me_anonymises_and_purge_deletes_only_their_workspace(store: SQLStore) -> None:
    tours = store.tournaments
    for t in (a_tournament("t1"), a_tournament("t9", workspace="W9")):
        await tours.create_tournament(t)
        for who in ("ann", "bob"):
            await tours.join_tournament(t.tournament_id, who, who.title(), 25.0, T0)
        await tours.begin_round(t.tournament_id, 1, None, [NewGame(1, ("ann", "bob"))], T0)
    await store.forget_player("discord", "W1", "ann")
    entries = await tours.entries("t1")
    assert "ann" not in {e.user_id for e in entries} and "Ann" not in {e.name for e in entries}
    [game] = await tours.tournament_games("t1")
    assert game.seats[1].user_id == "bob" and game.seats[0].user_id.startswith("former:")
    forgotten = await tours.tournament("t1")
    assert forgotten is not None and forgotten.created_by != "ann" and forgotten.created_by_name != "Ann"
    # another workspace's tournament still knows Ann
    assert "ann" in {e.user_id for e in await tours.entries("t9")}
    await store.purge_workspace("discord", "W1")
    assert await tours.tournament("t1") is None and await tours.tournament_games("t1") == []
    assert await tours.entries("t1") == [] and await tours.tournament("t9") is not None
