"""The move notation: examples, friendly errors, and round trips (hypothesis)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.shed.notation import Act, Draw, Form, NotationError, Op, Source, parse, unparse
from tests.games.shed.helpers import FUZZ


@pytest.mark.parametrize(
    ("text", "ops"),
    [
        ("WHO", (Form(("who",)),)),
        ("play draw", (Form(("draw",)),)),
        ("who cat", (Form(("who", "cat")),)),
        ("SOCK+H -> SHOCK", (Form(("shock",), (Source("sock"),), "h"),)),
        ("sock -> shock", (Form(("shock",), (Source("sock"),)),)),
        ("SHOCK-H+WO -> WHO SOCK", (Form(("who", "sock"), (Source("shock", take="h"),), "wo"),)),
        ("SHOCK - H + WO => WHO SOCK", (Form(("who", "sock"), (Source("shock", take="h"),), "wo"),)),
        ("CAT SHOCK → CHAT SOCK", (Form(("chat", "sock"), (Source("cat"), Source("shock"))),)),
        ("#2+S -> CATS", (Form(("cats",), (Source(index=2),), "s"),)),
        ("WH*O", (Form(("wh*o",)),)),
        ("trade Q", (Act("deck-trade", "", "q"),)),
        ("trade * Bob", (Act("trade", "bob", "*"),)),
        ("skip Ada (bot)", (Act("skip", "ada (bot)"),)),
        ("skip", (Act("skip", ""),)),
        ("swap 2", (Act("swap-hands", "2"),)),
        ("+2 Bob", (Act("draw-two", "bob"),)),
        ("+2 all", (Act("all-draw-two", "all"),)),
        ("draw", (Draw(),)),
        ("Pass", (Draw(),)),
        ("WHO; SOCK+H -> SHOCK", (Form(("who",)), Form(("shock",), (Source("sock"),), "h"))),
        ("Café", (Form(("cafe",)),)),
        ("TRADE -> TRADER", (Form(("trader",), (Source("trade"),)),)),
    ],
)
def test_examples(text: str, ops: tuple[Op, ...]) -> None:
    assert parse(text) == ops


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Say what to play"),
        (" ; ; ", "Say what to play"),
        ("who2", "not a word"),
        ("WHO*", "put * just before"),
        ("SOCK+H ->", "Say the words after the arrow"),
        ("-> SHOCK", "Name the table word"),
        ("-H+WO -> WHO", "which table word"),
        ("SOCK+3 -> SOCKS", "After + come letters"),
        ("SOCK -> SHOCK -> SHOCKS", "one arrow"),
        ("trade", "Say which card"),
        ("trade QQ", "Say which card"),
        ("draw; WHO", "whole turn on its own"),
        ("a;" * 13, "At most 12"),
        ("x" * 500, "too long"),
        ("supercalifragilisticexpialidocious", "too long"),
        ("SOCK & H -> SHOCK", "can't read"),
    ],
)
def test_friendly_errors(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=re.escape(reason)):
        parse(text)


_letters = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
_word = st.lists(
    st.tuples(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), st.booleans()), min_size=1, max_size=8
).map(lambda pairs: "".join(("*" if joker else "") + ch for ch, joker in pairs))
_source = st.one_of(
    st.builds(
        Source,
        _letters,
        st.none(),
        st.one_of(st.just(""), st.text(alphabet="abcxyz*", min_size=1, max_size=3)),
    ),
    st.builds(Source, st.just(""), st.integers(1, 99), st.just("")),
)
_form = st.one_of(
    st.builds(Form, st.lists(_word, min_size=1, max_size=3).map(tuple)),
    st.builds(
        Form,
        st.lists(_word, min_size=1, max_size=3).map(tuple),
        st.lists(_source, min_size=1, max_size=3).map(tuple),
        st.one_of(st.none(), st.text(alphabet="aeiost*", min_size=1, max_size=4)),
    ),
)
_name = st.from_regex(r"[a-z][a-z0-9]{0,6}( \(bot\))?", fullmatch=True).filter(
    lambda n: n not in {"all", "everyone", "everybody"}
)
_give = st.sampled_from("abcxyz*")
_act = st.one_of(
    st.builds(Act, st.just("deck-trade"), st.just(""), _give),
    st.builds(Act, st.just("trade"), _name, _give),
    st.builds(Act, st.sampled_from(["skip", "swap-hands", "draw-two"]), st.one_of(st.just(""), _name)),
    st.just(Act("all-draw-two", "all")),
)
_turn = st.one_of(
    st.just((Draw(),)),
    st.tuples(st.lists(_form, max_size=4), st.lists(_act, max_size=1))
    .map(lambda t: (*t[0], *t[1]))
    .filter(bool),
)


@FUZZ
@given(_turn)
def test_unparse_then_parse_is_the_identity(ops: tuple[Op, ...]) -> None:
    assert parse(unparse(ops)) == ops


@FUZZ
@given(st.text(max_size=120))
def test_any_text_parses_or_gets_a_reason(text: str) -> None:
    try:
        ops = parse(text)
    except NotationError as exc:
        assert str(exc)
    else:
        assert 1 <= len(ops) <= 12


@FUZZ
@given(
    st.lists(st.sampled_from(["SOCK", "+", "-", "H", "->", "=>", "#2", "*", ";", " ", "trade", "skip", "2"]))
)
def test_notation_like_text_parses_or_gets_a_reason(parts: list[str]) -> None:
    try:
        parse(" ".join(parts))
    except NotationError as exc:
        assert str(exc)


def test_accents_fold_but_a_pile_of_marks_is_no_move() -> None:
    assert parse("play WHÓ") == parse("play WHO")
    with pytest.raises(NotationError, match="accent marks"):
        parse("play WHO\u0301\u0302\u0303")
