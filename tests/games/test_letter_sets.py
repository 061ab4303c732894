"""Every language's letters in the race deck, the dice and the shed box agree with its alphabet."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from games.common.languages import LANGUAGE_CODES, language
from games.common.letter_tables import COUNTS, POINTS, SOURCES
from games.dice.dice import BLANK, DICE_FACES_BY_LANGUAGE, dice_for
from games.race import cards as race_cards
from games.shed import cards as shed_cards

codes = st.sampled_from(LANGUAGE_CODES)

#: Tiles in each language's set (blanks aside); Spanish counts its CH, LL, RR tiles as letters.
SET_SIZES = {"en": 98, "nl": 100, "fr": 100, "de": 100, "es": 101}
#: Letters each language's dice leave out (a blank stands in for them).
LEFT_OFF_THE_DICE = {"en": "jq", "nl": "qxy", "fr": "jkwy", "de": "jqvxy", "es": "kwx"}


@given(codes)
def test_letter_tables_cover_the_alphabet_with_positive_points(code: str) -> None:
    lang = language(code)
    assert set(POINTS[code]) == set(lang.alphabet) == set(COUNTS[code])
    assert all(points > 0 for points in POINTS[code].values())
    assert all(count >= 0 for count in COUNTS[code].values())
    assert sum(COUNTS[code].values()) == SET_SIZES[code]
    assert SOURCES[code]
    # every letter of the language's own is in its set (German Ä Ö Ü, Spanish Ñ)
    assert all(COUNTS[code][ch] >= 1 for ch in lang.extra_letters)


def test_english_letter_values_are_the_ones_players_know() -> None:
    assert dict(race_cards.POINTS) == {
        **dict.fromkeys("aeioulnstr", 1),
        **dict.fromkeys("dg", 2),
        **dict.fromkeys("bcmp", 3),
        **dict.fromkeys("fhvwy", 4),
        "k": 5,
        **dict.fromkeys("jx", 8),
        **dict.fromkeys("qz", 10),
    }
    assert sum(POINTS["en"][ch] * n for ch, n in COUNTS["en"].items()) == 187  # the English set's total


@given(codes, st.integers(0, 2**32))
def test_the_race_deck_has_every_letter_once_per_colour(code: str, seed: int) -> None:
    lang = language(code)
    deck = race_cards.full_deck(lang)
    assert len(deck) == race_cards.deck_size(lang) == len(lang.alphabet) * len(race_cards.COLOURS)
    assert sorted(c.id for c in deck) == list(range(len(deck)))
    for colour in race_cards.COLOURS:
        assert sorted(c.letter for c in deck if c.colour == colour) == sorted(lang.alphabet)
    for card in deck:
        assert card.points == POINTS[code][card.letter] > 0
        assert lang.fold(card.label) == card.letter  # the letter as shown can be typed back
    shuffled = race_cards.shuffled_deck(random.Random(seed), lang)
    assert sorted(shuffled, key=lambda c: c.id) == deck


def test_race_deck_sizes_are_as_documented() -> None:
    sizes = {code: race_cards.deck_size(language(code)) for code in LANGUAGE_CODES}
    assert sizes == {"en": 104, "nl": 104, "fr": 104, "de": 116, "es": 108}
    assert race_cards.DECK_SIZE == 104


def test_the_english_race_deck_is_unchanged() -> None:
    deck = race_cards.full_deck()
    assert [(c.id, c.letter, c.colour) for c in deck[:3]] == [
        (0, "a", "red"),
        (1, "b", "red"),
        (2, "c", "red"),
    ]
    assert (deck[-1].id, deck[-1].letter, deck[-1].colour) == (103, "z", "green")
    assert race_cards.shuffled_deck(random.Random(7))[:5] == race_cards.shuffled_deck(random.Random(7))[:5]


@given(codes)
def test_the_dice_have_sixty_faces_two_blanks_and_the_language_letters(code: str) -> None:
    lang = language(code)
    dice = dice_for(code)
    assert len(dice) == 10 and all(len(die) == 6 for die in dice)
    faces = [f for die in dice for f in die]
    assert sum(f.blank for f in faces) == 2
    letters = [f for f in faces if not f.blank]
    assert len(letters) == 58
    for f in letters:
        assert f.letter in lang.alphabet and f.points == POINTS[code][f.letter] > 0
        assert lang.fold(f.letter.upper()) == f.letter
    on_dice = {f.letter for f in letters}
    assert set(lang.extra_letters) <= on_dice  # German Ä Ö Ü, Spanish Ñ
    assert set(lang.alphabet) - on_dice == set(LEFT_OFF_THE_DICE[code])
    # more faces for a letter the language's set has more of (the five commonest lead)
    count = Counter(f.letter for f in letters)
    commonest = sorted(COUNTS[code], key=lambda ch: -COUNTS[code][ch])[:5]
    assert all(count[ch] >= 3 for ch in commonest)


def test_the_english_dice_are_unchanged() -> None:
    assert DICE_FACES_BY_LANGUAGE["en"] == (
        "aeiou?", "aeioy?", "eatsrn", "eatsrl", "eitsnd", "aornlh", "outscm", "irnldp", "hcmpgb", "fwkvxz",
    )  # fmt: skip
    assert all(BLANK in faces or len(set(faces)) == 6 for faces in DICE_FACES_BY_LANGUAGE["en"])


@given(codes, st.sampled_from(shed_cards.CARD_SETS), st.integers(2, 6))
def test_the_shed_box_has_every_letter_in_each_colour_and_vowels_twice(
    code: str, card_set: str, players: int
) -> None:
    lang = language(code)
    box = shed_cards.box(lang)
    assert len(box) == shed_cards.deck_size(lang)
    assert sorted(c.id for c in box) == list(range(len(box)))
    for colour in shed_cards.COLOURS:
        count = Counter(c.letter for c in box if c.kind == "letter" and c.colour == colour)
        assert set(count) == set(lang.alphabet)
        assert all(n == (2 if ch in shed_cards.VOWELS else 1) for ch, n in count.items())
    assert sum(c.kind == "joker" for c in box) == shed_cards.JOKERS
    deck = shed_cards.deck_for(card_set, players, lang)
    assert {c.id for c in deck} <= {c.id for c in box}
    assert all(lang.fold(c.label) == c.letter for c in deck if c.kind == "letter")


def test_shed_box_sizes_are_as_documented() -> None:
    sizes = {code: shed_cards.deck_size(language(code)) for code in LANGUAGE_CODES}
    assert sizes == {"en": 110, "nl": 110, "fr": 110, "de": 119, "es": 113}
    two = {code: len(shed_cards.deck_for("two", 2, language(code))) for code in LANGUAGE_CODES}
    assert two == {"en": 46, "nl": 46, "fr": 46, "de": 49, "es": 47}
