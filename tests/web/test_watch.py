"""Watching a game live: `watch` in chat, the table's Watch live button, the watch
page of a race and of the turn-based games, its coalesced live channel, and that no private
information (a hand, a rack, an Eagle Eyes list) ever reaches a watcher.

A real aiohttp server and SQLite database; every game is played through the chat's runtime, as
chat would play it. Time is the injected clock; the live channel is read event by event."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from adapters.web.companion import WATCH_LINK
from bot.core.events import Command, Outbound, Post, Private, PrivateText
from bot.core.platform import Capabilities
from bot.hosting.handlers.watching import NO_PAGES, OFFER_TITLE
from games.common.speech import speaking
from tests.speech.pseudo import unmarked
from tests.web.helpers import ANN, BOB, CHAT
from tests.web.racing import Channel, Game, game_table
from tests.web.test_languages import visible


def record(game: Game) -> list[Outbound]:
    """Every message as the platform would get it (after the companion's tap)."""
    seen: list[Outbound] = []

    async def tap(message: Outbound) -> Outbound:
        seen.append(message)
        return message

    game.table.outbox.taps.append(tap)
    return seen


async def answers(game: Game, name: str = "watch") -> list[Private]:
    seen = record(game)
    await game.table.runtime.ingest(Command(name, (), CHAT, BOB))
    return [m for m in seen if isinstance(m, Private)]


# ------------------------------------------------------------------ in chat


async def test_watch_answers_privately_with_the_game_s_watch_link(tmp_path: Path) -> None:
    async with game_table(tmp_path) as game:
        [answer] = await answers(game)
        assert answer.player == BOB and answer.view.title == OFFER_TITLE
        [button] = answer.view.buttons
        assert button.action == WATCH_LINK and button.label == "Watch live"
        assert button.url.startswith(f"{game.url}/g/{game.session.game_id}#")
        assert "nothing" not in answer.view.plain() and "Anyone in this chat" in answer.view.plain()
        # the same link for everyone, again and again: it opens the public view only
        for _ in range(2):
            opened = await game.table.companion.links.open(button.url.split("#", 1)[1])
            assert (
                opened is not None and opened.grant.watcher and opened.grant.game_id == game.session.game_id
            )
        [again] = await answers(game, "spectate")  # (an alias)
        assert again.view.buttons[0].url == button.url


async def test_watch_without_pages_says_how_an_operator_turns_them_on(tmp_path: Path) -> None:
    async with game_table(tmp_path) as game:
        game.table.outbox.taps.clear()  # no companion: a process without PUBLIC_URL
        [answer] = await answers(game)
        assert answer.view.lines == (NO_PAGES,) and "PUBLIC_URL" in answer.view.plain()
        assert not answer.view.buttons


async def test_watch_with_no_game_or_a_lobby_says_why(tmp_path: Path) -> None:
    async with game_table(tmp_path) as game:
        await game.table.runtime.ingest(Command("stop", (), CHAT, ANN))
        [answer] = await answers(game)
        assert answer.view.kind == "error" and "no game in this channel to watch" in answer.view.plain()
        await game.table.runtime.ingest(Command("start", ("race",), CHAT, ANN))
        [answer] = await answers(game)
        assert answer.view.kind == "error" and "hasn't started yet" in answer.view.plain()


async def test_every_game_s_table_carries_watch_live_where_the_platform_has_buttons(tmp_path: Path) -> None:
    for name in ("race", "board", "paths", "shed", "dice"):
        seen: list[Outbound] = []
        async with game_table(tmp_path / name, name, seen=seen) as game:
            tables = [m for m in seen if isinstance(m, Post) and m.view.kind == "table"]
            assert tables, f"{name}: a table was posted"
            for table in tables:
                links = [b for b in table.view.buttons if b.action == WATCH_LINK]
                assert len(links) == 1 and links[0].label == "Watch live", name
                assert links[0].url.startswith(f"{game.url}/g/{game.session.game_id}#"), name


async def test_no_watch_button_where_the_platform_has_no_buttons(tmp_path: Path) -> None:
    async with game_table(tmp_path) as game:
        platform: Any = game.table.runtime.platform
        platform.capabilities = Capabilities(
            ephemeral=False, threads=False, buttons=False, timestamp_precision=0.001
        )
        seen = record(game)
        await game.take(ANN)
        tables = [m for m in seen if isinstance(m, Post) and m.view.kind == "table"]
        assert tables and not [b for t in tables for b in t.view.buttons if b.action == WATCH_LINK]
        [answer] = await answers(game)  # `watch` still answers: a link the terminal prints
        assert answer.view.buttons[0].url.startswith(game.url)


# ------------------------------------------------------------------ the race's watch page


async def test_a_race_s_watch_page_shows_cards_scores_and_takes_and_follows_them(tmp_path: Path) -> None:
    async with game_table(tmp_path) as game:
        client, game_id = await game.watcher()
        try:
            html = await (await client.get(f"/g/{game_id}")).text()
            cards = "".join(c.letter for c in game.session.snapshot(None).cards)
            assert f'data-cards="{cards}"' in html and "Face-up cards" in html
            assert 'role="status" aria-live="polite"' in html and "<script>" not in html
            assert 'src="/static/watch.js"' in html and "Scores" in html and "Takes" in html
            first = game.session.snapshot(None).cards[0]
            assert f"{first.letter}, {first.colour}, {first.points} point" in html  # a card's name

            channel = Channel(await client.get(f"/g/{game_id}/events", headers={"Origin": game.url}))
            name, state = await channel.next()
            assert name == "state" and f'data-cards="{cards}"' in state["html"] and not state["ended"]
            took = await game.take(ANN)
            assert took.startswith("Ann takes")
            while True:  # (the table may have changed first: the newest state shows the take)
                name, state = await channel.next()
                if took in state["html"]:
                    break
            assert f'data-latest="{took}"' in state["html"]
            [ann] = [s for s in game.session.snapshot(None).seats if s.seat == ANN.seat_id]
            assert ann.score > 0 and f"<td>Ann</td><td>{ann.score}</td>" in state["html"]
            channel.response.close()
        finally:
            await client.close()


async def test_changes_during_the_window_are_rendered_once_and_the_latest_state_is_sent(
    tmp_path: Path,
) -> None:
    async with game_table(tmp_path) as game:
        client, game_id = await game.watcher()
        watch = game.table.server.watch
        window = asyncio.Event()
        waiting = asyncio.Event()

        async def pause(seconds: float) -> None:  # the coalescing window, held open by the test
            assert seconds == watch.window
            waiting.set()
            await window.wait()
            window.clear()

        watch.pause = pause
        try:
            channels = [
                Channel(await client.get(f"/g/{game_id}/events", headers={"Origin": game.url}))
                for _ in range(3)
            ]
            for channel in channels:
                assert (await channel.next())[0] == "state"
            await waiting.wait()
            feed = watch.feeds[(game_id, "en")]
            assert feed.renders == 1 and feed.watchers == 3, "three watchers share one rendering"
            took = await game.take(BOB)  # a take: an announcement, tables, flips…
            for _ in range(20):
                game.table.companion.changed(CHAT)
            assert feed.renders == 1, "nothing is rendered while the window is open"
            window.set()
            for channel in channels:
                name, state = await channel.next()
                assert name == "state" and took in state["html"], "the latest state, at once"
            assert feed.renders == 2, "the whole burst: one rendering"
            for channel in channels:
                channel.response.close()
        finally:
            window.set()
            await client.close()


async def test_an_eagle_eyes_list_never_reaches_a_watcher(tmp_path: Path) -> None:
    async with game_table(tmp_path, "race", ("bots=0", "variation=eagle-eyes")) as game:
        client, game_id = await game.watcher()
        try:
            channel = Channel(await client.get(f"/g/{game_id}/events", headers={"Origin": game.url}))
            await channel.next()
            platform: Any = game.table.runtime.platform  # (private words: a DM, a form)
            platform.capabilities = Capabilities(
                ephemeral=True, threads=False, buttons=True, timestamp_precision=0.001, private_text=True
            )
            engine: Any = game.session.engine
            words = engine.planner.candidates([engine.cards], engine.used, 3, "normal")
            assert words
            await game.table.runtime.ingest(PrivateText(CHAT, ANN, " ".join(words), game.clock.now()))
            await game.clock.advance(0.5)  # (words settle before the game takes them)
            mine = "\n".join(game.session.snapshot(ANN.seat_id).lines)
            assert "Your list" in mine and words[0].upper() in mine, "Ann's list is kept"
            game.table.companion.changed(CHAT)
            _, state = await channel.next()
            html = await (await client.get(f"/g/{game_id}")).text()
            for shown in (state["html"], html):
                assert "Your list" not in shown
                assert ", ".join(w.upper() for w in words) not in shown, "Ann's list"
            channel.response.close()
        finally:
            await client.close()


async def test_a_turn_based_game_s_watch_page_shows_the_table_but_no_hand_or_rack(tmp_path: Path) -> None:
    for name in ("paths", "shed", "dice"):
        async with game_table(tmp_path / name, name) as game:
            client, game_id = await game.watcher()
            try:
                html = await (await client.get(f"/g/{game_id}")).text()
                public = game.session.snapshot(None)
                # (watched on the game's own page, as its players see it but without a hand)
                assert "Scores" in html and "Last moves" in html and 'src="/static/watch.js"' not in html
                for seat in public.seats:
                    assert f"<td>{seat.name.strip(chr(0xFDD0) + chr(0xFDD1))}" in html
                if public.board:
                    assert 'role="grid"' in html
                for player in (ANN, BOB):
                    private = set(game.session.snapshot(player.seat_id).lines) - set(public.lines)
                    for line in private:
                        assert line not in html, f"{name}: {player.display_name}'s private line"
                assert "Your hand" not in html and "Your rack" not in html and 'id="rack"' not in html
                move = await client.post(
                    f"/g/{game_id}/move", json={"action": "pass"}, headers={"Origin": game.url}
                )
                assert move.status == 403
            finally:
                await client.close()


async def test_a_finished_race_s_watchers_see_the_result_and_the_channel_closes(tmp_path: Path) -> None:
    async with game_table(tmp_path) as game:
        client, game_id = await game.watcher()
        try:
            channel = Channel(await client.get(f"/g/{game_id}/events", headers={"Origin": game.url}))
            await channel.next()
            await game.take(ANN)
            await game.table.runtime.ingest(Command("stop", (), CHAT, ANN))
            while True:
                _, state = await channel.next()
                if state.get("ended"):
                    break
            assert 'class="ended"' in state["html"]
            html = await (await client.get(f"/g/{game_id}")).text()  # a page opened afterwards
            assert 'class="ended"' in html and "Ann" in html
        finally:
            await client.close()


async def test_every_text_of_a_race_s_watch_page_comes_through_the_catalogue(tmp_path: Path) -> None:
    async with game_table(tmp_path) as game:
        client, game_id = await game.watcher()
        try:
            await game.take(ANN)
            html = await (await client.get(f"/g/{game_id}", headers={"Accept-Language": "qps"})).text()
            with speaking("qps"):
                snapshot = game.session.snapshot(None)
            said = game.table.companion.moves.get(CHAT, [])
            played = " ".join(
                [snapshot.title, *snapshot.lines, *(f"{s.name} {s.detail}" for s in snapshot.seats), *said]
            )
            allowed = set(re.findall(r"[^\W\d_]{2,}", played)) | {"Ann", "Bob"}
            found = unmarked(visible(html), allowed)
            assert found == [], found
        finally:
            await client.close()
