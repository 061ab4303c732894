"""Computer players at three levels: they finish games, challenge wisely, and replay exactly."""

from __future__ import annotations

import random

import pytest

from games.common.protocol import Action, Seat, Setup
from games.dice.bots import LEVELS, choose_word, should_challenge
from games.dice.dice import face
from games.dice.engine import LetterDice
from games.dice.rules import Fit, fit_word
from games.dice.solver import Found
from tests.games.dice.helpers import LEXICON, new_game, say

FIRST = "oestnocdbz"


def play_out(engine: LetterDice, now: float = 1.0) -> list[Action]:
    """Let the computer players move until the game ends; returns the actions applied."""
    log: list[Action] = []
    for _ in range(200):
        if engine.finished:
            break
        at = engine.next_bot_time()
        deadline = engine.next_deadline()
        if at is None or (deadline is not None and deadline < at):
            action = Action("tick", deadline or now)
            engine.apply(action)
        else:
            now = max(now, at)
            (claim,) = engine.bot_claims(now)
            action = Action("say", now, seat=claim.seat, text=claim.text)
            notices = engine.apply(action)
            assert not [n for n in notices if n.kind == "rejected"], (claim.text, notices)
        log.append(action)
        now = max(now, action.now)
    assert engine.finished
    return log


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("strict", [False, True])
def test_computer_players_play_a_whole_game(level: str, strict: bool) -> None:
    seats = [Seat("bot:1", "Ada (bot)", level), Seat("bot:2", "Basil (bot)", "hard")]
    for seed in range(4):
        setup = Setup({"strict": strict}, seats, seed, judge=LEXICON)
        engine = LetterDice(setup)
        log = [Action("begin", 1.0)]
        engine.apply(log[0])
        log += play_out(engine)
        replay = LetterDice(setup)
        for action in log:
            replay.apply(action)
        assert replay.result() == engine.result() and replay.history == engine.history


def test_the_real_dictionary_game_against_three_levels() -> None:
    seats = [
        Seat("bot:1", "Ada (bot)", "easy"),
        Seat("bot:2", "Basil (bot)", "normal"),
        Seat("bot:3", "Cleo (bot)", "hard"),
    ]
    engine = LetterDice(Setup({}, seats, 7))
    engine.apply(Action("begin", 1.0))
    play_out(engine)
    played = [p for p in engine.history if p.fit is not None]
    assert played and all(engine.lexicon.judge(p.fit.word, engine.rules).ok for p in played if p.fit)


def fits_for(words: list[str]) -> list[Found]:
    rolled = [(n, face(ch)) for n, ch in enumerate("oestnocdbz")]
    out = [fit_word(w, rolled, ()) for w in words]
    return [Found(f.word, f.score) for f in out if isinstance(f, Fit)]


def test_levels_choose_differently() -> None:
    fits = fits_for(["to", "stone", "zest", "cost", "notes", "onset", "zen"])
    rng = random.Random(1)
    hard = choose_word(fits, "hard", rng, LEXICON.zipf)
    assert hard is not None
    assert hard.score + 2 * len(hard.word) == max(f.score + 2 * len(f.word) for f in fits)
    easy = [choose_word(fits, "easy", random.Random(n), LEXICON.zipf) for n in range(20)]
    assert all(f is not None and len(f.word) <= 4 for f in easy)  # short words, whatever they score
    assert choose_word([], "normal", rng, LEXICON.zipf) is None


def test_challenge_decisions() -> None:
    rng = random.Random(3)
    assert all(should_challenge(False, 0.0, "hard", rng) for _ in range(50))
    assert not any(should_challenge(True, 0.5, "hard", rng) for _ in range(50))
    assert not any(should_challenge(True, 5.0, "easy", rng) for _ in range(50))  # common words are safe
    caught = sum(should_challenge(False, 0.0, "easy", rng) for _ in range(200))
    assert 50 < caught < 150


def test_a_hard_computer_player_challenges_a_made_up_word_and_replays_its_choice() -> None:
    human = Seat("ann", "Annabelle")  # the longer first name goes first
    engine, _ = new_game([human, Seat("bot:1", "Ada (bot)", "hard")], first_roll=FIRST)
    assert engine.next_bot_time() is None  # the human's turn
    say(engine, "ann", "stoned", now=5.0)
    at = engine.next_bot_time()
    assert at == 5.0 + LEVELS["hard"].think
    assert engine.bot_claims(at - 0.1) == []
    (claim,) = engine.bot_claims(at)
    assert (claim.seat, claim.text) == ("bot:1", "challenge")
    notices = say(engine, "bot:1", claim.text, now=at)
    assert "comes off the mat" in notices[0].text
    (move,) = engine.bot_claims(engine.next_bot_time() or 0.0)
    assert move.text not in {"challenge", "accept", "concede"}
    assert say(engine, "bot:1", move.text, now=20.0)[0].kind == "accepted"


def test_a_computer_player_lets_a_real_word_stand() -> None:
    human = Seat("ann", "Annabelle")
    engine, _ = new_game([human, Seat("bot:1", "Ada (bot)", "hard")], first_roll=FIRST)
    say(engine, "ann", "stone", now=5.0)
    (claim,) = engine.bot_claims(engine.next_bot_time() or 0.0)
    assert claim.text not in {"challenge", "concede"}
