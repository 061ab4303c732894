"""Neutral views: what a message shows, before any platform renders it.

Pure functions turn game snapshots, lobbies and results into :class:`View`
values; adapters render a view as a Discord embed, Slack blocks or ANSI text.
Every view has a plain-text form in which each face-up card is a standalone
capital letter, for screen readers and search.

Text that people typed (names, words, option values, quoted input) is marked as user text
(:func:`user`, see :mod:`games.common.text`) wherever it enters a view; every renderer escapes
it for its own markup, and :meth:`View.plain` drops the marks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from games.common import grammar
from games.common.languages import LANGUAGES
from games.common.options import OptionSpec, OptionValue, format_value
from games.common.protocol import CardFace, Cell, GameInfo, Result, SeatLine, Snapshot
from games.common.speech import N_, _, _n, _p, current
from games.common.speech import duration as spoken_duration
from games.common.text import plain as plain_text
from games.common.text import user as user  # re-exported: how bot/ marks what people typed

ViewKind = Literal[
    "lobby", "table", "announce", "result", "help", "error", "info", "leaderboard", "private", "turn"
]
ButtonStyle = Literal["primary", "secondary", "danger", "success"]

#: Stable custom ids of buttons; they keep working after a restart.
JOIN, LEAVE, GO, SKIP = "moji:join", "moji:leave", "moji:go", "moji:skip"
#: A turn-based game's buttons: ``moji:move:<move>`` plays that move; ``moji:hand`` shows one's rack.
MOVE, HAND = "moji:move:", "moji:hand"


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A button under a message; ``action`` is its stable custom id. With a ``url`` it is a link
    button instead: it opens the address (a web page's link) and sends moji nothing."""

    action: str
    label: str
    style: ButtonStyle = "secondary"
    url: str = ""


#: The action id of a link button (a platform that wants one has it; moji ignores its presses).
OPEN_LINK = "moji-link:open"


@dataclass(frozen=True, slots=True)
class View:
    """One message's content, platform-neutral."""

    kind: ViewKind
    title: str = ""
    lines: tuple[str, ...] = ()
    cards: tuple[CardFace, ...] = ()
    seats: tuple[SeatLine, ...] = ()
    grid: tuple[str, ...] = ()
    board: tuple[tuple[Cell, ...], ...] = ()  # square by square, for the board picture
    board_labels: bool = True
    buttons: tuple[ButtonSpec, ...] = ()
    deadline: float | None = None
    game: str | None = None
    #: When the game will replace this table by itself (e.g. the next cards flip), if soon.
    settles_at: float | None = None
    #: Seat ids (``platform:user``) this message addresses: the platform notifies them.
    mentions: tuple[str, ...] = ()
    #: A lobby whose game plays in a thread of its own (turn-based games).
    threaded: bool = False
    #: Names this message for good (e.g. ``result:<game id>``): a platform that can recognise
    #: a repeat (Discord's nonce) posts it once, even when a restarted process posts it again.
    once: str = ""
    #: The language the view speaks (the one spoken where it was made): a renderer says its own
    #: words (alt texts, labels it adds) in it too.
    locale: str = field(default_factory=current)

    def card_line(self) -> str:
        """The face-up cards as standalone capital letters: ``A C T``."""
        return " ".join(card.letter or "_" for card in self.cards)

    def plain(self) -> str:
        """The whole view as plain text (no markup, no colour, no user-text marks)."""
        return plain_text(self.text())

    def text(self) -> str:
        """The whole view as one text with its user parts marked (a renderer's plain form:
        Slack's ``text`` fallback escapes it); seat names are their players' own."""
        parts: list[str] = []
        if self.title:
            parts.append(self.title)
        if self.cards:
            parts.append(_("Cards: {cards}", cards=self.card_line()))
        parts.extend(self.grid)
        parts.extend(self.lines)
        for seat in self.seats:
            extra = f" — {seat.detail}" if seat.detail else ""
            parts.append(f"{'▶ ' if seat.active else ''}{user(seat.name)}: {seat.score}{extra}")
        return "\n".join(parts)


