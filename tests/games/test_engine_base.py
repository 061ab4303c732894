"""Every engine inherits GameEngine: the core calls each hook directly, and a game without one
answers its default."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.core.registry import load_default
from games.common.engine import QUIET_SKIP, QUIET_VOTE, GameEngine, nothing_to_prepare
from games.common.protocol import Action, Claim, Notice, Result, Seat, Setup, Snapshot

SEATS = (Seat("t:ann", "Ann"), Seat("t:bob", "Bob"))


class Plain(GameEngine):
    """The rule methods only: every hook is the default."""

    def apply(self, action: Action) -> list[Notice]:
        return []

    def next_deadline(self) -> float | None:
        return None

    def bot_claims(self, now: float) -> list[Claim]:
        return []

    def next_bot_time(self) -> float | None:
        return None

    @property
    def finished(self) -> bool:
        return False

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        return Snapshot("plain")

    def result(self) -> Result:
        return Result({}, (), "")


def test_a_game_that_uses_no_hook_answers_the_defaults() -> None:
    engine = Plain()
    assert engine.takes_lists is False
    assert tuple(engine.voted_words) == ()
    assert engine.word_verdict("cat") is None
    assert engine.quiet_vote("t:ann", "skip") == QUIET_SKIP
    assert engine.quiet_vote("t:ann", "yes") == QUIET_VOTE
    assert nothing_to_prepare("en", {}) is None


@pytest.mark.parametrize("info", list(load_default()), ids=lambda info: info.name)
def test_every_installed_engine_inherits_the_base_and_judges_words(info: object) -> None:
    from games.common.protocol import GameInfo

    assert isinstance(info, GameInfo)
    options = {spec.name: spec.default for spec in info.options}
    engine = info.create(Setup(options, SEATS, seed=1))
    assert isinstance(engine, GameEngine)
    assert engine.word_verdict("cat") is not None  # every real game judges words (`define`)
    assert isinstance(engine.quiet_vote("t:ann", "skip"), str)
    assert list(engine.voted_words) == []


def test_the_core_never_probes_an_engine() -> None:
    """No ``getattr``/``hasattr`` on an engine in bot/: a hook the core needs is declared (in
    games.common.protocol.Engine, with its default in games.common.engine.GameEngine)."""
    root = Path(__file__).resolve().parents[2] / "bot"
    probes = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and node.args
                and "engine" in ast.unparse(node.args[0])
            ):
                probes.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert probes == []
