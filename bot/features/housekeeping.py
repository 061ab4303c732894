"""What happens to kept data with time: housekeeping and the deletion of removed workspaces.

- :func:`housekeeping` (hourly, in each platform's process, :func:`run_housekeeping`)
  drops the action logs of games that ended longer ago than the workspace's
  ``retention`` setting and purges the workspaces whose pending deletion is due.
- :func:`workspace_removed` / :func:`workspace_back`: the platform removed the bot (a
  Discord server removal, a Slack uninstall) or it is back; the adapters call them.

The commands that make moji forget at once (``forget-me``, ``purge``) and the settings these
read (``retention``, ``deletion-grace``) are :mod:`bot.features.privacy`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bot.features.privacy import GRACE_DAYS, Privacy, PrivacyHost, purge_workspace, retention_days

if TYPE_CHECKING:
    from bot.core.clock import Clock
    from storage.base import Store

log = logging.getLogger(__name__)

DAY = 86400.0
#: Seconds between two housekeeping passes.
HOUSEKEEPING_EVERY = 3600.0


class Housekept(PrivacyHost, Protocol):
    """What :func:`run_housekeeping` needs of the host: its workspace's store and its privacy."""

    @property
    def privacy(self) -> Privacy: ...


# ---------------------------------------------------------------- lifecycle


async def _grace_days(store: Store, platform: str, workspace_id: str) -> int:
    raw = (await store.get_settings(platform, workspace_id)).get("deletion-grace")
    try:
        days = int(str(raw)) if raw is not None else GRACE_DAYS
    except ValueError:
        days = GRACE_DAYS
    return max(1, days)


async def workspace_removed(
    store: Store | None, platform: str, workspace_id: str, now: float, reason: str
) -> float | None:
    """The platform removed moji from a workspace: its data is deleted after the grace period
    (the workspace's ``deletion-grace`` setting) unless moji is back by then. When it is due."""
    if store is None:
        return None
    due = now + await _grace_days(store, platform, workspace_id) * DAY
    await store.schedule_deletion(platform, workspace_id, due, reason)
    log.info("%s:%s: moji was removed (%s); its data goes at %.0f", platform, workspace_id, reason, due)
    return due


async def workspace_back(store: Store | None, platform: str, workspace_id: str) -> bool:
    """moji is in the workspace again: a pending deletion is cancelled (True if there was one)."""
    if store is None:
        return False
    cancelled = await store.cancel_deletion(platform, workspace_id)
    if cancelled:
        log.info("%s:%s: moji is back; the pending deletion is cancelled", platform, workspace_id)
    return cancelled


# ---------------------------------------------------------------- housekeeping


@dataclass
class Housekeeping:
    """What one pass did."""

    pruned: dict[str, int] = field(default_factory=dict)  # workspace id -> games whose logs went
    purged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # due, but moji is there again: cancelled


async def housekeeping(
    store: Store,
    platform: str,
    now: float,
    *,
    present: Callable[[str], Awaitable[bool]] | None = None,
    mine: Callable[[str], bool] = lambda workspace_id: True,
    privacy: Privacy | None = None,
) -> Housekeeping:
    """One pass for ``platform``: prune old game logs by each workspace's ``retention``, and
    purge the workspaces whose deletion is due (``present``: whether moji is in the workspace
    after all, which cancels it instead; ``mine``: the workspaces this process looks after,
    e.g. a Discord process's shards)."""
    done = Housekeeping()
    for plat, ws in await store.due_deletions(now):
        if plat != platform or not mine(ws):
            continue
        if present is not None and await present(ws):
            await store.cancel_deletion(plat, ws)
            done.kept.append(ws)
            continue
        await purge_workspace(store, plat, ws, privacy)
        done.purged.append(ws)
        log.info("%s:%s: deleted, as scheduled after moji was removed", plat, ws)
    for plat, ws in await store.workspaces_with_logs(now - DAY):
        if plat != platform or not mine(ws):
            continue
        days = retention_days((await store.get_settings(plat, ws)).get("retention"))
        if days is None:
            continue
        count = await store.prune_game_logs(plat, ws, now - days * DAY)
        if count:
            done.pruned[ws] = count
    return done


async def run_housekeeping(
    manager: Housekept,
    platform: str,
    clock: Clock,
    *,
    every: float = HOUSEKEEPING_EVERY,
    present: Callable[[str], Awaitable[bool]] | None = None,
    mine: Callable[[str], bool] = lambda workspace_id: True,
) -> None:
    """Forever: a :func:`housekeeping` pass now, then every ``every`` seconds (run it with
    ``manager.spawn``). A failed pass is logged; the next one tries again."""
    store = manager.workspace.store
    if store is None:
        return
    while True:
        try:
            done = await housekeeping(
                store, platform, clock.now(), present=present, mine=mine, privacy=manager.privacy
            )
            if done.pruned or done.purged:
                log.info(
                    "%s housekeeping: pruned the logs of %d game(s), purged %d workspace(s)",
                    platform,
                    sum(done.pruned.values()),
                    len(done.purged),
                )
        except Exception:
            log.exception("%s housekeeping failed; trying again later", platform)
        await clock.sleep_until(clock.now() + every)
