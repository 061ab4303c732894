"""Every game ends: computer-only games of every game in every language, straight through the engines.

For each game (race and its variations, board, dice, paths, shed) and language (en, de, fr, es,
nl), ``--games`` games with every seat a computer player (levels mixed, seats and options varied:
shed ``min=5``, card sets and rounds; a board with a small bag; race variations; dice strict or
challenged; paths grid sizes and Free Letter Pile), each driven by its own clock (the next
computer move or deadline, as the session would) until it ends or ``--cap`` actions have gone by.
After every action it checks the invariants:

* tiles and cards are conserved (every card or tile is in exactly one place);
* scores equal the recorded moves (board: each play adds the points it announced; dice: the
  words' scores after challenges; paths: the words marked down; race: the cards won);
* no line shown privately (a hand, a rack) appears in public text (notices or the table), and
  in shed no hand of three or more cards is ever spelled out in public.

Prints one JSON object: per game and language, finished / capped / crashed (the goal: 0 capped,
0 crashed), turns (p50, max), the end reasons seen and wall time; the first failures in detail.

Run: ``.venv/bin/python bench/bench_endings.py [--games N] [--games-only race,shed] [--languages en,de]``
(``make endings``; see docs/RELIABILITY.md for a run's figures).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.registry import load_default
from games.board.engine import BoardGame
from games.board.layout import Layout
from games.common.options import parse_options
from games.common.protocol import Action, Engine, GameInfo, Notice, Seat, Setup
from games.dice.engine import LetterDice
from games.paths.engine import PathsEngine
from games.paths.tiles import TOTAL_TILES
from games.race.cards import deck_size
from games.race.eagle import EagleEyes
from games.race.engine import FlipRace
from games.race.grid import OffTheGrid
from games.shed.cards import deck_for, hand_text, resolve_set
from games.shed.engine import ShedGame

LANGUAGES = ("en", "de", "fr", "es", "nl")
LEVELS = ("easy", "normal", "hard")
REGISTRY = load_default()
#: ``--old-rules``: play shed and board by the rules before their end rules (to compare)
OLD_RULES = False


class Broken(AssertionError):
    """An invariant that did not hold."""


# ------------------------------------------------------------------ options per game


def _race_options(rng: random.Random, lang: str) -> tuple[list[str], int]:
    variation = rng.choice(("", "", "stack-em-up", "monochrome", "off-the-grid", "eagle-eyes"))
    opts = [f"cards={rng.choice((5, 8, 15))}", f"language={lang}"]
    if variation:
        opts.append(f"variation={variation}")
    if variation == "eagle-eyes":
        opts.append(f"rounds={rng.randint(1, 3)}")
    return opts, rng.randint(2, 4)


def _board_options(rng: random.Random, lang: str) -> tuple[list[str], int]:
    return [f"layout={rng.choice(('mojo', 'classic'))}", f"language={lang}"], rng.randint(2, 4)


def _dice_options(rng: random.Random, lang: str) -> tuple[list[str], int]:
    return [
        f"words={rng.randint(1, 5)}",
        f"strict={rng.choice(('on', 'off'))}",
        f"language={lang}",
    ], rng.randint(2, 3)


def _paths_options(rng: random.Random, lang: str) -> tuple[list[str], int]:
    return [
        f"size={rng.choice((6, 8, 12))}",
        f"free-pile={rng.choice(('on', 'off'))}",
        f"knock={rng.choice((0, 20))}",
        "turn=60",
        f"language={lang}",
    ], rng.randint(2, 4)


def _shed_options(rng: random.Random, lang: str) -> tuple[list[str], int]:
    players = rng.randint(2, 4)
    return [
        f"min={rng.choice((3, 3, 5))}",
        f"cards={rng.choice(('auto', 'two', 'group', 'children'))}",
        f"rounds={rng.choice((1, 1, 2))}",
        f"actions={rng.choice(('alone', 'last'))}",
        f"language={lang}",
        *(["easy=on"] if lang != "en" else []),  # the -s/-ing/-ed bans are English-only
    ], players


OPTIONS: dict[str, Callable[[random.Random, str], tuple[list[str], int]]] = {
    "race": _race_options,
    "board": _board_options,
    "dice": _dice_options,
    "paths": _paths_options,
    "shed": _shed_options,
}


def _small_bag(layout: Layout) -> Layout:
    """A quarter of the bag (at least one of each tile): the end comes with tiles still in racks."""
    return replace(layout, counts={letter: max(1, n // 4) for letter, n in layout.counts.items()})


def create(info: GameInfo, setup: Setup, rng: random.Random) -> tuple[Engine, str]:
    """The engine, and a note on how it was made (a board with a small bag)."""
    if info.name == "board" and rng.random() < 0.3:
        lang = str(setup.options.get("language", "en"))
        layout = Layout.named(str(setup.options.get("layout", "mojo")), lang)
        return BoardGame(setup, layout=_small_bag(layout)), "small bag"
    return info.create(setup), ""


# ------------------------------------------------------------------ invariants


@dataclass
class Watch:
    """What one game is checked against, action after action."""

    engine: Engine
    total: int = -1  # cards or tiles in play
    private: set[str] = field(default_factory=set)
    announced: Counter[str] = field(default_factory=Counter)  # board: points announced per seat


_SCORED = re.compile(r" for (-?\d+):")


def conserved(engine: Engine) -> int:
    """Cards or tiles wherever they are (must stay constant)."""
    if isinstance(engine, ShedGame):
        ids = [c.id for c in engine.round.all_cards()]
        if len(ids) != len(set(ids)):
            raise Broken("a shed card is in two places")
        players = len(engine.seats)
        expected = deck_for(resolve_set(engine.config.card_set, players), players, engine.language)
        if engine.round_no and sorted(ids) != sorted(c.id for c in expected):
            raise Broken(f"shed cards: {len(ids)} in play, {len(expected)} dealt")
        return len(ids)
    if isinstance(engine, BoardGame):
        return engine.total_tiles()
    if isinstance(engine, PathsEngine):
        if engine.started and engine.tile_count() != TOTAL_TILES:
            raise Broken(f"paths tiles: {engine.tile_count()} of {TOTAL_TILES}")
        return engine.tile_count()
    if isinstance(engine, FlipRace):
        piles = [*engine.stacks.values(), *engine.piles.values(), *engine.won.values()]
        return _race_cards(engine, [c for pile in piles for c in pile] + engine.discard + engine.undealt)
    if isinstance(engine, OffTheGrid):
        on_grid = [c for c in engine.grid if c is not None]
        return _race_cards(engine, engine.deck + on_grid + [c for w in engine.won.values() for c in w])
    if isinstance(engine, EagleEyes):
        return _race_cards(engine, engine.deck + engine.discard + engine.cards)
    return 0


def _race_cards(engine: FlipRace | OffTheGrid | EagleEyes, cards: list[Any]) -> int:
    ids = [c.id for c in cards]
    size = deck_size(engine.language)
    if engine.started and (len(ids) != len(set(ids)) or len(ids) != size):
        raise Broken(f"race cards: {len(ids)} ({len(set(ids))} distinct) of {size}")
    return len(ids)


def check_scores(watch: Watch, notices: list[Notice]) -> None:
    """Scores equal what the recorded moves earned."""
    engine = watch.engine
    if isinstance(engine, BoardGame):
        for n in notices:
            found = _SCORED.search(n.text) if n.kind == "accepted" and n.seat else None
            if found:
                watch.announced[n.seat or ""] += int(found.group(1))
        if not engine.finished:  # the end adjusts for tiles left; before it, scores are the plays
            for seat, points in engine.scores.items():
                if points != watch.announced[seat]:
                    raise Broken(f"board score {points} for {seat}, moves announced {watch.announced[seat]}")
    elif isinstance(engine, LetterDice):
        for side in (0, 1):
            earned = sum(p.score for p in engine.history if p.side == side)
            if earned != engine.scores[side]:
                raise Broken(f"dice side {side} has {engine.scores[side]}, its words {earned}")
    elif isinstance(engine, PathsEngine):
        for seat, points in engine.scores.items():
            earned = sum(r.points for r in engine.board.recordings if r.seat == seat)
            if earned != points:
                raise Broken(f"paths {seat} has {points}, its words {earned}")
    elif isinstance(engine, FlipRace | OffTheGrid):
        for sid in engine.order:
            if engine.points(sid) != sum(c.points for c in engine.won[sid]):
                raise Broken(f"race {sid}: points differ from the cards won")


def check_privacy(watch: Watch, notices: list[Notice]) -> None:
    """Nothing shown privately appears in public; shed hands are never spelled out."""
    engine = watch.engine
    for n in notices:
        if n.kind == "private":
            for line in n.text.splitlines():
                line = line.strip()
                if len(line) >= 12 and any(ch.isupper() for ch in line):
                    watch.private.add(line)
    table = engine.snapshot(None)
    public = [n.text for n in notices if n.kind in ("announce", "accepted", "end", "ping")]
    public += list(table.lines) + list(table.grid) + [f"{s.name}: {s.detail}" for s in table.seats]
    text = "\n".join(public)
    lines = {line.strip() for line in text.splitlines()}
    leaked = watch.private & lines
    if leaked:
        raise Broken(f"a private line in public: {sorted(leaked)[0]!r}")
    if isinstance(engine, ShedGame):
        if table.cards or "Your hand" in text:
            raise Broken("a hand on the public table")
        for hand in engine.round.hands.values():
            if len(hand) >= 3 and hand_text(hand) in text:
                raise Broken(f"a shed hand in public: {hand_text(hand)}")


# ------------------------------------------------------------------ one game


def turns_of(engine: Engine) -> int:
    """Turns (or tables, rounds) played, as the game's docs count them for its bound."""
    if isinstance(engine, ShedGame):
        return engine.turn_no
    if isinstance(engine, BoardGame):
        return engine.moves
    if isinstance(engine, LetterDice):
        return len(engine.history)
    if isinstance(engine, PathsEngine | OffTheGrid):
        return engine.turns
    if isinstance(engine, EagleEyes):
        return engine.round
    if isinstance(engine, FlipRace):
        return engine.version
    return 0


