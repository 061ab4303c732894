"""What a tournament says in chat: its announcements, pairings, results and standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from babel.numbers import format_decimal

from bot.core import views
from bot.features.tournaments.standings import ArenaStanding, Standing
from games.common.speech import _, _n, babel_locale, duration, number
from storage.tournament_records import (
    ADJUDICATED,
    ARENA,
    BYE,
    FORFEIT,
    ROUND_ROBIN,
    Entry,
    Tournament,
    TournamentGame,
)

#: Medals of the podium.
MEDALS = ("🥇", "🥈", "🥉")
#: How many lines of standings chat shows (the web page has them all).
SHOWN = 10


def points_text(points: float) -> str:
    """Tournament points as people write them: ``3``, ``2½``, ``½``; a tie-break that is not a
    whole or a half (Sonneborn-Berger can be ``5.25``) as a decimal number of the language."""
    if points * 2 != int(points * 2):
        return format_decimal(round(points, 2), locale=babel_locale())
    whole, half = int(points), points != int(points)
    if half:
        return "½" if whole == 0 else f"{number(whole)}½"
    return number(whole)


def format_name(t: Tournament) -> str:
    """``Swiss``, ``Round-robin``, ``Arena``, in the language spoken."""
    if t.format == ARENA:
        return _("Arena")
    if t.format == ROUND_ROBIN:
        return _("Round-robin")
    return _("Swiss")


def title(t: Tournament, game_title: str) -> str:
    """``🏆 Dice — Swiss``."""
    return _("🏆 {game} — {format}", game=game_title, format=format_name(t))


def name_of(entries: Mapping[str, Entry], user_id: str) -> str:
    """A player's name as chat shows it (user text, marked)."""
    entry = entries.get(user_id)
    return views.user(entry.name) if entry is not None else _("someone")


def score_text(game: TournamentGame) -> str:
    """``1–0``, ``½–½``, ``0–1`` of a two-seat game that is done."""
    return "–".join(points_text(seat.points or 0.0) for seat in game.seats)


def pairing_line(game: TournamentGame, entries: Mapping[str, Entry]) -> str:
    """One board of a round, with its result once it has one."""
    if game.how == BYE or len(game.seats) == 1:
        return _("Bye: {name} (1 point)", name=name_of(entries, game.seats[0].user_id))
    first, second = (name_of(entries, seat.user_id) for seat in game.seats[:2])
    if not game.done:
        return _("Board {board}: {first} – {second}", board=game.board, first=first, second=second)
    if game.how == FORFEIT:
        return _(
            "Board {board}: {first} {result} {second} (by forfeit)",
            board=game.board,
            first=first,
            second=second,
            result=score_text(game),
        )
    if game.how == ADJUDICATED:
        return _(
            "Board {board}: {first} {result} {second} (adjudicated at the round's end)",
            board=game.board,
            first=first,
            second=second,
            result=score_text(game),
        )
    return _(
        "Board {board}: {first} {result} {second}",
        board=game.board,
        first=first,
        second=second,
        result=score_text(game),
    )


def standing_lines(rows: Sequence[Standing], *, final: bool = False) -> list[str]:
    """Swiss or round-robin standings, the first :data:`SHOWN` of them."""
    lines = []
    for row in rows[:SHOWN]:
        medal = MEDALS[row.place - 1] + " " if final and row.place <= len(MEDALS) else ""
        lines.append(
            _(
                "{medal}{place}. {name} — {points} (Buchholz {buchholz}, Sonneborn-Berger {sb})",
                medal=medal,
                place=row.place,
                name=views.user(row.name),
                points=_n(
                    "{points} point", "{points} points", _plural(row.points), points=points_text(row.points)
                ),
                buchholz=points_text(row.buchholz),
                sb=points_text(row.sonneborn_berger),
            )
        )
    if len(rows) > SHOWN:
        lines.append(_n("… and {count} more.", "… and {count} more.", len(rows) - SHOWN))
    return lines


def arena_lines(rows: Sequence[ArenaStanding], *, final: bool = False) -> list[str]:
    """Arena standings, the first :data:`SHOWN` of them (🔥: on a winning streak)."""
    lines = []
    for row in rows[:SHOWN]:
        medal = MEDALS[row.place - 1] + " " if final and row.place <= len(MEDALS) else ""
        fire = " 🔥" if row.fire and not final else ""
        lines.append(
            _(
                "{medal}{place}. {name} — {points}, {games}{fire}",
                medal=medal,
                place=row.place,
                name=views.user(row.name),
                points=_n(
                    "{points} point", "{points} points", _plural(row.points), points=points_text(row.points)
                ),
                games=_n("{count} game", "{count} games", row.played),
                fire=fire,
            )
        )
    if len(rows) > SHOWN:
        lines.append(_n("… and {count} more.", "… and {count} more.", len(rows) - SHOWN))
    return lines


def _plural(points: float) -> int:
    """The count a number of points takes its plural form by (½ and 1½ read as plural)."""
    return int(points) if points == int(points) else 2


def rounds_text(t: Tournament) -> str:
    """``4 rounds of 24 h`` (a round-robin: ``rounds of 24 h``), or an arena's window."""
    if t.format == ARENA:
        return _("{time} of back-to-back games", time=duration(int(t.round_seconds)))
    if t.format == ROUND_ROBIN:
        return _("everyone meets everyone, {time} a round", time=duration(int(t.round_seconds)))
    return _n(
        "{count} round of {time}", "{count} rounds of {time}", t.rounds, time=duration(int(t.round_seconds))
    )


__all__ = [
    "MEDALS",
    "SHOWN",
    "arena_lines",
    "format_name",
    "name_of",
    "pairing_line",
    "points_text",
    "rounds_text",
    "score_text",
    "standing_lines",
    "title",
]
