"""Meanings in public game text: the race's "would have worked" hint and computer players' words."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common import meaning
from games.common.engine import GameEngine
from games.common.protocol import Action, Seat, Setup
from games.common.speech import speaking
from games.lexicon import glosses
from games.race import create
from games.shed.bots import plan_turn
from tests.games.race.helpers import ANN, BOB, ListJudge, card, claim, put, race
from tests.games.race.test_eagle import EAGLE_WORDS
from tests.games.race.test_grid import lay
from tests.games.shed.helpers import BOB as SHED_BOB
from tests.games.shed.helpers import accepted, game, rig, say

HINT = re.compile(r"([A-Z]+) would have worked(?: \(([a-z]+): (.+)\))?\.")


def stuck_text(engine: object) -> str:
    notes = engine.apply(Action("tick", 30.0))  # type: ignore[attr-defined]
    return " ".join(n.text for n in notes if n.kind == "announce")


def test_the_hint_names_the_meaning() -> None:
    engine = race(options={"cards": 5, "hourglass": 30}, gloss=lambda w: f"what {w} means")
    put(engine, ann="c", bob="a")
    found = HINT.search(stuck_text(engine))
    assert found is not None
    word, glossed, text = found.groups()
    assert glossed == word.lower() and text == f"what {glossed} means"


def test_the_hint_with_the_shipped_meanings() -> None:
    engine = race(options={"cards": 5, "hourglass": 30})  # the real glosses, a tiny judge
    put(engine, ann="c", bob="a")
    found = HINT.search(stuck_text(engine))
    assert found is not None
    word = found.group(1).lower()
    assert found.group(3) == glosses.gloss(word) and found.group(3)


def test_a_hint_without_a_known_meaning_stays_as_it_was() -> None:
    engine = race(options={"cards": 5, "hourglass": 30}, gloss=meaning.no_gloss)
    put(engine, ann="c", bob="a")
    text = stuck_text(engine)
    found = HINT.search(text)
    assert found is not None and found.group(2) is None and "(" not in found.group(0)


def test_a_computer_players_word_names_its_meaning_and_a_persons_does_not() -> None:
    engine = race(ANN, "bot:1", options={"cards": 5}, gloss=lambda w: {"cat": "a small feline"}.get(w))
    engine.piles[ANN], engine.piles["bot:1"] = [card("c")], [card("a")]
    engine._changed(engine.now)
    kind, text = claim(engine, ("bot:1", "cat", 1.0))[0]
    assert kind == "accepted" and text.endswith("in all). CAT: a small feline.")
    engine = race(ANN, BOB, options={"cards": 5}, gloss=lambda w: {"cat": "a small feline"}.get(w))
    put(engine, ann="c", bob="a")
    kind, text = claim(engine, (BOB, "cat", 1.0))[0]
    assert kind == "accepted" and "feline" not in text


def test_a_computer_players_word_in_shed_names_its_meaning() -> None:
    g = game(seats=(Seat("a", "Ada", "normal"), SHED_BOB))
    rig(g, {"a": "z e b r a q", "b": "e"})
    text = plan_turn(g, "a", "hard", random.Random(1))
    line = accepted(say(g, "a", text))
    assert (
        line.startswith("Ada ")
        and "ZEBRA: any of several fleet black-and-white striped African equines." in line
    )
    # a person's word: no meaning added
    g = game()
    rig(g, {"a": "z e b r a q", "b": "e"})
    line = accepted(say(g, "a", plan_turn(g, "a", "hard", random.Random(1))))
    assert "equines" not in line


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=15), st.text(max_size=80))
def test_meaning_sentences_are_one_line_and_bounded(word: str, gloss: str) -> None:
    gloss = " ".join(gloss.split())
    told = meaning.sentence(word, lambda _: gloss or None)
    hint = meaning.hint(word, lambda _: gloss or None)
    assert "\n" not in told and len(told) <= len(word) + len(gloss) + 20
    assert hint.startswith(f"{word.upper()} would have worked") and hint.endswith(".")
    if not gloss:
        assert told == "" and hint == f"{word.upper()} would have worked."


@pytest.mark.parametrize("code", ["de", "fr"])
def test_other_languages_say_the_meaning_is_english(code: str) -> None:
    word = {"de": "stadt", "fr": "maison"}[code]
    assert meaning.hint(word, meaning.shipped(code), code) == (
        f"{word.upper()} would have worked ({word}, in English: {glosses.gloss(word, code)})."
    )


def test_eagle_eyes_names_the_meaning_of_a_computer_players_best_word() -> None:
    seats = [Seat(ANN, "Ann"), Seat("bot:1", "Chip", "hard")]
    setup = Setup(
        {"variation": ("eagle-eyes",)},
        seats,
        7,
        judge=ListJudge(EAGLE_WORDS),
        gloss=lambda w: f"what {w} means",
    )
    engine = create(setup)
    engine.apply(Action("begin", 0.0))
    reveal = ""
    while not reveal and not engine.finished:
        deadline = engine.next_deadline()
        assert deadline is not None
        notes = engine.apply(Action("tick", deadline))
        reveal = next((n.text for n in notes if n.kind == "announce" and n.text.startswith("Time!")), "")
    lines = reveal.splitlines()
    chip = next(i for i, line in enumerate(lines) if line.startswith("Chip:"))
    assert "no scoring words" not in lines[chip], reveal  # (seed 7: Chip scores in round 1)
    told = re.fullmatch(r"   ([A-Z ]+): what ([a-z ]+) means\.", lines[chip + 1])
    assert told is not None and told.group(1).lower() == told.group(2)
    assert told.group(1) in lines[chip]  # one of the words Chip scored
    assert sum("means." in line for line in lines) <= 1  # Ann's words get none


def test_off_the_grid_names_the_meaning_of_a_computer_players_word() -> None:
    for seed in range(12):
        seats = [Seat(ANN, "Ann"), Seat("bot:1", "Chip", "normal")]
        options = {"variation": ("off-the-grid",)}
        engine = create(Setup(options, seats, seed, judge=ListJudge(), gloss=lambda w: f"what {w} means"))
        engine.apply(Action("begin", 0.0))
        lay(engine, "catdogxq")  # type: ignore[arg-type]
        engine.apply(Action("say", 1.0, ANN, "pass"))
        t = engine.next_bot_time()
        if t is None:
            continue  # (this seed's computer player passes)
        due = engine.bot_claims(t)
        (accepted,) = [
            n for n in engine.apply(Action("claims", t, claims=tuple(due))) if n.kind == "accepted"
        ]
        told = re.search(r"with ([A-Z]+) \(.*\)\. ([A-Z]+): what ([a-z]+) means\.$", accepted.text)
        assert told is not None, accepted.text
        assert told.group(1) == told.group(2) and told.group(3) == told.group(1).lower()
        return
    raise AssertionError("no seed let the computer player answer")


# ------------------------------------------------ computer players' words in board, paths and dice

MEANS = re.compile(r" ([A-Z]+): what ([a-z]+) means\.$")


def bots_play(engine: GameEngine, moves: int) -> list[str]:
    """Let an all-computer game run for ``moves`` computer moves (or to its end); the texts of
    the moves it accepted."""
    engine.apply(Action("begin", 0.0))
    now, said = 0.0, []
    for _ in range(20 * moves):
        if engine.finished or len(said) >= moves:
            break
        due = engine.next_bot_time()
        if due is None:
            deadline = engine.next_deadline()
            assert deadline is not None
            now = max(now, deadline)
            engine.apply(Action("tick", now))
            continue
        now = max(now, due)
        for due_claim in engine.bot_claims(now):
            notes = engine.apply(Action("say", now, seat=due_claim.seat, text=due_claim.text))
            said += [n.text for n in notes if n.kind == "accepted"]
    return said


def assert_words_named(said: list[str], played: re.Pattern[str]) -> None:
    """Every accepted move that lays a word (``played`` finds it) ends with that word's meaning,
    and at least one did."""
    moves = [line for line in said if played.search(line)]
    assert moves, said
    for line in moves:
        told = MEANS.search(line)
        assert told is not None, line
        assert told.group(2) == told.group(1).lower(), line
        assert told.group(1) in line[: told.start()].upper(), line  # a word of the move (a blank: sNOT)


def test_a_computer_players_word_on_the_board_names_its_meaning() -> None:
    from games.board.engine import BoardGame

    seats = [Seat("bot:1", "Ada (bot)", "normal"), Seat("bot:2", "Basil (bot)", "hard")]
    engine = BoardGame(Setup({}, seats, 3, gloss=lambda w: f"what {w} means"))
    said = bots_play(engine, 4)
    # "Ada (bot) plays H8 across ZEBRA for 30: ZEBRA (30). ZEBRA: what zebra means."
    assert_words_named(said, re.compile(r" plays .* for \d+: ([A-Z]+)"))


def test_a_computer_players_word_in_mark_my_words_names_its_meaning() -> None:
    from games.paths.engine import PathsEngine
    from tests.games.paths.test_properties import words

    seats = [Seat("bot:1", "One", "hard"), Seat("bot:2", "Two", "normal")]
    engine = PathsEngine(Setup({"knock": 10}, seats, 42, gloss=lambda w: f"what {w} means"), words=words())
    said = bots_play(engine, 6)
    # "Two placed N on F3: NO, ON (+2). NO: what no means." (its best word; a lone tile makes none)
    assert_words_named(said, re.compile(r" placed .* on [A-Z]\d+: ([A-Z]+)"))


def test_a_computer_players_word_in_letter_dice_names_its_meaning() -> None:
    from games.dice.engine import LetterDice
    from tests.games.dice.helpers import LEXICON

    seats = [Seat("bot:1", "Ada (bot)", "hard"), Seat("bot:2", "Basil (bot)", "normal")]
    engine = LetterDice(Setup({}, seats, 2, judge=LEXICON, gloss=lambda w: f"what {w} means"))
    said = bots_play(engine, 4)
    # "Ada (bot) plays ACT, crossing at T: 5 points. ACT: what act means." (sNOT: a blank)
    assert_words_named(said, re.compile(r" plays? ([A-Za-z]+)"))


def test_a_meaning_says_when_it_is_english_and_when_none_is_known() -> None:
    gloss = {"maison": "house"}.get
    assert meaning.described("maison", gloss, "fr") == "MAISON, in English: house."
    assert (
        meaning.described("zax", lambda _w: "a tool for cutting slate", "en")
        == "ZAX: a tool for cutting slate."
    )
    assert meaning.described("bof", gloss, "fr") == "No meaning of BOF is known."
    with speaking("qps"):  # spoken in another language, even an English word's meaning says it is English
        assert meaning.note("zax", lambda _w: "a tool", "en") == "⟦zax, in English: a tool⟧"
        assert meaning.hint("zax", lambda _w: None, "en") == "⟦ZAX would have worked.⟧"
