"""The busy benches' reading of what the platform showed of each answer (bench/bench_slack_busy.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_slack_busy import judge


def answer(word: str, sent: float, name: str = "PA", mid: str = "") -> dict[str, Any]:
    return {"channel": "C1", "name": name, "word": word, "sent": sent, "mid": mid or f"{word}@{sent}"}


def test_an_answer_is_read_against_the_tables_after_it() -> None:
    tables = {"C1": [(1.0, "Cards: A B"), (2.5, "PA takes A B with ABLE (+2 points)\nCards: C D")]}
    judged = judge([answer("able", 2.0)], lambda a: None, tables)
    assert judged.accepted_shown == [0.5]
    assert judged.table_delay == [0.5]


def test_a_word_sent_again_later_is_not_the_first_sendings_acceptance() -> None:
    # PA's first ABLE was refused; 40 s later the same word was taken: the first sending
    # is a refusal, not an acceptance shown 40.5 s late
    tables = {
        "C1": [
            (2.4, "Cards: C D\nNot taken: ✗ PA: ABLE"),
            (42.5, "PA takes A B with ABLE (+2 points)\nCards: E F"),
        ]
    }
    judged = judge([answer("able", 2.0), answer("able", 42.0)], lambda a: None, tables)
    assert judged.accepted_shown == [0.5]
    assert judged.refused == 1


def test_another_players_same_word_is_their_own() -> None:
    tables = {"C1": [(3.0, "PB takes A B with ABLE (+2 points)\nCards: C D")]}
    judged = judge([answer("able", 2.0), answer("able", 2.1, name="PB")], lambda a: None, tables)
    assert judged.accepted_shown == [pytest.approx(0.9)]
    assert judged.unresolved == 1
