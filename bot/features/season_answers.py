"""The answers of ``season``: the list of seasons, one season's leaderboard, ending a season and
rebuilding every rating (admins)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.core import views
from bot.core.commands import CommandError
from bot.core.events import Command
from bot.core.registry import Registry
from bot.features import rated
from games.common.speech import _, _n

if TYPE_CHECKING:
    from storage.base import Store


def points_text(points: int) -> str:
    """``12 pts`` (a leaderboard's points)."""
    return _n("{count} pt", "{count} pts", points)


async def answer(store: Store, registry: Registry | None, cmd: Command, args: Sequence[str]) -> views.View:
    """``season`` lists seasons, ``season N`` shows one, ``season reset`` starts the next and
    ``season rebuild`` recomputes every rating (admins)."""
    platform, ws = cmd.chat.platform, cmd.chat.workspace_id
    if args and args[0].lower() == "rebuild":
        if not cmd.player.is_admin:
            raise CommandError(_("Only workspace admins can rebuild the ratings."))
        return await rated.rebuild(store, cmd.chat)
    if args and args[0].lower() == "reset":
        if not cmd.player.is_admin:
            raise CommandError(_("Only workspace admins can end a season."))
        new = await store.reset_season(platform, ws, datetime.now(UTC))
        await rated.new_season(store, cmd.chat)
        return views.message(
            _(
                "Season {old} is archived (see `season {old}`); season {new} starts now with a "
                "clean leaderboard. Ratings carry over softly: each keeps half its lead over a "
                "newcomer's, and moves faster again for a while.",
                old=str(new.number - 1),
                new=str(new.number),
            ),
            "info",
        )
    seasons = await store.seasons(platform, ws)
    current = seasons[-1].number if seasons else 1
    if args:
        try:
            number = int(args[0])
        except ValueError:
            raise CommandError(_("Use `season`, `season 2` or `season reset`.")) from None
        if not any(s.number == number for s in seasons) and number != current:
            raise CommandError(
                _(
                    "There is no season {number} here (this is season {current}).",
                    number=str(number),
                    current=str(current),
                )
            )
        rows = await store.season_leaderboard(platform, ws, None, number, 10)
        if number == current:
            title = _("🏆 Season {number} (current)", number=str(number))
        else:
            title = _("🏆 Season {number}", number=str(number))
        lines = [
            rated.ranked_line(
                row.rank,
                views.user(row.display_name),
                points_text(row.points),
                rated.games_wins(row.games, row.wins),
            )
            for row in rows
        ] or [_("Nobody scored in that season.")]
        if number != current:
            lines += await rated.season_lines(store, cmd.chat, number, registry)
        return views.View(kind="leaderboard", title=title, lines=tuple(lines))
    lines = []
    for season in seasons or []:
        top = await store.season_leaderboard(platform, ws, None, season.number, 1)
        label = str(season.number)
        if not top:
            leader = _("nobody yet")
        else:
            leader = _(
                "{name} ({points})", name=views.user(top[0].display_name), points=points_text(top[0].points)
            )
        if season.ended_at is None:
            lines.append(_("Season {number} (current): {leader}", number=label, leader=leader))
        else:
            lines.append(_("Season {number} (archived): {leader}", number=label, leader=leader))
    if not lines:
        lines = [_("Season 1 is under way.")]
    return views.View(kind="leaderboard", title=_("📅 Seasons"), lines=tuple(lines))
