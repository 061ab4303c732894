"""The dice, the move notation and the crossing rule."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.dice.dice import BLANK, DICE, DICE_FACES, LETTER_POINTS, Face, face, roll
from games.dice.rules import Fit, Placed, WordMove, fit_word, parse_move


def faces(text: str, first_die: int = 0) -> list[tuple[int, Face]]:
    return [(first_die + n, face(ch)) for n, ch in enumerate(text)]


def mat(word: str, blanks: str = "", first_die: int = 5) -> tuple[Placed, ...]:
    return tuple(
        Placed(
            first_die + n,
            ch,
            0 if n in {int(b) for b in blanks} else LETTER_POINTS[ch],
            n in {int(b) for b in blanks},
        )
        for n, ch in enumerate(word)
    )


def test_ten_six_sided_dice_with_exactly_two_blank_faces() -> None:
    assert len(DICE) == 10 and all(len(d) == 6 for d in DICE)
    assert sum(f.blank for d in DICE for f in d) == 2
    assert sum(s.count(BLANK) for s in DICE_FACES) == 2
    letters = Counter(f.letter for d in DICE for f in d if not f.blank)
    assert letters["e"] >= 4 and letters["a"] >= 4  # common words are likely
    assert all(f.points == (0 if f.blank else LETTER_POINTS[f.letter]) for d in DICE for f in d)


def test_a_roll_shows_one_face_of_each_die_and_is_seeded() -> None:
    first = roll(random.Random(5), [9, 0, 3])
    assert [d for d, _ in first] == [0, 3, 9]
    assert all(f in DICE[d] for d, f in first)
    assert first == roll(random.Random(5), [0, 3, 9])


def test_the_notation() -> None:
    assert parse_move("stone") == WordMove("stone", None, None, None)
    assert parse_move("STONe") == WordMove("stone", frozenset({4}), None, None)
    assert parse_move("stone 2 1") == WordMove("stone", None, 1, 0)
    assert parse_move("  Challenge ") == "challenge"
    assert parse_move("accept") == "accept"
    assert parse_move("give up") == "concede"
    assert parse_move("=ACCEPT") == WordMove("accept", None, None, None)
    assert parse_move("accept 1 2") == WordMove("accept", None, 0, 1)
    assert parse_move("ch") == WordMove("ch", None, None, None)  # CH is a word, not a command


def test_a_word_that_is_also_a_command_is_written_with_an_equals_sign() -> None:
    fit = fit_word("accept", faces("accept"), ())
    assert isinstance(fit, Fit) and fit.notation() == "=ACCEPT"
    assert parse_move(fit.notation()) == WordMove("accept", None, None, None)
    for bad in ("", "st0ne", "stone 0", "stone x", "a b c d", "caf€", "абв", "abcdefghijkl"):
        assert parse_move(bad) is None, bad
    # accents fold as answers do in every game: CAFÉ is the word CAFE
    assert parse_move("CAFÉ") == WordMove("cafe", None, None, None)


def test_the_first_word_uses_the_rolled_dice_only() -> None:
    rolled = faces("stoneab?cz")
    fit = fit_word("stone", rolled, ())
    assert isinstance(fit, Fit) and fit.score == 5 and fit.cross is None
    second = fit_word("stones", rolled, ())  # the blank is the second S
    assert isinstance(second, Fit) and second.score == 5 and second.placed[5].blank
    assert "no die for" in str(fit_word("stoner", faces("stone"), ()))
    assert "crosses nothing" in str(fit_word("stone", rolled, (), cross=1))


def test_a_word_must_cross_sharing_exactly_one_letter() -> None:
    rolled = faces("ac", first_die=0)
    on_mat = mat("stone")
    fit = fit_word("cat", rolled, on_mat)
    assert isinstance(fit, Fit)
    assert (fit.cross, fit.prev) == (2, 1) and fit.score == 5  # the shared T counts too
    assert fit.placed[2] == on_mat[1]
    # COAT would need both O and T from the mat word
    reason = fit_word("coat", rolled, on_mat)
    assert isinstance(reason, str) and "only one letter comes from STONE" in reason
    assert "must cross STONE" in str(fit_word("ca", faces("ca"), on_mat))
    assert "letter 1 of CAT is C" in str(fit_word("cat", rolled, on_mat, cross=0, prev=1)).replace(
        "Letter", "letter"
    )


def test_a_blank_keeps_its_letter_on_the_mat() -> None:
    on_mat = mat("stone", blanks="4")  # the E is a blank
    fit = fit_word("zen", faces("zn", first_die=0), on_mat)
    assert isinstance(fit, Fit)
    assert fit.placed[1] == on_mat[4] and fit.placed[1].blank and fit.placed[1].points == 0
    assert fit.score == 10 + 0 + 1
    assert fit.notation() == "ZEN 2 5"


def test_explicit_blanks_score_zero() -> None:
    rolled = faces("s?one", first_die=0)
    fit = fit_word("stone", rolled, (), blanks_at=frozenset({1}))
    assert isinstance(fit, Fit) and fit.score == 4 and fit.shown() == "StONE"
    assert "a blank for" in str(fit_word("stone", faces("stone"), (), blanks_at=frozenset({1})))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.booleans())
def test_a_fit_replayed_from_its_notation_is_the_same_fit(seed: int, size: int, crossing: bool) -> None:
    rng = random.Random(seed)
    rolled = roll(rng, list(range(10)))
    on_mat: tuple[Placed, ...] = ()
    if crossing:
        first = rolled[:4]
        on_mat = tuple(Placed(d, f.letter or "e", f.points, f.blank) for d, f in first)
        rolled = rolled[4:]
    pool = [f.letter or rng.choice("aeiost") for _, f in rolled]
    word = "".join(rng.sample(pool, min(size, len(pool))))
    if on_mat:
        word = word[:1] + on_mat[rng.randrange(len(on_mat))].letter + word[1:]
    fit = fit_word(word, rolled, on_mat)
    if isinstance(fit, str):
        return
    move = parse_move(fit.notation())
    assert isinstance(move, WordMove)
    again = fit_word(move.word, rolled, on_mat, blanks_at=move.blanks, cross=move.cross, prev=move.prev)
    assert isinstance(again, Fit)
    assert again.score == fit.score and again.shown() == fit.shown() and again.cross == fit.cross
    assert len(again.dice) == len(word)  # every letter on its own die
