"""The race in Dutch, French, German and Spanish: the deck, folding answers, refusals, the table."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from games.common.protocol import Action, Engine, Seat, Setup
from games.race import GAME, create
from games.race import __main__ as race_cli
from games.race.cards import Card
from games.race.engine import FlipRace
from games.race.options import RaceConfig
from tests.doubles import FakeOutbox, MemoryLog
from tests.games.fake_lexicons import fake
from tests.games.race.helpers import ANN, BOB, claim, race, total_cards

CHAT = ChatKey("test", "w", "c")
PERSON = Player("test", "ann", "Ann")


def put_cards(engine: FlipRace, **tops: tuple[str, int]) -> None:
    """Face-up cards with the language's points: ``put_cards(e, ann=("ä", 6))``."""
    for sid in engine.order:
        engine.piles[sid] = []
    for n, (name, (letter, points)) in enumerate(tops.items()):
        engine.piles[f"t:{name}"] = [Card(5000 + n, letter, "red", points)]
    engine._changed(engine.now)


def test_a_german_race_deals_umlaut_cards_and_takes_them_with_a_word() -> None:
    engine = race(options={"language": "de", "cards": 52}, judge=fake("de"))
    every = [c for s in engine.stacks.values() for c in s] + [c for p in engine.piles.values() for c in p]
    every += engine.undealt
    assert total_cards(engine) == 116
    assert sorted(c.colour for c in every if c.letter == "ä") == ["blue", "green", "red", "yellow"]
    assert {c.points for c in every if c.letter in "äü"} == {6} and {
        c.points for c in every if c.letter == "ö"
    } == {8}
    put_cards(engine, ann=("ä", 6), bob=("r", 1))
    notices = claim(engine, (BOB, "Bär!", 1.0))
    assert notices[0][0] == "accepted", notices
    assert "Ä R with BÄR" in notices[0][1] and "+7 points" in notices[0][1]
    assert engine.points(BOB) == 7


def test_a_german_answer_spelled_without_the_umlaut_is_another_word() -> None:
    engine = race(options={"language": "de"}, judge=fake("de"))
    put_cards(engine, ann=("ä", 6), bob=("r", 1))
    (kind, text), *_ = claim(engine, (ANN, "BAR", 1.0))
    assert kind == "rejected" and "BAR" in text  # A is not Ä in German, and BAR is no German word here


def test_french_accents_fold_to_the_plain_letters() -> None:
    engine = race(options={"language": "fr"}, judge=fake("fr"))
    put_cards(engine, ann=("e", 1), bob=("t", 1))
    (kind, text), *_ = claim(engine, (ANN, "ÉTÉ", 1.0))
    assert kind == "accepted" and "ETE" in text


def test_the_table_names_the_language_only_when_it_is_not_english() -> None:
    assert race(judge=fake("de")).snapshot().title == "moji race"
    assert race(options={"language": "de"}, judge=fake("de")).snapshot().title == "moji race · German"
    for variation, title in (("off-the-grid", "moji: Off the Grid"), ("eagle-eyes", "moji: Eagle Eyes")):
        options = {"language": "es", "variation": (variation,)}
        engine = create(Setup(options, [Seat(ANN, "Ann"), Seat(BOB, "Bob")], 3, judge=fake("es")))
        engine.apply(Action("begin", 0.0))
        assert engine.snapshot().title == f"{title} · Spanish"


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"language": "fr", "themes": ("food",)}, "Themes are English-only for now."),
        ({"language": "de", "rules": ("proper", "ing")}, "The -s, -ing and -ed bans are English-only."),
        ({"language": "es", "rules": ("plural-s",), "variation": ("off-the-grid",)}, "bans are English-only"),
        ({"language": "nl", "themes": ("animals",), "variation": ("eagle-eyes",)}, "Themes are English-only"),
    ],
)
def test_themes_and_english_bans_are_refused_at_the_start(options: dict[str, object], reason: str) -> None:
    engine: Engine = create(Setup(options, [Seat(ANN, "Ann"), Seat(BOB, "Bob")], 1, judge=fake("de")))
    notices = engine.apply(Action("begin", 0.0))
    assert [n.kind for n in notices] == ["end"] and reason in notices[0].text
    assert engine.finished and engine.result().voided
    assert engine.apply(Action("say", 1.0, seat=ANN, text="bär")) == []


def test_a_refused_game_needs_no_lexicon() -> None:
    engine = create(Setup({"language": "de", "themes": ("food",)}, [Seat(ANN, "Ann")], 1))
    assert "Themes are English-only" in engine.apply(Action("begin", 0.0))[0].text


async def test_the_start_is_refused_at_once_with_the_reason() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(4))
    await manager.handle(Command("start", ("race", "bots=1", "language=fr", "themes=food"), CHAT, PERSON))
    assert CHAT not in manager.sessions and not log.results, "no lobby, no game"
    said = outbox.texts(CHAT) + [m.view.plain() for m in outbox.privates()]
    assert any("Themes are English-only for now. Start a French game without themes." in t for t in said)
    assert not manager.errors
    await manager.shutdown()


