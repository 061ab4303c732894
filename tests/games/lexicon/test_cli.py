"""The command line: python -m games.lexicon ..."""

from __future__ import annotations

import io
import json

import pytest

from games.lexicon.__main__ import main


def run(args: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(args)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def test_judge_reads_stdin_and_prints_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["judge", "--ban", "plural-s,ing,ed", "--ban", "proper", "--min-length", "3"],
        capsys,
        "cat\nwalked\n\nDogs\nLondon\nab\nc4t\nxyzzyq\n",
    )
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["word"] for r in rows] == ["cat", "walked", "dogs", "london", "ab", "c4t", "xyzzyq"]
    assert [r["reason"] for r in rows] == [
        None,
        "ed",
        "plural-s",
        "proper",
        "too-short",
        "not-a-word",
        "unknown",
    ]
    assert rows[0] == {
        "word": "cat",
        "ok": True,
        "reason": None,
        "message": "CAT is in the casual dictionary.",
    }
    assert set(rows[1]) == {"word", "ok", "reason", "message"}


def test_judge_themes_and_dictionary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["judge", "--theme", "movies", "--dict", "tournament"], capsys, "Star Wars\nmy cat film\n"
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert rows[0]["ok"] and rows[1]["reason"] == "needs-vote"
    _code, out, _ = run(["judge", "--dict", "tournament"], capsys, "qi\n")
    assert json.loads(out)["ok"]


def test_check_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "cat", "walked", "--ban", "ed"], capsys)
    assert code == 1
    assert out.splitlines() == [
        "ok: CAT is in the casual dictionary.",
        "no (ed): WALKED is past tense ending in -ed (from WALK), banned in this game.",
    ]
    code, out, _ = run(["check", "cat", "--json"], capsys)
    assert code == 0 and json.loads(out)["ok"]
    code, out, _ = run(["explain", "walked", "--ban", "all"], capsys)
    assert code == 1 and "inflects: WALK" in out and "dictionaries: casual, tournament" in out
    code, out, _ = run(["explain", "walked", "--json"], capsys)
    info = json.loads(out)
    assert info["ok"] and info["base"] == "walk" and "ed" in info["kinds"]


def test_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["examples", "A", "C", "T", "--placement", "first-and-last", "--limit", "2"], capsys)
    assert code == 0 and 1 <= len(out.split()) <= 2
    code, out, _ = run(["examples", "act", "--json", "--ban", "all"], capsys)
    data = json.loads(out)
    assert data["letters"] == "act" and data["placement"] == "anywhere" and data["examples"]
    assert {"word", "zipf", "claims"} <= set(data["examples"][0])


def test_has_and_words_from(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["has", "j", "q"], capsys)[:2] == (0, "yes\n")
    assert run(["has", "q", "x", "--placement", "first-and-last"], capsys)[:2] == (1, "no\n")
    _code, out, _ = run(["words-from", "tac", "--blanks", "1", "--json"], capsys)
    assert "cart" in json.loads(out)["words"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "cat", "--ban", "nouns"], "unknown ban 'nouns'"),
        (["check", "cat", "--theme", "sports"], "unknown theme 'sports'"),
        (["check", "cat", "--min-length", "0"], "at least 1"),
        (["examples", "a"], "at least two"),
        (["examples", "a", "7"], "is not a letter"),
    ],
)
def test_friendly_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, _, err = run(args, capsys)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_bad_placement_and_dictionary_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["examples", "a", "b", "--placement", "sideways"])
    assert exc.value.code == 2
    assert "unknown placement" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["check", "cat", "--dict", "huge"])


def test_judge_in_another_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["judge", "--language", "de", "--ban", "proper"], capsys, "Straße\naepfel\nÄpfel\nBerlin\n"
    )
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["word"] for r in rows] == ["strasse", "aepfel", "äpfel", "berlin"]
    assert [r["reason"] for r in rows] == [None, "unknown", None, "proper"]
    assert rows[0]["message"] == "STRASSE is in the German casual dictionary."
    assert rows[2]["message"] == "ÄPFEL is in the German casual dictionary."
    code, out, _ = run(["check", "--lang", "es", "niño", "nino"], capsys)
    assert code == 1
    assert out.splitlines() == [
        "ok: NIÑO is in the Spanish casual dictionary.",
        "no (unknown): NINO isn't in the Spanish dictionary.",
    ]


def test_examples_in_another_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["examples", "--language", "es", "--json", "Ñ", "O"], capsys)
    assert code == 0
    rows = json.loads(out)["examples"]
    assert rows and all("ñ" in r["word"] and "o" in r["word"] for r in rows)
    assert rows == sorted(rows, key=lambda r: -r["zipf"])
    code, _, err = run(["examples", "--language", "fr", "Ä", "B"], capsys)
    assert code == 2 and "'ä' is not a French letter" in err
    code, _, err = run(["check", "--language", "klingon", "x"], capsys)
    assert code == 2 and "doesn't play in 'klingon'" in err
    code, _, err = run(["check", "--language", "fr", "--theme", "nouns", "chat"], capsys)
    assert code == 2 and "English-only" in err
