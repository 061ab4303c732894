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


class Lobby:
    """A session before its game starts (a part of :class:`bot.sessions.session.Session`)."""

    def __init__(self, session: SessionCore) -> None:
        self.session = session

    async def open_lobby(self) -> None:
        """Post the lobby message and arm the lobby timeout."""
        async with self.session._lock:
            # recorded before it is shown, so a crash right after the post never loses it (the
            # next process reopens it); recorded again with its message, whose buttons then work
            await self._keep_lobby()
            self.session._lobby_ref = await self.session._outbox.send(Post(self.session.chat, self.view()))
            if self.session._lobby_ref is not None:
                await self._keep_lobby()
            self.session.timers.reschedule()

    def lobby_state(self) -> LobbyState:
        """The lobby as the game log keeps it."""
        return LobbyState(
            game_id=self.session.game_id,
            game=self.session.info.name,
            chat=self.session.chat,
            host=self.session.host,
            players=tuple(self.session.players),
            options=self.session.kept_options(),
            seed=self.session.seed,
            deadline=self.session._lobby_deadline
            if self.session._lobby_deadline is not None
            else self.session._clock.now(),
            message_id=self.session._lobby_ref.message_id if self.session._lobby_ref else None,
        )

    async def _keep_lobby(self) -> None:
        await self.session._log.lobby(self.lobby_state())

    def restore_lobby(self, state: LobbyState) -> None:
        """Reopen a lobby kept before a restart (its message and buttons are reused)."""
        self.session.players = list(state.players) or [state.host]
        self.session._by_seat = {p.seat_id: p for p in self.session.players}
        self.session._lobby_deadline = state.deadline
        if state.message_id is not None:
            self.session._lobby_ref = MessageRef(self.session.chat, state.message_id)

    async def reopen(self) -> None:
        """Refresh a restored lobby's message and re-arm its timeout."""
        async with self.session._lock:
            if self.session._lobby_ref is None:  # the process died before its message was posted
                self.session._lobby_ref = await self.session._outbox.send(
                    Post(self.session.chat, self.view())
                )
                if self.session._lobby_ref is not None:
                    await self._keep_lobby()
            else:
                await self._refresh_lobby()
            self.session.timers.reschedule()

    def view(self, open_: bool = True) -> views.View:
        with self.session.voice():
            return self._view_now(open_)

    def _view_now(self, open_: bool) -> views.View:
        names = [p.display_name for p in self.session.players]
        return views.lobby(
            self.session.info,
            self.session.host.display_name,
            names,
            self.session.bots,
            self.session.options,
            open_=open_,
        )

    async def join(self, player: Player) -> str:
        """Add a player to the lobby; returns a confirmation."""
        async with self.session._lock:
            if self.session.phase is not Phase.LOBBY:
                raise SessionError(_("This game has already started; join the next one!"))
            if self.session.is_player(player):
                raise SessionError(_("You're already in this game."))
            if len(self.session.players) + self.session.bots >= self.session.info.max_players:
                raise SessionError(
                    _(
                        "{game} seats at most {count} players.",
                        game=_(self.session.info.title),
                        count=self.session.info.max_players,
                    )
                )
            self.session.players.append(player)
            self.session._by_seat[player.seat_id] = player
            await self._keep_lobby()
            await self._refresh_lobby()
            with self.session.voice_for(player):
                return _("{name} joined.", name=views.user(player.display_name))

    async def leave(self, player: Player) -> str:
        """Remove a player; in a running game their seat is given up."""
        async with self.session._lock:
            if not self.session.is_player(player):
                raise SessionError(_("You're not in this game."))
            if self.session.phase is Phase.LOBBY:
                self.session.players.remove(self.session._by_seat.pop(player.seat_id))
                if not self.session.players:
                    await self.session._close(
                        views.message(_("Everyone left, so the lobby is closed."), "info")
                    )
                    with self.session.voice_for(player):
                        return _("You left; the lobby is closed.")
                if player.seat_id == self.session.host.seat_id:
                    self.session.host = self.session.players[0]
                await self._keep_lobby()
                await self._refresh_lobby()
                with self.session.voice_for(player):
                    return _("You left the lobby.")
            await self.session._apply(Action("leave", self.session._clock.now(), seat=player.seat_id))
            with self.session.voice_for(player):
                return _("You left the game.")

    async def _refresh_lobby(self) -> None:
        if self.session._lobby_ref is not None:
            await self.session._outbox.send(Edit(self.session._lobby_ref, self.view()))

    async def go(self, player: Player, *, admin: bool = False) -> None:
        """Start the game (the host, or an admin)."""
        async with self.session._lock:
            if self.session.phase is not Phase.LOBBY:
                raise SessionError(_("The game is already running."))
            if player.seat_id != self.session.host.seat_id and not admin:
                raise SessionError(
                    _(
                        "Only the host, {name}, can start the game.",
                        name=views.user(self.session.host.display_name),
                    )
                )
            if self.session.options.get("level") == AUTO_LEVEL:
                self.session.options["level"] = await self._auto_level()
            seats = self._seat()
            if len(seats) < self.session.info.min_players:
                need = self.session.info.min_players - len(seats)
                again = f"`start {self.session.info.name} bots={need}`"
                if self.alone():
                    refusal = _n(
                        "{game} needs at least {least} players: {count} more must `join`, or seat a "
                        "computer player: {command} reopens this lobby with it.",
                        "{game} needs at least {least} players: {count} more must `join`, or seat computer "
                        "players: {command} reopens this lobby with them.",
                        need,
                        game=_(self.session.info.title),
                        least=self.session.info.min_players,
                        command=again,
                    )
                else:
                    refusal = _n(
                        "{game} needs at least {least} players: {count} more must `join`, or seat a "
                        "computer player: `stop`, then {command}.",
                        "{game} needs at least {least} players: {count} more must `join`, or seat computer "
                        "players: `stop`, then {command}.",
                        need,
                        game=_(self.session.info.title),
                        least=self.session.info.min_players,
                        command=again,
                    )
                raise SessionError(refusal)
            await self._begin(seats)

    async def begin_with(self, players: Sequence[Player], seats: Sequence[Seat]) -> None:
        """Start at once with these people in these seats, in this order (a tournament's
        pairing: nobody joins, and its first seat moves first where the game lets seats decide)."""
        async with self.session._lock:
            if self.session.phase is not Phase.LOBBY:
                raise SessionError(_("The game is already running."))
            self.session.players = list(players) or self.session.players
            self.session._by_seat = {p.seat_id: p for p in self.session.players}
            await self._begin(tuple(seats))

    def alone(self) -> bool:
        """True while the lobby holds only its host (who may then reopen it with other options)."""
        return self.session.phase is Phase.LOBBY and [p.seat_id for p in self.session.players] == [
            self.session.host.seat_id
        ]

    async def change_options(
        self, options: Mapping[str, OptionValue], words: tuple[frozenset[str], frozenset[str]]
    ) -> None:
        """The host, alone in the lobby, starts the same game again with other options: this
        lobby takes them (its message and seed stay)."""
        async with self.session._lock:
            if self.session.phase is not Phase.LOBBY:
                raise SessionError(_("The game has already started."))
            self.session.options = dict(options)
            self.session._words = words
            await self._keep_lobby()
            await self._refresh_lobby()

    async def reopen_as_new(self, by: Player) -> None:
        """The host, alone in the lobby, starts again with other options: this lobby closes."""
        async with self.session._lock:
            if self.session.phase is Phase.LOBBY:
                await self.session._close(
                    views.message(
                        _("{name} reopened the lobby with other options.", name=views.user(by.display_name)),
                        "info",
                    )
                )

    async def _auto_level(self) -> str:
        """``level=auto``: the computer level closest to the seated people's ratings in this game
        and language (docs/RATINGS.md); normal when the database cannot say."""
        language = str(self.session.options.get("language", "en"))
        seats = [p.seat_id for p in self.session.players]
        try:
            skills = await self.session._log.skills(
                self.session.chat, self.session.info.name, language, seats
            )
        except StorageError:
            skills = {}
        return auto_level([skills.get(seat) for seat in seats])

    def _seat(self) -> tuple[Seat, ...]:
        level = self.session.options.get("level", "normal")
        humans = [Seat(p.seat_id, p.display_name) for p in self.session.players]
        bots = [
            Seat(f"bot:{i + 1}", _("{name} (bot)", name=BOT_NAMES[i % len(BOT_NAMES)]), str(level))
            for i in range(self.session.bots)
        ]
        return (*humans, *bots)

    async def _begin(self, seats: tuple[Seat, ...]) -> None:
        now = self.session._clock.now()
        setup = Setup(
            self.session.options,
            _marked(seats),
            self.session.seed,
            added_words=self.session._words[0],
            banned_words=self.session._words[1],
            timestamp_precision=self.session.timestamp_precision,
        )
        self.session.engine = self.session.info.create(setup)
        self.session.moves = Moves(self.session.info, self.session.options, self.session.seed)
        self.session.seats = seats
        self.session.phase = Phase.RUNNING
        self.session._lobby_deadline = None
        self.session.start_record = GameStart(
            game_id=self.session.game_id,
            game=self.session.info.name,
            chat=self.session.chat,
            options=self.session.kept_options(),
            seed=self.session.seed,
            seats=seats,
            started_at=now,
            host=self.session.host.seat_id,
            names=self.session.names(),
            added_words=self.session._words[0],
            banned_words=self.session._words[1],
        )
        start = self.session.start_record
        # one write: the game is recorded and its lobby forgotten together (a crash in between
        # would otherwise lose both, or restore both)
        await self.session._stored(lambda: self.session._log.start(start))
        if self.session._lobby_ref is not None:
            await self.session._outbox.send(Edit(self.session._lobby_ref, self.view(open_=False)))
        await self.session._apply(Action("begin", now))
