"""What moji keeps, and how to make it forget: ``privacy``, ``forget-me``, ``purge``, retention.

The commands' rules live here; the command handlers (:mod:`bot.hosting.handlers`) dispatch to
:class:`Privacy` (as they do to :class:`~bot.features.workspace.Workspace` for ``config``),
and the rows themselves are the store's business (``forget_player``,
``purge_workspace``, ``prune_game_logs``, pending deletions). :mod:`storage.personal`
classifies every column of the database (a person's id, name or words, or none), and the
tests check that forget-me and purge reach each personal one.

- ``privacy`` answers privately on every platform: what is kept, why, for how long.
- ``forget-me`` asks first (a button, or ``forget-me confirm``); a player in a running
  game or an open lobby of the workspace is told to finish or leave it first.
- ``purge`` (admins) deletes the whole workspace's data after the same kind of
  confirmation; refused while a game or lobby is open there.
- What happens with time — the hourly housekeeping that prunes old game logs and purges
  the workspaces whose pending deletion is due, and the deletion pending while moji is
  removed from a workspace — is :mod:`bot.features.housekeeping`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bot.core import views
from bot.core.commands import CommandError
from bot.core.events import ChatKey, Command, Player
from bot.core.platform import Capabilities
from games.common.options import OptionValue
from games.common.speech import _, _n, _p

if TYPE_CHECKING:
    from storage.base import Store

log = logging.getLogger(__name__)

#: Where server admins read the whole story.
PRIVACY_DOC = "docs/PRIVACY.md"
#: The confirmation buttons (stable custom ids, like every moji button).
FORGET_ME = "moji:forget-me:confirm"
PURGE = "moji:purge:confirm"
CONFIRM = "confirm"
#: Defaults of the workspace settings ``retention`` and ``deletion-grace`` (days).
RETENTION_DAYS = 30
GRACE_DAYS = 30

#: Called with (platform, workspace id, user id) once a player is forgotten (caches).
ForgetHook = Callable[[str, str, str], None]
#: Called with (platform, workspace id) once a workspace is purged (caches).
PurgeHook = Callable[[str, str], None]


def retention_days(value: OptionValue | None) -> int | None:
    """The ``retention`` setting as days (None: forever); a value it can't read is the default."""
    text = str(value if value is not None else RETENTION_DAYS).strip().lower()
    if text in {"forever", "never", "off"}:
        return None
    try:
        days = int(text.removesuffix("d").removesuffix("days").strip())
    except ValueError:
        return RETENTION_DAYS
    return days if days >= 1 else RETENTION_DAYS


def parse_retention(value: str) -> str:
    """Validate ``config retention VALUE``: whole days (1 to 3650) or ``forever``."""
    text = value.strip().lower()
    if text in {"forever", "never", "off"}:
        return "forever"
    try:
        days = int(text.removesuffix("days").removesuffix("d").strip())
    except ValueError:
        raise CommandError(
            _("retention is a number of days (like `config retention 7`) or `forever`.")
        ) from None
    if not 1 <= days <= 3650:
        raise CommandError(
            _("retention must be between {low} and {high} days, or `forever`.", low=1, high=3650)
        )
    return str(days)


def privacy_view(settings: Mapping[str, OptionValue], *, stored: bool = True) -> views.View:
    """``privacy``: what moji keeps about you and this workspace, why, and for how long."""
    if not stored:
        return views.View(
            kind="info",
            title=_("🔒 What moji keeps"),
            lines=(
                _(
                    "This moji runs without a database: nothing about you or this workspace is kept "
                    "once a game ends (games live in memory only)."
                ),
                _("The details for server admins: {doc}.", doc=PRIVACY_DOC),
            ),
        )
    days = retention_days(settings.get("retention"))
    if days is None:
        logs = _(
            "**Game logs** (every answer and move, as typed, with its time): kept until this workspace's "
            "data is purged (a running game's log stays until it ends; `config retention` sets this). "
            "Results, scores and ratings stay until the data is purged."
        )
    else:
        logs = _n(
            "**Game logs** (every answer and move, as typed, with its time): kept for {count} day after "
            "the game ends, then deleted (a running game's log stays until it ends; `config retention` "
            "sets this). Results, scores and ratings stay until the data is purged.",
            "**Game logs** (every answer and move, as typed, with its time): kept for {count} days after "
            "the game ends, then deleted (a running game's log stays until it ends; `config retention` "
            "sets this). Results, scores and ratings stay until the data is purged.",
            days,
        )
    grace = settings.get("deletion-grace", GRACE_DAYS)
    grace_days = grace if isinstance(grace, int) and not isinstance(grace, bool) else GRACE_DAYS
    lines = (
        _(
            "**About you, in this workspace:** your platform user id and display name; your seat, score "
            "and best word in each game you played; your totals and your skill rating in each game "
            "(with what each rated game changed) for the leaderboard and `stats`."
        ),
        _("**Why:** to run the games, rank the leaderboard and answer `why` about a refused word."),
        logs,
        _(
            "**About this workspace:** its settings, word list, seasons, scheduled games, open lobbies "
            "and running games."
        ),
        _(
            "**Not kept:** channel chatter. moji reads a message in a channel with a game only to judge "
            "it; only answers and moves go into the game's log."
        ),
        _(
            "**Forget me:** `forget-me` deletes your scores, ratings and name here and anonymises your "
            "seats in past games (they become “a former player”; the other players' results and ratings "
            "stay)."
        ),
        _n(
            "**Admins:** `purge` deletes all of this workspace's data. Removing moji from the workspace "
            "deletes it after {count} day (`config deletion-grace`), unless moji is added back by then.",
            "**Admins:** `purge` deletes all of this workspace's data. Removing moji from the workspace "
            "deletes it after {count} days (`config deletion-grace`), unless moji is added back by then.",
            grace_days,
        ),
        _("The details for server admins: {doc}.", doc=PRIVACY_DOC),
    )
    return views.View(kind="info", title=_("🔒 What moji keeps"), lines=lines)


