"""Computer players' vocabularies and word-source preparation.

Prints JSON with two parts:

* ``vocabulary``: for each game, whole English games of two computer players of one level,
  with the level's vocabulary (now) and with the whole dictionary (before: the vocabulary
  switched off), side by side: median points per player per game (strength), median moves a
  game, median CPU milliseconds a computer move takes (speed), and the share of words played that
  are below the level's cut-off.
* ``first_move``: the first computer move of a Shed game with ``min=5 easy=on
  dictionary=casual`` and of a board game with ``dict=casual``, with its word source built on
  the spot (before) and after the game's ``prepare(language, options)`` ran as the lobby opened
  (now). Each is measured in a fresh process, so nothing is cached from an earlier game.

Times are CPU seconds of the process (``time.process_time``), steadier than the wall clock on a
shared machine; the first-move part gives the wall clock too.

Run: ``.venv/bin/python bench/bench_bots.py [--games N] [--part vocabulary|first_move]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.common.options import parse_options
from games.common.protocol import Action, GameInfo, Seat, Setup
from games.lexicon import vocabulary as vocabulary_module
from games.lexicon.vocabulary import LEVEL_ZIPF, knows

GAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "race": ("games.race", ("cards=3",)),
    "board": ("games.board", ()),
    "dice": ("games.dice", ()),
    "paths": ("games.paths", ("size=8",)),
    "shed": ("games.shed", ("hand=7",)),
}


def _info(module: str) -> GameInfo:
    import importlib

    info: GameInfo = importlib.import_module(module).GAME
    return info


def _words(engine: Any, text: str) -> list[str]:
    """The words a move plays (as the property test reads them; cross-words left out here)."""
    tokens = text.split()
    if not tokens or tokens[0].lower() in {
        "challenge",
        "accept",
        "concede",
        "pass",
        "blank",
        "discard",
        "swap",
    }:
        return []
    name = type(engine).__module__
    if "shed" in name:
        from games.shed.notation import Form, parse

        try:
            ops = parse(text, engine.language)
        except Exception:
            return []
        return [w.replace("*", "") for op in ops if isinstance(op, Form) for w in op.words]
    if "paths" in name:
        return [t.lower() for t in (tokens[1:] if tokens[0].lower() == "knock" else tokens[2:])]
    if "board" in name:
        return [
            t.lower() for t in tokens if t.isalpha() and len(t) > 1 and t.lower() not in {"across", "down"}
        ]
    return [tokens[0].lower()]


def play(info: GameInfo, extra: tuple[str, ...], level: str, seed: int) -> dict[str, Any]:
    options = parse_options(info.options, extra)
    seats = [Seat("bot:1", "One", level), Seat("bot:2", "Two", level)]
    engine = info.create(Setup(options=options, seats=seats, seed=seed))
    engine.apply(Action("begin", 0.0))
    now, moves, think, words = 0.0, 0, [], []
    for _ in range(3000):
        if engine.finished:
            break
        times = [t for t in (engine.next_deadline(), engine.next_bot_time()) if t is not None]
        if not times:
            break
        now = max(now, min(times))
        started = time.process_time()
        claims = engine.bot_claims(now)
        if claims:
            think.append((time.process_time() - started) * 1000)
        if not claims:
            engine.apply(Action("tick", now))
            continue
        for claim in claims:
            words += _words(engine, claim.text)
        if info.realtime:
            engine.apply(Action("claims", now, claims=tuple(claims)))
        else:
            for claim in claims:
                engine.apply(Action("say", now, seat=claim.seat, text=claim.text))
                moves += 1
    scores = engine.result().scores
    return {
        "finished": engine.finished,
        "points": statistics.mean(scores.values()) if scores else 0.0,
        "moves": moves,
        "think_ms": think,
        "words": words,
    }


def vocabulary_part(games: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    saved = dict(LEVEL_ZIPF)
    for name, (module, extra) in GAMES.items():
        info = _info(module)
        rows: dict[str, Any] = {}
        for level in ("easy", "normal", "hard"):
            for mode in ("now", "before"):
                if level == "hard" and mode == "before":
                    continue  # hard is unchanged
                vocabulary_module.LEVEL_ZIPF.update(saved)
                known = knows(level, "en")  # the level's cut-off, to count rarer words in both modes
                vocabulary_module.LEVEL_ZIPF.clear()
                vocabulary_module.LEVEL_ZIPF.update(saved if mode == "now" else {})
                results = [play(info, extra, level, seed) for seed in range(games)]
                words = [w for r in results for w in r["words"]]
                think = [ms for r in results for ms in r["think_ms"]]
                rows[f"{level} {mode}"] = {
                    "finished": sum(r["finished"] for r in results),
                    "median_points": statistics.median(r["points"] for r in results),
                    "median_moves": statistics.median(r["moves"] for r in results)
                    if not info.realtime
                    else None,
                    "median_move_ms": round(statistics.median(think), 2) if think else None,
                    "rare_words_share": (
                        round(sum(1 for w in words if not known(w)) / len(words), 3)
                        if known and words
                        else None
                    ),
                }
        out[name] = rows
    vocabulary_module.LEVEL_ZIPF.clear()
    vocabulary_module.LEVEL_ZIPF.update(saved)
    return out


FIRST_MOVE = r"""
import json, sys, time
sys.path.insert(0, {root!r})
from games.common.options import parse_options
from games.common.protocol import Action, Seat, Setup
import importlib
info = importlib.import_module({module!r}).GAME
options = parse_options(info.options, {tokens!r})
from games.lexicon import load
load("casual"); load("tournament")  # the lexicon itself is loaded at start-up either way
prepared = prepared_cpu = 0.0
if {prepare!r}:
    started, cpu = time.perf_counter(), time.process_time()
    info.prepare("en", options)
    prepared, prepared_cpu = time.perf_counter() - started, time.process_time() - cpu
seats = [Seat("bot:1", "One", "normal"), Seat("bot:2", "Two", "normal")]
engine = info.create(Setup(options=options, seats=seats, seed=1))
engine.apply(Action("begin", 0.0))
due = engine.next_bot_time()
started, cpu = time.perf_counter(), time.process_time()
engine.bot_claims(due)
move, move_cpu = time.perf_counter() - started, time.process_time() - cpu
print(json.dumps({{"prepare_s": round(prepared, 3), "prepare_cpu_s": round(prepared_cpu, 3),
                  "first_move_s": round(move, 3), "first_move_cpu_s": round(move_cpu, 3)}}))
"""


def first_move_part() -> dict[str, Any]:
    root = str(Path(__file__).resolve().parents[1])
    out: dict[str, Any] = {}
    cases = {
        "shed min=5 easy=on dictionary=casual": ("games.shed", ("min=5", "easy=on", "dictionary=casual")),
        "board dict=casual": ("games.board", ("dict=casual",)),
    }
    for name, (module, tokens) in cases.items():
        row = {}
        for label, prepare in (("before", False), ("now", True)):
            code = FIRST_MOVE.format(root=root, module=module, tokens=tokens, prepare=prepare)
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            row[label] = json.loads(done.stdout.strip().splitlines()[-1])
        out[name] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=7, help="games per game, level and mode")
    parser.add_argument("--part", choices=("vocabulary", "first_move", "all"), default="all")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    if args.part in ("first_move", "all"):
        report["first_move"] = first_move_part()
    if args.part in ("vocabulary", "all"):
        report["vocabulary"] = vocabulary_part(args.games)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
