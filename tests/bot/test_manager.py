"""The manager and sessions, driven through neutral events on a fake clock."""

from __future__ import annotations

import itertools

from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command, MessageRef, Text
from bot.core.views import GO, JOIN
from bot.hosting.manager import GameManager
from bot.sessions.state import Phase, marked
from games.common.protocol import Action
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.toygame import ToyEngine
from tests.doubles import FakeOutbox, MemoryLog


def cmd(text: str, player=ANN, chat: ChatKey = CHAT) -> Command:
    name, *args = text.split()
    return Command(name, tuple(args), chat, player)


_MIDS = itertools.count(1)


def text(word: str, sent_at: float, player=ANN, mid: str = "") -> Text:
    """A typed message (each one its own platform message, as on every platform)."""
    return Text(CHAT, player, word, sent_at, MessageRef(CHAT, mid or f"m{next(_MIDS)}"))


def letter(manager: GameManager) -> str:
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, ToyEngine)
    return engine.letter


async def start_two(manager: GameManager, options: str = "") -> None:
    await manager.handle(cmd(f"start toy {options}".strip()))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))


async def test_lobby_join_and_go(manager: GameManager, outbox: FakeOutbox) -> None:
    await manager.handle(cmd("start toy"))
    assert manager.sessions[CHAT].phase is Phase.LOBBY
    assert "Join" in [b.label for b in outbox.posts()[0].view.buttons]
    await manager.handle(cmd("join", BOB))
    assert [p.display_name for p in manager.sessions[CHAT].players] == ["Ann", "Bob"]
    assert "Ann, Bob" in outbox.edits()[-1].view.plain()
    await manager.handle(cmd("go", BOB))  # not the host
    assert "Only the host" in outbox.privates()[-1].view.plain()
    await manager.handle(cmd("go"))
    assert manager.sessions[CHAT].phase is Phase.RUNNING
    assert outbox.posts()[-1].view.kind == "table"


async def test_second_start_is_refused_clearly(manager: GameManager, outbox: FakeOutbox) -> None:
    await start_two(manager)
    await manager.handle(cmd("start toy", BOB))
    reply = outbox.privates()[-1]
    assert reply.player == BOB
    assert "already a Toy game here" in reply.view.plain()
    assert len(manager.sessions) == 1


async def test_other_channel_gets_its_own_session(manager: GameManager) -> None:
    other = ChatKey("test", "w1", "c2")
    await manager.handle(cmd("start toy"))
    await manager.handle(cmd("start toy", BOB, other))
    assert set(manager.sessions) == {CHAT, other}


async def test_earliest_sent_claim_wins_after_settle(
    manager: GameManager, clock: FakeClock, outbox: FakeOutbox, game_log: MemoryLog
) -> None:
    await start_two(manager)
    wanted = letter(manager)
    t0 = clock.now()
    # Bob's answer arrives first but Ann's was sent 40 ms earlier.
    await manager.handle(text(wanted + "x", t0 + 1.00, BOB, "b1"))
    await clock.advance(0.05)
    await manager.handle(text(wanted + "y", t0 + 0.96, ANN, "a1"))
    assert not outbox.reactions()  # still settling
    await clock.advance(0.15)
    marks = {r.ref.message_id: r.mark for r in outbox.reactions()}
    assert marks == {"a1": "accepted", "b1": "rejected"}
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, ToyEngine) and engine.scores[ANN.seat_id] == 1
    # the batch was logged before it was announced, as one action
    kinds = [a.kind for a in game_log.actions[manager.sessions[CHAT].game_id]]
    assert kinds == ["begin", "claims"]


async def test_rejected_reason_is_kept_for_why(
    manager: GameManager, clock: FakeClock, outbox: FakeOutbox
) -> None:
    await start_two(manager)
    wrong = "q" if letter(manager) != "q" else "z"
    await manager.handle(text(wrong * 3, clock.now(), ANN, "a1"))
    await clock.advance(0.2)
    assert outbox.reactions()[-1].mark == "rejected"
    await manager.handle(cmd("why"))
    assert "has no" in outbox.privates()[-1].view.plain()


async def test_non_players_and_edits_are_ignored(
    manager: GameManager, clock: FakeClock, outbox: FakeOutbox
) -> None:
    await manager.handle(cmd("start toy"))
    await manager.handle(cmd("go"))
    stranger = BOB
    await manager.handle(text(letter(manager), clock.now(), stranger, "s1"))
    edited = Text(CHAT, ANN, letter(manager) + "a", clock.now(), MessageRef(CHAT, "e1"), edited=True)
    await manager.handle(edited)
    await clock.advance(1)
    assert outbox.reactions() == []