def test_general_rules_in_another_language_are_every_ban_it_has() -> None:
    cfg = RaceConfig.from_options({"language": "de", "general": True})
    assert cfg.bans == {"proper", "names", "non-place", "abbrev", "contraction", "foreign", "repeat"}
    assert cfg.refusal is None
    english = RaceConfig.from_options({"general": True})
    assert {"ing", "ed", "plural-s"} <= english.bans and english.refusal is None


def test_english_themes_and_bans_still_start() -> None:
    engine = race(options={"themes": ("food",), "rules": ("ing",)})
    assert engine.started and not engine.over


def test_the_challenge_of_the_round_never_draws_a_theme_in_another_language() -> None:
    drawn = {RaceConfig(language="fr").with_random_challenge(random.Random(seed)).drawn for seed in range(80)}
    assert drawn and all(not d[0].startswith("themes") for d in drawn)
    english = {RaceConfig().with_random_challenge(random.Random(seed)).drawn[0] for seed in range(80)}
    assert any(d.startswith("themes") for d in english)


def test_games_recorded_before_the_language_option_replay_in_english() -> None:
    old = {spec.name: spec.default for spec in GAME.options if spec.name != "language"}
    assert RaceConfig.from_options(old).language == "en"
    assert RaceConfig.from_options({"language": "klingon"}).language == "en"


def test_the_computer_players_answer_in_the_game_language() -> None:
    engine = race("bot:1", "bot:2", options={"language": "de", "level": "hard"}, judge=fake("de"))
    engine.piles = {"bot:1": [Card(1, "ä", "red", 6)], "bot:2": [Card(2, "r", "red", 1)]}
    engine._changed(0.0)
    engine._replan()
    words = {text for _, text in engine.plans.values()}
    assert words and all("ä" in w and w in fake("de").entries for w in words)


async def test_a_german_race_against_computer_players_runs_to_the_end() -> None:
    lexicon = fake("de")

    def german(setup: Setup) -> Engine:
        return create(replace(setup, judge=lexicon))

    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([replace(GAME, create=german)]), outbox, log, clock, rng=random.Random(4))
    options = ("race", "bots=2", "cards=6", "level=hard", "language=de")
    await manager.handle(Command("start", options, CHAT, PERSON))
    await manager.handle(Command("go", (), CHAT, PERSON))
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, FlipRace) and engine.language.code == "de"
    for _ in range(600):
        if CHAT not in manager.sessions:
            break
        await clock.advance(1.0)
    assert CHAT not in manager.sessions, "the game should have ended"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1", "bot:2"}
    assert sum(result.scores.values()) > 0 and all(w in lexicon.entries for w in result.best_words.values())
    titles = {p.view.title for p in outbox.posts() if p.view.kind == "table"}
    assert titles and all(t.startswith("moji race · German") for t in titles)
    assert not manager.errors
    await manager.shutdown()


def test_explain_takes_a_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(race_cli, "load_judge", lambda code: fake(code))
    assert race_cli.main(["explain", "--cards", "Ä R", "--word", "Bär", "--language", "de"]) == 0
    assert json.loads(capsys.readouterr().out) == {"valid": True, "collects": ["Ä", "R"], "reason": "ok"}
    assert race_cli.main(["explain", "--cards", "Ä R", "--word", "bär"]) == 2
    assert "letters A to Z" in capsys.readouterr().err
    assert race_cli.main(["explain", "--cards", "Ñ A", "--word", "año", "--language", "klingon"]) == 2
    assert "doesn't play in 'klingon'" in capsys.readouterr().err
    assert (
        race_cli.main(["explain", "--cards", "A T", "--word", "tat", "--language", "de", "--theme", "food"])
        == 2
    )
    assert "Themes are English-only" in capsys.readouterr().err


def test_the_rules_promise_only_the_bans_the_language_can_judge() -> None:
    german = RaceConfig.from_options({"language": "de"})
    assert "foreign" in german.bans, "the option keeps its value"
    assert german.rule_lines() == ["No proper nouns, abbreviations or contractions."]
    english = RaceConfig.from_options({})
    assert english.rule_lines() == ["No proper nouns, abbreviations, contractions or foreign words."]


@pytest.mark.parametrize("language", ["nl", "de", "es"])
def test_the_faces_a_race_declares_are_every_card_its_table_can_show(language: str) -> None:
    """What a platform readies pictures of ahead (GameInfo.faces): one face per card of the deck
    of the game's language, each card's letter, colour and points as the table shows them."""
    assert GAME.faces is not None
    faces = GAME.faces({"language": language})
    engine = race(options={"language": language, "cards": 200}, judge=fake(language))
    every = [c for s in engine.stacks.values() for c in s] + [c for p in engine.piles.values() for c in p]
    assert len(set(faces)) == len(faces) == len(every)
    assert {(c.label, c.colour, c.points) for c in every} == {(f.letter, f.colour, f.points) for f in faces}
    assert {f.letter for f in engine.snapshot(None).cards} <= {f.letter for f in faces}
    assert len(GAME.faces({})) == 104  # English: the rulebook's deck
