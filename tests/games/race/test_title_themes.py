"""Title themes (movies & TV, books, famous persons) when nobody else can vote.

An answer the lexicon can't place goes to a vote of the *other people* at the table;
computer players never vote. With nobody to vote it is refused, costing no more than a
claim (it is not a wrong answer), unless the workspace's own word list holds it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.protocol import Action, Claim, Seat, Setup
from games.common.words import WordJudge
from games.race import create
from games.race.eagle import EagleEyes
from games.race.engine import FlipRace
from games.race.grid import OffTheGrid
from tests.games.race.helpers import ANN, BOB, CAL, NAMES, ListJudge, card, claim, put

BOT = "bot:1"


def table(
    *players: str,
    themes: tuple[str, ...] = ("movies",),
    added: frozenset[str] = frozenset(),
    judge: WordJudge | None = None,
    cooldown_after: int = 3,
) -> FlipRace:
    """A begun flip race; ``bot:N`` seats are computer players."""
    seats = [Seat(p, NAMES.get(p, p), "normal" if p.startswith("bot:") else None) for p in players]
    options: dict[str, object] = {"cards": 5, "themes": themes, "cooldown-after": cooldown_after}
    engine = FlipRace(Setup(options, seats, 1, judge=judge or ListJudge(), added_words=added))
    engine.apply(Action("begin", 0.0))
    return engine


def ca_on_the_table(engine: FlipRace) -> None:
    """C in front of Ann, A in front of the computer player (or Bob)."""
    put(engine, ann="c")
    other = next(s for s in engine.order if s != ANN)
    engine.piles[other] = [card("a")]
    engine._changed(engine.now)


def test_alone_with_computer_players_an_unknown_title_is_refused_with_what_to_do() -> None:
    engine = table(ANN, BOT)
    ca_on_the_table(engine)
    notes = claim(engine, (ANN, "the cat", 1.0))
    assert len(notes) == 1
    kind, text = notes[0]
    assert kind == "rejected"
    assert "I don't know THE CAT as a movie or TV show" in text
    assert "nobody else here can vote on it" in text
    assert "no penalty" in text and "`words add the cat`" in text
    assert engine.vote is None and engine.voted_words == []
    assert engine.won[ANN] == [] and len(engine.tops()) == 2  # the cards stay on the table
    assert "vote" not in " ".join(engine.snapshot().lines).lower()


def test_a_refused_title_costs_no_more_than_the_claim_itself() -> None:
    # a wrong answer counts toward the cooldown; a title nobody can judge does not
    engine = table(ANN, BOT, cooldown_after=2)
    ca_on_the_table(engine)
    claim(engine, (ANN, "the cat", 1.0))
    claim(engine, (ANN, "cat show", 1.1))
    assert engine.wrong.get(ANN, 0) == 0 and ANN not in engine.cool_until
    # (the per-flip claim limit still counts it, as it counts every claim)
    assert engine.per_flip[ANN] == 2


def test_the_workspace_word_list_vouches_for_a_title() -> None:
    engine = table(ANN, BOT, added=frozenset({"the cat", "cat"}))
    ca_on_the_table(engine)
    notes = claim(engine, (ANN, "the cat", 1.0))
    assert notes[0][0] == "accepted" and "THE CAT" in notes[0][1]
    assert "vote" not in notes[0][1]
    assert engine.voted_words == []  # already on the list: nothing new to keep


def test_a_single_word_on_the_workspace_list_counts_as_a_title_too() -> None:
    engine = table(ANN, BOT, added=frozenset({"cat"}))
    ca_on_the_table(engine)
    assert claim(engine, (ANN, "cat", 1.0))[0][0] == "accepted"


def test_a_workspace_word_does_not_skip_the_vote_of_a_theme_it_does_not_vouch_for() -> None:
    # the list vouches for titles and names only; other themes keep their own judge
    engine = table(ANN, BOT, themes=("food",), added=frozenset({"cat"}))
    ca_on_the_table(engine)
    kind, text = claim(engine, (ANN, "cat", 1.0))[0]
    assert kind == "rejected" and "theme" in text


def test_computer_players_never_vote() -> None:
    engine = table(ANN, BOB, BOT, "bot:2")
    ca_on_the_table(engine)
    notes = claim(engine, (ANN, "the cat", 1.0))
    assert any("vote yes or no" in t for _, t in notes)
    assert engine.vote is not None and engine.vote.voters == frozenset({BOB})
    engine.apply(Action("vote", 1.5, BOT, "no"))  # ignored: not a voter
    assert engine.vote is not None and not engine.vote.no
    notes2 = engine.apply(Action("vote", 2.0, BOB, "yes"))
    assert any(n.kind == "accepted" and "accepted by vote" in n.text for n in notes2)
    assert engine.voted_words == ["the cat"]


def test_when_the_only_other_person_left_the_answer_is_refused() -> None:
    engine = table(ANN, BOB, BOT)
    ca_on_the_table(engine)
    engine.apply(Action("leave", 0.5, BOB))
    kind, text = claim(engine, (ANN, "the cat", 1.0))[0]
    assert kind == "rejected" and "nobody else here can vote" in text
    assert engine.vote is None


def test_a_vote_voted_down_costs_nothing_either() -> None:
    engine = table(ANN, BOB, CAL)
    ca_on_the_table(engine)
    claim(engine, (ANN, "the cat", 1.0))
    engine.apply(Action("vote", 2.0, BOB, "no"))
    notes = engine.apply(Action("vote", 2.1, CAL, "no"))
    assert any(n.kind == "rejected" and "voted down" in n.text for n in notes)
    assert engine.wrong.get(ANN, 0) == 0 and engine.voted_words == []


@pytest.fixture(scope="module")
def lexicon() -> WordJudge:
    from games.lexicon import load

    judge: WordJudge = load("casual")
    return judge


@pytest.mark.parametrize(
    ("theme", "answer", "as_"),
    [
        ("books", "zzcazz", "a book"),
        ("movies", "cat", "a movie or TV show"),
        ("persons", "cab", "a famous person"),
    ],
)
def test_the_reported_cases_with_the_real_lexicon(
    lexicon: WordJudge, theme: str, answer: str, as_: str
) -> None:
    # ZZCAZZ won cards as a book, CAT as a movie and CAB as a famous person
    engine = table(ANN, BOT, themes=(theme,), judge=lexicon)
    put(engine, ann="c")
    engine.piles[BOT] = [card("a")]
    engine._changed(engine.now)
    kind, text = claim(engine, (ANN, answer, 1.0))[0]
    assert kind == "rejected", text
    assert f"I don't know {answer.upper()} as {as_}" in text and "words add" in text
    assert engine.won[ANN] == []


@pytest.mark.parametrize(
    ("theme", "answer"),
    [("persons", "beyonce"), ("persons", "obama"), ("movies", "squid game"), ("books", "the hobbit")],
)
def test_known_titles_and_people_need_no_vote_at_all(lexicon: WordJudge, theme: str, answer: str) -> None:
    engine = table(ANN, BOT, themes=(theme,), judge=lexicon)
    letters = [ch for ch in dict.fromkeys(answer.replace(" ", ""))][:2]
    put(engine, ann=letters[0])
    engine.piles[BOT] = [card(letters[1])]
    engine._changed(engine.now)
    kind, text = claim(engine, (ANN, answer, 1.0))[0]
    assert kind == "accepted", text


def test_off_the_grid_refuses_an_unknown_title_and_says_what_to_do() -> None:
    seats = [Seat(ANN, "Ann"), Seat(BOB, "Bob")]
    options: dict[str, object] = {"variation": ("off-the-grid",), "themes": ("movies",)}
    engine = create(Setup(options, seats, 1, judge=ListJudge()))
    assert isinstance(engine, OffTheGrid)
    engine.apply(Action("begin", 0.0))
    seat = engine.current
    assert seat is not None
    letters = [c.letter for c in engine.cards_on_grid()][:2]
    notes = engine.apply(Action("claims", 1.0, claims=(Claim(seat, "".join(letters) + " show", 1.0, "r"),)))
    (refusal,) = [n for n in notes if n.kind == "rejected"]
    assert "Off the Grid holds no votes" in refusal.text and "`words add" in refusal.text


def test_eagle_eyes_refuses_an_unknown_title_and_says_what_to_do() -> None:
    seats = [Seat(ANN, "Ann"), Seat(BOB, "Bob")]
    options: dict[str, object] = {"variation": ("eagle-eyes",), "themes": ("movies",)}
    engine = create(Setup(options, seats, 1, judge=ListJudge()))
    assert isinstance(engine, EagleEyes)
    engine.apply(Action("begin", 0.0))
    letters = "".join(c.letter for c in engine.cards[:2])
    notes = engine.apply(Action("say", 1.0, ANN, f"{letters} show", private=True, ref="r"))
    text = " ".join(n.text for n in notes)
    assert "lists are secret, so there is no vote" in text and "`words add" in text


@settings(max_examples=60, deadline=None)
@given(
    people=st.integers(min_value=1, max_value=3),
    bots=st.integers(min_value=0, max_value=3),
    leavers=st.integers(min_value=0, max_value=2),
    claimer=st.integers(min_value=0, max_value=2),
)
def test_only_other_people_ever_decide_an_unknown_title(
    people: int, bots: int, leavers: int, claimer: int
) -> None:
    humans = [ANN, BOB, CAL][:people]
    bots = max(bots, 2 - people)  # two cards on the table need two seats
    engine = table(*humans, *[f"bot:{i + 1}" for i in range(bots)])
    for sid in humans[1 : 1 + leavers]:
        engine.apply(Action("leave", 0.1, sid))
    seat = ANN if claimer >= people else humans[claimer]
    if seat in engine.left or engine.over:
        return
    put(engine, ann="c")
    other = next(s for s in engine.order if s != ANN)
    engine.piles[other] = [card("a")]
    engine._changed(engine.now)
    notes = claim(engine, (seat, "the cat", 1.0))
    others = {s for s in humans if s != seat and s not in engine.left}
    assert not any(kind == "accepted" for kind, _ in notes)
    if others:
        assert engine.vote is not None and engine.vote.voters == others
    else:
        assert engine.vote is None and notes[0][0] == "rejected" and "words add" in notes[0][1]
    assert engine.wrong.get(seat, 0) == 0


def test_answers_voted_down_cannot_hold_a_flip_open_for_ever() -> None:
    """An answer voted down restarts the hourglass but stays one of the flip's `max-claims`:
    before, the vote cleared the count, so a player could keep a flip (and the game) going."""
    engine = table(ANN, BOB)
    ca_on_the_table(engine)
    now, votes = 1.0, 0
    for _ in range(20):
        if engine.over:
            break
        if engine.vote is None and any("used your" in t for _, t in claim(engine, (ANN, "the cat", now))):
            break
        if engine.vote is not None:
            votes += 1
            engine.apply(Action("vote", now + 1.0, BOB, "no"))
        now += 2.0
    assert votes == engine.cfg.max_claims == 3, "each answer voted down used one of Ann's claims"
    tables = engine.version
    engine.apply(Action("tick", now + engine.cfg.hourglass + 1))
    assert engine.version > tables and engine.won[ANN] == [], "the hourglass ran out: the flip moved on"
