"""This process's leases on its games, renewed while it runs them (the keep-alive).

Several processes may share one database: each game and lobby is leased to the process that
runs it. While a host has sessions, :class:`Leases` renews its leases every few seconds and
records its running games alive (after a crash, a game's clock is held still from its last
beat to the restart, see :mod:`bot.hosting.recovery`). A game another process has taken over is
dropped at once.
"""

from __future__ import annotations

import asyncio
import logging

from bot.core.events import ChatKey
from bot.hosting.host import GameHost
from bot.sessions.state import Phase

log = logging.getLogger(__name__)

#: Seconds between records that this process's games are alive (the downtime after a crash
#: is counted from the last one, so a player gets back at most this much more than they lost).
KEEP_ALIVE = 5.0


class Leases:
    """The keep-alive of one host's games."""

    def __init__(self, host: GameHost, every: float = KEEP_ALIVE) -> None:
        self.host = host
        #: Seconds between renewals of this process's leases on its games.
        self.every = every
        self._heartbeat: asyncio.Task[None] | None = None
        #: Games this process stopped but could not void (the database was gone): voided when
        #: their chat starts anew (:meth:`claim`).
        self.abandoned: set[str] = set()

    async def claim(self, chat: ChatKey, game_id: str) -> str | None:
        """Claim ``chat`` for a new game (one active game per chat is the database's rule, across
        every moji process): None when it is ours, else the game that holds it. A game this
        process abandoned there is voided first."""
        host = self.host
        holder = await host.game_log.claim(chat, game_id, host.clock.now())
        if holder is not None and holder in self.abandoned:  # stopped here when the database was gone
            await host.game_log.void(holder, "stopped: the database was unavailable")
            self.abandoned.discard(holder)
            holder = await host.game_log.claim(chat, game_id, host.clock.now())
        return holder

    def running(self) -> list[str]:
        """The games being played here."""
        return [s.game_id for s in self.host.sessions.values() if s.phase is Phase.RUNNING]

    def held(self) -> list[str]:
        """Every game and lobby this process runs (its leases)."""
        return [s.game_id for s in self.host.sessions.values() if s.phase is not Phase.CLOSED]

    def keep_alive(self) -> None:
        """Make sure the running games are recorded alive every :attr:`every` seconds."""
        if self._heartbeat is None or self._heartbeat.done():
            self._heartbeat = self.host.spawn(self._beat(), "keep games alive")

    async def _beat(self) -> None:
        """While the host has games: renew its leases on them every few seconds."""
        host = self.host
        while host.sessions:
            await host.clock.sleep_until(host.clock.now() + self.every)
            held = self.held()
            if not held:
                continue
            try:
                lost = await host.game_log.keep_alive(held, host.clock.now())
            except Exception as exc:  # a database outage: the games' own writes report it
                log.warning("could not renew %d game(s): %s", len(held), exc)
                continue
            gone = set(lost)
            for chat, session in list(host.sessions.items()):
                if session.game_id in gone:
                    host.drop(chat, "another process has taken it over")

    async def wind_down(self) -> None:
        """The process stops: its running games are recorded alive until now (their clocks stand
        still from here until the next process resumes them), and its leases are let go."""
        host = self.host
        try:
            await host.game_log.keep_alive(self.running(), host.clock.now())
            # another process may carry them on at once (a rolling restart)
            await host.game_log.release([s.game_id for s in host.sessions.values()])
        except Exception:
            log.exception("could not record the games as alive until the stop")
