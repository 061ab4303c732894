"""The rearrangement finder: which card goes where (hypothesis on random letters)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.shed.notation import letters
from games.shed.rearrange import Arrangement, Refusal, TableWord, arrange
from tests.games.shed.helpers import FUZZ, Cards


def _check(arranged: Arrangement, sources: list[TableWord], words: tuple[str, ...]) -> None:
    placed = [pc for word in arranged.words for pc in word]
    # every source card and every hand card used is placed exactly once
    ids = [card.id for card, _ in placed]
    expected = [card.id for tw in sources for card, _ in tw.cards] + [c.id for c in arranged.hand_used]
    assert sorted(ids) == sorted(expected)
    # the words are spelled by their cards; letter cards play their own letter
    assert tuple("".join(ch for _, ch in word) for word in arranged.words) == tuple(letters(w) for w in words)
    assert all(card.letter == ch for card, ch in placed if card.kind == "letter")
    for word, notation in zip(arranged.words, words, strict=True):
        marked = [i for i in range(len(letters(notation))) if _marked_at(notation, i)]
        assert all(word[i][0].kind == "joker" for i in marked), "a * letter is played by a joker"
    # each source leaves its own word behind, keeping at least one of its cards
    assert len(set(arranged.survivors)) == len(sources)
    for tw, wi in zip(sources, arranged.survivors, strict=True):
        own = {card.id for card, _ in tw.cards}
        assert own & {card.id for card, _ in arranged.words[wi]}


def _marked_at(notation: str, index: int) -> bool:
    pos = 0
    for n, ch in enumerate(notation):
        if ch == "*":
            continue
        if pos == index:
            return n > 0 and notation[n - 1] == "*"
        pos += 1
    return False


def test_the_rulebook_examples() -> None:
    cards = Cards()
    sock = cards.word("sock")
    result = arrange([sock], cards.take("h x"), ("shock",), "h", jokers_ok=True)
    _check(result, [sock], ("shock",))
    assert [c.letter for c in result.hand_used] == ["h"]
    shock = cards.word("shock")
    result = arrange([shock], cards.take("w o"), ("who", "sock"), "wo", jokers_ok=True)
    _check(result, [shock], ("who", "sock"))
    assert result.survivors == (1,), "SOCK is what SHOCK leaves behind"


def test_refusals_say_why() -> None:
    cards = Cards()
    shock = cards.word("shock")
    hand = cards.take("w o")
    with pytest.raises(Refusal, match="must be played in the same move"):
        arrange([shock], hand, ("sock",), None, jokers_ok=True)
    with pytest.raises(Refusal, match="don't have Z"):
        arrange([shock], hand, ("shockz",), None, jokers_ok=True)
    with pytest.raises(Refusal, match="don't use the W"):
        arrange([shock], hand, ("shocko",), "wo", jokers_ok=True)
    with pytest.raises(Refusal, match="changes nothing"):
        arrange([shock], hand, ("shock",), None, jokers_ok=True)
    joker_hand = cards.take("*")
    with pytest.raises(Refusal, match="not now"):
        arrange([], joker_hand, ("x",), None, jokers_ok=False, joker_ban="not now")


@FUZZ
@given(
    st.lists(st.text(alphabet="abcdeo", min_size=2, max_size=5), min_size=1, max_size=3),
    st.lists(st.text(alphabet="abcdeo", max_size=3), min_size=3, max_size=3),
    st.integers(0, 2**32),
)
def test_extending_each_source_always_works(bases: list[str], extras: list[str], seed: int) -> None:
    rng = random.Random(seed)
    cards = Cards()
    sources = [cards.word(b) for b in bases]
    words = []
    for base, extra in zip(bases, extras, strict=False):
        chars = list(base + extra)
        rng.shuffle(chars)
        words.append("".join(chars))
    hand = cards.take(" ".join("".join(extras[: len(bases)]) + "x"))
    if sorted(words) == sorted(bases):
        return
    result = arrange(sources, hand, tuple(words), None, jokers_ok=True)
    _check(result, sources, tuple(words))
    assert Counter(c.letter for c in result.hand_used) == Counter("".join(extras[: len(bases)]))


_marked = st.lists(st.tuples(st.sampled_from("abco"), st.integers(0, 5)), min_size=1, max_size=5).map(
    lambda pairs: "".join(("*" if n == 0 else "") + ch for ch, n in pairs)
)


@FUZZ
@given(
    st.lists(_marked, min_size=0, max_size=2),
    st.text(alphabet="abco*", max_size=5),
    st.lists(_marked, min_size=1, max_size=3),
    st.one_of(st.none(), st.text(alphabet="abco*", min_size=1, max_size=3)),
    st.booleans(),
)
def test_any_move_is_arranged_correctly_or_refused(
    bases: list[str], hand_spec: str, words: list[str], plus: str | None, jokers_ok: bool
) -> None:
    cards = Cards()
    sources = [cards.word(b) for b in bases]
    hand = cards.take(" ".join(hand_spec))
    try:
        result = arrange(sources, hand, tuple(words), plus, jokers_ok=jokers_ok)
    except Refusal as exc:
        assert str(exc)
        return
    _check(result, sources, tuple(words))
    assert all(c in hand for c in result.hand_used)
    if not jokers_ok:
        assert all(c.kind != "joker" for c in result.hand_used)
