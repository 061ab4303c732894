"""The commands' side of ratings: ``leaderboard … rating``, the ratings in ``stats``, and what
``season`` shows and does with them (docs/RATINGS.md). The model is :mod:`bot.core.ratings`."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot.core import views
from bot.core.commands import PERIODS, CommandError, parse_leaderboard
from bot.core.events import ChatKey
from bot.core.ratings import PROVISIONAL_GAMES, RATER, is_provisional, number
from bot.core.registry import Registry
from bot.features.workspace_settings import language_name
from games.common.options import OptionValue
from games.common.speech import _, _n
from games.common.speech import number as speech_number
from storage.errors import StorageError
from storage.ratings import PlayerRating

if TYPE_CHECKING:
    from storage.base import Store

log = logging.getLogger(__name__)

#: Words that ask a leaderboard to rank by rating rather than points.
RATING_WORDS = frozenset({"rating", "ratings", "skill", "elo"})


def scale() -> str:
    """How the rating scale reads, under a board of ratings."""
    return _n(
        "Ranked by skill, conservatively: a newcomer starts at {start}; a rating is provisional for its "
        "first {count} game.",
        "Ranked by skill, conservatively: a newcomer starts at {start}; a rating is provisional for its "
        "first {count} games.",
        PROVISIONAL_GAMES,
        start=1000,
    )


def games_wins(games: int, wins: int) -> tuple[str, str]:
    """``3 games``, ``1 win``: a record's counts, each by the language's plural rules."""
    return _n("{count} game", "{count} games", games), _n("{count} win", "{count} wins", wins)


def ranked_line(rank: int, name: str, first: str, counts: Sequence[str], *more: str) -> str:
    """One row of a board: ``1. Ann — 1,512 · 3 games · 1 win`` (empty parts left out)."""
    details = " · ".join(part for part in (first, *counts, *more) if part)
    return _("{rank}. {name} — {details}", rank=rank, name=name, details=details)


def wants_rating(args: Sequence[str]) -> bool:
    """Whether ``leaderboard`` was asked for ratings (``leaderboard race rating``)."""
    return any(arg.lower() in RATING_WORDS for arg in args)


def _title(registry: Registry | None, game: str, lang: str) -> str:
    info = registry.find(game) if registry is not None else None
    return _("{game} ({language})", game=_(info.title) if info else game, language=language_name(lang))


def game_language(
    registry: Registry, args: Sequence[str], settings: Mapping[str, OptionValue]
) -> tuple[str, str]:
    """The game (the default one unless named) and language (the workspace's unless named) of a
    board of ratings."""
    rest = [arg for arg in args if arg.lower() not in RATING_WORDS]
    for arg in rest:
        if PERIODS.get(arg.lower(), "all") != "all":
            raise CommandError(
                _("A rating covers every game played: leave out the period, like `leaderboard rating`.")
            )
    game, _period, lang = parse_leaderboard(rest, registry)
    info = registry.get(game) if game else registry.default
    if lang is None:
        has_language = any(spec.name == "language" for spec in info.options)
        lang = str(settings.get("language", "en")) if has_language else "en"
    return info.name, lang


async def board(
    store: Store, chat: ChatKey, args: Sequence[str], registry: Registry, settings: Mapping[str, OptionValue]
) -> views.View:
    """``leaderboard [game] rating [language=CODE]``: the top ratings, from one index read."""
    game, lang = game_language(registry, args, settings)
    rows = await store.rating_board(chat.platform, chat.workspace_id, game, lang, 10)
    title = _("🏆 Ratings — {board}", board=_title(registry, game, lang))
    if not rows:
        return views.View(kind="leaderboard", title=title, lines=(_("No rated games yet. `start` one!"),))
    lines = [
        ranked_line(
            row.rank,
            views.user(row.display_name),
            _("{rating} (provisional)", rating=number(row.rating))
            if is_provisional(row.games)
            else number(row.rating),
            games_wins(row.games, row.wins),
        )
        for row in rows
    ]
    return views.View(kind="leaderboard", title=title, lines=(*lines, "", scale()))


def _trend(rating: PlayerRating) -> str:
    if len(rating.trend) < 2:
        return _("first rated game")
    change = round(rating.trend[-1]) - round(rating.trend[0])
    arrow = "▲" if change > 0 else "▼" if change < 0 else "▶"
    sign = "+" if change > 0 else "-" if change < 0 else "+"
    return _n(
        "{arrow} {change} over the last game",
        "{arrow} {change} over the last {count} games",
        len(rating.trend) - 1,
        arrow=arrow,
        change=sign + speech_number(abs(change)),
    )


def stats_lines(
    ratings: Sequence[PlayerRating], registry: Registry | None, game: str | None = None, most: int = 5
) -> list[str]:
    """A player's ratings for ``stats``: each with its trend and best wins (most played first); of
    ``game`` only, with the ratings after its last games, when one is named."""
    lines = []
    chosen = [r for r in ratings if game is None or r.game == game][:most]
    if game is not None and not chosen:
        info = registry.find(game) if registry is not None else None
        lines.append(_("No rated {game} games yet.", game=_(info.title) if info else game))
    for rating in chosen:
        shown = number(rating.rating)
        if is_provisional(rating.games):
            shown = _n(
                "{rating} (provisional: {games} of {count} game)",
                "{rating} (provisional: {games} of {count} games)",
                PROVISIONAL_GAMES,
                rating=shown,
                games=rating.games,
            )
        parts = [
            _("📈 {board}: {rating}", board=_title(registry, rating.game, rating.language), rating=shown),
            _trend(rating),
        ]
        if rating.best_wins:
            beaten = ", ".join(number(r) for r in rating.best_wins)
            parts.append(_("best wins over {ratings}", ratings=beaten))
        lines.append(" · ".join(parts))
        if game is not None and len(rating.trend) > 1:
            trend = " → ".join(number(r) for r in rating.trend)
            lines.append("   " + _("last games: {ratings}", ratings=trend))
    return lines


async def season_lines(store: Store, chat: ChatKey, season: int, registry: Registry | None) -> list[str]:
    """The best rating of each game and language as season ``season`` ended (archived ones only)."""
    lines = []
    for game, lang in await store.season_rating_games(chat.platform, chat.workspace_id, season):
        top = await store.rating_board(chat.platform, chat.workspace_id, game, lang, 1, season=season)
        if top:
            best = top[0]
            lines.append(
                _(
                    "📈 {board}, best rating at its end: {name} ({rating})",
                    board=_title(registry, game, lang),
                    name=views.user(best.display_name),
                    rating=number(best.rating),
                )
            )
    return lines


async def new_season(store: Store, chat: ChatKey) -> None:
    """Carry the ratings into the season that just started (archiving the last one). If the
    database fails here, the next rated game of the workspace does it first, the same way."""
    try:
        await store.start_rating_seasons(chat.platform, chat.workspace_id, RATER)
    except StorageError as exc:
        log.warning("ratings not carried into the new season yet (%s); the next rated game will", exc)


async def rebuild(store: Store, chat: ChatKey) -> views.View:
    """``season rebuild`` (admins): every rating recomputed from the stored results, in order."""
    games = await store.rebuild_ratings(chat.platform, chat.workspace_id, RATER)
    return views.message(
        _n(
            "Every rating here was rebuilt from {count} finished game, replayed in the order they were "
            "rated (seasons included). Voided games never count.",
            "Every rating here was rebuilt from {count} finished games, replayed in the order they were "
            "rated (seasons included). Voided games never count.",
            games,
        ),
        "info",
    )
