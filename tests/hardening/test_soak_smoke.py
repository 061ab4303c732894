"""The soak, short: the real bot process, the fake Discord, 20 channels, one race each.

It stops when every channel has finished a game (not after a fixed time), and asserts only
what must always hold: no errors (tracebacks, ERROR log lines, unroutable requests, private
text in a channel, the token in the log at DEBUG level, a non-host stopping a game, an answer
to a running game neither marked nor named on the table), every channel finished, answers were
marked, and every answer is counted exactly once. Its timing figures are printed, never asserted.
``make soak`` runs the full 1,000 channels for 10 minutes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_twenty_channels_race_through_the_real_bot_process() -> None:
    channels = int(os.environ.get("SOAK_SMOKE_CHANNELS", "20"))
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "soak.py"),
            "--channels",
            str(channels),
            "--games",
            "1",
            "--log-level",
            "DEBUG",
            "--timeout",
            "240",
            "--sample",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=400,
        check=False,
    )
    assert run.stdout.strip(), run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    keys = ("claims", "reactions", "shown_on_the_table", "unanswered_claims", "reaction_ms", "errors")
    print(json.dumps({k: report[k] for k in keys}, ensure_ascii=False))
    assert report["errors"] == 0, report["error_samples"]
    # every answer is accounted for once: marked with a reaction, named on the table (refused
    # answers are listed there, not marked), or unmarked for a reason the soak tells apart
    marked = report["reaction_ms"]["samples"]
    on_table = sum(report["shown_on_the_table"]["marks"].values())
    assert marked + on_table + sum(report["unanswered_claims"].values()) == report["claims"]
    assert report["unanswered_claims"]["otherwise"] == 0
    assert not report["timed_out"]
    assert report["channels_with_a_finished_game"] == channels
    assert report["claims"] > 0 and report["reactions"].get("✅", 0) > 0
    assert report["public_messages_checked"] > channels
    assert run.returncode == 0
