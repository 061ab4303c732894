"""Office word breaks: parsing, next runs, firing on the fake clock, restarts, no doubles."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.store import MemorySlackStore, Schedule
from bot.core.clock import FakeClock
from bot.core.commands import CommandError
from bot.features.schedule_spec import next_run, parse_break, parse_days, parse_time
from tests.adapters.slack.conftest import CHAT, MONDAY_1459, Harness, running, tick_until, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import Call, FakeSlack

UTC_ZONE = zoneinfo.ZoneInfo("UTC")
PARIS = zoneinfo.ZoneInfo("Europe/Paris")


def at(text: str, tz: zoneinfo.ZoneInfo = UTC_ZONE) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=tz).timestamp()


def test_parse_break() -> None:
    spec = parse_break(["weekdays", "15:00", "race", "bots=1", "<!subteam^S123|@team>"])
    assert spec.days == (0, 1, 2, 3, 4) and spec.at == "15:00"
    assert spec.args == ("race", "bots=1") and spec.mention == "<!subteam^S123|@team>"
    assert parse_break(["3pm"]).days == (0, 1, 2, 3, 4)
    assert parse_break(["mon,wed,fri", "9:30"]).days == (0, 2, 4)
    assert parse_days("fri-mon") == (0, 4, 5, 6)
    assert parse_days("daily") == tuple(range(7))
    assert parse_days("tuesdays") == (1,)
    assert parse_days("someday") is None
    assert parse_time("12am") == "00:00" and parse_time("12:30pm") == "12:30" and parse_time("15") is None
    assert parse_time("24:00") is None
    with pytest.raises(CommandError):
        parse_break(["weekdays"])
    with pytest.raises(CommandError):
        parse_break(["soon", "15:00"])
    with pytest.raises(CommandError):
        parse_break(["15:00", "@a", "@b"])


def test_next_run_in_the_workspace_time_zone() -> None:
    weekdays = Schedule(1, "T1", "C1", (0, 1, 2, 3, 4), "15:00")
    assert next_run(weekdays, UTC_ZONE, MONDAY_1459) == at("2026-11-23T15:00:00")
    assert next_run(weekdays, UTC_ZONE, at("2026-11-23T15:00:00")) == at("2026-11-24T15:00:00")
    assert next_run(weekdays, UTC_ZONE, at("2026-11-27T16:00:00")) == at("2026-11-30T15:00:00")  # Fri → Mon
    assert next_run(weekdays, PARIS, MONDAY_1459) == at("2026-11-24T15:00:00", PARIS)
    # Across the spring DST change, 15:00 stays 15:00 on the wall clock.
    sunday = Schedule(2, "T1", "C1", (6,), "15:00")
    assert next_run(sunday, PARIS, at("2027-03-27T12:00:00", PARIS)) == at("2027-03-28T15:00:00", PARIS)
    assert datetime.fromtimestamp(at("2027-03-28T15:00:00", PARIS), UTC).hour == 13


async def test_memory_store_claims_each_run_once() -> None:
    store = MemorySlackStore()
    assert await store.claim_schedule_run(1, 10.0)
    assert not await store.claim_schedule_run(1, 10.0)
    assert await store.claim_schedule_run(1, 20.0)


def is_lobby(call: object) -> bool:
    return "lobby" in str(getattr(call, "args", {}).get("text"))


def lobbies(slack: FakeSlack) -> list[Call]:
    """The lobbies posted so far."""
    return [c for c in slack.of("chat.postMessage") if is_lobby(c)]


async def test_a_scheduled_break_fires_on_the_fake_clock(h: Harness) -> None:
    await h.command("UANN", "schedule weekdays 15:00 toy <!subteam^S1|@team>")
    await h.slack.wait_for("chat.postEphemeral", lambda c: "Only admins" in str(c.args.get("text")))
    await h.command("UADMIN", "schedule weekdays 15:00 toy bots=1 <!subteam^S1|@team>")
    [ok] = await h.slack.wait_for("chat.postEphemeral", lambda c: "scheduled" in str(c.args.get("text")))
    assert "#1" in ok.args["text"] and "UTC" in ok.args["text"]
    assert h.slack.of("chat.postMessage") == []

    await h.clock.advance(60)
    [hello] = await h.slack.wait_for("chat.postMessage", lambda c: "Word break" in str(c.args.get("text")))
    assert hello.args["text"].startswith("<!subteam^S1|@team>")
    # The lobby follows in the channel's next chat.postMessage slot (the pacer counted the hello).
    await tick_until(h.clock, lambda: bool(lobbies(h.slack)), busy=lambda: h.slack.inflight > 0)
    [lobby] = lobbies(h.slack)
    assert lobby.at - hello.at >= 1 and h.slack.rate_limited() == []
    session = h.adapter.runtime.manager.sessions[CHAT]
    assert session.host.user_id == "UADMIN"

    # Nobody presses Start: the game starts by itself after the join window.
    await h.clock.advance(120)
    await until(lambda: session.engine is not None)

    await h.command("UANN", "schedule list")
    [listing] = await h.slack.wait_for(
        "chat.postEphemeral", lambda c: "Word breaks" in str(c.args.get("text"))
    )
    assert "#1 — weekdays at 15:00: toy bots=1 in <#C1>" in listing.args["text"]
    assert any("<#C1>" in str(b) for b in listing.args["blocks"])  # the channel link stays live
    await h.command("UADMIN", "schedule remove 1")
    await h.slack.wait_for("chat.postEphemeral", lambda c: "removed" in str(c.args.get("text")))
    assert h.adapter.scheduler.next == {}


async def test_break_skips_a_channel_with_a_game_on(h: Harness) -> None:
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage", is_lobby)
    await h.command("UADMIN", "schedule daily 15:00 toy")
    await h.slack.wait_for("chat.postEphemeral", lambda c: "scheduled" in str(c.args.get("text")))
    await h.clock.advance(61)
    assert h.adapter.scheduler.next[1] == at("2026-11-24T15:00:00")  # planned the next day
    assert [c for c in h.slack.of("chat.postMessage") if "Word break" in str(c.args.get("text"))] == []
    assert h.adapter.runtime.manager.sessions[CHAT].host.user_id == "UANN"


async def test_breaks_survive_restarts_and_never_start_twice(
    slack: FakeSlack, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    clock = FakeClock(MONDAY_1459)
    slack.now = clock.now  # Slack's limits count on the same clock
    async with running(slack, clock, svc, slack_store) as first:
        await first.command("UADMIN", "schedule weekdays 15:00 toy")
        await slack.wait_for("chat.postEphemeral", lambda c: "scheduled" in str(c.args.get("text")))

    # The bot restarts (new adapter, same database) and a second process runs beside it.
    clock = FakeClock(MONDAY_1459 + 30)
    slack.now = clock.now  # Slack's limits count on the same clock
    async with (
        running(slack, clock, FakeServices(svc.registry), slack_store) as one,
        running(slack, clock, FakeServices(svc.registry), slack_store) as two,
    ):
        assert one.adapter.scheduler.next[1] == at("2026-11-23T15:00:00")
        await clock.advance(30)
        # The hello, then the lobby in the channel's next chat.postMessage slot.
        await tick_until(clock, lambda: bool(lobbies(slack)), busy=lambda: slack.inflight > 0)
        await until(
            lambda: len(one.adapter.runtime.manager.sessions) + len(two.adapter.runtime.manager.sessions) == 1
        )
        await clock.advance(5)
        hello, lobby = slack.of("chat.postMessage")
        assert "Word break" in str(hello.args.get("text")) and is_lobby(lobby)
        assert lobby.at - hello.at >= 1 and slack.rate_limited() == []

    # Restarting a minute after the break does not start it again (the run is claimed)…
    clock = FakeClock(MONDAY_1459 + 120)
    slack.now = clock.now  # Slack's limits count on the same clock
    async with running(slack, clock, FakeServices(svc.registry), slack_store) as again:
        assert again.adapter.scheduler.next[1] == at("2026-11-23T15:00:00")  # within the grace period
        await clock.advance(1)
        assert again.adapter.scheduler.next[1] == at("2026-11-24T15:00:00")
        assert again.adapter.runtime.manager.sessions == {}
        # …and the next day's break does start.
        await clock.advance_to(at("2026-11-24T15:00:00"))
        await tick_until(clock, lambda: len(lobbies(slack)) == 2, busy=lambda: slack.inflight > 0)
        await until(lambda: len(again.adapter.runtime.manager.sessions) == 1)
        assert slack.rate_limited() == []


async def test_a_run_missed_long_ago_is_skipped(
    slack: FakeSlack, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    await slack_store.add_schedule(
        Schedule(0, "T1", "C1", (0, 1, 2, 3, 4), "15:00", ("toy",), "", "UADMIN", "Ada")
    )
    clock = FakeClock(at("2026-11-23T16:00:00"))
    slack.now = clock.now  # Slack's limits count on the same clock
    async with running(slack, clock, svc, slack_store) as h:
        assert h.adapter.scheduler.next[1] == at("2026-11-24T15:00:00")
        upcoming = h.adapter.scheduler.upcoming("T1")
        assert upcoming is not None and upcoming[1] == at("2026-11-24T15:00:00")
        assert h.adapter.scheduler.upcoming("T9") is None


async def test_workspace_time_zone_moves_the_break(h: Harness) -> None:
    h.svc.store.settings[("slack", "T1")] = {"timezone": "Europe/Paris"}
    await h.command("UADMIN", "schedule daily 16:00 toy")
    [ok] = await h.slack.wait_for("chat.postEphemeral", lambda c: "scheduled" in str(c.args.get("text")))
    assert "Europe/Paris" in ok.args["text"]
    assert h.adapter.scheduler.next[1] == at("2026-11-23T16:00:00", PARIS)  # 15:00 UTC
    await h.clock.advance(60)
    await tick_until(h.clock, lambda: bool(lobbies(h.slack)), busy=lambda: h.slack.inflight > 0)


async def test_other_processes_see_new_and_removed_breaks(
    slack: FakeSlack, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    clock = FakeClock(at("2026-11-23T14:00:00"))
    slack.now = clock.now  # Slack's limits count on the same clock
    async with (
        running(slack, clock, FakeServices(svc.registry), slack_store) as one,
        running(slack, clock, FakeServices(svc.registry), slack_store) as two,
    ):
        await one.command("UADMIN", "schedule weekdays 14:30 toy")
        await one.command("UADMIN", "schedule weekdays 14:31 toy", channel="C2")
        await slack.wait_for("chat.postEphemeral", lambda c: "scheduled" in str(c.args.get("text")), count=2)
        assert two.adapter.scheduler.next == {}
        await clock.advance(600)  # the refresh
        assert sorted(two.adapter.scheduler.next) == [1, 2]
        await one.command("UADMIN", "schedule remove 1")
        await slack.wait_for("chat.postEphemeral", lambda c: "removed" in str(c.args.get("text")))
        await clock.advance_to(at("2026-11-23T14:30:30"))
        assert [c for c in slack.of("chat.postMessage") if is_lobby(c)] == []  # #1 is gone everywhere
        await clock.advance(30)
        await tick_until(clock, lambda: bool(lobbies(slack)), busy=lambda: slack.inflight > 0)
        [lobby] = await slack.wait_for("chat.postMessage", is_lobby)
        assert lobby.args["channel"] == "C2"
        await until(
            lambda: len(one.adapter.runtime.manager.sessions) + len(two.adapter.runtime.manager.sessions) == 1
        )
        assert [c.args["channel"] for c in slack.of("chat.postMessage")] == ["C2", "C2"]  # hello + lobby
