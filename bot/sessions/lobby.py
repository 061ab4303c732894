"""A session's lobby: players join, the host sets options and starts the game.

The lobby is recorded in the game log before its message is shown, so a restart reopens it
(with its message and buttons); it times out after ``lobby_timeout`` seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.core import views
from bot.core.events import Edit, MessageRef, Player, Post
from bot.core.outbox import GameStart, LobbyState
from bot.core.ratings import auto_level
from bot.sessions.moves import Moves
from bot.sessions.session_core import Phase, SessionCore, SessionError, _marked
from games.common.options import AUTO_LEVEL, OptionValue
from games.common.protocol import Action, Seat, Setup
from games.common.speech import _, _n
from storage.errors import StorageError

BOT_NAMES = ("Ada", "Basil", "Cleo", "Dex", "Edie", "Fitz", "Gus", "Hana", "Ivo", "Juno", "Kit")


class LobbyPhase(SessionCore):
    """A session before its game starts (a part of :class:`bot.sessions.session.Session`)."""

    async def open_lobby(self) -> None:
        """Post the lobby message and arm the lobby timeout."""
        async with self._lock:
            # recorded before it is shown, so a crash right after the post never loses it (the
            # next process reopens it); recorded again with its message, whose buttons then work
            await self._keep_lobby()
            self._lobby_ref = await self._outbox.send(Post(self.chat, self._lobby_view()))
            if self._lobby_ref is not None:
                await self._keep_lobby()
            self._reschedule()

    def lobby_state(self) -> LobbyState:
        """The lobby as the game log keeps it."""
        return LobbyState(
            game_id=self.game_id,
            game=self.info.name,
            chat=self.chat,
            host=self.host,
            players=tuple(self.players),
            options=self.kept_options(),
            seed=self.seed,
            deadline=self._lobby_deadline if self._lobby_deadline is not None else self._clock.now(),
            message_id=self._lobby_ref.message_id if self._lobby_ref else None,
        )

    async def _keep_lobby(self) -> None:
        await self._log.lobby(self.lobby_state())

    def restore_lobby(self, state: LobbyState) -> None:
        """Reopen a lobby kept before a restart (its message and buttons are reused)."""
        self.players = list(state.players) or [state.host]
        self._by_seat = {p.seat_id: p for p in self.players}
        self._lobby_deadline = state.deadline
        if state.message_id is not None:
            self._lobby_ref = MessageRef(self.chat, state.message_id)

    async def reopen(self) -> None:
        """Refresh a restored lobby's message and re-arm its timeout."""
        async with self._lock:
            if self._lobby_ref is None:  # the process died before its message was posted
                self._lobby_ref = await self._outbox.send(Post(self.chat, self._lobby_view()))
                if self._lobby_ref is not None:
                    await self._keep_lobby()
            else:
                await self._refresh_lobby()
            self._reschedule()

    def _lobby_view(self, open_: bool = True) -> views.View:
        with self.voice():
            return self._lobby_view_now(open_)

    def _lobby_view_now(self, open_: bool) -> views.View:
        names = [p.display_name for p in self.players]
        return views.lobby(self.info, self.host.display_name, names, self.bots, self.options, open_=open_)

    async def join(self, player: Player) -> str:
        """Add a player to the lobby; returns a confirmation."""
        async with self._lock:
            if self.phase is not Phase.LOBBY:
                raise SessionError(_("This game has already started; join the next one!"))
            if self.is_player(player):
                raise SessionError(_("You're already in this game."))
            if len(self.players) + self.bots >= self.info.max_players:
                raise SessionError(
                    _(
                        "{game} seats at most {count} players.",
                        game=_(self.info.title),
                        count=self.info.max_players,
                    )
                )
            self.players.append(player)
            self._by_seat[player.seat_id] = player
            await self._keep_lobby()
            await self._refresh_lobby()
            with self.voice_for(player):
                return _("{name} joined.", name=views.user(player.display_name))

    async def leave(self, player: Player) -> str:
        """Remove a player; in a running game their seat is given up."""
        async with self._lock:
            if not self.is_player(player):
                raise SessionError(_("You're not in this game."))
            if self.phase is Phase.LOBBY:
                self.players.remove(self._by_seat.pop(player.seat_id))
                if not self.players:
                    await self._close(views.message(_("Everyone left, so the lobby is closed."), "info"))
                    with self.voice_for(player):
                        return _("You left; the lobby is closed.")
                if player.seat_id == self.host.seat_id:
                    self.host = self.players[0]
                await self._keep_lobby()
                await self._refresh_lobby()
                with self.voice_for(player):
                    return _("You left the lobby.")
            await self._apply(Action("leave", self._clock.now(), seat=player.seat_id))
            with self.voice_for(player):
                return _("You left the game.")

    async def _refresh_lobby(self) -> None:
        if self._lobby_ref is not None:
            await self._outbox.send(Edit(self._lobby_ref, self._lobby_view()))

    async def go(self, player: Player, *, admin: bool = False) -> None:
        """Start the game (the host, or an admin)."""
        async with self._lock:
            if self.phase is not Phase.LOBBY:
                raise SessionError(_("The game is already running."))
            if player.seat_id != self.host.seat_id and not admin:
                raise SessionError(
                    _("Only the host, {name}, can start the game.", name=views.user(self.host.display_name))
                )
            if self.options.get("level") == AUTO_LEVEL:
                self.options["level"] = await self._auto_level()
            seats = self._seat()
            if len(seats) < self.info.min_players:
                need = self.info.min_players - len(seats)
                again = f"`start {self.info.name} bots={need}`"
                if self.alone():
                    refusal = _n(
                        "{game} needs at least {least} players: {count} more must `join`, or seat a "
                        "computer player: {command} reopens this lobby with it.",
                        "{game} needs at least {least} players: {count} more must `join`, or seat computer "
                        "players: {command} reopens this lobby with them.",
                        need,
                        game=_(self.info.title),
                        least=self.info.min_players,
                        command=again,
                    )
                else:
                    refusal = _n(
                        "{game} needs at least {least} players: {count} more must `join`, or seat a "
                        "computer player: `stop`, then {command}.",
                        "{game} needs at least {least} players: {count} more must `join`, or seat computer "
                        "players: `stop`, then {command}.",
                        need,
                        game=_(self.info.title),
                        least=self.info.min_players,
                        command=again,
                    )
                raise SessionError(refusal)
            await self._begin(seats)

    async def begin_with(self, players: Sequence[Player], seats: Sequence[Seat]) -> None:
        """Start at once with these people in these seats, in this order (a tournament's
        pairing: nobody joins, and its first seat moves first where the game lets seats decide)."""
        async with self._lock:
            if self.phase is not Phase.LOBBY:
                raise SessionError(_("The game is already running."))
            self.players = list(players) or self.players
            self._by_seat = {p.seat_id: p for p in self.players}
            await self._begin(tuple(seats))

    def alone(self) -> bool:
        """True while the lobby holds only its host (who may then reopen it with other options)."""
        return self.phase is Phase.LOBBY and [p.seat_id for p in self.players] == [self.host.seat_id]

    async def change_options(
        self, options: Mapping[str, OptionValue], words: tuple[frozenset[str], frozenset[str]]
    ) -> None:
        """The host, alone in the lobby, starts the same game again with other options: this
        lobby takes them (its message and seed stay)."""
        async with self._lock:
            if self.phase is not Phase.LOBBY:
                raise SessionError(_("The game has already started."))
            self.options = dict(options)
            self._words = words
            await self._keep_lobby()
            await self._refresh_lobby()

    async def reopen_as_new(self, by: Player) -> None:
        """The host, alone in the lobby, starts again with other options: this lobby closes."""
        async with self._lock:
            if self.phase is Phase.LOBBY:
                await self._close(
                    views.message(
                        _("{name} reopened the lobby with other options.", name=views.user(by.display_name)),
                        "info",
                    )
                )

    async def _auto_level(self) -> str:
        """``level=auto``: the computer level closest to the seated people's ratings in this game
        and language (docs/RATINGS.md); normal when the database cannot say."""
        language = str(self.options.get("language", "en"))
        seats = [p.seat_id for p in self.players]
        try:
            skills = await self._log.skills(self.chat, self.info.name, language, seats)
        except StorageError:
            skills = {}
        return auto_level([skills.get(seat) for seat in seats])

    def _seat(self) -> tuple[Seat, ...]:
        level = self.options.get("level", "normal")
        humans = [Seat(p.seat_id, p.display_name) for p in self.players]
        bots = [
            Seat(f"bot:{i + 1}", _("{name} (bot)", name=BOT_NAMES[i % len(BOT_NAMES)]), str(level))
            for i in range(self.bots)
        ]
        return (*humans, *bots)

    async def _begin(self, seats: tuple[Seat, ...]) -> None:
        now = self._clock.now()
        setup = Setup(
            self.options,
            _marked(seats),
            self.seed,
            added_words=self._words[0],
            banned_words=self._words[1],
            timestamp_precision=self.timestamp_precision,
        )
        self.engine = self.info.create(setup)
        self.moves = Moves(self.info, self.options, self.seed)
        self.seats = seats
        self.phase = Phase.RUNNING
        self._lobby_deadline = None
        self.start_record = GameStart(
            game_id=self.game_id,
            game=self.info.name,
            chat=self.chat,
            options=self.kept_options(),
            seed=self.seed,
            seats=seats,
            started_at=now,
            host=self.host.seat_id,
            names=self.names(),
            added_words=self._words[0],
            banned_words=self._words[1],
        )
        start = self.start_record
        # one write: the game is recorded and its lobby forgotten together (a crash in between
        # would otherwise lose both, or restore both)
        await self._stored(lambda: self._log.start(start))
        if self._lobby_ref is not None:
            await self._outbox.send(Edit(self._lobby_ref, self._lobby_view(open_=False)))
        await self._apply(Action("begin", now))
