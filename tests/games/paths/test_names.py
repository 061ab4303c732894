"""Mark My Words allows places and bans personal names by default (its rulebook)."""

from __future__ import annotations

from games.common.protocol import Seat, Setup
from games.paths.engine import PathsEngine
from games.paths.options import DEFAULT_BANS, PathsConfig
from tests.games.paths.helpers import ANN, BOB, give, put, refused, say, skip_first_round


def game(options: dict[str, object] | None = None) -> PathsEngine:
    from games.common.protocol import Action

    engine = PathsEngine(
        Setup(
            {"size": 6, "knock": 0, "misplaced": "retry", **(options or {})},
            [Seat(ANN, "Ann"), Seat(BOB, "Bob")],
            1,
        )
    )
    engine.apply(Action("begin", 0.0))
    skip_first_round(engine)
    return engine


def test_a_city_is_accepted_and_a_personal_name_refused() -> None:
    assert "non-place" in DEFAULT_BANS and "proper" not in DEFAULT_BANS
    city = game()
    put(city, {"A1": "l", "B1": "o", "C1": "n", "D1": "d", "E1": "o"})
    give(city, ANN, "n")
    assert refused(say(city, ANN, "F1 N LONDON")) is None
    assert city.scores[ANN] == 1

    person = game()
    put(person, {"A1": "m", "B1": "a", "C1": "r"})
    give(person, ANN, "y")
    assert refused(say(person, ANN, "D1 Y MARY")) == "MARY is a personal name, banned in this game."


def test_a_game_recorded_with_the_old_rules_replays_with_them() -> None:
    old = {"size": 6, "knock": 0, "misplaced": "retry", "rules": ["proper", "abbrev", "contraction"]}
    assert PathsConfig.from_options(old).bans == frozenset({"proper", "abbrev", "contraction"})
    city = game({"rules": ["proper", "abbrev", "contraction"]})
    put(city, {"A1": "l", "B1": "o", "C1": "n", "D1": "d", "E1": "o"})
    give(city, ANN, "n")
    assert refused(say(city, ANN, "F1 N LONDON")) == "LONDON is a proper noun, banned in this game."


def test_le_is_no_english_word_here_and_the_claim_and_the_finder_agree() -> None:
    """The dictionary lists LE only capitalised, as a proper noun that names no place: the rulebook
    counts "words that make sense in a normal sentence" and places, so the default rules refuse
    it, in claims and in the finder alike (docs/PATHS.md, "LE"). A game recorded with
    ``rules=names,abbrev,contraction`` counts it, in both."""
    from games.paths.__main__ import verdict_of

    for options, counts in (({}, False), ({"rules": ["names", "abbrev", "contraction"]}, True)):
        engine = game(options)
        put(engine, {"A1": "l"})
        give(engine, ANN, "e")
        through = dict(engine.board.new_words_through(1, "e"))  # B1
        assert ("le" in through) == counts == engine.game_words.allows("le")
        assert (refused(say(engine, ANN, "B1 E LE")) is None) == counts
    # an everyday word in French (the article) and Spanish (the pronoun)
    assert verdict_of(code="fr").allows("le") and verdict_of(code="es").allows("le")
    assert not verdict_of(code="en").allows("le")
