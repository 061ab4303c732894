"""Properties: arrival order never matters, cards are never created or lost, replays agree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.protocol import Action, Claim
from games.race.cards import DECK_SIZE
from games.race.engine import FlipRace
from tests.games.race.helpers import ANN, BOB, CAL, WORDS, race, total_cards

SEATS = (ANN, BOB, CAL)
claims = st.lists(
    st.tuples(
        st.sampled_from(SEATS),
        st.sampled_from([*sorted(WORDS), "zzz", "hello there", "Cat!", ""]),
        st.integers(min_value=0, max_value=3000),
    ),
    min_size=1,
    max_size=8,
)


def state(engine: FlipRace) -> tuple[object, ...]:
    return (
        {s: [c.id for c in p] for s, p in engine.piles.items()},
        {s: [c.id for c in w] for s, w in engine.won.items()},
        [c.id for c in engine.discard],
        dict(engine.flip_at),
        engine.tie,
        engine.result().scores,
    )


@settings(max_examples=60, deadline=None)
@given(batch=claims, order=st.randoms(use_true_random=False), seed=st.integers(0, 1000))
def test_any_arrival_order_gives_the_same_result(
    batch: list[tuple[str, str, int]], order: object, seed: int
) -> None:
    made = [Claim(s, text, 1.0 + ms / 1000, ref=f"r{i}") for i, (s, text, ms) in enumerate(batch)]
    shuffled = list(made)
    order.shuffle(shuffled)  # type: ignore[attr-defined]
    results = []
    for arrival in (made, shuffled):
        engine = race(*SEATS, options={"cards": 4}, seed=seed)
        notices = engine.apply(Action("claims", 5.0, claims=tuple(arrival)))
        results.append((state(engine), sorted((n.kind, n.text, n.ref or "") for n in notices)))
    assert results[0] == results[1]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 5), cards=st.integers(1, 8))
def test_a_whole_bot_game_conserves_cards_and_replays_identically(
    seed: int, players: int, cards: int
) -> None:
    seats = [f"bot:{i}" for i in range(1, players + 1)]
    engine = race(*seats, options={"cards": cards}, seed=seed)
    log = [Action("begin", 0.0)]
    steps = 0
    while not engine.finished and steps < 500:
        steps += 1
        times = [t for t in (engine.next_deadline(), engine.next_bot_time()) if t is not None]
        assert times, "a running game always has a timer"
        now = min(times)
        due = engine.bot_claims(now)
        action = Action("claims", now, claims=tuple(due)) if due else Action("tick", now)
        engine.apply(action)
        log.append(action)
        assert total_cards(engine) == DECK_SIZE
    assert engine.finished
    assert sum(engine.result().scores.values()) == sum(c.points for w in engine.won.values() for c in w)
    again = race(*seats, options={"cards": cards}, seed=seed)
    for action in log[1:]:
        again.apply(action)
    assert state(again) == state(engine)
