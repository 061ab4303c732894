"""The contract between the bot core and every game engine.

A game is a pure, deterministic rule engine. The session (``bot/sessions/session.py``)
feeds it :class:`Action` values — the only inputs it ever sees, each carrying
the time it happened — and turns the :class:`Notice` values it returns into
chat messages. Because every input is an action, replaying a game's action log
through a fresh engine built from the same :class:`Setup` rebuilds it exactly.

Engines never read a clock, never sleep and never do I/O; time is whatever the
actions say (seconds, as floats, on the session's clock).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from games.common.options import OptionSpec, OptionValue
from games.common.speech import N_, _
from games.common.words import Verdict, WordJudge


@dataclass(frozen=True, slots=True)
class Seat:
    """A player in one game. ``id`` is stable (``discord:123``, ``bot:1``)."""

    id: str
    name: str
    bot: str | None = None  # computer player level: "easy" | "normal" | "hard"


@dataclass(frozen=True, slots=True)
class Claim:
    """A word typed by a player, stamped with the platform's own send time."""

    seat: str
    text: str
    sent_at: float
    ref: str | None = None  # the platform message, for reactions


ActionKind = Literal["begin", "claims", "tick", "say", "vote", "leave", "resume"]


@dataclass(frozen=True, slots=True)
class Action:
    """One input to an engine.

    - ``begin``: the game starts (deal, first flip).
    - ``claims``: a settled batch of real-time claims (the engine orders them
      by ``sent_at``, so any arrival order gives the same result).
    - ``tick``: time has reached ``now`` (hourglass, flip pauses, turn limits).
    - ``say``: a turn-based move or a private answer (``text``), or a
      real-time command such as an Eagle Eyes list when ``private`` is set.
    - ``vote``: ``text`` is the choice (``skip``, ``yes``, ``no``).
    - ``leave``: the player leaves the game.
    - ``resume``: the bot came back after being down, and the game's clock stood still
      for ``paused`` seconds. The session keeps the game's clock; an engine never sees it.

    ``now`` is when the action happened on the wall clock; an engine is given its
    actions on the game's clock (the wall clock less every pause so far).
    """

    kind: ActionKind
    now: float
    seat: str | None = None
    text: str | None = None
    claims: tuple[Claim, ...] = ()
    private: bool = False
    ref: str | None = None
    paused: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for the action log)."""
        data = asdict(self)
        data["claims"] = [asdict(c) for c in self.claims]
        # Leave out what is unset (None, False, no claims) but never a time of 0.0 (0.0 == False).
        return {k: v for k, v in data.items() if k == "now" or not (v is None or v is False or v == [])}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_dict`."""
        claims = tuple(Claim(**c) for c in data.get("claims", ()))
        return cls(
            kind=data["kind"],
            now=float(data["now"]),
            seat=data.get("seat"),
            text=data.get("text"),
            claims=claims,
            private=bool(data.get("private", False)),
            ref=data.get("ref"),
            paused=None if data.get("paused") is None else float(data["paused"]),
        )


NoticeKind = Literal["accepted", "rejected", "announce", "private", "table", "end", "ping"]


@dataclass(frozen=True, slots=True)
class Notice:
    """One outcome of an action, for the session to show.

    - ``accepted``: a claim or move was accepted: mark ``ref`` with a tick and
      announce ``text`` in the channel.
    - ``rejected``: mark ``ref`` with a cross; ``text`` is the reason, kept for
      the player's "why?" (and shown to them privately where the platform can).
    - ``announce``: say ``text`` in the channel.
    - ``private``: show ``text`` to ``seat`` only (hands, racks, lists).
    - ``table``: the public table changed; the session re-posts the snapshot.
    - ``end``: the game is over; ``text`` sums it up.
    - ``ping``: a public message addressed to ``seat`` that should notify them
      (a turn reminder).

    ``late`` marks a refusal of a valid answer that lost to an earlier one (by
    the platform's timestamps), so it can be shown apart from a wrong word.
    """

    kind: NoticeKind
    text: str = ""
    seat: str | None = None
    ref: str | None = None
    late: bool = False


@dataclass(frozen=True, slots=True)
class CardFace:
    """A face-up card or tile as players see it."""

    letter: str  # upper-case letter, or "" for a blank
    colour: str  # "red" | "blue" | "yellow" | "green" | "" (no colour)
    points: int
    owner: str | None = None  # seat id of the stack it came from
    under: int = 0  # cards stacked underneath (Stack 'Em Up)


