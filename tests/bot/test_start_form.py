"""A start form's options (Discord's ``/moji start``) come from the games' own declarations."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.registry import START_RESERVED, Registry, load_default, start_fields
from games.common.options import OptionSpec
from tests.bot.toygame import TOY


def game(name: str, *specs: OptionSpec, form: tuple[str, ...] | None = None) -> object:
    return dataclasses.replace(TOY, name=name, title=name.title(), aliases=(), options=specs, start_form=form)


def test_the_real_games_fit_discord_with_every_shared_option_first() -> None:
    fields = start_fields(load_default(), 23)
    names = [f.name for f in fields]
    assert names[:3] == ["bots", "level", "language"]  # every game has them
    # what the race offered before its form was declared is still offered
    assert {"cards", "min", "placement", "themes", "variation"} <= set(names)
    bots = fields[0]
    assert (bots.kind, bots.low, bots.high) == ("int", 0, 7)  # the widest range of any game
    assert bots.games == tuple(load_default().names())


def test_options_of_one_name_are_merged_honestly() -> None:
    one = game(
        "one",
        OptionSpec("turn", "int", 5, "seconds per turn", low=5, high=60),
        OptionSpec("deck", "choice", "a", "the deck", choices=("a", "b")),
    )
    two = game(
        "two",
        OptionSpec("turn", "int", 1, "hours per turn (a missed turn passes)", low=1, high=48),
        OptionSpec("deck", "int", 1, "decks", low=1, high=3),
    )
    turn, deck = start_fields(Registry([one, two]), 10)  # type: ignore[list-item]
    assert (turn.kind, turn.low, turn.high) == ("int", 1, 60)
    assert turn.help == "seconds per turn (one; other games: see their rules)"
    assert (deck.kind, deck.choices) == ("text", ())  # a choice here, a number there: typed as text


def test_a_game_without_a_form_offers_every_option_and_unknown_names_are_refused() -> None:
    assert [f.name for f in start_fields(Registry([TOY]), 23)] == [s.name for s in TOY.options]
    with pytest.raises(ValueError, match="does not have"):
        dataclasses.replace(TOY, start_form=("target", "nonsense"))


NAMES = st.sampled_from(["bots", "level", "turn", "size", "deck", "mode", "game", "more", "speed", "x"])
SPECS = st.builds(
    lambda name, kind: (
        OptionSpec(name, "int", 1, f"{name} help", low=1, high=9)
        if kind == "int"
        else OptionSpec(name, "choice", "a", f"{name} help", choices=("a", "b"))
    ),
    NAMES,
    st.sampled_from(["int", "choice"]),
)
GAMES = st.lists(st.lists(SPECS, max_size=6, unique_by=lambda s: s.name), min_size=1, max_size=5)


@given(GAMES, st.integers(min_value=0, max_value=12))
def test_a_form_never_exceeds_its_limit_and_ranks_shared_options_first(
    declared: list[list[OptionSpec]], most: int
) -> None:
    registry = Registry([game(f"g{i}", *specs) for i, specs in enumerate(declared)])  # type: ignore[misc]
    fields = start_fields(registry, most)
    names = [f.name for f in fields]
    assert len(names) <= most and len(set(names)) == len(names)
    assert not START_RESERVED & set(names)
    offered_by = {f.name: len(f.games) for f in fields}
    assert list(offered_by.values()) == sorted(offered_by.values(), reverse=True)
    every = {s.name for specs in declared for s in specs} - START_RESERVED
    if len(every) <= most:
        assert set(names) == every  # nothing is left out while there is room
    for field in fields:
        specs = [s for specs in declared for s in specs if s.name == field.name]
        assert len(field.games) == len(specs)
        if field.kind == "int":
            assert field.low == min(s.low or 0 for s in specs) and field.high == max(
                s.high or 0 for s in specs
            )
