"""A restart in the middle of a game, gateway resumes and REST errors: no score lost or doubled."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness, answer, is_lobby, is_table, mark_of
from tests.adapters.discord.fakediscord import GUILD_ID, Fault

MESSAGES = r"^/channels/\d+/messages$"
EDITS = r"^/channels/\d+/messages/\d+$"


async def start_game(h: Harness, target: int = 3) -> None:
    await h.fake.slash(*ANN, "start", {"game": "toy", "more": f"target={target}"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    await h.fake.slash(*BOB, "join")
    await h.fake.until(lambda: CHAT in h.manager.sessions and len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)


async def score(h: Harness) -> list[tuple[str, int, int]]:
    rows = await h.svc.store.leaderboard("discord", GUILD_ID, "toy", "all", datetime.now(UTC), 10)
    return [(r.display_name, r.points, r.games) for r in rows]


async def win_point(h: Harness, who: tuple[str, str]) -> str:
    letter = h.manager.sessions[CHAT].engine.letter
    mid = await answer(h, who, letter + "ab")
    await h.fake.wait_for("PUT", rf"/messages/{mid}/reactions/", lambda r: r.status == 200)
    assert mark_of(h, mid)[-1:] == ["✅"], (
        mark_of(h, mid),
        h.manager.sessions[CHAT].announcer.why(h.manager.sessions[CHAT].players[0]),
    )
    return mid


async def test_restart_in_the_middle_of_a_game(h: Harness) -> None:
    await start_game(h)
    await win_point(h, ANN)
    await win_point(h, BOB)
    tables_before = len([r for r in h.fake.channel_posts() if is_table(r)])

    h2 = await h.restart()
    try:
        await h2.fake.wait_for("POST", MESSAGES, lambda r: "moji restarted" in r.text)
        [*_, table] = await h2.fake.wait_for("POST", MESSAGES, is_table, count=tables_before + 1)
        session = h2.manager.sessions[CHAT]
        assert {p.display_name for p in session.players} == {"Ann", "Bob"}
        assert table.json["content"] == f"Cards: {session.engine.letter.upper()}"

        # the table's button keeps working after the restart (stable custom id, no stored view)
        table_id = next(
            mid for mid, m in h2.fake.messages.items() if m.get("content") == table.json["content"]
        )
        tables = len([r for r in h2.fake.requests if is_table(r)])
        iid = await h2.fake.press(*BOB, "moji:skip", table_id)
        await h2.fake.wait_for("POST", rf"/interactions/{iid}/")
        await h2.fake.until(lambda: len([r for r in h2.fake.requests if is_table(r)]) > tables)

        await win_point(h2, ANN)
        await win_point(h2, ANN)
        await h2.drain()  # the channel's message budget was spent by both processes
        await h2.posted(lambda r: "game over" in r.text)
        await h2.fake.until(lambda: CHAT not in h2.manager.sessions)
        assert sorted(await score(h2)) == [("Ann", 3, 1), ("Bob", 1, 1)]
        assert not h2.manager.errors
    finally:
        await h2.stop()


async def test_gateway_resume_keeps_the_game(h: Harness) -> None:
    await start_game(h, target=2)
    await win_point(h, ANN)
    await h.fake.drop_connection()
    await h.fake.connected(within=60)
    assert h.fake.resumes, "the bot should RESUME its session, not identify again"
    assert len(h.fake.identifies) == 1
    await win_point(h, ANN)
    await h.posted(lambda r: "game over" in r.text)
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    assert sorted(await score(h)) == [("Ann", 2, 1), ("Bob", 0, 1)]


async def test_rest_errors_during_a_game(h: Harness) -> None:
    h.bot.transport.timeout = 0.5
    await start_game(h)
    # a rate limit on the next reaction, then a server error and a hang on the table's next edits
    h.fake.faults.append(Fault("PUT", r"/reactions/", "429", retry_after=0.05))
    first = await win_point(h, ANN)
    assert [r.status for r in h.fake.of("PUT", rf"/messages/{first}/reactions/")] == [429, 200]

    h.fake.faults.append(Fault("PATCH", EDITS, "500"))
    await win_point(h, BOB)

    h.fake.faults.append(Fault("PATCH", EDITS, "hang"))
    h.fake.faults.append(Fault("PUT", r"/reactions/", "hang"))
    await win_point(h, ANN)
    await win_point(h, ANN)
    await h.drain()
    await h.posted(lambda r: "game over" in r.text)
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    assert sorted(await score(h)) == [("Ann", 3, 1), ("Bob", 1, 1)]
    assert [s for s in (r.status for r in h.fake.requests) if s in (0, 429, 500)] == [429, 500, 0, 0]
    assert not h.manager.errors
