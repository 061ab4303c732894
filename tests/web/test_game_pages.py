"""The pages of Mark My Words, Shed and letter dice over HTTP: each player sees their own tiles
or hand only, a page's move is the typed move (the same text in the game's log, the same
refusals), previews come from the games themselves, and bad requests are told why.

A real aiohttp server, a real SQLite database and the real lexicon; the chat's runtime judges
every move."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import Private
from games.dice.dice import face
from games.shed.rearrange import TableWord
from games.shed.web.view import card_label
from tests.games.shed.helpers import rig
from tests.web.helpers import ANN, BOB, CHAT, Table, web_table
from tests.web.test_pages import opened


@pytest.fixture
async def paths(tmp_path: Path) -> AsyncIterator[Table]:
    async with web_table(tmp_path, FakeClock(1_000_000.0), game="paths") as t:
        yield t


@pytest.fixture
async def shed(tmp_path: Path) -> AsyncIterator[Table]:
    async with web_table(tmp_path, FakeClock(1_000_000.0), game="shed") as t:
        yield t


@pytest.fixture
async def dice(tmp_path: Path) -> AsyncIterator[Table]:
    async with web_table(tmp_path, FakeClock(1_000_000.0), game="dice") as t:
        yield t


def says(table: Table) -> list[tuple[str | None, str | None]]:
    """Every move of the game's log: (seat, text), refused ones too, as typed moves are."""
    log = table.table.runtime.manager.game_log
    return [(a.seat, a.text) for a in log.actions[table.session.game_id] if a.kind == "say"]  # type: ignore[attr-defined]


async def post(client: TestClient, table: Table, game: str, path: str, body: dict[str, Any]) -> Any:
    response = await client.post(f"/g/{game}/{path}", json=body, headers={"Origin": table.url})
    return response.status, await response.json()


# ------------------------------------------------------------ Mark My Words


async def test_paths_pages_show_each_player_their_own_tiles_and_a_watcher_none(paths: Table) -> None:
    engine: Any = paths.session.engine
    racks = {
        p: "".join(ch.upper() for ch in engine.racks[p.seat_id]) + "?" * engine.blanks[p.seat_id]
        for p in (ANN, BOB)
    }
    clients = []
    try:
        for who in (ANN, BOB, None):
            client, game = await opened(paths, who)
            clients.append(client)
            html = await (await client.get(f"/g/{game}")).text()
            assert 'role="grid"' in html and 'aria-label="A1, empty"' in html
            for other, rack in racks.items():
                assert (f'data-rack="{rack}"' in html) == (other == who)
            if who is None:
                assert 'id="rack"' not in html and 'id="play"' not in html
    finally:
        for client in clients:
            await client.close()


async def test_a_paths_tile_is_previewed_then_played_as_the_typed_move(paths: Table) -> None:
    engine: Any = paths.session.engine
    engine.racks[ANN.seat_id] = sorted("taeon")
    ann, game = await opened(paths, ANN)
    bob, _ = await opened(paths, BOB)
    try:
        # the first round: an isolated tile needs no word
        status, found = await post(
            ann, paths, game, "preview", {"action": "place", "row": 2, "col": 2, "letter": "t"}
        )
        assert status == 200 and found == {
            "ok": True,
            "move": "C3 T",
            "words": [],
            "score": 0,
            "reason": "",
            "points": "0 points",
        }
        status, refused = await post(
            bob, paths, game, "move", {"action": "place", "row": 0, "col": 0, "letter": "a"}
        )
        assert status == 422 and refused["reason"].startswith("It's Ann's turn")
        status, _ = await post(
            ann, paths, game, "move", {"action": "place", "row": 2, "col": 2, "letter": "t"}
        )
        assert status == 200
        assert engine.squares[2 * engine.size + 2] == "t"
        assert says(paths) == [(BOB.seat_id, "A1 A"), (ANN.seat_id, "C3 T")]
        status, bad = await post(
            bob, paths, game, "move", {"action": "place", "row": 99, "col": 0, "letter": "a"}
        )
        assert status == 400 and "row" in bad["reason"]
        status, bad = await post(bob, paths, game, "move", {"action": "knock", "words": ""})
        assert status == 400 and "knock" in bad["reason"]
        status, _ = await post(bob, paths, game, "move", {"action": "pass"})
        assert status == 200 and says(paths)[-1] == (BOB.seat_id, "pass")
    finally:
        await ann.close()
        await bob.close()


