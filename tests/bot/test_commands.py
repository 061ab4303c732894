"""The shared command grammar."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.commands import (
    COMMANDS,
    CommandError,
    grammar,
    help_lines,
    option_names,
    parse_leaderboard,
    parse_start,
    split,
)
from bot.core.registry import Registry, UnknownGame
from games.common.text import plain
from tests.bot.toygame import LINGO, TOY

REG = Registry([TOY])


def test_split_ignores_the_moji_prefix() -> None:
    assert split("/moji start race cards=5") == ("start", ("race", "cards=5"))
    assert split("start") == ("start", ())
    assert split("") == ("help", ())
    assert split("lb week") == ("leaderboard", ("week",))


def test_unknown_command_and_quotes() -> None:
    with pytest.raises(CommandError) as refused:
        split("dance")
    assert "don't know the command 'dance'" in plain(str(refused.value))
    with pytest.raises(CommandError, match="unclosed quote"):
        split('start "race')


def test_start_reads_game_and_options() -> None:
    info, options = parse_start(["t", "target=3", "crash"], REG)
    assert info is TOY
    assert options == {"target": 3, "bots": 0, "crash": True}
    info, options = parse_start(["target=4"], REG)
    assert options["target"] == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "neither a game nor an option"),
        (["toy", "target=x"], "must be a whole number"),
        (["toy", "target=2", "target=3"], "given twice"),
        (["toy", "bots"], "needs a value"),
    ],
)
def test_start_errors(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_start(args, REG)


def test_leaderboard_args() -> None:
    assert parse_leaderboard([], REG) == (None, "all", None)
    assert parse_leaderboard(["week", "toy"], REG) == ("toy", "week", None)
    assert parse_leaderboard(["today"], REG) == (None, "day", None)
    with pytest.raises(CommandError, match="neither a game nor a period"):
        parse_leaderboard(["yesterday"], REG)


def test_a_leaderboard_may_count_one_language() -> None:
    assert parse_leaderboard(["toy", "language=fr"], REG) == ("toy", "all", "fr")
    assert parse_leaderboard(["Lang=German", "week"], REG) == (None, "week", "de")
    with pytest.raises(CommandError, match=r"doesn't play in 'klingon'.*fr \(French\)"):
        parse_leaderboard(["language=klingon"], REG)
    with pytest.raises(CommandError, match="only language="):
        parse_leaderboard(["toy", "cards=5"], REG)


def test_option_names_are_the_options_own_names() -> None:
    assert option_names(TOY, ["target=3", "crash", "bots=1", "nonsense=2"]) == {"target", "crash", "bots"}
    assert option_names(LINGO, ["lang=fr", "LANGUAGE=de"]) == {"language"}


def test_registry_names_and_aliases() -> None:
    assert REG.get("T") is TOY
    with pytest.raises(UnknownGame):
        REG.get("chess")
    with pytest.raises(ValueError, match="taken"):
        Registry([TOY, TOY])


def test_every_command_has_help() -> None:
    assert all(spec.usage and spec.help for spec in COMMANDS)


@given(st.text(max_size=300))
def test_any_text_either_parses_or_is_refused_with_a_reason(text: str) -> None:
    try:
        name, args = split(text)
    except CommandError as exc:
        assert str(exc)
        return
    # (a command of the core, or a verb of an installed game: ``vote`` is the race's)
    assert name in {spec.name for spec in grammar().commands}
    try:
        parse_start(args, REG)
    except CommandError as exc:
        assert str(exc)


def test_list_is_a_command_for_private_words() -> None:
    from bot.core.commands import resolve

    assert resolve("list").name == "list"


def test_the_help_names_the_languages_and_how_to_pick_one() -> None:
    text = "\n".join(help_lines(REG))
    assert "Languages: en (English), nl (Dutch), fr (French), de (German), es (Spanish)" in text
    assert "`config language fr`" in text and "`start race language=nl`" in text
    assert "[language=fr]" in next(spec.usage for spec in COMMANDS if spec.name == "leaderboard")


def test_every_verb_of_the_grammar_has_one_handler_and_nothing_else_does() -> None:
    from bot.hosting.handlers import HANDLERS

    assert set(HANDLERS) == {spec.name for spec in COMMANDS}
    for name, handler in HANDLERS.items():
        assert handler.__doc__, f"the handler of {name} says what it does"


def test_a_games_verb_typed_alone_is_that_verb() -> None:
    """``VOTE`` is the race's own verb, read as any command is (found by the property above)."""
    assert split("VOTE") == ("vote", ())
