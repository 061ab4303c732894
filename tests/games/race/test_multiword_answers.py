"""Food and animal answers of several words, judged by the real lexicon."""

from __future__ import annotations

import pytest

from games.lexicon import load
from games.race.__main__ import explain, main
from games.race.cards import Card
from games.race.referee import Referee
from tests.games.race.helpers import ANN, BOB, claim, put, race

TABLE = [Card(1, "s", "red"), Card(2, "g", "blue"), Card(3, "x", "green"), Card(4, "e", "red")]


def referee(*themes: str, bans: frozenset[str] = frozenset()) -> Referee:
    return Referee(load("casual"), themes=frozenset(themes), bans=bans)


def test_a_food_of_two_words_collects_the_letters_of_both() -> None:
    ruling = referee("food").rule("Scrambled Eggs", [TABLE])
    assert ruling.answer and ruling.ok, ruling.reason
    assert ruling.word == "scrambled eggs"
    assert ruling.letters == ["S", "G", "E"]  # G and the second word's E count too


def test_an_animal_of_two_words() -> None:
    ruling = referee("animals").rule("polar bear", [[Card(1, "p", "red"), Card(2, "b", "red")]])
    assert ruling.ok and ruling.letters == ["P", "B"]


def test_spaces_hyphens_or_none_are_one_answer_for_the_repeat_ban() -> None:
    ref = referee("food", bans=frozenset({"repeat"}))
    cards = [[Card(1, "i", "red"), Card(2, "m", "red")]]
    for typed in ("ice cream", "Ice-Cream", "icecream"):
        ruling = ref.rule(typed, cards)
        assert ruling.ok and ruling.word == "ice cream", (typed, ruling.reason)
    assert "already played" in ref.rule("icecream", cards, used={"ice cream"}).reason


def test_several_words_without_such_a_theme_are_no_answer() -> None:
    assert not referee().rule("scrambled eggs", [TABLE]).answer
    refused = referee("animals").rule("scrambled eggs", [TABLE])
    assert refused.answer and not refused.ok and "not an animal" in refused.reason


def test_a_multi_word_food_wins_cards_in_a_race() -> None:
    engine = race(ANN, BOB, options={"cards": 5, "themes": ("food",)}, judge=load("casual"))  # type: ignore[arg-type]
    put(engine, ann="s", bob="g")
    notes = claim(engine, (ANN, "SCRAMBLED EGGS", 5.0))
    assert notes and not any(kind == "rejected" for kind, _ in notes), notes
    assert len(engine.won[ANN]) == 2


@pytest.mark.parametrize("flag", ["--cards", "--letters"])
def test_the_explain_cli_takes_multi_word_answers(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    import json

    assert main(["explain", "scrambled eggs", flag, "S G E", "--theme", "food"]) == 0
    assert json.loads(capsys.readouterr().out) == {"valid": True, "collects": ["S", "G", "E"], "reason": "ok"}
    assert main(["explain", "--word", "polar bear", flag, "P B", "--theme", "animals"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True


def test_explain_without_a_theme_says_it_is_not_a_single_word() -> None:
    assert explain("S G E", "scrambled eggs") == {
        "valid": False,
        "collects": [],
        "reason": "That is not a single word.",
    }


def test_explain_needs_a_word(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["explain", "--cards", "A C T"])
    assert exc.value.code == 2
    assert "--word" in capsys.readouterr().err