async def test_a_paths_preview_judges_the_named_words_and_names_no_other(paths: Table) -> None:
    engine: Any = paths.session.engine
    engine.turns = 2  # (the first round is over)
    size = engine.size
    engine.squares[0], engine.squares[1] = "a", "t"
    engine.racks[ANN.seat_id] = ["e", "s"]
    ann, game = await opened(paths, ANN)
    try:
        body = {"action": "place", "row": 0, "col": 2, "letter": "e", "words": "ate"}
        status, found = await post(ann, paths, game, "preview", body)
        assert status == 200 and found["ok"] and found["move"] == "C1 E ATE"
        assert found["words"] == [["ATE", 1, ""]] and found["score"] == 1
        status, found = await post(ann, paths, game, "preview", {**body, "words": ""})
        assert not found["ok"] and "Name the new word" in found["reason"] and found.get("words", []) == []
        assert size > 2
    finally:
        await ann.close()


async def test_free_tiles_are_taken_from_the_pile_on_the_page_as_the_typed_move(paths: Table) -> None:
    """The Free Letter Pile is on every page (tiles to place for a player, letters for a
    watcher); tiles placed from it and the one word they make become ``free E C1 ATE``."""
    engine: Any = paths.session.engine
    engine.turns = 2  # (the first round is over)
    engine.squares[0], engine.squares[1] = "a", "t"
    engine.pile[:] = ["e", "s"]
    ann, game = await opened(paths, ANN)
    watcher, _ = await opened(paths, None)
    try:
        html = await (await ann.get(f"/g/{game}")).text()
        assert 'data-pile="ES"' in html and 'aria-label="E, free tile"' in html and 'id="free"' in html
        assert "Free Letter Pile: E S" not in html, "the page shows the pile itself"
        seen = await (await watcher.get(f"/g/{game}")).text()
        assert 'data-pile="ES"' in seen and '<button type="button" class="ptile"' not in seen
        for bad, why in (
            ({"action": "free", "words": "ate"}, "free tiles"),
            ({"action": "free", "tiles": [[0, 2, "e"]], "words": "ate tea"}, "one new word"),
            ({"action": "free", "tiles": [[0, 99, "e"]], "words": "ate"}, "column"),
        ):
            status, refused = await post(ann, paths, game, "move", bad)
            assert status == 400 and why in refused["reason"], refused
        status, _ = await post(
            ann, paths, game, "move", {"action": "free", "tiles": [[0, 2, "e"]], "words": "ate"}
        )
        assert status == 200
        assert says(paths)[-1] == (ANN.seat_id, "free E C1 ATE")
        assert engine.squares[2] == "e" and engine.pile == ["s"]
        html = await (await ann.get(f"/g/{game}")).text()
        assert 'data-pile="S"' in html and 'aria-label="C1, E"' in html
    finally:
        await ann.close()
        await watcher.close()


# ------------------------------------------------------------ Shed


async def test_shed_pages_show_each_player_their_own_hand_only(shed: Table) -> None:
    engine: Any = shed.session.engine
    hands = {}
    for p in (ANN, BOB):
        hands[p] = "".join(
            c.letter.upper() or ("*" if c.kind == "joker" else f"[{c.action}]")
            for c in engine.hand_of(p.seat_id)
        )
    assert engine.hand_of("nobody") == ()
    clients = []
    try:
        for who in (ANN, BOB, None):
            client, game = await opened(shed, who)
            clients.append(client)
            html = await (await client.get(f"/g/{game}")).text()
            for other, hand in hands.items():
                assert (f'data-hand="{hand}"' in html) == (other == who)
            if who is None:
                assert 'id="hand"' not in html
    finally:
        for client in clients:
            await client.close()


