"""Run one benchmark in two checkouts, alternately, and compare their medians.

On a shared machine the load changes from minute to minute, so a "before" measured at one
time and an "after" at another say little. This runs the same benchmark script in the
checkout under test and in another one (``--before DIR``, e.g. a ``git worktree`` of an older
commit), in alternating rounds, and prints JSON: for every number the benchmarks print (nested
keys joined with ``.``), the median of each side and the ratio after/before (below 1: the
checkout under test is faster or smaller).

Run: ``.venv/bin/python bench/side_by_side.py --before /tmp/before --rounds 5 bench/bench_manager.py``
(arguments after the script are passed to it in both checkouts).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def numbers(value: Any, prefix: str = "") -> dict[str, float]:
    """Every number in a JSON value, by its dotted path (booleans left out)."""
    found: dict[str, float] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            found.update(numbers(item, f"{prefix}{key}."))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found.update(numbers(item, f"{prefix}{i}."))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        found[prefix.rstrip(".")] = float(value)
    return found


def run(checkout: Path, script: str, args: list[str]) -> dict[str, float]:
    """One run of ``script`` in ``checkout``: the numbers of every JSON line it prints (a line
    with a ``scenario`` is keyed by it). A benchmark that exits 1 for a missed budget still
    counts: its figures are what is compared."""
    done = subprocess.run(
        [sys.executable, str(checkout / script), *args],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"{script} in {checkout} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    found: dict[str, float] = {}
    for line in done.stdout.splitlines():
        if line.strip().startswith("{"):
            record = json.loads(line)
            scenario = record.get("scenario")
            found.update(numbers(record, f"{scenario}." if isinstance(scenario, str) else ""))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, type=Path, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("script", help="the benchmark, relative to each checkout (bench/bench_manager.py)")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args()
    sides: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for i in range(ns.rounds):
        order = ("before", "after") if i % 2 == 0 else ("after", "before")
        for side in order:
            sides[side].append(run(ns.before if side == "before" else HERE, ns.script, ns.args))
    keys = sorted(set(sides["before"][0]) & set(sides["after"][0]))
    result: dict[str, Any] = {"benchmark": ns.script, "args": ns.args, "rounds": ns.rounds, "metrics": {}}
    for key in keys:
        before = statistics.median(r[key] for r in sides["before"] if key in r)
        after = statistics.median(r[key] for r in sides["after"] if key in r)
        result["metrics"][key] = {
            "before": round(before, 4),
            "after": round(after, 4),
            "ratio": round(after / before, 3) if before else None,
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
