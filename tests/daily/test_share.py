"""The share line reveals no word: it is made from numbers alone, for any daily however played."""

from __future__ import annotations

import re
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.languages import LANGUAGES
from games.common.protocol import Action, Claim, Seat, Setup
from games.race import create
from games.race.daily import DailyResult, daily_deal, duration_text, share_line, taken
from games.race.grid import OffTheGrid
from tests.games.race.helpers import ListJudge

ANN = "discord:U1"
#: Every word a share line may hold: its own, and the languages' names.
TEMPLATE = {"moji", "daily", "cards", "min", "s", "points", "streak"} | {
    lang.name.lower() for lang in LANGUAGES.values()
}


def played(secret: bytes, day: date, lang: str, picks: list[list[int]]) -> tuple[OffTheGrid, list[str]]:
    """The day's daily, played by Ann with words made of the grid's cards at ``picks`` (indexes
    into the cards still on the grid; every such word is taken as a word)."""
    deal = daily_deal(secret, day, lang)
    judge = ListJudge(())
    engine = create(Setup(deal.options, [Seat(ANN, "Ann")], deal.seed, judge=judge))
    assert isinstance(engine, OffTheGrid)
    engine.apply(Action("begin", 0.0))
    said: list[str] = []
    now = 1.0
    for pick in picks:
        if engine.over:
            break
        left = engine.cards_on_grid()
        word = "".join(left[i % len(left)].letter for i in dict.fromkeys(i % len(left) for i in pick))
        judge.words.add(word)  # every word made of the grid's cards is a word here
        notes = engine.apply(Action("claims", now, claims=(Claim(ANN, word, now, ref=f"c{now}"),)))
        if any(n.kind == "accepted" for n in notes):
            said.append(word)
        now += 1.0
    return engine, said


@settings(max_examples=40, deadline=None)
@given(
    st.binary(min_size=1, max_size=8),
    st.dates(min_value=date(2024, 1, 1), max_value=date(2030, 12, 31)),
    st.sampled_from(sorted(LANGUAGES)),
    st.lists(st.lists(st.integers(0, 24), min_size=2, max_size=6), max_size=8),
    st.floats(0, 5000),
    st.integers(1, 400),
)
def test_the_share_line_holds_no_word_of_the_game(
    secret: bytes, day: date, lang: str, picks: list[list[int]], seconds: float, streak: int
) -> None:
    engine, said = played(secret, day, lang, picks)
    cards, points = taken(engine, ANN)
    line = share_line(DailyResult(day, lang, cards, points, seconds, streak))
    tokens = {t.lower() for t in re.findall(r"[^\W\d_]+", line)}
    assert tokens <= TEMPLATE, tokens - TEMPLATE
    assert f"{cards}/25 cards" in line and f"{points} points" in line and f"streak {streak}" in line
    # the same numbers from another game (no words at all) give the same line
    assert line == share_line(DailyResult(day, lang, cards, points, seconds, streak))
    if said:
        assert cards >= 2 * len(said) and points > 0


def test_words_played_are_counted_and_left_out() -> None:
    engine, said = played(b"k", date(2026, 11, 27), "en", [[0, 1, 2], [0, 1], [3, 4, 5, 6]])
    cards, points = taken(engine, ANN)
    assert len(said) == 3 and cards == 9 and points > 0
    line = share_line(DailyResult(date(2026, 11, 27), "en", cards, points, 75.0, 1))
    assert line == f"moji daily 2026-11-27 (English): 9/25 cards · 1 min 15 s · {points} points · streak 1"


def test_the_line_reads_like_this() -> None:
    result = DailyResult(date(2026, 11, 27), "de", 14, 31, 192.4, 4)
    assert (
        share_line(result)
        == "moji daily 2026-11-27 (German): 14/25 cards · 3 min 12 s · 31 points · streak 4 🔥"
    )
    assert duration_text(59.9) == "59 s" and duration_text(60) == "1 min 00 s"