async def test_shed_cards_and_table_words_become_the_typed_line(shed: Table) -> None:
    engine: Any = shed.session.engine
    rig(
        engine,
        {ANN.seat_id: "w h o a s !skip", BOB.seat_id: "c a t !skip"},
        table=["sock"],
        opened=[ANN.seat_id, BOB.seat_id],
    )
    engine.round.table = [TableWord(tw.cards, ANN.seat_id) for tw in engine.round.table]
    engine.current = ANN.seat_id
    ann, game = await opened(shed, ANN)
    bob, _ = await opened(shed, BOB)
    try:
        html = await (await ann.get(f"/g/{game}")).text()
        assert 'aria-label="Table word 1: SOCK, Ann&#39;s"' in html
        assert f'aria-label="{card_label("letter", "H", "blue", "", "")}"' in html
        assert "Skip, action card" in html
        # a word with a table word, previewed by the game on a copy of the round
        body = {"action": "word", "cards": ["H"], "sources": [1], "results": "shock"}
        status, found = await post(ann, shed, game, "preview", body)
        assert status == 200 and found["ok"] and found["move"] == "#1+H -> SHOCK", found
        assert "5 cards left" in found["said"]
        assert [tw.text for tw in engine.round.table] == ["sock"], "a preview changes nothing"
        status, refused = await post(bob, shed, game, "move", {"action": "word", "cards": ["C", "A", "T"]})
        assert status == 422 and refused["reason"] == "It's not your turn: it's Ann's."
        status, _ = await post(ann, shed, game, "move", body)
        assert status == 200 and [tw.text for tw in engine.round.table] == ["shock"]
        # an action card aimed by seat number
        status, _ = await post(bob, shed, game, "move", {"action": "card", "card": "skip", "target": 1})
        assert status == 200
        assert says(shed) == [
            (BOB.seat_id, "play CAT"),
            (ANN.seat_id, "#1+H -> SHOCK"),
            (BOB.seat_id, "skip 1"),
        ]
        status, bad = await post(bob, shed, game, "move", {"action": "card", "card": "nuke", "target": 1})
        assert status == 400 and "action cards" in bad["reason"]
        status, bad = await post(bob, shed, game, "move", {"action": "word", "cards": ["12"]})
        assert status == 400
    finally:
        await ann.close()
        await bob.close()


# ------------------------------------------------------------ letter dice


async def test_dice_are_built_into_the_typed_word_with_its_crossing(dice: Table) -> None:
    engine: Any = dice.session.engine
    engine.rolled = [(d, face(ch)) for d, ch in enumerate("oestnocdbz")]
    first = ANN if engine.roller() == ANN.seat_id else BOB
    second = BOB if first is ANN else ANN
    one, game = await opened(dice, first)
    two, _ = await opened(dice, second)
    watcher, _ = await opened(dice, None)
    try:
        html = await (await watcher.get(f"/g/{game}")).text()
        assert 'aria-label="O, 1 point"' in html and 'id="play"' not in html
        status, found = await post(one, dice, game, "preview", {"action": "word", "word": "STONE"})
        assert status == 200 and found == {
            "ok": True,
            "move": "STONE",
            "shown": "STONE",
            "score": 5,
            "reason": "",
            "points": "5 points",
        }
        status, _ = await post(watcher, dice, game, "move", {"action": "word", "word": "STONE"})
        assert status == 403
        status, _ = await post(one, dice, game, "move", {"action": "word", "word": "STONE"})
        assert status == 200
        html = await (await two.get(f"/g/{game}")).text()
        assert 'data-mat="STONE"' in html and "letter 2 of the word to cross: T, 1 point" in html
        status, _ = await post(
            two, dice, game, "move", {"action": "word", "word": "ACT", "cross": 3, "prev": 2}
        )
        status, _ = await post(two, dice, game, "move", {"action": "word", "word": "Accept"})
        status, _ = await post(two, dice, game, "move", {"action": "word", "word": "ST0NE"})
        assert status == 400
        assert says(dice)[:3] == [
            (first.seat_id, "STONE"),
            (second.seat_id, "ACT 3 2"),
            (second.seat_id, "=Accept"),
        ]
    finally:
        for client in (one, two, watcher):
            await client.close()


async def test_the_live_channel_sends_a_game_s_own_live_part(dice: Table) -> None:
    client, game = await opened(dice, ANN)
    try:
        response = await client.get(f"/g/{game}/events", headers={"Origin": dice.url})
        line = b""
        while not line.startswith(b"data:"):
            line = await response.content.readline()
        html = json.loads(line[5:])["html"]
        assert 'id="roll"' in html and re.search(r'data-roll="[A-Z?]{10}"', html)
        response.close()
    finally:
        await client.close()


async def test_each_game_s_private_notes_carry_the_link_to_its_page(shed: Table) -> None:
    note = Private(CHAT, ANN, views.message("Your hand: A B C", "private"))
    shown = await shed.table.companion.tap(note)
    assert shown is not None
    [button] = [b for b in shown.view.buttons if b.url]
    assert button.label == "Open your hand" and button.url.startswith(f"{shed.url}/g/{shed.session.game_id}#")
