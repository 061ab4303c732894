"""What a finished game asks of the next start in its chat (GameInfo.after_game): the manager
asks the game's hook when a game ends, and the start command checks the rule it left.
The race's Master's Choice is one (games/race/masters.py); the toy games here declare their own."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, replace

import pytest

from bot.core.clock import FakeClock
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from games.common.options import OptionValue
from games.common.protocol import Result, StartRule
from games.race import GAME as RACE
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_manager import cmd, letter, text
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox, MemoryLog


@dataclass(frozen=True)
class WinnerPicksTarget:
    """A toy rule: after a game of picky, only its winner may choose the next game's target."""

    winner: str
    games: int  # how many finished games in a row this winner held the rule for

    @property
    def seat_ids(self) -> frozenset[str]:
        return frozenset((self.winner,))

    def refusal(self, game: str, seat_id: str, args: Sequence[str]) -> str | None:
        if seat_id != self.winner and any(arg.startswith("target=") for arg in args):
            return f"The last winner picks the target (held {self.games})."
        return None


def picky_after(
    result: Result, options: Mapping[str, OptionValue], names: Mapping[str, str], previous: StartRule | None
) -> StartRule | None:
    if not result.winners:
        return previous
    held = previous.games + 1 if isinstance(previous, WinnerPicksTarget) else 1
    return WinnerPicksTarget(result.winners[0], held)


PICKY = replace(TOY, name="picky", title="Picky", aliases=(), after_game=picky_after)


@pytest.fixture
async def manager(clock: FakeClock, outbox: FakeOutbox, game_log: MemoryLog) -> AsyncIterator[GameManager]:
    mgr = GameManager(
        Registry([PICKY, TOY, RACE]),
        outbox,
        game_log,
        clock,
        settle=0.15,
        lobby_timeout=60,
        rng=random.Random(7),
    )
    yield mgr
    await mgr.shutdown()


async def win(manager: GameManager, clock: FakeClock, game: str, player=ANN) -> None:
    """A two-player game of ``game`` (target 1) that ``player`` wins with the first answer."""
    await manager.handle(cmd(f"start {game} target=1"))
    await manager.handle(cmd("join", BOB))
    await manager.handle(cmd("go"))
    await manager.handle(text(letter(manager) + "x", clock.now() + 0.02, player))
    await clock.advance(0.5)
    assert CHAT not in manager.sessions


async def test_a_finished_game_leaves_its_rule_and_the_start_command_checks_it(
    manager: GameManager, clock: FakeClock, outbox: FakeOutbox
) -> None:
    await win(manager, clock, "picky")
    rule = manager.start_rules.get(CHAT)
    assert isinstance(rule, WinnerPicksTarget) and rule.winner == ANN.seat_id
    await manager.handle(cmd("start picky target=3", BOB))
    assert outbox.privates()[-1].view.plain().endswith("The last winner picks the target (held 1).")
    assert CHAT not in manager.sessions
    await manager.handle(cmd("start picky", BOB))  # without the reserved option: fine
    assert manager.sessions[CHAT].host == BOB
    await manager.handle(cmd("stop", BOB))
    await manager.handle(cmd("start picky target=3"))  # the winner herself
    assert manager.sessions[CHAT].options["target"] == 3


async def test_the_hook_sees_the_rule_so_far_and_a_game_without_one_clears_it(
    manager: GameManager, clock: FakeClock
) -> None:
    await win(manager, clock, "picky")
    await win(manager, clock, "picky")
    rule = manager.start_rules.get(CHAT)
    assert isinstance(rule, WinnerPicksTarget) and rule.games == 2
    await win(manager, clock, "toy")  # the toy declares no rule: its end clears the chat's
    assert manager.start_rules.get(CHAT) is None


async def test_a_stopped_game_leaves_the_rule_as_it_was(manager: GameManager, clock: FakeClock) -> None:
    await win(manager, clock, "picky")
    await manager.handle(cmd("start toy"))
    await manager.handle(cmd("stop"))  # a lobby closed, no game finished
    assert manager.start_rules.get(CHAT) is not None


async def test_masters_choice_reserves_the_race_challenges_for_the_last_master(
    manager: GameManager, outbox: FakeOutbox
) -> None:
    # a race with Master's Choice that Ann won (the race's own hook decides the rule)
    manager.start_rules.finished(
        CHAT,
        RACE,
        Result({ANN.seat_id: 3}, (ANN.seat_id,), "Ann wins"),
        {"masters-choice": True},
        {ANN.seat_id: "Ann"},
    )
    await manager.handle(cmd("start race min=4", BOB))
    refused = outbox.privates()[-1].view.plain()
    assert "Master's Choice: Ann, the last moji Master, picks this round's challenges." in refused
    assert CHAT not in manager.sessions
    await manager.handle(cmd("start toy target=2", BOB))  # not a race: the rule doesn't bind it
    assert manager.sessions[CHAT].info.name == "toy"
    await manager.handle(cmd("stop", BOB))
    await manager.handle(cmd("start race min=4"))  # the Master herself
    assert manager.sessions[CHAT].info.name == "race"


async def test_forgetting_the_master_or_purging_the_workspace_ends_the_rule(manager: GameManager) -> None:
    won = Result({ANN.seat_id: 3}, (ANN.seat_id,), "Ann wins")
    manager.start_rules.finished(CHAT, RACE, won, {"masters-choice": True}, {})
    manager.forget_player(BOB, CHAT.workspace_id)
    assert manager.start_rules.get(CHAT) is not None
    manager.forget_player(ANN, "another workspace")
    assert manager.start_rules.get(CHAT) is not None
    manager.forget_player(ANN, CHAT.workspace_id)
    assert manager.start_rules.get(CHAT) is None
    manager.start_rules.finished(CHAT, RACE, won, {"masters-choice": True}, {})
    manager.forget_workspace(CHAT.platform, CHAT.workspace_id)
    assert manager.start_rules.get(CHAT) is None


async def test_a_lost_channel_takes_its_rule(manager: GameManager) -> None:
    manager.start_rules.finished(
        CHAT, RACE, Result({ANN.seat_id: 3}, (ANN.seat_id,), "Ann wins"), {"masters-choice": True}, {}
    )
    await manager.handle(cmd("start toy"))
    await manager.chat_lost(CHAT.platform, CHAT.workspace_id, CHAT.channel_id, "deleted")
    assert manager.start_rules.get(CHAT) is None