@dataclass(frozen=True, slots=True)
class Cell:
    """One square of a board or grid as players see it (board, dice, paths).

    An empty square has ``letter == ""``. ``premium`` names a bonus square
    ("DL", "TL", "DW", "TW") or "star" (a starting square); ``shade`` is a
    background group (MOJO's cluster colours "blue" / "pink"; "" for none).
    """

    letter: str = ""  # upper-case letter on the square, "" when empty
    points: int = 0  # the tile's points (0 for a blank)
    blank: bool = False  # a blank tile standing for ``letter``
    premium: str = ""  # "DL" | "TL" | "DW" | "TW" | "star" | ""
    shade: str = ""  # "blue" | "pink" | "" — background group of the square
    recent: bool = False  # placed by the last move (highlighted)


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One player's line on the scoreboard."""

    seat: str
    name: str
    score: int
    detail: str = ""  # "12 cards left", "waiting to flip", "to play"
    active: bool = False  # whose turn it is / who may act


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the table looks like to ``viewer`` (None: the public channel).

    A public snapshot never contains hidden information.
    """

    title: str
    cards: tuple[CardFace, ...] = ()
    seats: tuple[SeatLine, ...] = ()
    lines: tuple[str, ...] = ()  # challenges in force, hints, whose turn
    grid: tuple[str, ...] = ()  # text rows of a board, for board games
    board: tuple[tuple[Cell, ...], ...] = ()  # the same board, square by square (pictures)
    board_labels: bool = True  # label columns A, B, … and rows 1, 2, … in pictures
    deadline: float | None = None  # when the hourglass or turn runs out


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended."""

    scores: Mapping[str, int]  # seat id -> points
    winners: tuple[str, ...]  # seat ids; several on a tie; teams list all members
    summary: str
    best_words: Mapping[str, str] = field(default_factory=dict)  # seat id -> best word
    voided: bool = False  # a game that did not count (stopped early)
    teams: tuple[tuple[str, ...], ...] = ()  # partners' seat ids, one tuple per team (none: each alone)


@dataclass(frozen=True, slots=True)
class Reading:
    """How a game reads one text a player typed (see :class:`MoveReader`).

    ``move`` is what the game will judge — an answer or a move, legal or not — and what its
    action log keeps: the text as typed (a private list: its items that are words). None
    when the text is no answer or move at all: chatter, which the core neither judges nor
    stores. ``reason`` then says why, for a player who asked to play it (``play …``).
    """

    move: str | None
    reason: str = ""


#: Why a game without private word lists reads nothing sent privately.
NO_LISTS = N_("This game takes no private word lists: play in the channel.")


class MoveReader(Protocol):
    """What a game with given options and seed can take from a player's typing: its declaration
    of answers and moves (:attr:`GameInfo.reads`). Syntax only: it never looks at a running game,
    so any process can read a text for a game another one runs."""

    def read(self, text: str, *, private: bool = False) -> Reading:
        """Read ``text`` typed in the channel (``private``: sent privately, like a word list)."""
        ...


