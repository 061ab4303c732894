"""Storage by role: one protocol and one module per role, composed into the whole ``Store``.

The store a process opens is every role at once; each role's implementation is an object of
its own that satisfies its role's protocol alone, so a module that needs one role can be
given just that. No module of storage/ grows past about 400 lines.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

import storage
from storage.base import (
    GameStore,
    InboxStore,
    LeaseStore,
    Lifecycle,
    LobbyStore,
    OnceStore,
    PrivacyStore,
    RatingStore,
    ScheduleStore,
    ScoreStore,
    SeasonStore,
    Store,
    WorkspaceStore,
)
from storage.sqlstore import SQLStore
from tests.storage.helpers import NOW, PLATFORM, WS, play

#: Each role's protocol, and the attribute of ``store.roles`` implementing it.
ROLES: dict[str, Any] = {
    "workspaces": WorkspaceStore,
    "games": GameStore,
    "lobbies": LobbyStore,
    "leases": LeaseStore,
    "inbox": InboxStore,
    "once": OnceStore,
    "scores": ScoreStore,
    "seasons": SeasonStore,
    "schedules": ScheduleStore,
    "privacy": PrivacyStore,
    "ratings": RatingStore,
}


def members(protocol: Any) -> set[str]:
    """The methods a protocol declares itself (not those of the protocols it combines)."""
    return {name for name, value in vars(protocol).items() if inspect.isfunction(value) and name[0] != "_"}


def test_the_store_is_exactly_every_role() -> None:
    everything = members(Lifecycle).union(*(members(role) for role in ROLES.values()))
    assert members(Store) == set(), "Store only combines the roles"
    declared = {name for name in dir(Store) if not name.startswith("_") and callable(getattr(Store, name))}
    assert declared == everything
    for role in ROLES.values():
        for other in ROLES.values():
            assert role is other or not members(role) & members(other), "a method belongs to one role"


async def test_the_open_store_is_every_role_and_each_role_object_its_own(store: SQLStore) -> None:
    assert isinstance(store, Store) and isinstance(store, Lifecycle)
    for attribute, protocol in ROLES.items():
        role = getattr(store.roles, attribute)
        assert isinstance(role, protocol), attribute
        assert isinstance(store, protocol)
        for name in members(protocol):
            if name != "listen":  # (the database's own)
                assert getattr(store, name) == getattr(role, name), f"store.{name} is the {attribute} role's"


async def test_a_role_works_alone(store: SQLStore) -> None:
    """A module given only the scores role reads what the game log wrote."""
    await play(store, "g1", {"u1": 5, "u2": 3}, winners=["u1"])
    scores: ScoreStore = store.roles.scores
    board = await scores.leaderboard(PLATFORM, WS, None, "all", NOW)
    assert [(row.user_id, row.points) for row in board] == [("u1", 5), ("u2", 3)]


async def test_the_lease_ttl_is_the_leases_role(store: SQLStore) -> None:
    store.lease_ttl = 4.5
    assert store.roles.leases.ttl == 4.5 and store.lease_ttl == 4.5


@pytest.mark.parametrize("path", sorted(Path(storage.__file__).parent.glob("*.py")), ids=lambda p: p.name)
def test_no_storage_module_is_over_about_400_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 420
