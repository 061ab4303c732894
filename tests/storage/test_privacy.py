"""Forgetting a player, purging a workspace, pruning old logs, deletions after the bot leaves.

Every test runs on SQLite and (with ``MOJI_TEST_POSTGRES_URL``) on PostgreSQL.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from storage import personal
from storage.base import LobbyRecord, Schedule, SeatScore
from storage.privacy import FORMER
from storage.sqlstore import SQLStore
from tests.storage.helpers import NOW, PLATFORM, WS, record

ANN = "Annabel Zed"  # the player who asks to be forgotten (user u1)
NAMES = {"u1": ANN, "u2": "Bob", "u3": "Cat"}
OTHER_WS = "w2"

#: Every table moji has (storage/personal.py classifies each one's columns).
TABLES = tuple(table for table in personal.COLUMNS if table != "schema_version")


async def everything(store: SQLStore, where: str = "") -> str:
    """Every row of every table, as text (to search for a name or an id)."""
    out = []
    async with store.read() as tx:
        for table in TABLES:
            rows = await tx.fetch(f"SELECT * FROM {table}")
            out.extend(f"{table}: {row!r}" for row in rows)
    return "\n".join(out)


async def tables_named(store: SQLStore) -> set[str]:
    """The tables the database has (so a new one cannot escape the scans above)."""
    async with store.read() as tx:
        if store.dialect == "sqlite":
            rows = await tx.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            rows = await tx.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
    return {str(r[0]) for r in rows} - {"schema_version", "sqlite_sequence"}


async def finished(
    store: SQLStore, game_id: str, players: list[str], points: list[int], *, ws: str = WS, at: float = 0.0
) -> None:
    rec = replace(
        record(game_id, players, names=NAMES, workspace=ws),
        names={f"{PLATFORM}:{p}": NAMES[p] for p in players},
    )
    rec = replace(rec, host=f"{PLATFORM}:{players[0]}")
    await store.start_game(rec)
    await store.append_action(game_id, 0, {"kind": "begin", "now": 1.0})
    await store.append_action(
        game_id, 1, {"kind": "claims", "claims": [{"seat": f"{PLATFORM}:{players[0]}", "text": "zebra"}]}
    )
    scores = [
        SeatScore(f"{PLATFORM}:{p}", pts, pts == max(points), "zebra")
        for p, pts in zip(players, points, strict=True)
    ]
    await store.finish_game(rec, scores, (at or NOW.timestamp()), f"{NAMES[players[0]]} wins")
    await store.mark_announced(game_id, NOW.timestamp())


async def a_workspace(store: SQLStore) -> None:
    """Ann, Bob and Cat play in WS: two finished games with Ann, one running without her."""
    await finished(store, "g1", ["u1", "u2"], [30, 20])
    await finished(store, "g2", ["u3", "u1"], [15, 25])
    running = replace(record("g3", ["u2", "u3"], names=NAMES), host=f"{PLATFORM}:u2")
    await store.start_game(running)
    await store.append_action("g3", 0, {"kind": "begin", "now": 1.0})
    await store.add_word(PLATFORM, WS, "zebu", "u1", NOW)
    await store.set_setting(PLATFORM, WS, "timezone", "Europe/Paris", "u1")
    await store.add_schedule(
        Schedule(
            0, WS, "c1", (0,), "10:00", ("race",), created_by="u1", created_by_name=ANN, platform=PLATFORM
        )
    )


async def board(store: SQLStore, ws: str = WS) -> list[tuple[str, int, int, int]]:
    rows = await store.leaderboard(PLATFORM, ws, None, "all", NOW, limit=50)
    return [(r.user_id, r.points, r.games, r.wins) for r in rows]


async def test_forget_me_leaves_nothing_that_names_the_player_and_keeps_the_others_scores(
    store: SQLStore,
) -> None:
    await a_workspace(store)
    assert await tables_named(store) <= set(TABLES), "a table the scans below do not read"
    before = [row for row in await board(store) if row[0] != "u1"]
    assert "u1" in await everything(store) and ANN in await everything(store)

    await store.forget_player(PLATFORM, WS, "u1")

    text = await everything(store)
    assert ANN not in text, [line for line in text.splitlines() if ANN in line]
    assert f"{PLATFORM}:u1" not in text and "'u1'" not in text, [
        line for line in text.splitlines() if "u1" in line
    ]
    assert await board(store) == before, "Bob's and Cat's totals and ranks are unchanged"
    assert await store.player_stats(PLATFORM, WS, "u1") is None
    # the games stay, with a former player in Ann's seat; their logs (what she typed) are gone
    async with store.read() as tx:
        seats = [
            r[0]
            for r in await tx.fetch("SELECT seats FROM games WHERE game_id IN ('g1', 'g2') ORDER BY game_id")
        ]
        results = await tx.fetch(
            "SELECT game_id, seat_id, user_id, points FROM results ORDER BY game_id, points"
        )
        logs = await tx.fetch("SELECT DISTINCT game_id FROM game_actions")
    assert all(FORMER in s for s in seats)
    assert [(g, uid, pts) for g, _, uid, pts in results] == [
        ("g1", "u2", 20),
        ("g1", None, 30),
        ("g2", "u3", 15),
        ("g2", None, 25),
    ]
    assert [r[0] for r in logs] == ["g3"], "the running game's log is untouched"
    [(start, actions)] = [(g.record, g.actions) for g in await store.unfinished_games()]
    assert start.game_id == "g3" and len(actions) == 1, "restart recovery still has everything"


async def test_forget_me_in_one_workspace_leaves_the_other(store: SQLStore) -> None:
    await a_workspace(store)
    await finished(store, "g9", ["u1", "u3"], [40, 10], ws=OTHER_WS)
    elsewhere = await board(store, OTHER_WS)
    await store.forget_player(PLATFORM, WS, "u1")
    assert await board(store, OTHER_WS) == elsewhere
    stats = await store.player_stats(PLATFORM, OTHER_WS, "u1")
    assert stats is not None and stats.display_name == ANN, "still ranked there, under her name"


async def test_purge_leaves_nothing_of_the_workspace(store: SQLStore) -> None:
    await a_workspace(store)
    await store.save_lobby(
        LobbyRecord("g7", PLATFORM, WS, "c2", None, {"players": [{"user_id": "u2", "name": "Bob"}]})
    )
    await store.claim_chat(PLATFORM, WS, "c2", None, "g7", 1.0, "local")
    await store.schedule_deletion(PLATFORM, WS, 5.0, "the bot was removed")
    await finished(store, "g9", ["u3", "u2"], [40, 10], ws=OTHER_WS)
    elsewhere = await board(store, OTHER_WS)

    await store.purge_workspace(PLATFORM, WS)

    text = await everything(store)
    assert "'w1'" not in text and ANN not in text, [
        line for line in text.splitlines() if "'w1'" in line or ANN in line
    ]
    assert not [line for line in text.splitlines() if "'g1'" in line or "'g2'" in line or "'g3'" in line]
    assert await board(store, OTHER_WS) == elsewhere, "another workspace keeps everything"
    assert "Bob" in text and "Cat" in text, "their names stay while another workspace ranks them"
    assert await store.due_deletions(10.0) == []


async def test_retention_prunes_only_old_announced_logs(store: SQLStore) -> None:
    day = 86400.0
    now = NOW.timestamp()
    await finished(store, "old", ["u1", "u2"], [3, 2], at=now - 40 * day)
    await finished(store, "new", ["u1", "u2"], [3, 2], at=now - 2 * day)
    await finished(store, "elsewhere", ["u1", "u2"], [3, 2], ws=OTHER_WS, at=now - 40 * day)
    unannounced = replace(record("crash", ["u1"], names=NAMES), host=f"{PLATFORM}:u1")
    await store.start_game(unannounced)
    await store.append_action("crash", 0, {"kind": "begin", "now": 1.0})
    await store.finish_game(unannounced, [SeatScore(f"{PLATFORM}:u1", 1, True)], now - 40 * day)
    running = replace(record("live", ["u2"], names=NAMES, started_at=now - 50 * day), host=f"{PLATFORM}:u2")
    await store.start_game(running)
    await store.append_action("live", 0, {"kind": "begin", "now": 1.0})
    before = await board(store)

    assert await store.workspaces_with_logs(now - 30 * day) == [(PLATFORM, WS), (PLATFORM, OTHER_WS)]
    assert await store.prune_game_logs(PLATFORM, WS, now - 30 * day) == 1

    async with store.read() as tx:
        kept = {r[0] for r in await tx.fetch("SELECT DISTINCT game_id FROM game_actions")}
    assert kept == {"new", "elsewhere", "crash", "live"}, "only the old, announced game's log went"
    assert await board(store) == before, "leaderboards come from scores, not logs"
    assert [g.record.game_id for g in await store.unfinished_games()] == ["live"]
    assert [g.record.game_id for g in await store.unannounced_games()] == ["crash"]
    assert await store.prune_game_logs(PLATFORM, WS, now - 30 * day) == 0


async def test_a_deletion_is_due_after_its_grace_and_a_return_cancels_it(make_store: Any) -> None:
    one, two = make_store(), make_store()
    await one.open()
    await two.open()
    await one.schedule_deletion(PLATFORM, WS, 100.0, "the bot left the server")
    await one.schedule_deletion(PLATFORM, OTHER_WS, 300.0, "uninstalled")
    assert await two.due_deletions(99.0) == []
    assert await two.due_deletions(100.0) == [(PLATFORM, WS)]
    assert await two.cancel_deletion(PLATFORM, WS), "the bot came back in time"
    assert not await two.cancel_deletion(PLATFORM, WS)
    assert await two.due_deletions(1000.0) == [(PLATFORM, OTHER_WS)]
