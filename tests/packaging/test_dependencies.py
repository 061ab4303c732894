"""pyproject.toml's floors, the lowest-versions constraints and the lock file agree."""

from __future__ import annotations

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.packaging.helpers import ROOT, pins, project

REQUIREMENTS = [Requirement(line) for line in project()["dependencies"]]


def floor(requirement: Requirement) -> Version:
    (lower,) = [Version(s.version) for s in requirement.specifier if s.operator == ">="]
    return lower


def test_every_dependency_has_a_floor_and_the_lowest_run_pins_exactly_it() -> None:
    lowest = pins(ROOT / "constraints-lowest.txt")
    assert set(lowest) == {canonicalize_name(r.name) for r in REQUIREMENTS}
    for requirement in REQUIREMENTS:
        assert Version(lowest[canonicalize_name(requirement.name)]) == floor(requirement), requirement


def test_the_lock_pins_every_dependency_within_its_range() -> None:
    locked = pins(ROOT / "requirements.lock")
    for requirement in REQUIREMENTS:
        version = locked.get(canonicalize_name(requirement.name))
        assert version is not None, f"{requirement.name} is not in requirements.lock: run make lock"
        assert requirement.specifier.contains(version), f"{requirement} but the lock has {version}: make lock"


def test_every_locked_version_is_exact_and_hashed() -> None:
    entries = (ROOT / "requirements.lock").read_text(encoding="utf-8").split("\n")
    pinned = [i for i, line in enumerate(entries) if line and not line.startswith((" ", "#"))]
    assert pinned
    for i in pinned:
        assert "==" in entries[i] and entries[i].endswith("\\"), entries[i]
        assert entries[i + 1].strip().startswith("--hash=sha256:"), entries[i]
    assert "--index-url" not in "\n".join(entries) and "file://" not in "\n".join(entries)