def play(
    info: GameInfo, lang: str, seed: int, cap: int, level: str = "", extra: tuple[str, ...] = ()
) -> dict[str, Any]:
    """One computer-only game: its outcome ("finished", "capped", "crashed") and details.

    ``level`` sets every computer player's level (default: mixed); ``extra`` options override
    the varied ones."""
    rng = random.Random(seed)
    tokens, players = OPTIONS[info.name](rng, lang)
    named = {token.split("=")[0] for token in extra}
    tokens = [t for t in tokens if t.split("=")[0] not in named] + list(extra)
    options = dict(parse_options(info.options, tokens))
    if OLD_RULES:  # as a game recorded before the end rules: it replays by the old ones
        options = {k: v for k, v in options.items() if k not in ("reshuffle", "scoreless")}
    seats = [Seat(f"bot:{i}", f"Bot{i}", level or rng.choice(LEVELS)) for i in range(players)]
    engine, note = create(info, Setup(options, seats, seed), rng)
    watch = Watch(engine)
    actions = 0
    now = 0.0
    try:
        notices = engine.apply(Action("begin", now))
        watch.total = conserved(engine)
        check_privacy(watch, notices)
        idle = 0
        while not engine.finished and actions < cap:
            actions += 1
            times = [t for t in (engine.next_bot_time(), engine.next_deadline()) if t is not None]
            if not times:
                raise Broken("no computer move and no deadline: the game would wait for ever")
            when = max(now, min(times))
            idle = idle + 1 if when == now else 0
            now = when + (0.001 * idle if idle > 3 else 0.0)  # time runs on if nothing happens
            claims = engine.bot_claims(now)
            notices = []
            if claims and info.realtime:
                notices = engine.apply(Action("claims", now, claims=tuple(claims)))
            for claim in claims if not info.realtime else ():
                notices += engine.apply(Action("say", now, seat=claim.seat, text=claim.text, ref=claim.ref))
            if not claims:
                notices = engine.apply(Action("tick", now))
            if conserved(engine) != watch.total:
                raise Broken(f"{watch.total} cards or tiles became {conserved(engine)}")
            check_scores(watch, notices)
            check_privacy(watch, notices)
        outcome = "finished" if engine.finished else "capped"
        summary = engine.result().summary if engine.finished else ""
        return {
            "outcome": outcome,
            "turns": turns_of(engine),
            "end": _end_reason(info.name, summary),
            "options": tokens + ([note] if note else []),
            "seed": seed,
        }
    except Exception as exc:  # a crash or a broken invariant: reported, never hidden
        return {
            "outcome": "crashed" if not isinstance(exc, Broken) else "broken",
            "error": f"{type(exc).__name__}: {exc}",
            "trace": traceback.format_exc(limit=4)[-800:],
            "options": tokens + ([note] if note else []),
            "seed": seed,
            "actions": actions,
        }