class _Settings(Protocol):
    @property
    def store(self) -> Store | None: ...

    async def settings(self, chat: ChatKey) -> Mapping[str, OptionValue]: ...


class _Seated(Protocol):
    def is_player(self, player: Player) -> bool: ...


class _Schedules(Protocol):
    def forget_workspace(self, workspace_id: str) -> None: ...


class PrivacyHost(Protocol):
    """The part of the game host (:class:`~bot.hosting.host.GameHost`, the manager) that the privacy
    commands read: declared here, because the workspace below the host imports this module's
    settings (a host import here would close a loop)."""

    @property
    def workspace(self) -> _Settings: ...

    @property
    def sessions(self) -> Mapping[ChatKey, _Seated]: ...

    @property
    def schedules(self) -> _Schedules | None: ...

    @property
    def capabilities(self) -> Capabilities: ...

    def forget_player(self, player: Player, workspace_id: str) -> None:
        """Forget what the process remembers of a player who asked to be forgotten here."""

    def forget_workspace(self, platform: str, workspace_id: str) -> None:
        """Forget what the process remembers of a purged workspace."""


@dataclass
class Privacy:
    """The privacy commands of one game host (its sessions are checked before forgetting)."""

    manager: PrivacyHost
    #: Told once a player is forgotten or a workspace purged: adapters clear their caches.
    on_forget: list[ForgetHook] = field(default_factory=list)
    on_purge: list[PurgeHook] = field(default_factory=list)

    @property
    def store(self) -> Store | None:
        return self.manager.workspace.store

    def _need_store(self) -> Store:
        store = self.store
        if store is None:
            raise CommandError(_("This moji runs without a database, so there is nothing kept to delete."))
        return store

    def _confirm(self, command: str) -> str:
        """How to confirm: the button (where the platform has buttons) or the command typed."""
        if self.manager.capabilities.buttons:
            return _("Press the button, or type `{command}`.", command=command)
        return _("Type `{command}` to go ahead.", command=command)

    async def privacy(self, cmd: Command) -> views.View:
        """``privacy``."""
        settings = await self.manager.workspace.settings(cmd.chat)
        return privacy_view(settings, stored=self.store is not None)

    # ------------------------------------------------------------ forget-me

    async def forget_me(self, cmd: Command, args: tuple[str, ...]) -> views.View:
        """``forget-me``: asks; ``forget-me confirm`` (or the button) forgets."""
        store = self._need_store()
        busy = await self._playing(cmd.chat, cmd.player)
        if busy:
            raise CommandError(
                _(
                    "You're in a game or lobby here ({where}). Finish it or `leave` it first, "
                    "then `forget-me` again.",
                    where=busy,
                )
            )
        if not args or args[0].lower() != CONFIRM:
            return views.View(
                kind="info",
                title=_("🗑️ Forget me in this workspace?"),
                lines=(
                    _(
                        "This deletes your scores, totals, ratings and name in this workspace, and turns "
                        "your seats in past games into “a former player” (the other players' results "
                        "stay). The logs of those games are deleted. It can't be undone."
                    ),
                    self._confirm("forget-me confirm"),
                ),
                buttons=(views.ButtonSpec(FORGET_ME, _p("button", "Forget me"), "danger"),),
            )
        platform, ws, user = cmd.chat.platform, cmd.chat.workspace_id, cmd.player.user_id
        await store.forget_player(platform, ws, user)
        self.manager.forget_player(cmd.player, ws)
        for hook in self.on_forget:
            try:
                hook(platform, ws, user)
            except Exception:
                log.exception("a cache could not forget a player")
        log.info("%s:%s: a player asked to be forgotten; done", platform, ws)
        return views.message(
            _("Done: moji has forgotten you in this workspace. Playing again starts a fresh record."), "info"
        )

    async def _playing(self, chat: ChatKey, player: Player) -> str:
        """Where ``player`` is in a running game or an open lobby of the workspace ("" if nowhere)."""
        for where, session in self.manager.sessions.items():
            if where.workspace_id == chat.workspace_id and session.is_player(player):
                return _where(where)
        store = self.store
        if store is None:
            return ""
        running = await store.player_games(chat.platform, chat.workspace_id, player.seat_id)
        if running:
            channel, thread = running[0]
            return _where(ChatKey(chat.platform, chat.workspace_id, channel, thread))
        for lobby in await store.open_lobbies():
            if lobby.platform != chat.platform or lobby.workspace_id != chat.workspace_id:
                continue
            for seat in lobby.data.get("players") or ():
                if isinstance(seat, Mapping) and str(seat.get("user_id")) == player.user_id:
                    return _where(
                        ChatKey(lobby.platform, lobby.workspace_id, lobby.channel_id, lobby.thread_id)
                    )
        return ""

    # ------------------------------------------------------------ purge

    async def purge(self, cmd: Command, args: tuple[str, ...]) -> views.View:
        """``purge`` (admins): asks; ``purge confirm`` (or the button) deletes the workspace's data."""
        if not cmd.player.is_admin:
            raise CommandError(
                _(
                    "Only workspace admins can purge this workspace's data (it deletes everyone's "
                    "scores). To delete just your own, use `forget-me`."
                )
            )
        store = self._need_store()
        busy = await self._open_here(cmd.chat)
        if busy:
            raise CommandError(
                _("A game or lobby is open here ({where}). Stop it first, then `purge` again.", where=busy)
            )
        if not args or args[0].lower() != CONFIRM:
            return views.View(
                kind="info",
                title=_("⚠️ Delete all of this workspace's moji data?"),
                lines=(
                    _(
                        "This deletes every game, result, score, rating, season, setting, word list entry "
                        "and scheduled game of this workspace, for everyone. It can't be undone."
                    ),
                    self._confirm("purge confirm"),
                ),
                buttons=(views.ButtonSpec(PURGE, _p("button", "Delete everything"), "danger"),),
            )
        deleted = await purge_workspace(store, cmd.chat.platform, cmd.chat.workspace_id, self)
        log.info("%s: purged by an admin (%s rows)", cmd.chat.label(), deleted)
        if deleted == 0:
            return views.message(
                _(
                    "There was nothing to delete: moji keeps no games, scores, settings or word lists "
                    "for this workspace."
                ),
                "info",
            )
        return views.message(_("Done: everything moji kept about this workspace is deleted."), "info")

    async def _open_here(self, chat: ChatKey) -> str:
        for where in self.manager.sessions:
            if where.platform == chat.platform and where.workspace_id == chat.workspace_id:
                return _where(where)
        store = self.store
        if store is not None and await store.workspace_owner(chat.platform, chat.workspace_id) is not None:
            return _("run by another moji process")
        return ""

    def purged(self, platform: str, workspace_id: str) -> None:
        """Clear what this process remembers about a purged workspace."""
        self.manager.forget_workspace(platform, workspace_id)
        schedules = self.manager.schedules
        if schedules is not None:
            schedules.forget_workspace(workspace_id)
        for hook in self.on_purge:
            try:
                hook(platform, workspace_id)
            except Exception:
                log.exception("a cache could not forget a purged workspace")


def _where(chat: ChatKey) -> str:
    return f"<#{chat.thread_id or chat.channel_id}>" if chat.platform != "terminal" else _("this terminal")


async def purge_workspace(
    store: Store, platform: str, workspace_id: str, privacy: Privacy | None = None
) -> int | None:
    """Delete the workspace's data, and what ``privacy``'s process remembers of it: the rows
    deleted (0: nothing was kept; None: the store doesn't say)."""
    deleted = await store.purge_workspace(platform, workspace_id)
    if privacy is not None:
        privacy.purged(platform, workspace_id)
    return deleted if isinstance(deleted, int) else None
