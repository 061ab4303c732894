"""The move generator against brute force and the rules' own scoring, and the trie it walks."""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.board.core import Board, Play, Scored
from games.board.engine import BoardGame
from games.board.layout import Layout
from games.board.player import choose, missed_move, ranked
from games.board.trie import Trie, trie_for
from games.common.protocol import Action, Seat, Setup
from tests.games.board.helpers import plays

LONG = os.environ.get("MOJI_FUZZ") == "long"


def fuzz(normal: int, long: int) -> settings:
    """``normal`` examples in the test suite, ``long`` under ``MOJI_FUZZ=long``."""
    return settings(
        max_examples=long if LONG else normal,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


WORDS = sorted(
    set(
        " ".join(
            [
                "at ta as ax xa ex ab ba be es et te ca",
                "cat act tac sat tas set sea eat tea tax bat tab bet bes sec tec axe sax",
                "scat cats acts cast bats stab east seat teas taxa beta best bets sect aces",
                "casts beast beats sabes taxes caste cases bates abets",
                "basset tacets castes beasts",
            ]
        ).split()
    )
)

SMALL = Layout.from_dict(
    {
        "size": 8,
        "rack": 7,
        "bingo": 30,
        "stars": ["D4", "E5"],
        "premiums": {"TL": ["C3", "F6"], "DW": ["D4", "B7"], "DL": ["D2", "G4", "E5"], "TW": ["A1", "H8"]},
        "letters": {ch: {"count": 20, "points": i + 1} for i, ch in enumerate("ABCESTX")},
    }
)


def _spellings(word: str, blanks: int) -> list[str]:
    """The word with up to ``blanks`` of its letters in lower case (played by a blank)."""
    out = {word}
    for _ in range(blanks):
        out |= {w[:i] + w[i].lower() + w[i + 1 :] for w in out for i in range(len(w)) if w[i].isupper()}
    return sorted(out)


def _brute_force(board: Board, rack: list[str], words: list[str]) -> set[tuple[Play, int]]:
    """Every word on every square in both directions, every way to use the blanks, judged by the rules."""
    check = set(words).__contains__
    n = board.size
    want: set[tuple[Play, int]] = set()
    for word in words:
        for down in (False, True):
            for row in range(n):
                for col in range(n):
                    # geometry and words first (any tiles), then the rack with each use of the blanks
                    anyhow = board.evaluate(Play(row, col, down, word.upper()), None, check)
                    if not isinstance(anyhow, Scored):
                        continue
                    for spelled in _spellings(word.upper(), rack.count("?")):
                        play = Play(row, col, down, _canonical(board, Play(row, col, down, spelled)))
                        scored = board.evaluate(play, rack, check, rack_size=7, bingo=30)
                        if isinstance(scored, Scored):
                            want.add((play, scored.score))
    return want


def _canonical(board: Board, play: Play) -> str:
    """How the generator writes a play: tiles already on the board as they are."""
    dr, dc = (1, 0) if play.down else (0, 1)
    return "".join(board.at(play.row + dr * i, play.col + dc * i) or ch for i, ch in enumerate(play.word))


@fuzz(12, 150)
@given(
    seed=st.integers(0, 10_000),
    letters=st.lists(st.sampled_from("ABCESTX"), min_size=4, max_size=7),
    blanks=st.integers(0, 2),
    moves=st.integers(0, 7),
)
def test_full_racks_with_blanks_find_exactly_the_legal_plays(
    seed: int, letters: list[str], blanks: int, moves: int
) -> None:
    # racks of up to 7 with up to two blanks, on boards with up to 7 words: anchors next to
    # runs of tiles (the bridges), left parts of every length, words ending on the edge
    trie = Trie(WORDS)
    rack = (letters + ["?"] * blanks)[:7]
    board = Board(SMALL.realise(seed), SMALL.points)
    rng = random.Random(seed)
    for _ in range(moves):
        found = plays(board, list("ABCESTX?"), trie, rack_size=7, bingo=30)
        if not found:
            break
        scored = board.evaluate(rng.choice(found).play, None, set(WORDS).__contains__, rack_size=7, bingo=30)
        assert isinstance(scored, Scored)
        board.place(scored)
    got = [(c.play, c.score) for c in plays(board, rack, trie, rack_size=7, bingo=30)]
    assert len(got) == len(set(got))  # no play twice
    assert set(got) == _brute_force(board, rack, WORDS)


def test_a_word_is_built_onto_the_front_of_tiles_already_down() -> None:
    trie = Trie(WORDS)
    board = Board(SMALL.realise(0), SMALL.points)
    first = board.evaluate(Play(3, 3, False, "CAT"), None, None)
    assert isinstance(first, Scored)
    board.place(first)
    made = {(c.play, c.score) for c in plays(board, ["S", "?", "E"], trie, rack_size=7, bingo=30)}
    # S (5 points) on C4, a plain square, before C A T (3 + 1 + 6): SCAT across, 15
    assert (Play(3, 2, False, "SCAT"), 15) in made
    # a blank standing for the S scores nothing
    assert (Play(3, 2, False, "sCAT"), 10) in made
    # after the tiles: the S on G4, a double letter: 3 + 1 + 6 + 10
    assert (Play(3, 3, False, "CATS"), 20) in made
    assert (Play(3, 3, False, "CATs"), 10) in made


@fuzz(30, 300)
@given(st.lists(st.text(alphabet="abcde", min_size=1, max_size=6), max_size=40))
def test_the_trie_knows_which_letters_end_a_word_after_each_prefix(words: list[str]) -> None:
    trie = Trie(words)
    kept = {w for w in words if len(w) >= 2}
    prefixes = {w[:i] for w in kept for i in range(len(w))}
    for prefix in prefixes:
        node = trie.walk(prefix)
        assert node >= 0
        ends = {chr(97 + li) for li in range(26) if trie.ends[node] >> li & 1}
        assert ends == {ch for ch in "abcdefghijklmnopqrstuvwxyz" if prefix + ch in kept}


def _midgame(seed: int, plays: int) -> BoardGame:
    game = BoardGame(Setup({"layout": "mojo"}, (Seat("a", "A", "hard"), Seat("b", "B", "hard")), seed))
    game.apply(Action("begin", 0.0))
    rng = random.Random(seed)
    for step in range(plays):
        rules = (game.layout.rack, game.layout.bingo, len(game.bag), "tournament")
        text = choose(game.board, game.racks[game.current], game.check, "hard", rng, rules)
        game.apply(Action("say", float(step + 1), seat=game.current, text=text))
    return game


def test_every_play_on_a_real_board_is_legal_and_scored_as_the_rules_score_it() -> None:
    game = _midgame(7, 8)
    rack = list(game.racks[game.current])
    rack[0] = "?"
    found = plays(game.board, rack, trie_for("tournament"), rack_size=7, bingo=40)
    assert len(found) > 500
    assert len({c.play for c in found}) == len(found)
    for cand in found:
        scored = game.board.evaluate(cand.play, rack, game.check, rack_size=7, bingo=40)
        assert isinstance(scored, Scored), (cand, scored)
        assert scored.score == cand.score and len(scored.placed) == cand.tiles


def test_the_best_move_is_the_top_of_the_ranking() -> None:
    game = _midgame(11, 6)
    rack = game.racks[game.current]
    rules = (7, 40, len(game.bag), "tournament")
    order = ranked(game.board, rack, rules)
    assert [c.score for c in order] == sorted((c.score for c in order), reverse=True)
    best = missed_move(game.board, rack, game.check, rules)
    assert best == (order[0].play.text(), order[0].score)
    # a workspace that bans the best word gets the next best instead
    banned = order[0].word.lower()

    def check(word: str) -> bool:
        return word != banned and game.check(word)

    text = choose(game.board, rack, check, "hard", random.Random(0), rules)
    allowed = (c for c in order if isinstance(game.board.evaluate(c.play, rack, check), Scored))
    assert text == next(allowed).play.text() != order[0].play.text()
