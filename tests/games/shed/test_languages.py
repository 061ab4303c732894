"""Shed in French and German: the box, words with Ä and accents, refusals, the table, whole games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from games.common.languages import language
from games.common.protocol import Action, Seat, Setup
from games.shed import GAME
from games.shed import engine as shed_engine
from games.shed.__main__ import run
from games.shed.bots import plan_turn
from games.shed.engine import ShedGame
from games.shed.notation import Form, NotationError, parse
from games.shed.options import ShedConfig
from tests.doubles import FakeOutbox, MemoryLog
from tests.games.fake_lexicons import fake
from tests.games.shed.helpers import ANN, BOB, CY, accepted, refused, rig, say, words

CHAT = ChatKey("test", "w", "c")
PERSON = Player("test", "ann", "Ann")


def shed(code: str, seats: list[Seat] | None = None, **options: object) -> ShedGame:
    g = ShedGame(Setup({"language": code, **options}, seats or [ANN, BOB], 1, judge=fake(code)))
    g.apply(Action("begin", 0.0))
    return g


def test_a_french_game_deals_from_the_french_box() -> None:
    seats = [ANN, BOB, CY, Seat("d", "Di"), Seat("e", "Ed")]
    g = shed("fr", seats)
    cards = [c for h in g.round.hands.values() for c in h] + g.round.deck
    assert len(cards) == 110  # children: every card, A–Z with the vowels twice in three colours
    letters = {c.letter for c in cards if c.kind == "letter"}
    assert letters <= set(language("fr").alphabet) and not letters - set("abcdefghijklmnopqrstuvwxyz")
    assert g.snapshot().title == "Shed · French"


def test_a_german_box_has_umlaut_cards() -> None:
    g = shed("de", [ANN, BOB, CY, Seat("d", "Di"), Seat("e", "Ed")])
    cards = [c for h in g.round.hands.values() for c in h] + g.round.deck
    assert len(cards) == 119 and sum(c.letter == "ü" for c in cards) == 3
    assert g.snapshot().title == "Shed · German"


def test_a_german_word_with_an_umlaut_is_played_and_extended() -> None:
    g = shed("de")
    rig(g, {"a": "b ä r e n x y", "b": "q q q"})
    assert "BÄR" in accepted(say(g, "a", "BÄR"))
    g.current = "a"
    assert "BÄREN" in accepted(say(g, "a", "BÄR+EN -> BÄREN", 2.0))
    assert words(g) == ["bären"]


def test_french_accents_fold_to_the_plain_letters() -> None:
    g = shed("fr")
    rig(g, {"a": "e t e x y", "b": "q q q"})
    assert "ETE" in accepted(say(g, "a", "ÉTÉ"))


def test_the_notation_reads_the_language_letters() -> None:
    de = language("de")
    assert parse("BÄR+EN -> BÄREN", de) == (Form(("bären",), (parse("BÄR -> X", de)[0].sources[0],), "en"),)  # type: ignore[union-attr]
    assert parse("B*ÄR", de) == (Form(("b*är",)),)
    assert parse("trade Ä", de)[0].give == "ä"  # type: ignore[union-attr]
    assert parse("BÄR") == (Form(("bar",)),)  # English folds the umlaut away
    with pytest.raises(NotationError):
        parse("MAÑ1ANA", language("es"))


def test_the_computer_player_uses_a_joker_for_an_umlaut() -> None:
    g = shed("de")
    rig(g, {"a": "b r * x", "b": "q q q"}, opened=["a"])
    text = plan_turn(g, "a", "hard", random.Random(0))
    (op,) = parse(text, language("de"))
    assert isinstance(op, Form) and op.words == ("bär",)  # the engine puts the joker where no Ä is
    assert "BäR" in accepted(say(g, "a", text))  # a joker shows in lower case
    assert [c.letter for c in g.round.hands["a"]] == ["x"]


@pytest.mark.parametrize("rules", [("proper", "plural-s"), ("ing",), ("ed",)])
def test_english_only_bans_are_refused_at_the_start(rules: tuple[str, ...]) -> None:
    g = ShedGame(Setup({"language": "de", "rules": rules}, [ANN, BOB], 1))  # refused: no lexicon is loaded
    notices = g.apply(Action("begin", 0.0))
    assert [n.kind for n in notices] == ["end"]
    assert "The -s, -ing and -ed bans are English-only." in notices[0].text
    assert g.finished and not g.result().winners and g.result().voided
    assert "over" in refused(say(g, "a", "bär"))


def test_easy_games_lift_the_bans_so_they_start() -> None:
    g = shed("de", rules=("plural-s",), easy=True)
    assert g.round_no == 1 and not g.finished


def test_games_recorded_before_the_language_option_are_english() -> None:
    old = {spec.name: spec.default for spec in GAME.options if spec.name != "language"}
    assert ShedConfig.from_options(old).language == "en"


async def test_a_french_game_against_computer_players_runs_to_the_end() -> None:
    lexicon = fake("fr")

    def french(setup: Setup) -> ShedGame:
        return ShedGame(replace(setup, judge=lexicon))

    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    # (seed 5 deals into the endless Draw Two exchange, ended in the engine apart)
    manager = GameManager(Registry([replace(GAME, create=french)]), outbox, log, clock, rng=random.Random(6))
    await manager.handle(
        Command("start", ("shed", "bots=2", "level=normal", "hand=4", "language=fr"), CHAT, PERSON)
    )
    await manager.handle(Command("go", (), CHAT, PERSON))
    moves = 0
    for step in range(400):
        if CHAT not in manager.sessions:
            break
        engine = manager.sessions[CHAT].engine
        assert isinstance(engine, ShedGame) and engine.language.code == "fr"
        if engine.current == PERSON.seat_id:
            text = plan_turn(engine, PERSON.seat_id, "hard", random.Random(step))
            await manager.handle(Command("play", tuple(text.split()), CHAT, PERSON))
            moves += 1
        await clock.advance(5.0)
    assert CHAT not in manager.sessions, "the game should have ended"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1", "bot:2"} and result.winners
    assert moves > 0 and not manager.errors
    assert all(w in lexicon.entries for w in result.best_words.values())
    titles = {p.view.title for p in outbox.posts() if p.view.kind == "table"}
    assert titles and all(t.startswith("Shed · French") for t in titles)
    await manager.shutdown()


def test_the_cli_takes_a_language(monkeypatch: pytest.MonkeyPatch) -> None:
    status, answer = run(["deck", "--language", "de"])
    assert status == 0 and answer["cards"] == 119
    status, answer = run(["deck", "--language", "klingon"])
    assert status == 2 and "klingon" in str(answer["reason"])
    monkeypatch.setattr(shed_engine, "load_judge", lambda dictionary, code: fake(code))
    status, answer = run(
        ["check", "--table", "BAR", "--hand", "Ä E N", "--move", "BAR-A+Ä -> BÄR", "--language", "de"]
    )
    assert status == 1 and "word of your own" not in str(answer["reason"])
    status, answer = run(["check", "--hand", "É T E", "--move", "ÉTÉ", "--language", "fr"])
    assert status == 0 and answer["table"] == ["ETE"]
