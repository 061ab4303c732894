"""A session's lobby: players join, the host sets options and starts the game.

The lobby is recorded in the game log before its message is shown, so a restart reopens it
(with its message and buttons); it times out after ``lobby_timeout`` seconds. It says who may
start and with which seats (:meth:`Lobby.ready`); the session starts the game.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.core import views
from bot.core.clock import Clock
from bot.core.events import Edit, MessageRef, Player, Post
from bot.core.outbox import GameLog, LobbyState, Outbox
from bot.core.ratings import auto_level
from bot.sessions.state import Phase, SessionError, SessionState, Words
from games.common.options import AUTO_LEVEL, OptionValue
from games.common.protocol import Seat
from games.common.speech import _, _n
from storage.errors import StorageError

BOT_NAMES = ("Ada", "Basil", "Cleo", "Dex", "Edie", "Fitz", "Gus", "Hana", "Ivo", "Juno", "Kit")


class Lobby:
    """A session before its game starts: who joined, the options, the lobby's message.

    It changes the people and the options of the session's :class:`SessionState`, keeps the
    lobby's record in the game log and its message up to date; it never starts nor closes the
    session.
    """

    def __init__(
        self, state: SessionState, outbox: Outbox, game_log: GameLog, clock: Clock, timeout: float
    ) -> None:
        self._state = state
        self._outbox = outbox
        self._log = game_log
        self._clock = clock
        #: When the lobby times out (None: it does not).
        self.deadline: float | None = clock.now() + timeout
        self._ref: MessageRef | None = None

    # ------------------------------------------------------------ its record and message

    async def open(self) -> None:
        """Post the lobby message."""
        # recorded before it is shown, so a crash right after the post never loses it (the
        # next process reopens it); recorded again with its message, whose buttons then work
        await self._keep()
        self._ref = await self._outbox.send(Post(self._state.chat, self.view()))
        if self._ref is not None:
            await self._keep()

    def record(self) -> LobbyState:
        """The lobby as the game log keeps it."""
        state = self._state
        return LobbyState(
            game_id=state.game_id,
            game=state.info.name,
            chat=state.chat,
            host=state.host,
            players=tuple(state.players),
            options=state.kept_options(),
            seed=state.seed,
            deadline=self.deadline if self.deadline is not None else self._clock.now(),
            message_id=self._ref.message_id if self._ref else None,
        )

    def restore(self, record: LobbyState) -> None:
        """Take back a lobby kept before a restart (its message and buttons are reused)."""
        self._state.seat_people(record.players or [record.host])
        self.deadline = record.deadline
        if record.message_id is not None:
            self._ref = MessageRef(self._state.chat, record.message_id)

    async def reopen(self) -> None:
        """Refresh a restored lobby's message (post it, if it never was)."""
        if self._ref is None:  # the process died before its message was posted
            self._ref = await self._outbox.send(Post(self._state.chat, self.view()))
            if self._ref is not None:
                await self._keep()
        else:
            await self._refresh()

    def view(self, open_: bool = True) -> views.View:
        """The lobby's message (closed: without its buttons)."""
        state = self._state
        with state.voice():
            names = [p.display_name for p in state.players]
            return views.lobby(
                state.info, state.host.display_name, names, state.bots, state.options, open_=open_
            )

    async def close_message(self) -> None:
        """The lobby's message loses its buttons (the game started, or the lobby closed)."""
        if self._ref is not None:
            await self._outbox.send(Edit(self._ref, self.view(open_=False)))

    async def closed(self) -> None:
        """The lobby closed without a game: its record is forgotten, its message closed."""
        await self._log.lobby_closed(self._state.game_id)
        await self.close_message()

    def expired(self, now: float) -> bool:
        """Whether the lobby has timed out by ``now``."""
        return self.deadline is not None and now >= self.deadline

    def timed_out(self) -> views.View:
        """What the chat reads when the lobby times out."""
        title = _(self._state.info.title)
        return views.message(_("Nobody started the {game} game, so the lobby timed out.", game=title), "info")

    async def _keep(self) -> None:
        await self._log.lobby(self.record())

    async def _refresh(self) -> None:
        if self._ref is not None:
            await self._outbox.send(Edit(self._ref, self.view()))

    # ------------------------------------------------------------ people and options

    async def join(self, player: Player) -> str:
        """Add a player; returns a confirmation."""
        state = self._state
        if state.phase is not Phase.LOBBY:
            raise SessionError(_("This game has already started; join the next one!"))
        if state.is_player(player):
            raise SessionError(_("You're already in this game."))
        if len(state.players) + state.bots >= state.info.max_players:
            raise SessionError(
                _(
                    "{game} seats at most {count} players.",
                    game=_(state.info.title),
                    count=state.info.max_players,
                )
            )
        state.seat_people([*state.players, player])
        await self._keep()
        await self._refresh()
        with state.voice_for(player):
            return _("{name} joined.", name=views.user(player.display_name))

    async def leave(self, player: Player) -> str | None:
        """Take a player out; returns a confirmation (None: nobody is left, the lobby must close)."""
        state = self._state
        state.seat_people(p for p in state.players if p.seat_id != player.seat_id)
        if not state.players:
            return None
        if player.seat_id == state.host.seat_id:
            state.host = state.players[0]
        await self._keep()
        await self._refresh()
        with state.voice_for(player):
            return _("You left the lobby.")

    def alone(self) -> bool:
        """True while the lobby holds only its host (who may then reopen it with other options)."""
        state = self._state
        return state.phase is Phase.LOBBY and [p.seat_id for p in state.players] == [state.host.seat_id]

    async def change_options(self, options: Mapping[str, OptionValue], words: Words) -> None:
        """The host, alone in the lobby, starts the same game again with other options: this
        lobby takes them (its message and seed stay)."""
        if self._state.phase is not Phase.LOBBY:
            raise SessionError(_("The game has already started."))
        self._state.options = dict(options)
        self._state.words = words
        await self._keep()
        await self._refresh()

    # ------------------------------------------------------------ the start

    async def ready(self, player: Player, *, admin: bool = False) -> tuple[Seat, ...]:
        """The seats to start with when ``player`` says ``go`` (the host, or an admin); a
        :class:`SessionError` says why the game cannot start."""
        state = self._state
        if state.phase is not Phase.LOBBY:
            raise SessionError(_("The game is already running."))
        if player.seat_id != state.host.seat_id and not admin:
            raise SessionError(
                _("Only the host, {name}, can start the game.", name=views.user(state.host.display_name))
            )
        if state.options.get("level") == AUTO_LEVEL:
            state.options["level"] = await self._auto_level()
        seats = self._seat()
        if len(seats) < state.info.min_players:
            raise SessionError(self._too_few(state.info.min_players - len(seats)))
        return seats

    def _too_few(self, need: int) -> str:
        info = self._state.info
        said: dict[str, object] = {
            "game": _(info.title),
            "least": info.min_players,
            "command": f"`start {info.name} bots={need}`",
        }
        if self.alone():
            return _n(
                "{game} needs at least {least} players: {count} more must `join`, or seat a "
                "computer player: {command} reopens this lobby with it.",
                "{game} needs at least {least} players: {count} more must `join`, or seat computer "
                "players: {command} reopens this lobby with them.",
                need,
                **said,
            )
        return _n(
            "{game} needs at least {least} players: {count} more must `join`, or seat a "
            "computer player: `stop`, then {command}.",
            "{game} needs at least {least} players: {count} more must `join`, or seat computer "
            "players: `stop`, then {command}.",
            need,
            **said,
        )

    async def _auto_level(self) -> str:
        """``level=auto``: the computer level closest to the seated people's ratings in this game
        and language (docs/RATINGS.md); normal when the database cannot say."""
        state = self._state
        seats = [p.seat_id for p in state.players]
        try:
            skills = await self._log.skills(state.chat, state.info.name, state.language, seats)
        except StorageError:
            skills = {}
        return auto_level([skills.get(seat) for seat in seats])

    def _seat(self) -> tuple[Seat, ...]:
        state = self._state
        level = state.options.get("level", "normal")
        humans = [Seat(p.seat_id, p.display_name) for p in state.players]
        bots = [
            Seat(f"bot:{i + 1}", _("{name} (bot)", name=BOT_NAMES[i % len(BOT_NAMES)]), str(level))
            for i in range(state.bots)
        ]
        return (*humans, *bots)
