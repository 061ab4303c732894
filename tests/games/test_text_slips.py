"""The text slips, each asserted on the exact text a player reads."""

from __future__ import annotations

from bot.core import views
from games.common.engine import nothing_to_prepare
from games.common.protocol import Action, GameInfo, Notice, Seat
from games.common.text import plain
from games.race.options import RaceConfig
from games.race.reading import reads as race_reads
from tests.games.board.helpers import new_game as board_game
from tests.games.board.helpers import say as board_say
from tests.games.paths import helpers as paths
from tests.games.race import helpers as race
from tests.games.shed import helpers as shed

YOU = Seat("a", "You")  # the terminal's own player
BOB = Seat("b", "Bob")


def _texts(notes: list[Notice], kind: str) -> list[str]:
    return [n.text for n in notes if n.kind == kind]


def test_board_says_you_pass_and_bob_passes() -> None:
    game = board_game(seats=(YOU, BOB))
    said = {}
    for _ in range(2):
        seat = game.current
        said[seat] = _texts(board_say(game, "pass", seat), "accepted")
    assert said == {"a": ["You pass."], "b": ["Bob passes."]}


def test_board_says_you_resigned_and_lose() -> None:
    game = board_game(seats=(YOU, BOB))
    notes = board_say(game, "resign", "a")
    assert "You resigned and lose." in _texts(notes, "accepted")
    assert any("You resigned. Bob wins." in t for t in _texts(notes, "end"))


def test_board_says_you_win() -> None:
    game = board_game(seats=(YOU, BOB))
    notes = board_say(game, "resign", "b")
    assert any("Bob resigned. You win." in t for t in _texts(notes, "end"))


def test_paths_penalty_tile_takes_an_before_a_vowel_name() -> None:
    game = paths.engine()
    paths.skip_first_round(game)
    paths.put(game, {"A1": "a"})
    game.pile = ["t", "x"]
    paths.give(game, paths.ANN, "aaq")
    notes = paths.say(game, paths.ANN, "free X B1 AX")
    (text,) = _texts(notes, "announce")
    assert text == (
        "Ann's free tiles made no new word, so they go back to the Free Letter Pile "
        "and Ann gives an A tile to the pile as the penalty."
    )
    game.names[paths.ANN] = "You"
    game.pile, game.free_used = ["t", "x"], False
    paths.give(game, paths.ANN, "ffq")
    (text,) = _texts(paths.say(game, paths.ANN, "free X B1 AX"), "announce")
    assert text.endswith("and you give an F tile to the pile as the penalty.")
    assert text.startswith("Your free tiles")


def test_shed_round_end_counts_points_in_plain_words() -> None:
    g = shed.game(seats=(YOU, shed.BOB))
    shed.rig(g, {"a": "c a t", "b": "x y z"}, opened=["a"])
    g.current = "a"
    notes = shed.say(g, "a", "CAT")
    announced = " ".join(_texts(notes, "announce"))
    assert (
        "You have no cards left: You win the round and score 3 points (one for each card the others hold)."
        in announced
    )
    assert "one a card" not in announced
    assert shed.accepted(notes) == "You play CAT (0 cards left)."


def test_race_game_over_lists_the_scores_once() -> None:
    engine = race.race()
    race.put(engine, ann="c", bob="a")
    race.claim(engine, (race.ANN, "cat", 1.0))
    outcome = engine.result()
    assert outcome.summary == "Ann is the moji Master with 4 points!"
    info = GameInfo(
        "race", "moji", "a race", "rules", (), lambda setup: engine, race_reads, nothing_to_prepare
    )
    view = views.result(info, outcome, race.NAMES, ending=[outcome.summary])
    assert tuple(map(plain, view.lines)) == (
        "Ann is the moji Master with 4 points!",
        "",
        "1. Ann — 4 pts 👑 (best word: CAT)",
        "2. Bob — 0 pts",
    )


def test_race_bans_are_said_once_in_words_not_on_the_table() -> None:
    cfg = RaceConfig()
    assert "No proper nouns, abbreviations, contractions or foreign words." in cfg.rule_lines()
    assert not any("Banned" in line or "abbrev," in line for line in cfg.challenge_lines() + cfg.rule_lines())
    assert cfg.challenge_lines() == []  # the default table carries no rule lines at all


def test_reminders_and_views_write_time_one_way() -> None:
    game = board_game()
    notes = game.apply(Action("tick", 48 * 3600.0))
    assert "24 h left to play your turn" in notes[0].text
    assert views.duration(106) == "1 min 46 s"