def picture_key(view: View) -> tuple[object, ...]:
    """What a view's picture shows: two views with the same key draw the same picture."""
    return (view.title, view.cards, view.board, view.board_labels)


def message(text: str, kind: ViewKind = "announce", title: str = "") -> View:
    """A simple text message."""
    return View(kind=kind, title=title, lines=tuple(text.splitlines()) or (text,))


def error(text: str) -> View:
    """A friendly refusal or error, addressed to whoever caused it."""
    return message(text, kind="error")


def lobby(
    info: GameInfo,
    host: str,
    players: Sequence[str],
    bots: int,
    options: Mapping[str, OptionValue],
    *,
    open_: bool = True,
) -> View:
    """The lobby message with Join / Leave / Start buttons (its title names the game's language
    when it is not English: ``moji race — lobby · French``)."""
    lines = [_(info.summary), ""]
    people = ", ".join(map(user, players))
    if bots:
        lines.append(
            _n(
                "Players: {players} + {count} computer",
                "Players: {players} + {count} computer",
                bots,
                players=people,
            )
        )
    else:
        lines.append(_("Players: {players}", players=people))
    changed = [f"{k}={user(format_value(v))}" for k, v in options.items() if _differs(info.options, k, v)]
    if changed:
        lines.append(_("Options: {options}", options=" ".join(changed)))
    if open_:
        if grammar.is_you(host):  # the terminal's own player
            lines.append(_("You start the game with Start (or /moji go). Others: Join (or /moji join)."))
        else:
            lines.append(
                _(
                    "{name} starts the game with Start (or /moji go). Others: Join (or /moji join).",
                    name=user(host),
                )
            )
    buttons = (
        (
            ButtonSpec(JOIN, _p("button", "Join"), "primary"),
            ButtonSpec(LEAVE, _p("button", "Leave")),
            ButtonSpec(GO, _p("button", "Start"), "success"),
        )
        if open_
        else ()
    )
    spoken = LANGUAGES.get(str(options.get("language", "en")))
    title = _("{game} — lobby", game=_(info.title))
    if spoken and spoken.code != "en":
        # TRANSLATORS: {language} is the language of the game's words, in that language's own name
        title = _(
            "{game} — lobby · {language}",
            game=_(info.title),
            language=_language_name(spoken.code, spoken.name),
        )
    return View(
        kind="lobby",
        title=title,
        lines=tuple(lines),
        buttons=buttons,
        game=info.name,
        threaded=not info.realtime,
    )


#: The languages of words, named in the language spoken (``French``, ``Französisch``).
LANGUAGE_NAMES: dict[str, str] = {
    "en": N_("English"),
    "nl": N_("Dutch"),
    "fr": N_("French"),
    "de": N_("German"),
    "es": N_("Spanish"),
}


def _language_name(code: str, name: str) -> str:
    """A language of words, named in the language spoken."""
    return _(LANGUAGE_NAMES[code]) if code in LANGUAGE_NAMES else name


def _differs(specs: Sequence[OptionSpec], name: str, value: OptionValue) -> bool:
    return any(spec.name == name and spec.default != value for spec in specs)


def table(
    snapshot: Snapshot,
    game: str,
    *,
    realtime: bool,
    settles_at: float | None = None,
    final: bool = False,
    turn_moves: Sequence[tuple[str, str]] = (),
) -> View:
    """A game's public table (``final``: the game is over, so no buttons).

    A real-time game has a Skip button; a turn-based one its ``turn_moves`` (moves that
    need no more typing) and a button that shows one's own rack privately.
    """
    buttons: tuple[ButtonSpec, ...] = ()
    if realtime and snapshot.cards and not final:
        buttons = (ButtonSpec(SKIP, _p("button", "Stuck? Skip")),)
    elif not realtime and not final:
        moves = tuple(ButtonSpec(MOVE + move, _(label)) for label, move in turn_moves)
        buttons = (ButtonSpec(HAND, _p("button", "My rack"), "primary"), *moves)
    return View(
        kind="table",
        title=snapshot.title,
        lines=snapshot.lines,
        cards=snapshot.cards,
        seats=snapshot.seats,
        grid=snapshot.grid,
        board=snapshot.board,
        board_labels=snapshot.board_labels,
        buttons=buttons,
        deadline=snapshot.deadline,
        game=game,
        settles_at=settles_at,
    )


