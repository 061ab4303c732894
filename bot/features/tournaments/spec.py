"""Reading ``tournament arena race 30m`` and ``tournament swiss board rounds=4 round=24h``.

A new tournament is its format, its game, the tournament's own settings (``rounds=``,
``round=``, ``register=``, ``bots=``; an arena's window as a bare duration) and the game's
options (``cards=5``, ``level=hard``), checked as ``start`` checks them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.commands import CommandError, parse_start
from bot.core.registry import Registry
from games.common.grammar import excerpt
from games.common.protocol import GameInfo
from games.common.speech import _, duration
from storage.tournament_records import ARENA, ROUND_ROBIN, SWISS

#: The words that name each format.
FORMATS: dict[str, str] = {
    "arena": ARENA,
    "swiss": SWISS,
    "roundrobin": ROUND_ROBIN,
    "round-robin": ROUND_ROBIN,
    "rr": ROUND_ROBIN,
    "league": ROUND_ROBIN,
}

#: The defaults, and the bounds each setting is held to.
ARENA_WINDOW = 30 * 60.0
ROUND_TIME = 24 * 3600.0
REGISTER_TIME = 10 * 60.0
SWISS_ROUNDS = 4
MOST_ROUNDS = 15
MOST_BOTS = 63
SHORTEST_WINDOW, LONGEST_WINDOW = 5 * 60.0, 24 * 3600.0
SHORTEST_ROUND, LONGEST_ROUND = 5 * 60.0, 14 * 24 * 3600.0
LONGEST_REGISTER = 7 * 24 * 3600.0

_DURATION = re.compile(r"^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m(?:in)?)?(?:(\d+)s)?$")
#: The tournament's own settings (the other ``key=value`` words are the game's options).
OWN = ("rounds", "round", "register", "bots", "window")


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """A tournament as its creator asked for it."""

    format: str
    game: GameInfo
    options: tuple[str, ...]  # the game's options as typed (``cards=5``)
    rounds: int  # a Swiss's rounds (round-robin: as many as it needs; an arena: 0)
    round_seconds: float  # a round's time, or an arena's window
    register_seconds: float  # how long registration stays open (an arena: 0, open at once)
    bots: int  # computer players entered


def seconds(text: str) -> float | None:
    """``30m``, ``24h``, ``1h30m``, ``2d``, ``90s`` (a bare number: minutes) in seconds."""
    text = text.strip().lower()
    if text.isdigit():
        return int(text) * 60.0
    found = _DURATION.match(text)
    if found is None or not any(found.groups()):
        return None
    days, hours, minutes, secs = (int(part or 0) for part in found.groups())
    return float(((days * 24 + hours) * 60 + minutes) * 60 + secs)


def _bounded(name: str, value: float | None, least: float, most: float) -> float:
    if value is None or not least <= value <= most:
        raise CommandError(
            _(
                "{setting} takes a time from {least} to {most}, like `{setting}=30m` or `{setting}=24h`.",
                setting=name,
                least=duration(int(least)),
                most=duration(int(most)),
            )
        )
    return value


def parse_tournament(args: Sequence[str], registry: Registry) -> TournamentSpec:
    """Read ``FORMAT GAME [WINDOW] [rounds=N] [round=24h] [register=10m] [bots=N] [option=value …]``."""
    words = list(args)
    fmt = FORMATS.get(words.pop(0).lower()) if words else None
    if fmt is None:
        raise CommandError(
            _(
                "Say which kind of tournament: `tournament arena race 30m`, `tournament swiss board "
                "rounds=4 round=24h` or `tournament roundrobin dice`."
            )
        )
    own: dict[str, str] = {}
    rest: list[str] = []
    for word in words:
        key, sep, value = word.partition("=")
        if sep and key.lower() in OWN:
            own[key.lower()] = value
        elif not sep and seconds(word) is not None and fmt == ARENA and "window" not in own:
            own["window"] = word
        else:
            rest.append(word)
    if not rest or "=" in rest[0] or registry.find(rest[0]) is None:
        raise CommandError(
            _("Say which game the tournament plays: {games}.", games=", ".join(registry.names()))
        )
    info, __ = parse_start(rest, registry)  # the game's options, checked as `start` checks them
    live_mode = any(spec.name == "live" and spec.kind == "bool" for spec in info.options)
    if fmt == ARENA and not info.realtime and live_mode:
        # a turn-based game with a live mode (MOJO, dice) plays an arena's games in it
        given = {word.partition("=")[0].lower() for word in rest[1:]}
        rest = [*rest, "live=on"] if not given & {"live"} else rest
        parse_start(rest, registry)
    if fmt == ARENA and not info.realtime and not live_mode:
        raise CommandError(
            _(
                "An arena plays back-to-back live games; {game} is played in turns: try "
                "`tournament swiss {name}` or `tournament roundrobin {name}`.",
                game=_(info.title),
                name=info.name,
            )
        )
    options = tuple(rest[1:])
    if fmt != ARENA and (info.realtime or not info.min_players <= 2 <= info.max_players):
        raise CommandError(
            _(
                "A Swiss or a round-robin pairs two players a game in turn-based games (board, dice, "
                "shed, paths); {game} is a live game for a crowd: try `tournament arena {name} 30m`.",
                game=_(info.title),
                name=info.name,
            )
        )
    try:
        bots = int(own.get("bots", "0"))
    except ValueError:
        bots = -1
    if not 0 <= bots <= MOST_BOTS:
        raise CommandError(_("bots takes a number from 0 to {most}, like `bots=3`.", most=MOST_BOTS))
    if fmt == ARENA:
        window = _bounded("window", seconds(own.get("window", "30m")), SHORTEST_WINDOW, LONGEST_WINDOW)
        return TournamentSpec(fmt, info, options, 0, window, 0.0, bots)
    rounds = SWISS_ROUNDS
    if "rounds" in own:
        rounds = int(own["rounds"]) if own["rounds"].isdigit() else 0
        if not 1 <= rounds <= MOST_ROUNDS or fmt == ROUND_ROBIN:
            if fmt == ROUND_ROBIN:
                raise CommandError(
                    _("A round-robin plays as many rounds as it needs for everyone to meet everyone.")
                )
            raise CommandError(
                _("rounds takes a number from 1 to {most}, like `rounds=4`.", most=MOST_ROUNDS)
            )
    round_time = _bounded("round", seconds(own.get("round", "24h")), SHORTEST_ROUND, LONGEST_ROUND)
    register = _bounded("register", seconds(own.get("register", "10m")), 0.0, LONGEST_REGISTER)
    return TournamentSpec(fmt, info, options, rounds if fmt == SWISS else 0, round_time, register, bots)


def unknown_verb(word: str) -> CommandError:
    """What ``tournament WORD`` says when WORD is nothing it knows."""
    return CommandError(
        _(
            "{word} is not a tournament command: `tournament` shows what runs here; then `join`, "
            "`leave`, `standings`, `pairings`, `rules`, and for its creator or an admin `start` and "
            "`cancel`.",
            word=excerpt(word),
        )
    )


__all__ = ["FORMATS", "OWN", "TournamentSpec", "parse_tournament", "seconds", "unknown_verb"]
