"""Reading ``tournament arena race 30m`` and ``tournament swiss board rounds=4 round=24h``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.commands import CommandError
from bot.core.registry import load_default
from bot.features.tournaments.spec import parse_tournament, seconds

REGISTRY = load_default()


def test_durations() -> None:
    assert seconds("30m") == 1800 and seconds("24h") == 86400 and seconds("1h30m") == 5400
    assert seconds("2d") == 172800 and seconds("90s") == 90 and seconds("45") == 2700
    assert seconds("soon") is None and seconds("") is None and seconds("m") is None


def test_each_format_reads_its_settings_and_the_games_options() -> None:
    arena = parse_tournament(["arena", "race", "45m", "cards=5", "bots=2"], REGISTRY)
    assert (arena.format, arena.game.name, arena.round_seconds, arena.bots) == ("arena", "race", 2700, 2)
    assert arena.options == ("cards=5",)
    swiss = parse_tournament(["swiss", "board", "rounds=5", "round=2d", "register=1h"], REGISTRY)
    assert (swiss.format, swiss.rounds, swiss.round_seconds, swiss.register_seconds) == (
        "swiss",
        5,
        172800,
        3600,
    )
    league = parse_tournament(["rr", "dice"], REGISTRY)
    assert (league.format, league.rounds, league.round_seconds) == ("roundrobin", 0, 86400)
    # a turn-based game with a live mode may be an arena's: its games are played live
    live = parse_tournament(["arena", "dice", "20m"], REGISTRY)
    assert live.options == ("live=on",) and live.round_seconds == 1200


@pytest.mark.parametrize(
    ("words", "says"),
    [
        ([], "which kind of tournament"),
        (["knockout", "race"], "which kind of tournament"),
        (["swiss"], "which game"),
        (["swiss", "race"], "two players a game"),
        (["arena", "paths"], "played in turns"),
        (["swiss", "dice", "rounds=99"], "rounds takes"),
        (["roundrobin", "dice", "rounds=3"], "as many rounds as it needs"),
        (["swiss", "dice", "round=1m"], "round takes a time"),
        (["arena", "race", "window=2d"], "window takes a time"),
        (["swiss", "dice", "bots=x"], "bots takes a number"),
        (["swiss", "dice", "colour=blue"], "unknown option"),
    ],
)
def test_mistakes_are_explained(words: list[str], says: str) -> None:
    with pytest.raises(CommandError) as refused:
        parse_tournament(words, REGISTRY)
    assert says in str(refused.value)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=6))
def test_any_words_are_read_or_refused_with_a_reason(words: list[str]) -> None:
    try:
        spec = parse_tournament(words, REGISTRY)
    except CommandError as refused:
        assert str(refused)
    else:
        assert spec.game.name in REGISTRY.names()