class Engine(Protocol):
    """A running game: deterministic, mutated only by :meth:`apply`.

    Every engine inherits :class:`games.common.engine.GameEngine`, which implements the hooks
    at the end of this protocol (``takes_lists`` … ``quiet_vote``) with defaults; a game
    implements the rule methods and overrides the hooks it uses.
    """

    def apply(self, action: Action) -> list[Notice]:
        """Apply one action and report what happened. Never raises on bad input."""
        ...

    def next_deadline(self) -> float | None:
        """When the session must send a ``tick`` next (None: no timer)."""
        ...

    def bot_claims(self, now: float) -> list[Claim]:
        """Computer players' answers or moves due by ``now``; [] for none.

        Real-time games: the session feeds them through the same settle
        window as human claims. Turn-based games: each claim is a move in the
        game's notation (``claim.text``) and the session applies it as a
        ``say`` action from ``claim.seat`` — logged like a human's move, so
        replays never need to re-run the computer player. Planning uses its
        own random stream, so it never changes the rule state.
        """
        ...

    def next_bot_time(self) -> float | None:
        """When a computer player will next have something to say."""
        ...

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        ...

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The table as ``viewer`` sees it (None: the public view)."""
        ...

    def result(self) -> Result:
        """Scores and winners (final once :attr:`finished`)."""
        ...

    # ----- hooks (defaults in games.common.engine.GameEngine)

    @property
    def takes_lists(self) -> bool:
        """Whether the game takes private word lists (``list``, a DM): an Eagle Eyes race."""
        ...

    @property
    def voted_words(self) -> Sequence[str]:
        """Answers accepted by a players' vote so far, for the workspace's word list."""
        ...

    def word_verdict(self, word: str) -> Verdict | None:
        """The verdict on ``word`` under the game's word rules (``define``); None: no words judged."""
        ...

    def quiet_vote(self, seat: str, choice: str) -> str:
        """Why a vote the engine took without a notice changed nothing visible (told the voter)."""
        ...


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything that determines a game before its first action."""

    options: Mapping[str, OptionValue]
    seats: Sequence[Seat]
    seed: int
    added_words: frozenset[str] = frozenset()  # workspace overlay
    banned_words: frozenset[str] = frozenset()
    judge: WordJudge | None = None  # None: the game loads the lexicon itself
    #: What a word means, for hints and computer players' words (``word -> short gloss or None``);
    #: None: the game reads the shipped glosses of its language (games.common.meaning).
    gloss: Callable[[str], str | None] | None = None
    #: Seconds: the finest difference between two messages' send times the platform reports. A
    #: game that compares send times draws no line finer than this (0: exact times).
    timestamp_precision: float = 0.0


class StartRule(Protocol):
    """What a finished game asks of the next ``start`` in its chat (see :attr:`GameInfo.after_game`):
    the race's Master's Choice, which reserves the challenge options for the last winner."""

    @property
    def seat_ids(self) -> frozenset[str]:
        """The players whose data the rule holds (a player who is forgotten takes it away)."""
        ...

    def refusal(self, game: str, seat_id: str, args: Sequence[str]) -> str | None:
        """Why ``seat_id`` may not start ``game`` with the words they typed (``args``), in a
        sentence players read; None: they may."""
        ...


#: :attr:`GameInfo.after_game`: (the finished game's result, its options with defaults filled
#: in, seat id → name, the chat's rule so far) → the chat's rule from now on (None: none).
AfterGame = Callable[
    [Result, Mapping[str, OptionValue], Mapping[str, str], StartRule | None], StartRule | None
]


#: What a game verb does (see :class:`GameVerb`).
VerbKind = Literal["vote", "move", "private"]


@dataclass(frozen=True, slots=True)
class VerbArgument:
    """The words after a game verb, as a platform's form asks for them (a Discord option).

    ``choices``: the only values it takes (a ``vote`` verb's choice: ``yes``, ``no``); typed
    text may give a unique beginning of one (``y``). ``required``: the verb does nothing
    without it.
    """

    name: str  # the form field's name: lower-case letters and dashes ("choice", "who")
    help: str  # a short description on forms (at most 100 characters)
    choices: tuple[str, ...] = ()
    required: bool = True

    def __post_init__(self) -> None:
        if not self.name or not all(ch.islower() or ch == "-" for ch in self.name):
            raise ValueError(f"a verb argument's name is lower-case letters and dashes: {self.name!r}")
        if not 0 < len(self.help) <= 100:
            raise ValueError(f"the help of verb argument {self.name!r} is 1 to 100 characters")


@dataclass(frozen=True, slots=True)
class GameVerb:
    """A command of one game's own, beside the core commands (``start``, ``join``, ``help`` …):
    declared once in :attr:`GameInfo.verbs`, read by the command grammar, the help and every
    platform (a Discord subcommand, Slack's ``/moji skip``, the terminal's ``/skip``).

    ``kind`` says what the bot does with it, so no game needs code in the core:

    - ``vote``: a vote the engine counts (an :class:`Action` of kind ``vote``): its text is the
      argument's choice where it has choices (``vote yes``), else the verb's name (``skip``);
    - ``move``: the verb and its words, as typed, are a move the game reads (``skip Bob``);
    - ``private``: the words are handed in privately (an Eagle Eyes list), only in a game whose
      engine :attr:`~Engine.takes_lists`; a platform with private forms opens one.

    ``absent`` is what a player whose game lacks the verb is told it is for, with ``{title}``
    for that game's title (``"`skip` votes … in a race; {title} has no skip vote."``); ``missing``
    why the verb does nothing without its argument (``"Vote `yes` or `no`."``). Both are the
    game's own words; the core adds what to do instead.
    """

    name: str
    usage: str  # as the help shows it: "vote yes|no", "skip NAME"
    help: str  # what it does, as the help lists it (lower case, no full stop)
    kind: VerbKind
    aliases: tuple[str, ...] = ()
    argument: VerbArgument | None = None
    absent: str = ""
    missing: str = ""

    def __post_init__(self) -> None:
        for key in (self.name, *self.aliases):
            if not key or key != key.lower() or not all(ch.isalnum() or ch == "-" for ch in key):
                raise ValueError(f"a verb's name or alias is lower-case letters, digits and dashes: {key!r}")
        if self.argument is not None and self.argument.required and not self.missing:
            raise ValueError(f"verb {self.name!r} needs its argument: say why in `missing`")

    def choice(self, words: Sequence[str]) -> str | None:
        """The choice ``words`` make (``("y",)`` → ``yes``); None: no choice of the argument's.
        A verb without choices is its own choice (a ``skip`` vote)."""
        choices = self.argument.choices if self.argument is not None else ()
        if not choices:
            return self.name
        typed = words[0].strip().lower() if words else ""
        if typed in choices:
            return typed
        found = [choice for choice in choices if typed and choice.startswith(typed)]
        return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class GameInfo:
    """A game as the registry and the help know it."""

    name: str
    title: str
    summary: str
    #: The long help text for ``rules <game>``, English: one message of the catalogue per line (a
    #: paragraph or a bullet, each marked with ``N_()``; blank lines between). Show it through
    #: :meth:`rules_text`, which says it in the language being spoken.
    rules: str
    options: tuple[OptionSpec, ...]
    create: Callable[[Setup], Engine]
    #: Which typed texts are answers or moves of a game with these options (defaults filled
    #: in) and seed: the core gives the game those only, and keeps nothing else a player types.
    reads: Callable[[Mapping[str, OptionValue], int], MoveReader]
    #: Does the slow one-off work (word lists, tries) of a language (its code) for a game with
    #: these options (defaults filled in; an empty mapping: the default options) now rather than
    #: in the first game: a server calls it in a worker thread at start-up for English with the
    #: default options and as a lobby opens, once per :meth:`preparation` key. Idempotent. A game
    #: with nothing to prepare says so (``games.common.engine.nothing_to_prepare``).
    prepare: Callable[[str, Mapping[str, OptionValue]], object]
    min_players: int = 1
    max_players: int = 12
    realtime: bool = True
    aliases: tuple[str, ...] = ()
    #: Turn-based: moves that need no more typing, as (button label, move) shown under the table.
    turn_moves: tuple[tuple[str, str], ...] = ()
    #: The options worth a field of their own where a platform offers a start form (Discord's
    #: ``/moji start``), most useful first; the others are typed as ``key=value`` words there.
    #: None: every option, in the order declared (a platform shows as many as its limits allow).
    start_form: tuple[str, ...] | None = None
    #: The part of a game's options its ``prepare`` depends on (a hashable value: its word rules),
    #: or None when it depends on the language alone.
    prepare_key: Callable[[Mapping[str, OptionValue]], Hashable] | None = None
    #: Why a game with these options (defaults filled in) can't be played, in a sentence players
    #: read (themes in a language they don't exist in…), or None: the start is refused at once.
    refusal: Callable[[Mapping[str, OptionValue]], str | None] | None = None
    #: What a finished game of this kind asks of the next ``start`` in its chat (a
    #: :class:`StartRule` the start command checks); None: a finished game leaves no rule behind
    #: (it clears the one an earlier game left).
    after_game: AfterGame | None = None
    #: What the rules end with that is built when shown (the dice' faces), in the language being
    #: spoken; None: nothing.
    rules_extra: Callable[[], str] | None = None
    #: The game's own commands (a race's ``skip`` vote, shed's ``skip NAME``): the command
    #: grammar, the help and every platform's commands read them from here.
    verbs: tuple[GameVerb, ...] = ()
    #: The package of the game's web page, when it has one (``games.paths.web``): a folder of
    #: the game's own holding its ``PAGE`` and its templates and script (:mod:`games.common.page`).
    page: str | None = None
    #: Every card face the public table of a game with these options (defaults filled in) may
    #: show, without ``owner`` or ``under``: what a platform readies pictures of ahead (Slack
    #: uploads each face once per workspace). None: the game declares none (they are readied as
    #: they show).
    faces: Callable[[Mapping[str, OptionValue]], tuple[CardFace, ...]] | None = None

    def __post_init__(self) -> None:
        names = {spec.name for spec in self.options}
        unknown = [name for name in self.start_form or () if name not in names]
        if unknown:
            raise ValueError(f"{self.name}'s start_form names options it does not have: {unknown}")
        keys = [key for verb in self.verbs for key in (verb.name, *verb.aliases)]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:
            raise ValueError(f"{self.name} declares these verb names twice: {twice}")

    def rules_text(self) -> str:
        """:attr:`rules` in the language being spoken, line by line (then :attr:`rules_extra`)."""
        lines = [_(line) if line.strip() else "" for line in self.rules.strip().splitlines()]
        if self.rules_extra is not None:
            lines += ["", self.rules_extra()]
        return "\n".join(lines)

    def verb(self, name: str) -> GameVerb | None:
        """The game's verb called ``name`` (or one of its aliases); None: it has none."""
        key = name.strip().lower()
        return next((verb for verb in self.verbs if key in (verb.name, *verb.aliases)), None)

    def form_options(self) -> tuple[OptionSpec, ...]:
        """The options of its :attr:`start_form`, in that order."""
        if self.start_form is None:
            return self.options
        by_name = {spec.name: spec for spec in self.options}
        return tuple(by_name[name] for name in self.start_form)

    def preparation(self, language: str, options: Mapping[str, OptionValue]) -> tuple[Hashable, ...]:
        """What a server prepares once for a game of ``language`` with ``options`` (see ``prepare``):
        two lobbies with the same key need the same one-off work."""
        key = self.prepare_key(options) if self.prepare_key is not None else None
        return (self.name, language, key)
