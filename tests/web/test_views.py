"""The pages' requests, read by each game's view (games/<game>/web/view.py): whatever a request holds,
a view either writes a move the game's own notation reads, or says why not (never a crash, never
a line the game could misread); and each view's part of a page for a player and a watcher."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.web.pages import load, view_for
from bot.core.registry import load_default
from games.board.core import parse_move as board_move
from games.board.web.view import BoardView
from games.common.page import BadRequest, Refused
from games.common.protocol import CardFace, Cell, SeatLine, Snapshot
from games.dice.rules import WordMove
from games.dice.rules import parse_move as dice_move
from games.dice.web.view import DiceView
from games.paths.moves import parse_move as paths_move
from games.paths.web.view import PathsView, square_label
from games.shed.notation import parse as shed_line
from games.shed.web.view import ShedView
from tests.games.board.helpers import new_game

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
LETTERS = st.text(alphabet="abcxyzQWE *-#1é", max_size=14)


class Grid:
    size = 12


def body(keys: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional=keys)


PATHS = body(
    {
        "action": st.sampled_from(["place", "blank", "discard", "knock", "pass", "nope"]) | JSON,
        "row": st.integers(-1, 13) | JSON,
        "col": st.integers(-1, 13) | JSON,
        "letter": LETTERS | JSON,
        "words": LETTERS | JSON,
    }
)
SHED = body(
    {
        "action": st.sampled_from(["word", "card", "draw", "nope"]) | JSON,
        "cards": st.lists(st.sampled_from(["A", "*b", "ñ", "12", "", "**"]), max_size=22) | JSON,
        "sources": st.lists(st.integers(-1, 8), max_size=7) | JSON,
        "results": LETTERS | JSON,
        "card": st.sampled_from(
            ["skip", "trade", "deck-trade", "swap-hands", "draw-two", "all-draw-two", "x"]
        ),
        "target": st.integers(-1, 4) | JSON,
        "give": st.sampled_from(["A", "*", "ab", ""]) | JSON,
    }
)
TILE = st.lists(st.integers(-1, 17) | st.sampled_from(["A", "z", "?", "é", "AB", ""]), min_size=3, max_size=3)
BOARD = body(
    {
        "action": st.sampled_from(["place", "swap", "pass", "resign", "nope"]) | JSON,
        "tiles": st.lists(TILE | JSON, max_size=18) | JSON,
    }
)
DICE = body(
    {
        "action": st.sampled_from(["word", "challenge", "accept", "concede", "nope"]) | JSON,
        "word": LETTERS | st.sampled_from(["accept", "STONe", "concede"]) | JSON,
        "cross": st.integers(0, 13) | JSON,
        "prev": st.integers(0, 13) | JSON,
    }
)


@settings(max_examples=200, deadline=None)
@given(request=BOARD)
def test_a_board_request_is_a_move_the_game_reads_or_a_reason(request: dict[str, Any]) -> None:
    game = new_game()
    try:
        words = BoardView().words(game, game.current, request)
    except (BadRequest, Refused) as exc:
        assert str(exc)
        return
    assert not isinstance(board_move(" ".join(words), game.layout.size), str)


@settings(max_examples=200, deadline=None)
@given(request=PATHS)
def test_a_paths_request_is_a_move_the_game_reads_or_a_reason(request: dict[str, Any]) -> None:
    try:
        words = PathsView().words(Grid(), "web:ann", request)
    except BadRequest as exc:
        assert str(exc)
        return
    paths_move(" ".join(words), 12, 12)  # (raises MoveError if the game could not read it)


@settings(max_examples=200, deadline=None)
@given(request=SHED)
def test_a_shed_request_is_a_line_the_game_reads_or_a_reason(request: dict[str, Any]) -> None:
    try:
        words = ShedView().words(None, "web:ann", request)  # type: ignore[arg-type]
    except BadRequest as exc:
        assert str(exc)
        return
    ops = shed_line(" ".join(words))
    assert len(ops) == 1, "a page's move is one move: no `;` can slip in"


@settings(max_examples=200, deadline=None)
@given(request=DICE)
def test_a_dice_request_is_a_move_the_game_reads_or_a_reason(request: dict[str, Any]) -> None:
    try:
        words = DiceView().words(None, "web:ann", request)  # type: ignore[arg-type]
    except BadRequest as exc:
        assert str(exc)
        return
    move = dice_move(" ".join(words))
    assert move is not None
    if request.get("action") == "word":
        assert isinstance(move, WordMove), "a word is never read as a command"


def test_every_game_with_a_page_has_its_view() -> None:
    pages = {page.game: page for page in load(load_default())}  # found through the registry
    assert set(pages) == {"board", "paths", "shed", "dice"}
    assert {g: type(view_for(g)).__name__ for g in ("board", "paths", "shed", "dice")} == {
        "board": "BoardView",
        "paths": "PathsView",
        "shed": "ShedView",
        "dice": "DiceView",
    }
    assert view_for("race") is None  # (a race is watched on the companion's own watch page)


def test_a_paths_page_part_names_every_square_and_holds_a_watcher_s_no_tiles() -> None:
    snapshot = Snapshot(
        "Mark My Words",
        cards=(CardFace("T", "", 0), CardFace("", "", 0)),
        lines=("Knocking: `knock WORD` claims new words for 20 s after each turn.",),
        board=((Cell("A"), Cell(" ", blank=True)), (Cell(), Cell("T", recent=True))),
    )
    mine = PathsView().part(Grid(), snapshot, "web:ann")
    assert [sq.label for row in mine.grid for sq in row] == ["A1, A", "B1, blank tile", "A2, empty", "B2, T"]
    assert mine.rack == ("T",) and mine.blanks == 1 and mine.knock and mine.player
    public = PathsView().part(Grid(), snapshot, None)
    assert public.rack == () and public.blanks == 0 and not public.player
    assert square_label("C3", "", False) == "C3, empty"


def test_a_shed_page_part_reads_the_table_words_and_the_opponents() -> None:
    class Hand:
        def hand_of(self, seat: str) -> tuple[Any, ...]:
            return ()

    snapshot = Snapshot(
        "Shed",
        seats=(SeatLine("web:ann", "Ann", 0, "#1 · 5 cards"), SeatLine("web:bob", "Bob", 0, "#2 · 3 cards")),
        lines=("Table words:", "  #1  SHoCK  (Ann)", "Deck: 3 cards · discard pile: 0"),
    )
    part = ShedView().part(Hand(), snapshot, "web:ann")  # type: ignore[arg-type]
    assert [(w.number, w.shown, w.owner) for w in part.table] == [(1, "SHoCK", "Ann")]
    assert part.opponents == ((2, "Bob"),)
    assert ShedView().hides("  #1  SHoCK  (Ann)") and not ShedView().hides("Deck: 3 cards · discard pile: 0")


@pytest.mark.parametrize(
    ("request_body", "typed"),
    [
        ({"action": "place", "row": 4, "col": 4, "letter": "t", "words": "ate, tea"}, "E5 T ATE TEA"),
        ({"action": "blank", "row": 0, "col": 11}, "blank L1"),
        ({"action": "discard", "letter": "q"}, "discard Q"),
        ({"action": "knock", "words": "oxcart"}, "knock OXCART"),
    ],
)
def test_a_paths_move_is_written_as_a_player_types_it(request_body: dict[str, Any], typed: str) -> None:
    assert " ".join(PathsView().words(Grid(), "web:ann", request_body)) == typed


async def test_a_game_carried_on_after_a_restart_shows_the_moves_made_before_it(tmp_path: Path) -> None:
    """A page of a game this process took on (a restart, or an adoption: its log replayed) shows
    the last moves the channel read before, not an empty list until the next move."""
    from adapters.web.local import LocalTable
    from bot.core.clock import FakeClock
    from bot.core.events import Text
    from bot.core.registry import load_default
    from storage.sqlite import SQLiteStore
    from tests.doubles import MemoryLog
    from tests.web.helpers import CHAT, current, web_table

    clock = FakeClock(1_000_000.0)
    async with web_table(tmp_path, clock) as first:
        mover = current(first)
        await first.table.runtime.ingest(Text(CHAT, mover, "pass", clock.now()))
        log = first.table.runtime.manager.game_log
        assert isinstance(log, MemoryLog)
        await first.table.runtime.manager.shutdown()  # the process stops; its game is carried on elsewhere
        store = SQLiteStore(tmp_path / "second.db")
        await store.open()
        second = LocalTable(load_default(), log, store.web_links, clock, "http://127.0.0.1")
        try:
            await second.runtime.manager.recover(log.unfinished())
            session = second.runtime.session(CHAT)
            assert session is not None
            shown = second.companion._model(session, None, watcher=True).log
            assert any("passes" in line for line in shown), shown
            await second.runtime.ingest(Text(CHAT, current_of(session), "pass", clock.now()))
            shown = second.companion._model(session, None, watcher=True).log
            assert sum("passes" in line for line in shown) == 2, "the next move joins them"
        finally:
            await second.close()
            await store.close()


def current_of(session: Any) -> Any:
    """The player whose turn it is in ``session``'s MOJO game."""
    return next(p for p in session.players if session.state.turn_seats() == {p.seat_id})


