"""The commands' side of ratings: ``leaderboard … rating``, the ratings in ``stats``, and what
``season`` shows and does with them (docs/RATINGS.md). The model is :mod:`bot.ratings`."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot import views
from bot.commands import PERIODS, CommandError, parse_leaderboard
from bot.events import ChatKey
from bot.ratings import PROVISIONAL_GAMES, RATER, is_provisional, number
from bot.registry import Registry
from games.common.languages import language
from games.common.options import OptionValue
from storage.errors import StorageError
from storage.ratings import PlayerRating

if TYPE_CHECKING:
    from storage.base import Store

log = logging.getLogger(__name__)

#: Words that ask a leaderboard to rank by rating rather than points.
RATING_WORDS = frozenset({"rating", "ratings", "skill", "elo"})

#: How the rating scale reads, under a board of ratings.
SCALE = (
    f"Ranked by skill, conservatively: a newcomer starts at 1,000; a rating is provisional for its first "
    f"{PROVISIONAL_GAMES} games."
)


def wants_rating(args: Sequence[str]) -> bool:
    """Whether ``leaderboard`` was asked for ratings (``leaderboard race rating``)."""
    return any(arg.lower() in RATING_WORDS for arg in args)


def _title(registry: Registry | None, game: str, lang: str) -> str:
    info = registry.find(game) if registry is not None else None
    return f"{info.title if info else game} ({language(lang).name})"


def game_language(
    registry: Registry, args: Sequence[str], settings: Mapping[str, OptionValue]
) -> tuple[str, str]:
    """The game (the default one unless named) and language (the workspace's unless named) of a
    board of ratings."""
    rest = [arg for arg in args if arg.lower() not in RATING_WORDS]
    for arg in rest:
        if PERIODS.get(arg.lower(), "all") != "all":
            raise CommandError(
                "A rating covers every game played: leave out the period, like `leaderboard rating`."
            )
    game, _, lang = parse_leaderboard(rest, registry)
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
    title = f"🏆 Ratings — {_title(registry, game, lang)}"
    if not rows:
        return views.View(kind="leaderboard", title=title, lines=("No rated games yet. `start` one!",))
    lines = [
        f"{row.rank}. {views.user(row.display_name)} — {number(row.rating)}"
        + (" (provisional)" if is_provisional(row.games) else "")
        + f" · {row.games} games · {row.wins} wins"
        for row in rows
    ]
    return views.View(kind="leaderboard", title=title, lines=(*lines, "", SCALE))


def _trend(rating: PlayerRating) -> str:
    if len(rating.trend) < 2:
        return "first rated game"
    change = round(rating.trend[-1]) - round(rating.trend[0])
    arrow = "▲" if change > 0 else "▼" if change < 0 else "▶"
    return f"{arrow} {change:+,} over the last {len(rating.trend) - 1} games"


def stats_lines(
    ratings: Sequence[PlayerRating], registry: Registry | None, game: str | None = None, most: int = 5
) -> list[str]:
    """A player's ratings for ``stats``: each with its trend and best wins (most played first); of
    ``game`` only, with the ratings after its last games, when one is named."""
    lines = []
    chosen = [r for r in ratings if game is None or r.game == game][:most]
    if game is not None and not chosen:
        info = registry.find(game) if registry is not None else None
        lines.append(f"No rated {info.title if info else game} games yet.")
    for rating in chosen:
        line = f"📈 {_title(registry, rating.game, rating.language)}: {number(rating.rating)}"
        if is_provisional(rating.games):
            line += f" (provisional: {rating.games} of {PROVISIONAL_GAMES} games)"
        line += f" · {_trend(rating)}"
        if rating.best_wins:
            line += " · best wins over " + ", ".join(number(r) for r in rating.best_wins)
        lines.append(line)
        if game is not None and len(rating.trend) > 1:
            lines.append("   last games: " + " → ".join(number(r) for r in rating.trend))
    return lines


async def season_lines(store: Store, chat: ChatKey, season: int, registry: Registry | None) -> list[str]:
    """The best rating of each game and language as season ``season`` ended (archived ones only)."""
    lines = []
    for game, lang in await store.season_rating_games(chat.platform, chat.workspace_id, season):
        top = await store.rating_board(chat.platform, chat.workspace_id, game, lang, 1, season=season)
        if top:
            best = top[0]
            lines.append(
                f"📈 {_title(registry, game, lang)}, best rating at its end: "
                f"{views.user(best.display_name)} ({number(best.rating)})"
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
        f"Every rating here was rebuilt from {games} finished games, replayed in the order they were "
        "rated (seasons included). Voided games never count.",
        "info",
    )
