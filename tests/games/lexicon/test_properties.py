"""Property tests: the judge never raises, and its answers are consistent."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.common.words import BANS, THEMES, WordRules, normalize
from games.lexicon import Lexicon, load
from games.lexicon import _format as F
from tests.games.lexicon.helpers import FUZZ

RULES = st.builds(
    WordRules,
    dictionary=st.sampled_from(["casual", "tournament"]),
    min_length=st.integers(1, 8),
    bans=st.frozensets(st.sampled_from(BANS)),
    themes=st.frozensets(st.sampled_from(THEMES), max_size=3),
    added=st.frozensets(st.text("abcdef", min_size=1, max_size=5), max_size=3),
    banned=st.frozensets(st.text("abcdef", min_size=1, max_size=5), max_size=3),
)
CODES = {None, "unknown", "too-short", "banned", "theme", "multiword", "needs-vote", "not-a-word", *BANS}


@FUZZ
@given(text=st.text(max_size=30), rules=RULES)
def test_judge_never_raises(lex: Lexicon, text: str, rules: WordRules) -> None:
    verdict = lex.judge(text, rules)
    assert verdict.reason_code in CODES
    assert verdict.ok == (verdict.reason_code is None)
    assert verdict.message


@FUZZ
@given(word=st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8), rules=RULES)
def test_verdicts_are_consistent(lex: Lexicon, word: str, rules: WordRules) -> None:
    verdict = lex.judge(word, rules)
    assert verdict == lex.judge(word, rules)
    if word in rules.banned:
        assert verdict.reason_code == "banned"
    elif verdict.ok:
        assert len(word) >= rules.min_length
        # Fewer bans never refuse a word more bans allowed.
        assert lex.judge(word, WordRules(rules.dictionary, rules.min_length, frozenset(), rules.themes,
                                         rules.added, rules.banned)).ok  # fmt: skip


@FUZZ
@given(text=st.text(max_size=20))
def test_judge_agrees_on_normalised_input(lex: Lexicon, text: str) -> None:
    rules = WordRules()
    word = normalize(text)
    if word is not None:
        assert lex.judge(text, rules) == lex.judge(word, rules)


@FUZZ
@given(
    picks=st.lists(st.integers(0, 10**9), min_size=1, max_size=30),
    rules=RULES,
    added=st.frozensets(st.sampled_from(["cat", "dogs", "walked", "london"]), max_size=2),
    banned=st.frozensets(st.sampled_from(["cat", "dogs", "walked", "london"]), max_size=2),
)
def test_the_inline_judge_agrees_with_the_full_judge(
    lex: Lexicon, picks: list[int], rules: WordRules, added: frozenset[str], banned: frozenset[str]
) -> None:
    """The judge's inline path for common words gives exactly the full judge's verdicts."""
    words = [*lex.words(), "cat", "dogs", "walked", "london"]
    rules = WordRules(rules.dictionary, rules.min_length, rules.bans, rules.themes, added, banned)
    compiled = lex._compile(rules)
    for pick in picks:
        word = words[pick % len(words)]
        assert lex.judge(word, rules) == lex._judge(word, compiled), word


@FUZZ
@given(
    stem=st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8),
    word_end=st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9),
    base_end=st.text(alphabet="abcdefghijklmnopqrstuvwxyz", max_size=3),
)
def test_base_codes_spell_the_base_or_defer_to_the_list(stem: str, word_end: str, base_end: str) -> None:
    word, base = stem + word_end, stem + base_end
    code = F.encode_base(word, base)
    if code == F.BASE_LISTED:
        assert F.decode_base(word, code) is None
    else:
        assert F.decode_base(word, code) == base


def test_bases_regular_and_irregular(lex: Lexicon) -> None:
    tournament = load("tournament")
    assert lex.base("cities") == "city" and lex.base("walked") == "walk" and lex.base("making") == "make"
    assert tournament.base("bled") == "bleed" and tournament.base("dying") == "die"  # listed: irregular
    assert lex.base("bus") is None and lex.base("thing") is None
    message = tournament.judge("dying", WordRules(dictionary="tournament", bans=frozenset({"ing"}))).message
    assert "(from DIE)" in message


def test_the_inline_path_reads_each_dictionarys_own_table(lex: Lexicon) -> None:
    data = lex._data
    casual = data.entries(F.CASUAL)
    assert casual is data.entries(F.CASUAL)  # built once, shared
    assert len(casual) < len(data.info) // 2 and all(v & F.CASUAL for v in casual.values())
    assert data.entries(F.TOURNAMENT) is data.info  # most entries: the whole table serves
    tournament_only = next(w for w, v in data.info.items() if v & F.TOURNAMENT and not v & F.CASUAL)
    assert lex.judge(tournament_only, WordRules()).reason_code == "unknown"
