"""The action log's JSON form round-trips every action, whatever its values."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.protocol import Action, Claim

texts = st.one_of(st.none(), st.text(max_size=40))
claims = st.builds(
    Claim,
    seat=st.text(max_size=10),
    text=st.text(max_size=20),
    sent_at=st.floats(min_value=0, max_value=2e9, allow_nan=False),
    ref=texts,
)
actions = st.builds(
    Action,
    kind=st.sampled_from(["begin", "claims", "tick", "say", "vote", "leave"]),
    now=st.floats(min_value=0, max_value=2e9, allow_nan=False),
    seat=texts,
    text=texts,
    claims=st.lists(claims, max_size=3).map(tuple),
    private=st.booleans(),
    ref=texts,
)


@settings(max_examples=200, deadline=None)
@given(actions)
def test_actions_round_trip_through_json(action: Action) -> None:
    assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_a_time_of_zero_is_kept() -> None:
    action = Action("tick", 0.0)
    assert action.to_dict() == {"kind": "tick", "now": 0.0}
    assert Action.from_dict(action.to_dict()) == action
