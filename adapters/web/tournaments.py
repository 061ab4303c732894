"""A workspace's tournaments on its browsing pages (``config web on``).

Routes (``T`` is the workspace's token, ``ID`` a tournament's id):

- ``GET /w/T/tournaments``: the workspace's tournaments, newest first;
- ``GET /w/T/tournaments/ID``: one tournament: its state and rounds, the standings, each round's
  pairings and results (with a link to each recorded game's replay) and, for Swiss and
  round-robin, the crosstable;
- ``GET /w/T/tournaments/ID/live``: the same page's changing part as JSON (``version``, ``live``,
  ``html``), which ``static/tournament.js`` fetches every few seconds while the tournament is
  open or running and puts in place of the part it shows. Without the script the page is whole.

Everything is read from the database at each request, like every browsing page; names are user
text, escaped by the templates' autoescaping.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol
from urllib.parse import quote

from aiohttp import web
from markupsafe import Markup

from bot.core.registry import Registry
from bot.features.tournaments.standings import arena_standings, crosstable, standings
from games.common.speech import N_, _, _n, duration, number
from storage.browse import BrowseStore
from storage.tournament_records import (
    ADJUDICATED,
    ARENA,
    FORFEIT,
    REGISTERING,
    ROUND_ROBIN,
    RUNNING,
    SWISS,
    VOID,
    Entry,
    Tournament,
    TournamentGame,
    TournamentStore,
)

#: Tournaments the list shows.
LISTED_TOURNAMENTS = 50
#: An arena's games its page lists (the newest).
ARENA_GAMES = 50
#: Seconds between a live page's refreshes.
REFRESH_SECONDS = 10.0

FORMAT_NAMES = {ARENA: N_("arena"), SWISS: N_("Swiss"), ROUND_ROBIN: N_("round robin")}
STATE_NAMES = {
    REGISTERING: N_("open for registration"),
    RUNNING: N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}


class Site(Protocol):
    """What the tournament pages share with the other browsing pages."""

    registry: Registry
    browse: BrowseStore

    async def workspace_of(self, request: web.Request) -> tuple[str, str, str]:
        """(platform, workspace id, base path) of the request's token, or a 404 page."""
        ...

    def render(self, template: str, context: dict[str, Any], *, status: int = 200) -> web.Response:
        """A page, rendered with autoescaping."""
        ...

    def missing(self, **what: bool) -> web.HTTPNotFound:
        """The 404 page (``what`` says what was not found)."""
        ...


@dataclass(frozen=True, slots=True)
class Listed:
    """One tournament in the workspace's list."""

    tournament_id: str
    title: str
    state: str
    when: str
    players: int


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a tournament's standings, its numbers as the page writes them."""

    place: int
    name: str
    active: bool
    points: str
    buchholz: str = ""
    sonneborn_berger: str = ""
    score_for: str = ""
    played: int = 0
    wins: int = 0
    fire: bool = False


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round: who sat (first mover first), its result, its replay's address."""

    board: int
    players: tuple[str, ...]
    result: str
    replay: str | None


@dataclass(frozen=True, slots=True)
class Round:
    """A round's pairings."""

    number: int
    pairings: tuple[Pairing, ...]


