"""Forgetting a person, purging a workspace, pruning old game logs, and deletions planned ahead.

:mod:`storage.personal` lists every column these must reach. A table kept by a module outside
storage (the Slack adapter's installations) is reached through an :class:`Eraser` that module
adds to the store: it runs inside the same transaction as the rest.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from storage.browse import PURGE_BROWSE
from storage.daily import FORGET_DAILY, PURGE_DAILY
from storage.database import Database, Tx, like
from storage.gamelog import seat_pattern
from storage.ratings import FORGET_RATINGS, PURGE_RATINGS
from storage.tournaments import PURGE_TOURNAMENTS, forget_in_tournaments
from storage.workspaces import Known

#: What a forgotten player is called in the games they played.
FORMER = "a former player"
#: The void reason of a game a person stopped (it never names them: see migration 0011).
STOPPED = "stopped by a player"

#: Every display name of a platform (?, three times) that no workspace ranks (no scores, no results).
_DROP_UNRANKED_PLAYERS = (
    "DELETE FROM players WHERE platform = ? "
    "AND user_id NOT IN (SELECT s.user_id FROM scores s WHERE s.platform = ?) "
    "AND user_id NOT IN (SELECT r.user_id FROM results r JOIN games g ON g.game_id = r.game_id "
    "WHERE g.platform = ? AND r.user_id IS NOT NULL)"
)
#: What a purge deletes, each statement taking (platform, workspace_id): the games' logs and
#: results first, then every table keyed by the workspace.
PURGE = (
    "DELETE FROM game_actions WHERE game_id IN "
    "(SELECT game_id FROM games WHERE platform = ? AND workspace_id = ?)",
    "DELETE FROM results WHERE game_id IN "
    "(SELECT game_id FROM games WHERE platform = ? AND workspace_id = ?)",
    "DELETE FROM scores WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM language_scores WHERE platform = ? AND workspace_id = ?",
    *PURGE_RATINGS,
    *PURGE_DAILY,
    *PURGE_TOURNAMENTS,
    "DELETE FROM workspace_settings WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM workspace_words WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM seasons WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM schedules WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM active_games WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM open_lobbies WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM inbox WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM web_links WHERE platform = ? AND workspace_id = ?",
    *PURGE_BROWSE,
    "DELETE FROM games WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM pending_deletions WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM workspaces WHERE platform = ? AND workspace_id = ?",
)
_PRUNABLE = (
    "SELECT g.game_id FROM games g WHERE g.platform = ? AND g.workspace_id = ? AND g.status <> 'running' "
    "AND g.ended_at < ? AND (g.status = 'void' OR g.announced_at IS NOT NULL) "
    "AND EXISTS (SELECT 1 FROM game_actions a WHERE a.game_id = g.game_id)"
)


@runtime_checkable
class Eraser(Protocol):
    """What ``forget-me`` and ``purge`` must also remove from a table kept outside storage.

    Both run inside the store's transaction and must only await the :class:`Tx` they are given
    (SQLite runs the whole transaction in one hop to its writer's thread).
    """

    async def forget(self, tx: Tx, platform: str, workspace_id: str, user_id: str) -> None:
        """Remove or anonymise what the table keeps about one person of a workspace."""
        ...

    async def purge(self, tx: Tx, platform: str, workspace_id: str) -> int:
        """Delete what the table keeps about a workspace; how many rows went."""
        ...


@runtime_checkable
class PrivacyStore(Protocol):
    """Forget-me, purges, log retention and planned deletions."""

    async def forget_player(self, platform: str, workspace_id: str, user_id: str) -> None:
        """Forget a player in one workspace: stats rows and name deleted, their seats in finished
        games anonymised ("a former player") with those games' action logs dropped, their
        authorship anonymised. Other players' results and totals stay."""
        ...

    async def purge_workspace(self, platform: str, workspace_id: str) -> int:
        """Delete everything kept about a workspace; how many rows went (0: nothing was kept)."""
        ...

    async def prune_game_logs(self, platform: str, workspace_id: str, before: float) -> int:
        """Drop the action logs of the workspace's games that ended (and were announced) before
        ``before``; how many games."""
        ...

    async def workspaces_with_logs(self, before: float) -> list[tuple[str, str]]:
        """Workspaces with a game that ended before ``before`` and still has its log."""
        ...

    async def schedule_deletion(self, platform: str, workspace_id: str, due_at: float, reason: str) -> None:
        """Delete the workspace's data at ``due_at``."""
        ...

    async def cancel_deletion(self, platform: str, workspace_id: str) -> bool:
        """Keep the workspace's data after all; False if no deletion was pending."""
        ...

    async def due_deletions(self, now: float) -> list[tuple[str, str]]:
        """Workspaces whose deletion is due at ``now``."""
        ...


class SQLPrivacy:
    """:class:`PrivacyStore` in SQL, with the :class:`Eraser` of each table kept outside storage."""

    def __init__(self, db: Database, known: Known) -> None:
        self.db = db
        self.known = known
        self.erasers: list[Eraser] = []

    def add_eraser(self, eraser: Eraser) -> None:
        """Have ``forget-me`` and ``purge`` reach ``eraser``'s table too (once however often added)."""
        if eraser not in self.erasers:
            self.erasers.append(eraser)

    async def forget_player(self, platform: str, workspace_id: str, user_id: str) -> None:
        """Forget a player in one workspace, in one transaction.

        Their stats rows and display name go (the name stays only while another workspace still
        ranks them); in each finished or void game of the workspace they played, their seat
        becomes "a former player" under a new anonymous id (other players' results and totals
        are untouched) and the game's action log, which holds what they typed, is dropped; their
        authorship of word-list entries, settings and word breaks is anonymised the same way,
        their forwarded events go, and each :class:`Eraser` forgets them too (Slack: their
        installation row goes and the workspace's keeps no trace of them as its installer).
        Running games are left alone (the bot refuses while the player is in one).
        :mod:`storage.personal` lists every column this reaches.
        """
        seat = f"{platform}:{user_id}"
        former = f"former:{secrets.token_hex(6)}"
        people = (user_id, seat)

        async def body(tx: Tx) -> None:
            rows = await tx.fetch(
                "SELECT game_id, seats, names, host FROM games WHERE platform = ? AND workspace_id = ? "
                "AND status <> 'running' AND (seats LIKE ? ESCAPE '\\' OR host = ?)",
                (platform, workspace_id, seat_pattern(seat), seat),
            )
            for game_id, seats_json, names_json, host in rows:
                seats = [
                    {**s, "id": former, "name": FORMER} if s.get("id") == seat else s
                    for s in json.loads(seats_json)
                ]
                names = {k: v for k, v in json.loads(names_json).items() if k != seat}
                if any(s["id"] == former for s in seats):
                    names[former] = FORMER
                await tx.execute(
                    "UPDATE games SET seats = ?, names = ?, host = ?, summary = '' WHERE game_id = ?",
                    (
                        json.dumps(seats),
                        json.dumps(names, sort_keys=True),
                        former if host == seat else host,
                        game_id,
                    ),
                )
                await tx.execute("DELETE FROM game_actions WHERE game_id = ?", (game_id,))
                await tx.execute(
                    "UPDATE results SET seat_id = ?, user_id = NULL "
                    "WHERE game_id = ? AND (seat_id = ? OR user_id = ?)",
                    (former, game_id, seat, user_id),
                )
            await tx.execute(
                "DELETE FROM scores WHERE platform = ? AND workspace_id = ? AND user_id = ?",
                (platform, workspace_id, user_id),
            )
            await tx.execute(
                "DELETE FROM language_scores WHERE platform = ? AND workspace_id = ? AND user_id = ?",
                (platform, workspace_id, user_id),
            )
            for statement in (*FORGET_RATINGS, *FORGET_DAILY):
                await tx.execute(statement, (platform, workspace_id, user_id))
            await forget_in_tournaments(tx, platform, workspace_id, user_id, former, FORMER, self.db.clock())
            await tx.execute(
                "UPDATE workspace_words SET added_by = ? WHERE platform = ? AND workspace_id = ? "
                "AND added_by IN (?, ?)",
                (former, platform, workspace_id, *people),
            )
            await tx.execute(
                "UPDATE workspace_settings SET updated_by = ? WHERE platform = ? AND workspace_id = ? "
                "AND updated_by IN (?, ?)",
                (former, platform, workspace_id, *people),
            )
            await tx.execute(
                "UPDATE schedules SET created_by = ?, created_by_name = ? WHERE platform = ? "
                "AND workspace_id = ? AND created_by IN (?, ?)",
                (former, FORMER, platform, workspace_id, *people),
            )
            await tx.execute(
                "DELETE FROM inbox WHERE platform = ? AND workspace_id = ? AND payload LIKE ? ESCAPE '\\'",
                (platform, workspace_id, "%" + like(user_id) + "%"),
            )
            await tx.execute(
                "DELETE FROM web_links WHERE platform = ? AND workspace_id = ? AND user_id = ?",
                (platform, workspace_id, user_id),
            )
            # a stop recorded by a moji older than migration 0011 named who stopped
            for (name,) in await tx.fetch(
                "SELECT display_name FROM players WHERE platform = ? AND user_id = ?", (platform, user_id)
            ):
                await tx.execute(
                    "UPDATE games SET void_reason = ? WHERE platform = ? AND workspace_id = ? "
                    "AND void_reason = ?",
                    (STOPPED, platform, workspace_id, f"stopped by {name}"),
                )
            for eraser in self.erasers:
                await eraser.forget(tx, platform, workspace_id, user_id)
            await self._drop_unranked(tx, platform, [user_id])

        await self.db.transaction(body)
        self.known.names.pop((platform, user_id), None)

    async def _drop_unranked(self, tx: Tx, platform: str, user_ids: Sequence[str]) -> None:
        """Delete the display names of these players that no workspace ranks any more."""
        for user in user_ids:
            await tx.execute(
                "DELETE FROM players WHERE platform = ? AND user_id = ? "
                "AND NOT EXISTS (SELECT 1 FROM scores s WHERE s.platform = ? AND s.user_id = ?) "
                "AND NOT EXISTS (SELECT 1 FROM results r JOIN games g ON g.game_id = r.game_id "
                "WHERE g.platform = ? AND r.user_id = ?)",
                (platform, user, platform, user, platform, user),
            )

    async def purge_workspace(self, platform: str, workspace_id: str) -> int:
        """Delete everything moji keeps about a workspace, in one transaction: the rows deleted
        (0: nothing was kept). Display names go too, every one of the platform that no remaining
        workspace ranks (someone who only opened or joined a lobby here included)."""
        key = (platform, workspace_id)
        deleted = 0

        async def body(tx: Tx) -> None:
            nonlocal deleted
            deleted = 0  # (a retried transaction counts afresh)
            for statement in PURGE:
                deleted += await tx.execute(statement, key)
            for eraser in self.erasers:
                deleted += await eraser.purge(tx, platform, workspace_id)
            # The players table has no workspace: a name kept only because someone opened or
            # joined a lobby here can't be told from one seen elsewhere, so every name of the
            # platform that no remaining workspace ranks goes (it is written again when needed:
            # at a game's end for everyone seated, and when someone starts or joins a game).
            await tx.execute(_DROP_UNRANKED_PLAYERS, (platform, platform, platform))

        await self.db.transaction(body)
        self.known.workspaces.discard(key)
        self.known.names = {k: v for k, v in self.known.names.items() if k[0] != platform}
        return deleted

    async def prune_game_logs(self, platform: str, workspace_id: str, before: float) -> int:
        """Drop the action logs of the workspace's games that ended before ``before`` (and whose
        result was posted): the number of games. Results and scores stay; running games, and a
        result still to be announced after a crash, keep theirs."""
        async with self.db.write() as tx:
            rows = await tx.fetch(_PRUNABLE, (platform, workspace_id, float(before)))
            ids = [str(r[0]) for r in rows]
            await tx.executemany(
                "DELETE FROM game_actions WHERE game_id = ?", [(game_id,) for game_id in ids]
            )
        return len(ids)

    async def workspaces_with_logs(self, before: float) -> list[tuple[str, str]]:
        """(platform, workspace_id) of every workspace with a game that ended before ``before``
        and still has its action log."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT DISTINCT g.platform, g.workspace_id FROM games g WHERE g.status <> 'running' "
                "AND g.ended_at < ? AND EXISTS (SELECT 1 FROM game_actions a WHERE a.game_id = g.game_id) "
                "ORDER BY g.platform, g.workspace_id",
                (float(before),),
            )
        return [(str(r[0]), str(r[1])) for r in rows]

    async def schedule_deletion(self, platform: str, workspace_id: str, due_at: float, reason: str) -> None:
        """Delete the workspace's data at ``due_at`` (the bot was removed from it)."""
        async with self.db.write() as tx:
            await tx.execute(
                "INSERT INTO pending_deletions (platform, workspace_id, due_at, reason) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, workspace_id) DO UPDATE SET due_at = excluded.due_at, "
                "reason = excluded.reason",
                (platform, workspace_id, float(due_at), reason),
            )

    async def cancel_deletion(self, platform: str, workspace_id: str) -> bool:
        """The bot is back in the workspace: its data stays. False if no deletion was pending."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "DELETE FROM pending_deletions WHERE platform = ? AND workspace_id = ?",
                (platform, workspace_id),
            )
        return changed > 0

    async def due_deletions(self, now: float) -> list[tuple[str, str]]:
        """(platform, workspace_id) of the deletions due at ``now``."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT platform, workspace_id FROM pending_deletions WHERE due_at <= ? ORDER BY due_at",
                (float(now),),
            )
        return [(str(r[0]), str(r[1])) for r in rows]
