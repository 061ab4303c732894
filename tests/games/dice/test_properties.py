"""Property tests: whatever players do, dice are conserved, scores add up, replays are exact."""

from __future__ import annotations

import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.protocol import Action, Seat, Setup
from games.dice.engine import LetterDice
from games.dice.solver import candidates
from tests.games.dice.helpers import ANN, BOB, LEXICON

FUZZ = settings(max_examples=300 if os.environ.get("MOJI_FUZZ") == "long" else 40, deadline=None)
CY, DEE = Seat("cy", "Cy"), Seat("dee", "Dee")


def pick(engine: LetterDice, c: int, now: float) -> Action:
    """A move chosen by ``c``: mostly sensible, sometimes silly, sometimes out of turn."""
    rng = random.Random(c * 7919 + int(now))
    on_turn = engine.active(engine.side) or engine.members[engine.side]
    other = engine.active(1 - engine.side) or engine.members[1 - engine.side]
    me, them = rng.choice(on_turn), rng.choice(other)
    if c < 45 and engine.phase == "play":
        fits = list(candidates(engine.wordlist, engine.rolled, engine.mat))
        if fits:
            return Action("say", now, seat=me, text=fits[c % len(fits)].notation())
    if c < 65 and engine.phase == "play" and engine.rolled:
        letters = [f.letter or "e" for _, f in engine.rolled]
        word = "".join(rng.sample(letters, min(len(letters), 1 + c % 3)))
        if engine.mat:
            word += engine.mat[c % len(engine.mat)].letter
        return Action("say", now, seat=me, text=word if len(word) > 1 else word + word)
    if c < 75:  # the side on turn challenges the other side's word (now and then, the wrong side)
        return Action("say", now, seat=them if c == 74 else me, text="challenge")
    if c < 80:
        return Action("say", now, seat=them if c == 79 else me, text="accept")
    if c < 90:
        return Action("tick", max(now, engine.next_deadline() or now))
    if c < 94:
        return Action("say", now, seat=me, text=rng.choice(["x1!", "", "a b c d", "stone 99 1", "=", "?"]))
    if c < 98:
        return Action("say", now, seat=them, text="stone")
    if c < 99:
        return Action("say", now, seat=me, text="concede")
    return Action("leave", now, seat=rng.choice([*on_turn, *other]))


def check(engine: LetterDice) -> None:
    for side in (0, 1):
        assert engine.scores[side] == sum(p.score for p in engine.history if p.side == side)
        assert engine.scores[side] >= 0
    if engine.phase == "play":
        rolled = [d for d, _ in engine.rolled]
        on_mat = [p.die for p in engine.mat]
        assert len(set(on_mat)) == len(on_mat) and len(set(rolled)) == len(rolled)
        assert sorted(rolled + on_mat) == list(range(10))  # every die once: on the mat or rolled
    for older, newer in zip(engine.laid, engine.laid[1:], strict=False):
        shared = {p.die for p in older.placed} & {p.die for p in newer.placed}
        assert len(shared) == 1 and newer.across != older.across
    assert engine.turn <= engine.total


def state(engine: LetterDice) -> object:
    history = [(p.turn, p.side, p.seat, p.score, p.status, p.fit) for p in engine.history]
    return (
        engine.phase,
        engine.turn,
        tuple(engine.scores),
        history,
        engine.rolled,
        engine.mat,
        engine.snapshot(None),
        engine.result() if engine.finished else None,
    )


@FUZZ
@given(
    st.integers(0, 2**32),
    st.lists(st.integers(0, 99), min_size=1, max_size=50),
    st.booleans(),
    st.integers(1, 4),
    st.booleans(),
)
def test_dice_are_conserved_scores_add_up_and_replays_are_exact(
    seed: int, choices: list[int], strict: bool, words: int, teams: bool
) -> None:
    seats = [ANN, BOB, CY, DEE] if teams else [ANN, BOB]
    setup = Setup({"strict": strict, "words": words, "turn": 5}, seats, seed, judge=LEXICON)
    engine = LetterDice(setup)
    now = 1.0  # (Action.to_dict drops a time of 0.0, as it equals False)
    log = [Action("begin", now)]
    engine.apply(log[0])
    check(engine)
    for c in choices:
        if engine.finished:
            break
        now += 1.0
        action = pick(engine, c, now)
        now = max(now, action.now)
        notices = engine.apply(action)
        log.append(action)
        assert all(n.text for n in notices if n.kind == "rejected")  # a refusal always says why
        check(engine)
    replay = LetterDice(setup)
    for action in log:
        replay.apply(Action.from_dict(action.to_dict()))
    assert state(replay) == state(engine)