@dataclass(frozen=True, slots=True)
class CrossRow:
    """One row of the crosstable: a player and what they scored against each (None: themselves)."""

    number: int
    name: str
    cells: tuple[str | None, ...]


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class TournamentPages:
    """The tournament pages of the workspaces whose web is on."""

    def __init__(self, site: Site, tournaments: TournamentStore) -> None:
        self.site = site
        self.tournaments = tournaments
        #: Seconds between a live page's refreshes (a test makes it short).
        self.refresh = REFRESH_SECONDS

    def routes(self) -> list[tuple[str, Handler]]:
        """(path, handler) of each page."""
        return [
            ("/w/{token}/tournaments", self.listing),
            ("/w/{token}/tournaments/{tournament}", self.page),
            ("/w/{token}/tournaments/{tournament}/live", self.live),
        ]

    def _title(self, tournament: Tournament) -> str:
        info = self.site.registry.find(tournament.game)
        game = info.title if info is not None else tournament.game
        kind = FORMAT_NAMES.get(tournament.format)
        return _("{game} · {format}", game=game, format=_(kind) if kind else tournament.format)

    async def listing(self, request: web.Request) -> web.Response:
        """The workspace's tournaments, newest first."""
        platform, workspace, base = await self.site.workspace_of(request)
        found = await self.tournaments.recent_tournaments(platform, workspace, LISTED_TOURNAMENTS)
        listed = []
        for t in found:
            entries = await self.tournaments.entries(t.tournament_id)
            listed.append(
                Listed(
                    t.tournament_id,
                    self._title(t),
                    _state(t),
                    _when(t.starts_at if t.starts_at is not None else t.created_at),
                    sum(1 for e in entries if e.active),
                )
            )
        return self.site.render("browse/tournaments.html", {"base": base, "tournaments": listed})

    async def page(self, request: web.Request) -> web.Response:
        """One tournament: standings, pairings, crosstable; it refreshes itself while live."""
        tournament, base, context = await self._read(request)
        html = self._live_part(context)
        return self.site.render(
            "browse/tournament.html",
            {
                **context,
                "title": self._title(tournament),
                "source": f"{base}tournaments/{quote(tournament.tournament_id, safe='')}/live",
                "refresh": self.refresh,
                "version": _version(html),
                "live_part": Markup(html),  # (rendered by the autoescaping templates)
            },
        )

    async def live(self, request: web.Request) -> web.Response:
        """The changing part of a tournament's page, as JSON for its script."""
        tournament, _base, context = await self._read(request)
        html = self._live_part(context)
        return web.json_response({"version": _version(html), "live": tournament.live, "html": html})

    def _live_part(self, context: dict[str, Any]) -> str:
        return self.site.render("browse/tournament_live.html", context).text or ""

    async def _read(self, request: web.Request) -> tuple[Tournament, str, dict[str, Any]]:
        """The request's tournament, its base path and its page's context (a 404 page when the
        tournament is unknown or another workspace's)."""
        platform, workspace, base = await self.site.workspace_of(request)
        wanted = request.match_info["tournament"]
        tournament = await self.tournaments.tournament(wanted) if len(wanted) <= 100 else None
        if tournament is None or (tournament.platform, tournament.workspace_id) != (platform, workspace):
            raise self.site.missing(tournament=True)
        entries = await self.tournaments.entries(tournament.tournament_id)
        games = await self.tournaments.tournament_games(tournament.tournament_id)
        kept = await self.site.browse.kept_logs(platform, workspace, [g.game_id for g in games if g.done])
        names = {e.user_id: e.name for e in entries}
        arena = tournament.format == ARENA
        context: dict[str, Any] = {
            "base": base,
            "t": tournament,
            "arena": arena,
            "state": _state(tournament),
            "facts": _facts(tournament, self.site.registry),
            "standings": _arena_rows(entries, games) if arena else _rows(entries, games),
            "rounds": _rounds(games, names, kept, base, arena),
            "cross": [] if arena else _cross(entries, games),
        }
        return tournament, base, context


def _state(tournament: Tournament) -> str:
    name = STATE_NAMES.get(tournament.state)
    return _(name) if name else tournament.state


def _facts(tournament: Tournament, registry: Registry) -> list[str]:
    """The lines under a tournament's title: its game's options, its rounds and their time."""
    facts: list[str] = []
    if tournament.format == ARENA:
        facts.append(_("The arena is open for {time}.", time=duration(tournament.round_seconds)))
    else:
        if tournament.round:
            facts.append(_("Round {round} of {rounds}", round=tournament.round, rounds=tournament.rounds))
        else:
            facts.append(_n("{count} round planned", "{count} rounds planned", tournament.rounds))
        facts.append(_("Each round lasts up to {time}.", time=duration(tournament.round_seconds)))
    if tournament.live and tournament.round_ends_at is not None:
        facts.append(_("This round ends at {when}.", when=_when(tournament.round_ends_at)))
    if tournament.state == REGISTERING and tournament.starts_at is not None:
        facts.append(_("Registration closes at {when}.", when=_when(tournament.starts_at)))
    if tournament.ended_at is not None:
        facts.append(_("Ended at {when}.", when=_when(tournament.ended_at)))
    if tournament.options:
        facts.append(_("Options: {options}", options=" ".join(tournament.options)))
    return facts