def test_a_board_page_part_holds_the_player_s_own_rack_only() -> None:
    game = new_game()
    seat = game.current
    mine = BoardView().part(game, game.snapshot(seat), seat)
    assert mine.rack == game.rack_of(seat) and len(mine.rack) == 7 and mine.player
    public = BoardView().part(game, game.snapshot(None), None)
    assert public.rack == () and not public.player
    shown = [line for line in game.snapshot(seat).lines if not BoardView().hides(line)]
    assert not any(line.startswith(("Your rack", "Squares:", "Moves:")) for line in shown), shown


def test_a_page_s_script_messages_are_its_page_s_own_and_shared_keys_keep_theirs() -> None:
    from adapters.web import scripts

    before = dict(scripts.PAGE_MESSAGES)
    try:
        scripts.add("one", {"refused": scripts.MESSAGES["refused"], "hi": "Hi."}, "games.one.web")
        scripts.add("two", {"hi": "Hello."}, "games.two.web")  # (another page's own)
        with pytest.raises(ValueError, match="'refused' means"):
            scripts.add("three", {"refused": "Nope."}, "games.three.web")
        assert scripts.messages("one")["hi"] == "Hi." and scripts.messages("two")["hi"] == "Hello."
        assert (
            "hi" not in scripts.messages("")
            and scripts.messages("")["refused"] == scripts.MESSAGES["refused"]
        )
    finally:
        scripts.PAGE_MESSAGES.clear()
        scripts.PAGE_MESSAGES.update(before)
