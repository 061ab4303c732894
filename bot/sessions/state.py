"""What a session and its parts share: the game, its chat, who plays it and how far it is.

:class:`SessionState` holds facts and answers questions about them; it does nothing else (no
message, no write, no timer). The session (:class:`bot.sessions.session.Session`) changes it as
events come, and hands it to the parts that read it (the lobby, the announcer).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from bot.core import views
from bot.core.events import ChatKey, Player
from bot.core.outbox import GameStart
from bot.sessions.moves import Moves
from games.common.options import OptionValue
from games.common.protocol import Action, Engine, GameInfo, Seat, Setup, Snapshot
from games.common.speech import _, resolve, speaking, spoken_from


class Phase(enum.Enum):
    """Where a session is in its life."""

    LOBBY = "lobby"
    RUNNING = "running"
    CLOSED = "closed"


class SessionError(Exception):
    """A friendly refusal (``str(exc)`` is shown to the player)."""


#: The option key under which a game's start record and lobby keep the language its chat is
#: spoken to in (docs/LANGUAGES.md "Which language speaks"): a restarted game speaks the same.
#: Never an option of a game (no engine sees it); a record without it speaks English.
SPEECH = "_speech"

#: A workspace's added and banned words, as a game's setup takes them.
Words = tuple[frozenset[str], frozenset[str]]


def marked(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats as an engine gets them: people's names marked as user text, so whatever a game
    writes about them is escaped by each renderer (the stored seats keep the names as typed)."""
    return tuple(
        seat if seat.bot is not None else replace(seat, name=views.user(seat.name)) for seat in seats
    )


def seat_player(seat: Seat) -> Player:
    """The person in a stored seat (``platform:user``)."""
    platform, __, user = seat.id.partition(":")
    return Player(platform, user, seat.name)


