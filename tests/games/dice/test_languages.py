"""Letter dice in Spanish, German and French: the dice, Ñ in moves, the table, a whole game."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from games.common.languages import language
from games.common.protocol import Action, Setup
from games.common.words import WordRules
from games.dice import GAME
from games.dice import __main__ as dice_cli
from games.dice.dice import DICE_FACES_BY_LANGUAGE, dice_for
from games.dice.engine import BANS, DICTIONARY, LetterDice
from games.dice.options import DiceConfig
from games.dice.rules import WordMove, parse_move
from games.dice.solver import best_word, spellable
from games.dice.wordlist import allowed_words, game_words
from tests.doubles import FakeOutbox, MemoryLog
from tests.games.dice.helpers import ANN, BOB, Scripted, say, texts
from tests.games.fake_lexicons import FakeLexicon, fake

CHAT = ChatKey("test", "w", "c")
PERSON = Player("test", "ann", "Ann")


def spanish_game(first_roll: str, lexicon: FakeLexicon | None = None) -> tuple[LetterDice, str]:
    """A begun Spanish game whose first roll shows ``first_roll`` (one face per die, in order)."""
    engine = LetterDice(Setup({"language": "es"}, [ANN, BOB], 1, judge=lexicon or fake("es")))
    rng = Scripted()
    rng.script = [DICE_FACES_BY_LANGUAGE["es"][d].index(ch) for d, ch in enumerate(first_roll)]
    engine.rng = rng
    return engine, texts(engine.apply(Action("begin", 0.0)))


def test_a_spanish_game_rolls_enye_and_scores_a_word_with_it() -> None:
    engine, _ = spanish_game("ioneaaicpñ")
    assert [f.letter for _, f in engine.rolled][-1] == "ñ"
    assert "Ñ8" in " ".join(engine.snapshot().lines)
    notices = say(engine, "bob", "NIÑO")
    assert notices[0].kind == "accepted", texts(notices)
    assert "NIÑO" in notices[0].text and "11 points" in notices[0].text  # N1 I1 Ñ8 O1
    assert engine.scores[0] == 11 and engine.mat[2].letter == "ñ"


def test_n_is_not_enye_in_spanish() -> None:
    engine, _ = spanish_game("ioneaaicpñ")
    notices = say(engine, "bob", "NINO")
    assert notices[0].kind == "rejected" and "no die for N" in notices[0].text


def test_a_blank_can_be_an_enye_typed_in_lower_case() -> None:
    engine, _ = spanish_game("?onsaeitpv")
    notices = say(engine, "bob", "NIñO")
    assert notices[0].kind == "accepted", texts(notices)
    assert engine.mat[2].blank and engine.mat[2].letter == "ñ" and engine.scores[0] == 3


def test_moves_fold_by_the_game_language() -> None:
    de, es, fr = language("de"), language("es"), language("fr")
    assert parse_move("BÄR", de) == WordMove("bär", None, None, None)
    assert parse_move("BäR", de) == WordMove("bär", frozenset({1}), None, None)
    assert parse_move("BÄR") == WordMove("bar", None, None, None)  # English folds the accent away
    assert parse_move("MAÑANA 2 1", es) == WordMove("mañana", None, 1, 0)
    assert parse_move("ÉTÉ", fr) == WordMove("ete", None, None, None)
    assert parse_move("STRAßE", de) == WordMove("strasse", None, None, None)  # ß has no capital to type
    assert parse_move("caf€", fr) is None


def test_the_solver_finds_words_with_letters_after_z() -> None:
    words = allowed_words(game_words(fake("es"), WordRules(dictionary=DICTIONARY, bans=BANS), language("es")))
    assert "niño" in words.words and "ñu" in words.words
    es = dice_for("es")
    rolled = [(0, es[0][2]), (1, es[1][3]), (2, es[2][4]), (3, es[9][4])]  # I O N Ñ
    found = set(spellable(words, rolled, ()))
    assert "niño" in found
    best = best_word(words, rolled, ())
    assert best is not None and "ñ" in best.word


def test_the_table_names_the_language() -> None:
    engine, _ = spanish_game("ioneaaicpñ")
    assert engine.snapshot().title.startswith("Letter dice · Spanish — turn 1 of 10")
    english = LetterDice(Setup({}, [ANN, BOB], 1, judge=fake("es")))
    english.apply(Action("begin", 0.0))
    assert english.snapshot().title.startswith("Letter dice — turn 1")


def test_games_recorded_before_the_language_option_are_english() -> None:
    old = {spec.name: spec.default for spec in GAME.options if spec.name != "language"}
    assert DiceConfig.from_options(old).language == "en"
    assert DiceConfig.from_options({"language": "de"}).language == "de"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_play_spanish_words(level: str) -> None:
    lexicon = fake("es")
    seats = [replace(ANN, bot=level), replace(BOB, bot=level)]
    engine = LetterDice(Setup({"language": "es", "strict": True}, seats, 5, judge=lexicon))
    engine.apply(Action("begin", 0.0))
    now = 0.0
    for _ in range(40):
        if engine.finished:
            break
        now += 5.0
        for claim in engine.bot_claims(now):
            engine.apply(Action("say", now, seat=claim.seat, text=claim.text))
    assert engine.finished
    played = [p.fit.word for p in engine.history if p.fit is not None]
    assert played and all(w in lexicon.entries for w in played)


async def test_a_spanish_game_against_a_computer_player_runs_to_the_end() -> None:
    lexicon = fake("es")

    def spanish(setup: Setup) -> LetterDice:
        return LetterDice(replace(setup, judge=lexicon))

    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(
        Registry([replace(GAME, create=spanish)]), outbox, log, clock, rng=random.Random(11)
    )
    await manager.handle(
        Command("start", ("dice", "bots=1", "level=hard", "live=on", "language=es"), CHAT, PERSON)
    )
    await manager.handle(Command("go", (), CHAT, PERSON))
    for _ in range(600):
        if CHAT not in manager.sessions:
            break
        engine = manager.sessions[CHAT].engine
        assert isinstance(engine, LetterDice) and engine.language.code == "es"
        if engine.phase == "play" and engine.roller() == PERSON.seat_id and not engine.stuck:
            best = best_word(engine.wordlist, engine.rolled, engine.mat)
            assert best is not None
            await manager.handle(Command("play", tuple(best.notation().split()), CHAT, PERSON))
        await clock.advance(1.0)
    assert CHAT not in manager.sessions, "the game should have ended"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1"} and result.summary
    titles = {p.view.title for p in outbox.posts() if p.view.kind == "table"}
    assert titles and all(t.startswith("Letter dice · Spanish") for t in titles)
    assert not manager.errors
    await manager.shutdown()


def test_the_cli_shows_a_language_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert dice_cli.main(["faces", "--language", "es"]) == 0
    faces = json.loads(capsys.readouterr().out)
    assert len(faces) == 10 and "Ñ8" in faces[9]
    assert dice_cli.main(["faces", "--language", "klingon"]) == 2
    assert "klingon" in capsys.readouterr().err


def test_the_cli_reads_rolls_and_mats_in_the_language() -> None:
    assert [f.letter for _, f in dice_cli.read_roll("N I Ñ O ?", "es")] == ["n", "i", "ñ", "o", ""]
    assert dice_cli.read_roll("Ä", "de")[0][1].points == 6
    assert dice_cli.read_roll("Ñ", "en")[0][1].letter == "n"  # English folds the tilde away
    with pytest.raises(ValueError, match="not a letter"):
        dice_cli.read_roll("N 1", "es")
    mat = dice_cli.read_mat("NIñO", 5, "es")
    assert [(p.letter, p.points, p.blank) for p in mat] == [
        ("n", 1, False),
        ("i", 1, False),
        ("ñ", 0, True),
        ("o", 1, False),
    ]


def test_the_cli_solves_with_the_language_lexicon(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dice_cli, "load_lexicon", lambda code: fake(code))
    assert dice_cli.main(["solve", "--roll", "N I Ñ O", "--language", "es"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["possible"] and answer["words"][0]["word"] == "NIÑO" and answer["words"][0]["score"] == 11