async def test_hourglass_flips_a_new_letter(
    manager: GameManager, clock: FakeClock, outbox: FakeOutbox
) -> None:
    await start_two(manager)
    await clock.advance(10.0)
    assert any("Nobody found" in t for t in outbox.texts())


async def test_whole_game_with_a_computer_player(
    manager: GameManager, clock: FakeClock, outbox: FakeOutbox, game_log: MemoryLog
) -> None:
    await manager.handle(cmd("start toy bots=1 target=2"))
    await manager.handle(cmd("go"))
    await clock.advance(3.0 + 0.15)  # the bot answers after 3 s, then the settle window
    await clock.advance(3.0 + 0.15)
    assert CHAT not in manager.sessions  # the game ended and freed the channel
    (result,) = game_log.results.values()
    assert result.winners == ("bot:1",)
    assert outbox.posts()[-1].view.kind == "result"


async def test_replaying_the_log_rebuilds_the_game(
    manager: GameManager, clock: FakeClock, game_log: MemoryLog
) -> None:
    await manager.handle(cmd("start toy bots=1 target=3"))
    await manager.handle(cmd("go"))
    await clock.advance(3.15)
    await manager.handle(text(letter(manager) + "q", clock.now(), ANN, "a1"))
    await clock.advance(0.2)
    live = manager.sessions[CHAT]
    assert live.engine is not None and live.state.start_record is not None
    from games.common.protocol import Setup

    record = live.state.start_record
    replay = ToyEngine(Setup(record.options, marked(tuple(record.seats)), record.seed))
    for action in game_log.actions[record.game_id]:
        replay.apply(Action.from_dict(action.to_dict()))
    assert replay.snapshot() == live.engine.snapshot()


async def test_crashing_game_reports_and_frees_channel(
    manager: GameManager, clock: FakeClock, outbox: FakeOutbox, game_log: MemoryLog
) -> None:
    await start_two(manager, "crash=on")
    game_id = manager.sessions[CHAT].game_id
    await manager.handle(text("boom", clock.now(), ANN, "a1"))
    await clock.advance(0.2)
    assert CHAT not in manager.sessions
    assert "something went wrong" in outbox.posts()[-1].view.plain()
    assert game_id in game_log.voided
    assert manager.errors and str(manager.errors[0]) == "boom"
    await manager.handle(cmd("start toy"))  # the channel is free again
    assert manager.sessions[CHAT].phase is Phase.LOBBY


async def test_stop_by_host_only(manager: GameManager, outbox: FakeOutbox, game_log: MemoryLog) -> None:
    await start_two(manager)
    game_id = manager.sessions[CHAT].game_id
    await manager.handle(cmd("stop", BOB))
    assert "Only the host" in outbox.privates()[-1].view.plain()
    await manager.handle(cmd("stop"))
    assert CHAT not in manager.sessions
    assert game_id in game_log.voided


async def test_lobby_times_out(manager: GameManager, clock: FakeClock, outbox: FakeOutbox) -> None:
    await manager.handle(cmd("start toy"))
    await clock.advance(61)
    assert CHAT not in manager.sessions
    assert "timed out" in outbox.texts()[-1]


async def test_unknown_command_and_option_get_reasons(manager: GameManager, outbox: FakeOutbox) -> None:
    await manager.handle(cmd("dance"))
    assert "don't know the command 'dance'" in outbox.privates()[-1].view.plain()
    await manager.handle(cmd("start toy target=99"))
    assert "target must be between 1 and 10" in outbox.privates()[-1].view.plain()
    await manager.handle(cmd("start toy colour=red"))
    assert "unknown option 'colour'" in outbox.privates()[-1].view.plain()
    assert not manager.sessions


async def test_help_lists_commands(manager: GameManager, outbox: FakeOutbox) -> None:
    await manager.handle(cmd("help"))
    plain = outbox.privates()[-1].view.plain()
    for name in ("start", "join", "leave", "go", "stop", "rules", "leaderboard", "stats", "config", "help"):
        assert f"`{name}" in plain


async def test_why_in_the_settle_window_waits_for_that_answers_verdict(
    manager: GameManager, clock: FakeClock, outbox: FakeOutbox
) -> None:
    import asyncio

    await start_two(manager)
    wanted = letter(manager)
    t0 = clock.now()
    await manager.handle(text(wanted + "x", t0 + 0.02, ANN, "a1"))  # wins
    await manager.handle(text(wanted + "y", t0 + 0.05, BOB, "b1"))  # valid, 30 ms too late
    asking = asyncio.ensure_future(manager.handle(cmd("why", BOB)))
    await clock.settle()
    assert not asking.done(), "the verdict isn't in yet: why waits for it"
    await clock.advance(0.2)
    await asking
    answer = outbox.privates()[-1]
    assert answer.player == BOB and answer.view.plain() == "Too late: someone was faster."