def duration(seconds: float) -> str:
    """A span of time as a player reads it (``45 s``, ``1 min 15 s``, ``71 h 59 min``, ``4 days``):
    the one formatter shared with the games' own messages."""
    return spoken_duration(seconds)


def turn(seat: str, text: str, deadline: float | None, game: str) -> View:
    """A small message that notifies ``seat`` (a mention): their turn, or a reminder."""
    return View(kind="turn", lines=(text,), deadline=deadline, mentions=(seat,), game=game)


def private(snapshot: Snapshot, game: str) -> View:
    """A player's private view: their hand, rack or list (the board stays on the table)."""
    return View(
        kind="private",
        title=snapshot.title,
        lines=snapshot.lines,
        cards=snapshot.cards,
        game=game,
    )


def board_text(snapshot: Snapshot, game: str) -> View:
    """``board``: the table's board as text rows (for a screen reader, or a closer look)."""
    lines = snapshot.grid or (_("This game has no board."),)
    return View(
        kind="info",
        title=snapshot.title,
        grid=lines if snapshot.grid else (),
        lines=() if snapshot.grid else lines,
        game=game,
    )


def result(
    info: GameInfo,
    outcome: Result,
    names: Mapping[str, str],
    *,
    ending: Sequence[str] = (),
    ratings: Sequence[str] = (),
) -> View:
    """The final scores; ``ending`` is what the game said as it ended (shown once, above them);
    ``ratings`` each person's rating change (``Ann 1,512 → 1,538``), below them."""
    ranked = sorted(
        outcome.scores.items(), key=lambda item: (-item[1], plain_text(names.get(item[0], item[0])))
    )
    head = [line for text in ending for line in text.splitlines()]
    # the summary often repeats what the game said as it ended: each line is said once
    head += [line for line in outcome.summary.splitlines() if line not in head or not line.strip()]
    lines = [*head, ""] if head else []
    for place, (seat, points) in enumerate(ranked, start=1):
        crown = " 👑" if seat in outcome.winners else ""
        best = outcome.best_words.get(seat)
        who = user(names.get(seat, seat))
        if best:
            line = _n(
                "{place}. {name} — {count} pt{crown} (best word: {word})",
                "{place}. {name} — {count} pts{crown} (best word: {word})",
                points,
                place=place,
                name=who,
                crown=crown,
                word=user(best.upper()),
            )
        else:
            line = _n(
                "{place}. {name} — {count} pt{crown}",
                "{place}. {name} — {count} pts{crown}",
                points,
                place=place,
                name=who,
                crown=crown,
            )
        lines.append(line)
    if ratings and not outcome.voided:
        lines += ["", _("📈 Ratings: {ratings}", ratings=" · ".join(ratings))]
    if outcome.voided:
        title = _("{game} — game void", game=_(info.title))
    else:
        title = _("{game} — game over", game=_(info.title))
    return View(kind="result", title=title, lines=tuple(lines), game=info.name)


def rules(info: GameInfo) -> View:
    """``rules <game>``: the rules help and every option."""
    lines = [
        *info.rules_text().splitlines(),
        "",
        _("Options (start {game} key=value …):", game=info.name),
    ]
    lines.extend("• " + spec.describe() for spec in info.options)
    return View(
        kind="help", title=_("How to play {game}", game=_(info.title)), lines=tuple(lines), game=info.name
    )
