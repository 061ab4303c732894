"""What a race reads as an answer: the declaration the core keeps answers by.

The session gives a race only what :class:`~games.race.reading.RaceReader` reads as an
answer, and the game's log keeps only that; everything else a player types is chatter. The
reader must never call chatter what the engine would judge (an answer would be lost), and
what it calls chatter the engine must ignore too (so dropping it changes nothing).
"""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.protocol import Action, Seat, Setup
from games.common.words import MULTIWORD_THEMES
from games.race import GAME
from games.race.eagle import EagleEyes
from games.race.reading import MAX_ANSWER_WORDS, RaceReader, reads
from tests.games.race.helpers import ANN, BOB, ListJudge, claim, put, race

CHATTER = "my salary is too low, call me at +1 555 0100"
FOOD = {"themes": ("food",)}


def test_the_race_declares_its_reading() -> None:
    assert GAME.reads is reads
    assert isinstance(GAME.reads({}, 1), RaceReader)


def test_answers_may_have_any_language_letters() -> None:
    plain, food = reads({}, 1), reads(FOOD, 1)
    for word in ("Äpfel", "niño", "Straße", "IJsland", "cœur", "cat", "Zebra", "café", "lol!"):
        assert plain.read(word).move == word, word
    assert plain.read(unicodedata.normalize("NFD", "Äpfel")).move is not None  # accents as marks
    for word in ("l’été", "DON'T", "rock'n'roll"):  # contractions: judged, refused with a reason
        assert plain.read(word).move == word, word
    for words in ("scrambled eggs", "Crème Brûlée", "the lord of the rings", "ice-cream"):
        assert food.read(words).move == words, words  # several words for a multi-word theme


def test_chatter_is_no_answer() -> None:
    plain, food = reads({}, 1), reads(FOOD, 1)
    for text in (CHATTER, "42", "", "_x", "<@123>", "http://x", "?!", "lol 😂 nice", "a" * 101):
        assert plain.read(text).move is None, text
        assert food.read(text).move is None, text
    assert plain.read("scrambled eggs").move is None  # several words: only for such a theme
    seven = " ".join(["word"] * (MAX_ANSWER_WORDS + 1))
    assert food.read(seven).move is None and food.read(seven.rsplit(" ", 1)[0]).move is not None
    refused = plain.read(CHATTER)
    assert "not an answer" in refused.reason and "555" not in refused.reason


def test_an_eagle_eyes_list_keeps_its_words_only() -> None:
    eagle = reads({"variation": ("eagle-eyes",)}, 1)
    assert eagle.read("cat, dog;bird", private=True).move == "cat dog bird"
    assert eagle.read(CHATTER, private=True).move == "my salary is too low call me at"
    assert eagle.read("+1 555 0100", private=True).move is None
    assert eagle.read(" done ", private=True).move == "done"
    assert reads({}, 1).read("cat dog", private=True).move is None  # no lists in a flip race
    both = reads({"variation": ("eagle-eyes", "off-the-grid")}, 1)
    assert both.read("cat", private=True).move is None  # Off the Grid is played then


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=40),
        st.text(alphabet="abcdeé' -!.0123,😂", max_size=30),
        st.sampled_from([CHATTER, "scrambled eggs", "DON'T", "cat!", "two  spaces"]),
    ),
    themed=st.booleans(),
)
def test_what_the_reader_calls_chatter_the_engine_ignores(text: str, themed: bool) -> None:
    options = dict(FOOD) if themed else {}
    engine = race(options={"cards": 5, **options})
    put(engine, ann="c", bob="a")
    if reads(options, 1).read(text.strip()).move is None:
        assert claim(engine, (ANN, text, 1.0)) == [], text


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**62))
def test_a_challenge_of_the_round_is_read_like_the_game_draws_it(seed: int) -> None:
    options = {"challenge-of-round": True}
    engine = race(options=options, seed=seed)
    assert reads(options, seed).multiword == bool(engine.cfg.themes & MULTIWORD_THEMES)


def test_an_eagle_eyes_list_of_the_reading_is_taken_like_the_typed_one() -> None:
    setup = Setup({"variation": ("eagle-eyes",)}, [Seat(ANN, "Ann"), Seat(BOB, "Bob")], 1, judge=ListJudge())
    typed, read = EagleEyes(setup), EagleEyes(setup)
    for engine in (typed, read):
        engine.apply(Action("begin", 0.0))
    now = (typed.writing_until or 1.0) - 0.5
    text = "cat, act +1 555 0100"
    move = reads(setup.options, 1).read(text, private=True).move
    assert move == "cat act"
    for engine, sent in ((typed, text), (read, move)):
        engine.apply(Action("say", now, seat=ANN, text=sent, private=True))
    assert typed.lists[ANN] == read.lists[ANN]