def _end_reason(game: str, summary: str) -> str:
    """A short, name-free label for how a game ended."""
    text = re.sub(r"Bot\d+( \(bot\))?", "X", summary)
    text = re.sub(r"-?\d+", "N", text)
    return text[:70]


# ------------------------------------------------------------------ main


def run(
    game: str, lang: str, games: int, cap: int, seed: int, level: str = "", extra: tuple[str, ...] = ()
) -> dict[str, Any]:
    """``games`` games of ``game`` in ``lang``, summed up."""
    info = REGISTRY.get(game)
    started = time.perf_counter()
    results = [play(info, lang, seed * 100_003 + i, cap, level, extra) for i in range(games)]
    outcomes = Counter(r["outcome"] for r in results)
    turns = [r["turns"] for r in results if r["outcome"] == "finished"]
    ends = Counter(r["end"] for r in results if r["outcome"] == "finished")
    return {
        "game": game,
        "language": lang,
        "games": games,
        "finished": outcomes["finished"],
        "capped": outcomes["capped"],
        "crashed": outcomes["crashed"],
        "broken_invariants": outcomes["broken"],
        "turns_p50": statistics.median(turns) if turns else None,
        "turns_max": max(turns, default=None),
        "ends": dict(ends.most_common(6)),
        "seconds": round(time.perf_counter() - started, 1),
        "failures": [r for r in results if r["outcome"] != "finished"][:3],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game and language")
    parser.add_argument("--games-only", default="", help="comma-separated games (default: all)")
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--cap", type=int, default=20_000, help="actions before a game counts as capped")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--level", choices=("", *LEVELS), default="", help="every computer player's level")
    parser.add_argument("--options", default="", help="options for every game, e.g. 'min=5' (shed)")
    parser.add_argument("--old-rules", action="store_true", help="shed and board without their end rules")
    args = parser.parse_args()
    global OLD_RULES
    OLD_RULES = args.old_rules
    games = [g for g in args.games_only.split(",") if g] or REGISTRY.names()
    started = time.perf_counter()
    rows = []
    for game in games:
        for lang in [lang for lang in args.languages.split(",") if lang]:
            row = run(game, lang, args.games, args.cap, args.seed, args.level, tuple(args.options.split()))
            rows.append(row)
            print(json.dumps({k: row[k] for k in ("game", "language", "finished", "capped", "crashed")}),
                  file=sys.stderr, flush=True)  # fmt: skip
    keys = ("games", "finished", "capped", "crashed", "broken_invariants")
    total = {key: sum(r[key] for r in rows) for key in keys}
    report = {
        "bench": "endings",
        "command": " ".join(["bench/bench_endings.py", *sys.argv[1:]]),
        "total": total,
        "ok": total["capped"] == 0 and total["crashed"] == 0 and total["broken_invariants"] == 0,
        "seconds": round(time.perf_counter() - started, 1),
        "results": rows,
    }
    print(json.dumps(report, indent=2))
    if not report["ok"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
