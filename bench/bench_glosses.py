"""Benchmark the glosses (``define``, hints): load time, memory added and lookup time. Prints JSON.

Each language is measured in a fresh process, so its load and memory are its own. Figures are in
docs/PERFORMANCE.md ("Glosses"). Run: ``python bench/bench_glosses.py`` (every language) or
``python bench/bench_glosses.py --language en``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CODES = ("en", "de", "fr", "es", "nl")


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        return 0.0


def measure(code: str) -> dict[str, object]:
    """Load ``code``'s glosses in this process and time lookups of its own words and of misses."""
    from games.lexicon import glosses

    before = rss_mb()
    start = time.perf_counter()
    table = glosses.load(code)
    load_s = time.perf_counter() - start
    added = rss_mb() - before
    assert table is not None, f"no glosses for {code}"
    path = glosses.data_file(code)
    lines = gzip.decompress(path.read_bytes()).decode().split("\n")[1:]
    words = [line.split("\t", 1)[0] for line in lines if line]
    rng = random.Random(1)
    sample = rng.sample(words, min(2000, len(words)))
    misses = ["".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(7)) for _ in range(500)]
    hit_us: list[float] = []
    for word in sample:
        t = time.perf_counter()
        table.meaning(word)
        hit_us.append((time.perf_counter() - t) * 1e6)
    miss_us: list[float] = []
    for word in misses:
        t = time.perf_counter()
        table.meaning(word)
        miss_us.append((time.perf_counter() - t) * 1e6)
    hit_us.sort()
    miss_us.sort()
    return {
        "words": len(table),
        "file_bytes": path.stat().st_size,
        "text_bytes": sum(len(line.encode()) + 1 for line in lines),
        "load_s": round(load_s, 3),
        "rss_added_mb": round(added, 1),
        "lookup_us_median": round(statistics.median(hit_us), 1),
        "lookup_us_p99": round(hit_us[int(0.99 * len(hit_us))], 1),
        "miss_us_median": round(statistics.median(miss_us), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--language", default="all", choices=[*CODES, "all"])
    parser.add_argument("--one", help=argparse.SUPPRESS)  # (internal: measure one in this process)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one)))
        return
    codes = CODES if args.language == "all" else (args.language,)
    out = {}
    for code in codes:
        done = subprocess.run(
            [sys.executable, __file__, "--one", code], capture_output=True, text=True, check=True
        )
        out[code] = json.loads(done.stdout)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