def _rows(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[StandingRow]:
    return [
        StandingRow(
            s.place,
            s.name,
            s.active,
            points(s.points),
            points(s.buchholz),
            points(s.sonneborn_berger),
            points(s.score_for),
            s.played,
            s.wins,
        )
        for s in standings(list(entries), list(games))
    ]


def _arena_rows(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[StandingRow]:
    return [
        StandingRow(s.place, s.name, s.active, points(s.points), played=s.played, wins=s.wins, fire=s.fire)
        for s in arena_standings(list(entries), list(games))
    ]


def _cross(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[CrossRow]:
    order = standings(list(entries), list(games))
    table = crosstable(list(entries), list(games))
    rows = []
    for number_, row in enumerate(order, 1):
        scored = table.get(row.user_id, {})
        rows.append(
            CrossRow(
                number_,
                row.name,
                tuple(
                    None
                    if col.user_id == row.user_id
                    else " ".join(points(p) for p in scored.get(col.user_id, []))
                    for col in order
                ),
            )
        )
    return rows


def _rounds(
    games: Sequence[TournamentGame], names: dict[str, str], kept: frozenset[str], base: str, arena: bool
) -> list[Round]:
    """Each round's pairings, the newest round first (an arena: its newest games, one list)."""
    by_round: dict[int, list[Pairing]] = {}
    for game in games:
        by_round.setdefault(0 if arena else game.round, []).append(
            Pairing(
                game.board,
                tuple(names.get(seat.user_id, seat.user_id) for seat in game.seats),
                result(game, names if arena else None),
                f"{base}r/{quote(game.game_id, safe='')}" if game.done and game.game_id in kept else None,
            )
        )
    if arena:
        newest = list(reversed(by_round.get(0, [])))[:ARENA_GAMES]
        return [Round(0, tuple(newest))] if newest else []
    return [Round(n, tuple(p)) for n, p in sorted(by_round.items(), reverse=True)]


def result(game: TournamentGame, names: dict[str, str] | None = None) -> str:
    """A game's result as its pairing shows it: ``1–0``, ``½–½``, ``bye``, ``1–0 (adjudicated)``…
    (``names``: an arena game's, each seat's points after their name)."""
    if game.is_bye:
        return _("bye")
    if not game.done:
        return _("playing")
    scored = [seat.points for seat in game.seats]
    if game.how == VOID or any(p is None for p in scored):
        return _("void")
    if names is not None:
        shown = ", ".join(
            _("{name} {points}", name=names.get(s.user_id, s.user_id), points=points(s.points or 0.0))
            for s in game.seats
        )
    else:
        shown = "–".join(points(p or 0.0) for p in scored)
    if game.how == ADJUDICATED:
        return _("{result} (adjudicated)", result=shown)
    if game.how == FORFEIT:
        return _("{result} (forfeit)", result=shown)
    return shown


def points(value: float) -> str:
    """Points as a tournament writes them: ``2``, ``1½``, ``½``; other fractions to two places."""
    doubled = value * 2
    if math.isfinite(doubled) and math.isclose(doubled, round(doubled), abs_tol=1e-9):
        whole, half = divmod(round(doubled), 2)
        if not half:
            return number(whole)
        return f"{number(whole) if whole else ''}½"
    return number(round(value, 2))


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _version(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()[:16]


__all__ = ["REFRESH_SECONDS", "TournamentPages", "points", "result"]