class SessionState:
    """One game in one chat, as facts: the chat and the game, the people in it, its options,
    and once it runs, its engine on the game's clock."""

    def __init__(
        self,
        chat: ChatKey,
        info: GameInfo,
        host: Player,
        options: Mapping[str, OptionValue],
        game_id: str,
        seed: int,
        *,
        speech: str | None,
        timestamp_precision: float,
        words: Words,
    ) -> None:
        kept = dict(options)
        spoken = kept.pop(SPEECH, None)
        self.chat = chat
        self.info = info
        self.game_id = game_id
        self.seed = seed
        #: The language the chat is spoken to in (the workspace's ``config language`` when the
        #: game opened; kept in its records under :data:`SPEECH`): never the game's ``language=``.
        self.speech: str = resolve(str(spoken) if spoken else speech) or "en"
        #: The platform's (:attr:`bot.core.platform.Capabilities.timestamp_precision`), for the game's Setup.
        self.timestamp_precision = timestamp_precision
        self.host = host
        self.players: list[Player] = [host]
        self.by_seat: dict[str, Player] = {host.seat_id: host}
        self.options: dict[str, OptionValue] = kept
        self.words = words
        self.phase = Phase.LOBBY
        self.engine: Engine | None = None
        #: What the running game takes from a player's typing (see :mod:`bot.sessions.moves`).
        self.moves: Moves | None = None
        self.seats: tuple[Seat, ...] = ()
        self.start_record: GameStart | None = None
        #: Seconds the game's clock stood still while the bot was down (``resume`` actions):
        #: the engine runs on the wall clock less this, so no deadline fell in the outage.
        self.paused = 0.0
        #: What the channel read of the game before this process took it on (a restart or an
        #: adoption: its log replayed): the last few public lines, for pages' "last moves".
        self.said_before: tuple[str, ...] = ()
        #: Whether the game's first deal is done (False only for a restored game whose log has
        #: no ``begin``: the process died between recording the start and the deal).
        self.begun = True

    # ------------------------------------------------------------ speech

    def voice(self) -> Any:
        """``with state.voice():`` speaks the chat's language (what the whole chat reads)."""
        return speaking(self.speech)

    def voice_for(self, player: Player) -> Any:
        """``with state.voice_for(player):`` speaks what ``player`` alone reads: their own
        locale where a catalogue speaks it, else the chat's."""
        return speaking(spoken_from(player.locale, self.speech))

    def kept_options(self) -> dict[str, OptionValue]:
        """The options as the game's records keep them: the game's own, and the chat's language."""
        return {**self.options, SPEECH: self.speech}

    # ------------------------------------------------------------ people

    @property
    def bots(self) -> int:
        """Computer players this game will seat."""
        value = self.options.get("bots", 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    @property
    def language(self) -> str:
        """The code of the language this game plays in (``en`` for a game without the option)."""
        return str(self.options.get("language", "en"))

    def seat_people(self, players: Iterable[Player]) -> None:
        """These people, in this order, are the game's."""
        self.players = list(players)
        self.by_seat = {p.seat_id: p for p in self.players}

    def is_player(self, player: Player) -> bool:
        """True when ``player`` has joined."""
        return player.seat_id in self.by_seat

    def names(self) -> dict[str, str]:
        """Seat id -> display name, for every seat."""
        names = {p.seat_id: p.display_name for p in self.players}
        names.update({s.id: s.name for s in self.seats})
        return names

    def require_running(self, player: Player) -> None:
        """Refuse ``player``'s move unless the game runs and they play in it."""
        if self.phase is not Phase.RUNNING:
            raise SessionError(_("The game hasn't started yet."))
        if not self.is_player(player):
            raise SessionError(_("You're not in this game."))

    def turn_seats(self) -> set[str]:
        """The human seats whose turn it is now (turn-based games)."""
        if self.engine is None or self.info.realtime or self.engine.finished:
            return set()
        return {s.seat for s in self.engine.snapshot(None).seats if s.active and s.seat in self.by_seat}

    # ------------------------------------------------------------ the game

    def deal(self, seats: tuple[Seat, ...], now: float) -> GameStart:
        """The game starts with these seats: its engine is made, and its start record returned."""
        self._make_engine(seats)
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
            added_words=self.words[0],
            banned_words=self.words[1],
        )
        return self.start_record

    def replay(self, start: GameStart, actions: Iterable[Action]) -> None:
        """The running game of ``start`` after ``actions``, rebuilt in silence (after a restart):
        the people are the start record's seats, and every action is applied again, in order."""
        seats = tuple(start.seats)
        self.words = (start.added_words, start.banned_words)
        engine = self._make_engine(seats)
        self.seat_people(self.by_seat.get(s.id) or seat_player(s) for s in seats if s.bot is None)
        self.start_record = start
        self.begun = False
        said: list[str] = []
        for action in actions:
            self.begun = self.begun or action.kind == "begin"
            if action.kind == "resume":
                self.paused += action.paused or 0.0
                continue
            notices = engine.apply(self.on_game_clock(action))
            said += [n.text for n in notices if n.kind in ("accepted", "announce", "end") and n.text.strip()]
        self.said_before = tuple(said[-8:])

    def _make_engine(self, seats: tuple[Seat, ...]) -> Engine:
        setup = Setup(
            self.options,
            marked(seats),
            self.seed,
            added_words=self.words[0],
            banned_words=self.words[1],
            timestamp_precision=self.timestamp_precision,
        )
        self.engine = self.info.create(setup)
        self.moves = Moves(self.info, self.options, self.seed)
        self.seats = seats
        self.phase = Phase.RUNNING
        return self.engine

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The engine's snapshot, its deadline on the wall clock."""
        assert self.engine is not None
        snapshot = self.engine.snapshot(viewer)
        if self.paused and snapshot.deadline is not None:
            return replace(snapshot, deadline=snapshot.deadline + self.paused)
        return snapshot

    def on_game_clock(self, action: Action) -> Action:
        """``action`` as the engine sees it: its times on the game's clock."""
        if not self.paused:
            return action
        claims = tuple(replace(c, sent_at=c.sent_at - self.paused) for c in action.claims)
        return replace(action, now=action.now - self.paused, claims=claims)

    def deadline(self, hold_ends: float) -> float | None:
        """The engine's own next deadline on the wall clock, not before ``hold_ends`` (while the
        settle window is held, a card's hourglass waits too: an answer on its way may beat it)."""
        deadline = None if self.engine is None else self.engine.next_deadline()
        return None if deadline is None else max(deadline + self.paused, hold_ends)

    def bot_time(self) -> float | None:
        """When a computer player next answers or moves, on the wall clock."""
        at = None if self.engine is None else self.engine.next_bot_time()
        return None if at is None else at + self.paused

    def tick(self, now: float, hold_ends: float) -> Action | None:
        """The engine's deadline as a ``tick`` action, when it is due at ``now`` (None: not yet).

        Its time is ``now`` nudged up by a float rounding at most, so that it is not before the
        deadline on the game's clock (a timer due on the wall clock is then due for the engine too).
        """
        deadline = None if self.engine is None else self.engine.next_deadline()
        if deadline is None or max(deadline + self.paused, hold_ends) > now:
            return None
        wall = now
        while wall - self.paused < deadline:
            wall = math.nextafter(wall, math.inf)
        return Action("tick", wall)

    def stuck_after(self, tick: Action) -> bool:
        """Whether the engine kept a deadline ``tick`` was due for (a timer would spin on it)."""
        again = None if self.engine is None else self.engine.next_deadline()
        return self.phase is Phase.RUNNING and again is not None and again + self.paused <= tick.now

    def bots_due(self, now: float) -> float | None:
        """The game's time of the computer players' answers or moves due at ``now`` (None: none)."""
        at = None if self.engine is None else self.engine.next_bot_time()
        if at is None or at + self.paused > now:
            return None
        return max(now - self.paused, at)
