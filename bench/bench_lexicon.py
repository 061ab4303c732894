"""Benchmark the lexicon: load time, memory, judge, letter queries and examples. Prints JSON.

Budgets: load <= 0.3 s, RSS added <= 50 MB, a full judge with every ban p99 <= 2 us,
a pair query <= 1 us, examples for 4 face-up letters <= 1 ms. Other languages:
load <= 0.5 s and <= 40 MB added each. Run: ``python bench/bench_lexicon.py`` (English, as
before) or ``python bench/bench_lexicon.py --language all`` / ``--language fr`` (each language
measured in a fresh process, so its load and memory are its own; the JSON is keyed by code).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.common.placement import Placement
from games.common.words import BANS, WordRules


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        return 0.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def per_call_us(fn: object, args_list: list[tuple[object, ...]], repeat: int = 25) -> list[float]:
    """For each argument tuple: the median time of one call, in microseconds."""
    out: list[float] = []
    call = fn  # type: ignore[assignment]
    for args in args_list:
        times = []
        for _ in range(3):
            start = time.perf_counter_ns()
            for _ in range(repeat):
                call(*args)  # type: ignore[operator]
            times.append((time.perf_counter_ns() - start) / repeat / 1000)
        out.append(statistics.median(times))
    return out


def _timer_overhead() -> int:
    start = time.perf_counter_ns()
    return time.perf_counter_ns() - start


#: Words every language's sample adds (common, inflected, accented, name, non-word).
EXTRA_WORDS: dict[str, list[str]] = {
    "en": ["walked", "dogs", "making", "london", "xyzzyq", "thing", "cat"],
    "nl": ["huis", "huizen", "fietsen", "amsterdam", "xyzzyq", "ijs", "gelopen"],
    "fr": ["maison", "élève", "mangeons", "dupont", "xyzzyq", "coeur", "être"],
    "de": ["haus", "häuser", "straße", "berlin", "xyzzyq", "äpfel", "gegangen"],
    "es": ["casa", "niño", "comemos", "madrid", "xyzzyq", "nino", "árbol"],
}


def measure(code: str) -> dict[str, object]:
    """Every figure for one language (call in a fresh process: load and memory are first-time)."""
    rss0 = rss_mb()
    start = time.perf_counter()
    from games.lexicon import load

    lex = load("casual", code)
    load_s = time.perf_counter() - start
    rss_added = rss_mb() - rss0
    lex.judge("warm", WordRules())  # the dictionary's own table (built on the first judge)
    rss_after_judge = rss_mb() - rss0

    bans = frozenset({"proper", "abbrev", "contraction", "foreign"})
    default_rules = WordRules(bans=bans)
    t0 = time.perf_counter()
    lex.examples(list("abcd"), default_rules)
    first_examples_s = time.perf_counter() - t0  # builds the letter bitmaps once
    rss_after_examples = rss_mb() - rss0

    rng = random.Random(3)
    words = lex.words()
    sample = [*rng.sample(words, 2000), *EXTRA_WORDS[code]]
    rules = WordRules(bans=frozenset(BANS))
    lex.judge("warm", rules)  # compile the rules once
    # Cold: the first call for each word (the verdict cache is empty for it).
    overhead = min(_timer_overhead() for _ in range(5))
    cold_us = []
    for w in sample:
        start = time.perf_counter_ns()
        lex.judge(w, rules)
        cold_us.append(max(0.0, (time.perf_counter_ns() - start - overhead) / 1000))
    # Warm: the same word again (served from the per-rules verdict cache).
    judge_us = per_call_us(lex.judge, [(w, rules) for w in sample])

    letters = lex.language.alphabet
    pairs = [(rng.choice(letters), rng.choice(letters)) for _ in range(2000)]
    pair_us = per_call_us(lex.has_pair, pairs)
    placements = list(Placement)
    any_us = per_call_us(
        lex.has_word, [([rng.choice(letters) for _ in range(4)], rng.choice(placements)) for _ in range(500)]
    )

    draws = [[rng.choice(letters) for _ in range(4)] for _ in range(300)]
    examples_ms = [
        t / 1000 for t in per_call_us(lambda d: lex.examples(d, default_rules), [(d,) for d in draws], 3)
    ]
    strict_ms = [t / 1000 for t in per_call_us(lambda d: lex.examples(d, rules), [(d,) for d in draws], 3)]

    t0 = time.perf_counter()
    racks = ["".join(rng.choice(letters) for _ in range(7)) for _ in range(30)]
    for rack in racks:
        lex.words_from(rack, 1)
    words_from_ms = (time.perf_counter() - t0) / len(racks) * 1000

    tournament = load("tournament", code)
    t0 = time.perf_counter()
    tournament.judge("warm", WordRules(dictionary="tournament"))
    tournament_first_judge_s = time.perf_counter() - t0
    rss_before = rss_mb()
    t0 = time.perf_counter()
    tournament.prepare()  # its letter bitmaps and word order (examples, words_from in tournament games)
    tournament_prepare_s = time.perf_counter() - t0
    tournament_prepare_mb = rss_mb() - rss_before
    t_rules = WordRules(dictionary="tournament", bans=bans)
    t_sample = [(w, t_rules) for w in sample]
    tournament_us = per_call_us(tournament.judge, t_sample)

    report = {
        "language": code,
        "load_s": round(load_s, 3),
        "rss_added_mb": round(rss_added, 1),
        "rss_added_after_first_judge_mb": round(rss_after_judge, 1),
        "casual_words": len(words),
        "tournament_words": len(tournament.words()),
        "rss_added_after_examples_mb": round(rss_after_examples, 1),
        "judge_all_bans_first_call_us": {
            "p50": round(pct(cold_us, 0.5), 2),
            "p99": round(pct(cold_us, 0.99), 2),
        },
        "judge_all_bans_us": {"p50": round(pct(judge_us, 0.5), 2), "p99": round(pct(judge_us, 0.99), 2)},
        "pair_query_us": {"p50": round(pct(pair_us, 0.5), 2), "p99": round(pct(pair_us, 0.99), 2)},
        "has_word_4_letters_us": {"p50": round(pct(any_us, 0.5), 2), "p99": round(pct(any_us, 0.99), 2)},
        "examples_first_call_s": round(first_examples_s, 3),
        "examples_4_letters_ms": {
            "p50": round(pct(examples_ms, 0.5), 3),
            "p99": round(pct(examples_ms, 0.99), 3),
        },
        "examples_4_letters_all_bans_ms": {
            "p50": round(pct(strict_ms, 0.5), 3),
            "p99": round(pct(strict_ms, 0.99), 3),
        },
        "words_from_7_tiles_1_blank_ms": round(words_from_ms, 1),
        "tournament_first_judge_s": round(tournament_first_judge_s, 3),
        "tournament_prepare_s": round(tournament_prepare_s, 3),
        "rss_added_by_tournament_prepare_mb": round(tournament_prepare_mb, 1),
        "tournament_judge_us": {
            "p50": round(pct(tournament_us, 0.5), 2),
            "p99": round(pct(tournament_us, 0.99), 2),
        },
        "python": sys.version.split()[0],
    }
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--language", action="append", help="a code, or all (repeatable; default en)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child process measuring one language
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one)))
        return
    codes: list[str] = args.language or ["en"]
    if "all" in codes:
        from games.common.languages import LANGUAGE_CODES

        codes = list(LANGUAGE_CODES)
    if codes == ["en"] and not args.language:
        print(json.dumps(measure("en"), indent=1))  # English alone, as the first report had it
        return
    out: dict[str, object] = {}
    for code in codes:
        child = subprocess.run(
            [sys.executable, __file__, "--one", code], capture_output=True, text=True, check=True
        )
        out[code] = json.loads(child.stdout)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
