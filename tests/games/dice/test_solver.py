"""The solver finds exactly the words that fit (compared with a brute-force scan)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.words import WordRules
from games.dice.dice import Face, roll
from games.dice.rules import Fit, Placed, fit_word
from games.dice.solver import any_word, best_word, candidates, scored, spellable
from games.dice.wordlist import WordList, allowed_words, game_words
from tests.games.dice.helpers import LEXICON, WORDS, ListLexicon

WORDLIST = WordList(WORDS)


def brute_force(rolled: list[tuple[int, Face]], on_mat: tuple[Placed, ...]) -> set[str]:
    return {w for w in WORDS if isinstance(fit_word(w, rolled, on_mat), Fit)}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 100_000), st.integers(1, 10), st.integers(0, 6))
def test_the_solver_finds_exactly_the_words_that_fit(seed: int, dice: int, mat_size: int) -> None:
    rng = random.Random(seed)
    chosen = rng.sample(range(10), min(10, dice + mat_size))
    rolled = roll(rng, chosen[:dice])
    on_mat = tuple(Placed(d, rng.choice("aeinostcz"), 1, rng.random() < 0.2) for d in chosen[dice:])
    found = set(spellable(WORDLIST, rolled, on_mat))
    assert found == brute_force(rolled, on_mat)
    fits = list(candidates(WORDLIST, rolled, on_mat))
    assert {f.word for f in fits} == found and len(fits) == len(found)
    scores = {f.word: f.score for f in fits}
    assert {f.word: f.score for f in scored(WORDLIST, rolled, on_mat)} == scores  # scored on the way
    best = best_word(WORDLIST, rolled, on_mat)
    assert (best is None) == (not found) == (any_word(WORDLIST, rolled, on_mat) is None)
    if best is not None:
        assert best.score == max(f.score for f in fits)


def test_allowed_words_follow_the_judge_and_the_workspace_lists() -> None:
    rules = WordRules(dictionary="tournament", added=frozenset({"zzz"}), banned=frozenset({"cat"}))
    words = allowed_words(game_words(LEXICON, rules))
    assert "zzz" in words.words and "cat" not in words.words and "stone" in words.words
    assert allowed_words(game_words(LEXICON, rules)) is words  # cached
    other = ListLexicon({"ab", "a", "Proper", "toolongforthedice"})
    assert allowed_words(game_words(other, WordRules())).words == ("ab",)


def test_the_real_dictionary_proves_a_hopeless_roll_and_finds_the_best_word() -> None:
    from games.dice.dice import face
    from games.dice.engine import BANS, DICTIONARY
    from games.lexicon import load

    lex = load(DICTIONARY)
    words = allowed_words(game_words(lex, WordRules(dictionary=DICTIONARY, bans=BANS)))
    assert len(words) > 150_000
    hopeless = [(8, face("c")), (9, face("x"))]
    assert any_word(words, hopeless, ()) is None  # no word of C and X alone
    rolled = [(n, face(ch)) for n, ch in enumerate("aeistnrlo?")]
    best = best_word(words, rolled, ())
    assert best is not None and len(best.word) >= 8


def test_prepare_builds_the_default_word_list_once() -> None:
    from games.dice import prepare
    from games.dice.engine import BANS, DICTIONARY
    from games.lexicon import load

    prepare()
    rules = WordRules(dictionary=DICTIONARY, bans=BANS)
    assert allowed_words(game_words(load(DICTIONARY), rules)) is allowed_words(
        game_words(load(DICTIONARY), rules)
    )
