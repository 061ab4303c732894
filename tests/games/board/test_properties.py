"""Properties: tiles are conserved, scores add up, replays rebuild games, the move generator is right."""

from __future__ import annotations

import os
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.board.core import Board, Play, Scored, parse_move
from games.board.engine import BoardGame
from games.board.layout import Layout
from games.board.player import ranked
from games.board.trie import Trie
from games.common.protocol import Action, Setup
from tests.games.board.helpers import ANN, BOB, plays

LONG = os.environ.get("MOJI_FUZZ") == "long"


def fuzz(normal: int, long: int) -> settings:
    """``normal`` examples in the test suite, ``long`` under ``MOJI_FUZZ=long``."""
    return settings(
        max_examples=long if LONG else normal,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


SCORED = re.compile(r" for (-?\d+):")


@fuzz(8, 80)
@given(
    seed=st.integers(0, 10_000),
    layout=st.sampled_from(["mojo", "classic"]),
    picks=st.lists(st.integers(0, 60), min_size=4, max_size=14),
)
def test_tiles_are_conserved_scores_add_up_and_a_replay_rebuilds_the_game(
    seed: int, layout: str, picks: list[int]
) -> None:
    setup = Setup({"layout": layout}, (ANN, BOB), seed)
    game = BoardGame(setup)
    log = [Action("begin", 0.0)]
    game.apply(log[0])
    total = game.total_tiles()
    assert total == sum(game.layout.counts.values())
    played: Counter[str] = Counter()
    rules = (game.layout.rack, game.layout.bingo, len(game.bag), "tournament")
    for step, pick in enumerate(picks, start=1):
        if game.finished:
            break
        seat = game.current
        rack = game.racks[seat]
        options = ranked(game.board, rack, rules)[:8]
        if pick % 10 == 9:
            text = "pass"
        elif pick % 10 == 8 and rack:
            text = "swap " + "".join(rack[: 1 + pick % 3])
        elif options:
            text = options[pick % len(options)].play.text()
        else:
            text = "pass"
        action = Action("say", float(step), seat=seat, text=text)
        log.append(action)
        notes = game.apply(action)
        accepted = [n for n in notes if n.kind == "accepted"]
        for note in accepted:
            found = SCORED.search(note.text)
            if found:
                played[seat] += int(found.group(1))
        assert game.total_tiles() == total
        assert all(len(r) <= game.layout.rack for r in game.racks.values())
        if not game.finished:
            assert dict(game.scores) == {s: played[s] for s in game.scores}
    again = BoardGame(setup)
    for action in log:
        again.apply(action)
    assert again.board.tiles == game.board.tiles
    assert again.racks == game.racks and again.bag == game.bag and again.scores == game.scores
    assert again.current == game.current and again.finished == game.finished


SMALL = [
    "at",
    "ta",
    "cat",
    "act",
    "tac",
    "scat",
    "cats",
    "acts",
    "cast",
    "ab",
    "ba",
    "tab",
    "bat",
    "bats",
    "stab",
]
SMALL += [
    "as",
    "sat",
    "tas",
    "taxa",
    "ax",
    "xa",
    "tax",
    "ex",
    "set",
    "sea",
    "eat",
    "tea",
    "east",
    "seat",
    "teas",
]


@fuzz(20, 200)
@given(
    seed=st.integers(0, 1000),
    rack=st.lists(st.sampled_from("ABCESTX?"), min_size=1, max_size=5),
    moves=st.integers(0, 4),
)
def test_the_generator_finds_exactly_the_legal_plays(seed: int, rack: list[str], moves: int) -> None:
    trie = Trie(SMALL)
    words = set(SMALL)
    layout = Layout.from_dict(
        {
            "size": 7,
            "rack": 5,
            "bingo": 30,
            "stars": ["D4"],
            "premiums": {"TL": ["C3", "E5"], "DW": ["D4", "B6"], "DL": ["D2", "F4"], "TW": ["A1"]},
            "letters": {ch: {"count": 9, "points": i + 1} for i, ch in enumerate("ABCESTX")},
        }
    )
    board = Board(layout.realise(seed), layout.points)
    import random

    rng = random.Random(seed)
    for _ in range(moves):  # a few random legal plays first
        found = plays(board, list("ABCESTX"), trie, rack_size=5, bingo=30)
        if not found:
            break
        pick = rng.choice(found)
        scored = board.evaluate(pick.play, None, words.__contains__, rack_size=5, bingo=30)
        assert isinstance(scored, Scored)
        board.place(scored)
    got = {(c.play, c.score) for c in plays(board, rack, trie, rack_size=5, bingo=30)}
    # brute force: every word, every square, both directions, every way to use the blanks
    want: set[tuple[Play, int]] = set()
    for word in SMALL:
        for down in (False, True):
            for row in range(7):
                for col in range(7):
                    for spelled in _spellings(word.upper(), rack.count("?")):
                        play = Play(row, col, down, spelled)
                        scored = board.evaluate(play, rack, words.__contains__, rack_size=5, bingo=30)
                        if isinstance(scored, Scored) and _canonical(board, play) == spelled:
                            want.add((play, scored.score))
    assert got == want


def _spellings(word: str, blanks: int) -> list[str]:
    """The word with up to ``blanks`` of its letters in lower case (played by a blank)."""
    out = {word}
    for _ in range(blanks):
        out |= {w[:i] + w[i].lower() + w[i + 1 :] for w in out for i in range(len(w)) if w[i].isupper()}
    return sorted(out)


def _canonical(board: Board, play: Play) -> str:
    """How the generator writes a play: tiles already on the board as they are."""
    dr, dc = (1, 0) if play.down else (0, 1)
    out = []
    for i, ch in enumerate(play.word):
        have = board.at(play.row + dr * i, play.col + dc * i)
        out.append(have or ch)
    return "".join(out)


@fuzz(200, 2000)
@given(st.text(max_size=40))
def test_reading_any_text_as_a_move_never_raises(text: str) -> None:
    move = parse_move(text, 16)
    if isinstance(move, Play):
        assert parse_move(move.text(), 16) == move


MOVE_TEXT = st.one_of(
    st.text(max_size=30),
    st.builds(
        lambda sq, d, w: f"{sq} {d} {w}",
        st.sampled_from(["H8", "I9", "A1", "P16", "Q3", "h8", "H0", "H17"]),
        st.sampled_from(["across", "down", "a", "d", "up"]),
        st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh?1 ", min_size=0, max_size=9),
    ),
    st.sampled_from(["pass", "swap ?", "swap QXZ", "swap", "resign", "play pass", "H8 across"]),
)


@fuzz(40, 400)
@given(
    seed=st.integers(0, 50),
    moves=st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), MOVE_TEXT), max_size=12),
)
def test_any_text_from_anyone_is_answered_never_raised(seed: int, moves: list[tuple[str, str]]) -> None:
    game = BoardGame(Setup({}, (ANN, BOB), seed))
    game.apply(Action("begin", 0.0))
    total = game.total_tiles()
    for step, (seat, text) in enumerate(moves, start=1):
        notes = game.apply(Action("say", float(step), seat=seat, text=text))
        assert all(n.kind != "rejected" or n.text for n in notes)
        assert game.total_tiles() == total
