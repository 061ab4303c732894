"""Whole games under random play: cards are conserved and replays are exact (hypothesis)."""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.options import OptionValue
from games.common.protocol import Action, Seat, Setup
from games.shed.bots import plan_turn
from games.shed.cards import deck_for, hand_text
from games.shed.engine import ShedGame

FUZZ_ACTIONS = settings(max_examples=300 if os.environ.get("MOJI_FUZZ") == "long" else 40, deadline=None)
GAMES = settings(max_examples=150 if os.environ.get("MOJI_FUZZ") == "long" else 12, deadline=None)

_junk = st.sampled_from(
    ["draw", "WHO", "xyzzy", "SOCK+H -> SHOCK", "#1+E -> ", "#1-A+S -> SEA #1", "skip 2", "+2 all", "trade E",
     "trade * 1", "swap 1", "", "play A", "CAT; DOG", "#1 #2 -> ", "+2"]
)  # fmt: skip
_step = st.one_of(
    st.tuples(st.just("bot"), st.sampled_from(["easy", "normal", "hard"])),
    st.tuples(st.just("junk"), _junk),
    st.tuples(st.just("tick"), st.just("")),
    st.tuples(st.just("leave"), st.sampled_from(["s1", "s2", "s3", "s4"])),
)


def _seats(n: int) -> list[Seat]:
    return [Seat(f"s{i}", f"P{i}", "normal" if i > 1 else None) for i in range(1, n + 1)]


def _places(g: ShedGame) -> Counter[int]:
    return Counter(card.id for card in g.round.all_cards())


@GAMES
@given(
    st.integers(2, 4),
    st.sampled_from(["auto", "two", "group", "children"]),
    st.integers(1, 2),
    st.integers(0, 2**31),
    st.lists(_step, min_size=5, max_size=30),
)
def test_cards_are_conserved_and_replays_are_exact(
    players: int, card_set: str, rounds: int, seed: int, steps: list[tuple[str, str]]
) -> None:
    options: dict[str, OptionValue] = {"cards": card_set, "rounds": rounds, "hand": 5}
    setup = Setup(options, _seats(players), seed)
    g = ShedGame(setup)
    expected = Counter(c.id for c in deck_for(card_set, players))
    log = [Action("begin", 0.0)]
    g.apply(log[0])
    now = 0.0
    rng = random.Random(seed)
    for kind, arg in steps:
        if g.finished:
            break
        now += 1.0
        seat = g.current or "s1"
        if kind == "bot":
            action = Action("say", now, seat=seat, text=plan_turn(g, seat, arg, rng))
        elif kind == "junk":
            action = Action("say", now, seat=seat if rng.random() < 0.8 else "s1", text=arg)
        elif kind == "tick":
            deadline = g.next_deadline()
            now = max(now, deadline or now)
            action = Action("tick", now)
        else:
            if rng.random() < 0.7:
                continue
            action = Action("leave", now, seat=arg)
        notices = g.apply(action)
        log.append(action)
        assert all(n.kind != "rejected" for n in notices) or kind != "bot", "a computer move was refused"
        assert _places(g) == expected, "every card is in exactly one place"
        public = g.snapshot(None)
        assert not public.cards
        public_texts = [n.text for n in notices if n.kind != "private"] + list(public.lines)
        assert not any("Your hand" in t for t in public_texts)
        for hand in g.round.hands.values():
            if len(hand) >= 3:
                assert not any(hand_text(hand) in t for t in public_texts)
        assert all(n.seat for n in notices if n.kind == "private")
    replay = ShedGame(setup)
    for action in log:
        replay.apply(action)
    assert replay.round.hands == g.round.hands
    assert replay.round.table == g.round.table and replay.round.deck == g.round.deck
    assert (replay.scores, replay.current, replay.finished) == (g.scores, g.current, g.finished)
    assert replay.next_deadline() == g.next_deadline()


_kinds = st.sampled_from(["begin", "claims", "tick", "say", "vote", "leave"])


@FUZZ_ACTIONS
@given(
    st.lists(
        st.tuples(
            _kinds,
            st.sampled_from(["s1", "s2", "s3", "zz", None]),
            st.one_of(st.none(), st.text(max_size=40)),
        ),
        max_size=25,
    )
)
def test_any_action_is_answered_never_raised(actions: list[tuple[str, str | None, str | None]]) -> None:
    g = ShedGame(Setup({"hand": 3}, _seats(3), 3))
    for n, (kind, seat, text) in enumerate(actions):
        notices = g.apply(Action(kind, float(n), seat=seat, text=text))  # type: ignore[arg-type]
        assert all(x.text for x in notices if x.kind == "rejected")
    assert _places(g) == Counter(c.id for c in deck_for("auto", 3)) or g.round_no == 0
