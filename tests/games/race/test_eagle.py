"""Eagle Eyes: private lists, the reveal, duplicates crossed out, one point per use of a letter."""

from __future__ import annotations

from games.common.protocol import Action, Claim, Notice, Seat, Setup
from games.common.text import plain
from games.race import create
from games.race.cards import DECK_SIZE
from games.race.eagle import EagleEyes, uses
from tests.games.race.helpers import ANN, BOB, CAL, NAMES, WORDS, ListJudge

EAGLE_WORDS = WORDS | {"hack", "letter", "alliteration", "that", "hat", "halt", "lath", "tall"}


def eagle(*players: str, options: dict[str, object] | None = None, seed: int = 1) -> EagleEyes:
    """A begun Eagle Eyes game (default Ann and Bob) at time 0."""
    seats = [
        Seat(p, NAMES.get(p, p), "normal" if p.startswith("bot:") else None) for p in players or (ANN, BOB)
    ]
    opts: dict[str, object] = {"variation": ("eagle-eyes",), **(options or {})}
    engine = create(Setup(opts, seats, seed, judge=ListJudge(EAGLE_WORDS)))
    assert isinstance(engine, EagleEyes)
    engine.apply(Action("begin", 0.0))
    return engine


def show(engine: EagleEyes, *letters: str) -> None:
    """Replace the face-up cards of the current round (taken from the deck, so none is lost)."""
    engine.deck.extend(engine.cards)
    engine.cards = []
    for letter in letters:
        found = next(c for c in engine.deck if c.letter == letter)
        engine.deck.remove(found)
        engine.cards.append(found)


def write(engine: EagleEyes, seat: str, text: str, at: float = 1.0) -> list[Notice]:
    return engine.apply(Action("say", at, seat, text, private=True, ref=f"{seat}@{at}"))


def all_cards(engine: EagleEyes) -> int:
    return len(engine.deck) + len(engine.discard) + len(engine.cards)


def test_two_face_up_cards_per_player_and_the_writing_time() -> None:
    engine = eagle(ANN, BOB, CAL, options={"hourglass": 45})
    snap = engine.snapshot()
    assert len(snap.cards) == 6 and snap.deadline == 45.0
    assert all_cards(engine) == DECK_SIZE
    assert engine.next_deadline() == 45.0


def test_the_rulebook_example_h_t_l_a() -> None:
    engine = eagle()
    show(engine, "h", "t", "l", "a")
    notes = write(engine, ANN, "hack letter alliteration")
    assert [n.kind for n in notes] == ["private"] and notes[0].seat == ANN
    assert "Added HACK, LETTER, ALLITERATION." in notes[0].text
    notes = engine.apply(Action("tick", 30.0))
    reveal = next(n.text for n in notes if n.kind == "announce" and n.text.startswith("Time!"))
    assert "HACK 2, LETTER 3, ALLITERATION 6" in reveal
    assert engine.finished and engine.result().scores == {ANN: 11, BOB: 0}
    assert engine.result().winners == (ANN,)
    assert [uses(w, {"h", "t", "l", "a"}) for w in ("hack", "letter", "alliteration")] == [2, 3, 6]


def test_duplicates_cross_out_for_everyone_who_wrote_them() -> None:
    engine = eagle(ANN, BOB, CAL)
    show(engine, "h", "t", "l", "a", "c", "e")
    write(engine, ANN, "hack, letter\nthat")
    write(engine, BOB, "LETTER hat", 2.0)
    write(engine, CAL, "that", 3.0)
    notes = engine.apply(Action("tick", 30.0))
    reveal = next(n.text for n in notes if n.text.startswith("Time!"))
    assert "Ann: HACK 3; crossed out: LETTER, THAT" in reveal
    assert "Bob: HAT 3; crossed out: LETTER" in reveal
    assert "Cal: no scoring words; crossed out: THAT" in reveal
    assert engine.result().scores == {ANN: 3, BOB: 3, CAL: 0}
    assert engine.result().winners == (ANN, BOB)


def test_lists_stay_private_until_the_reveal() -> None:
    engine = eagle(ANN, BOB)
    show(engine, "h", "t", "l", "a")
    public: list[Notice] = []
    for seat, text, at in ((ANN, "hack halt", 1.0), (BOB, "lath", 2.0), (ANN, "tall", 3.0)):
        for note in write(engine, seat, text, at):
            assert note.kind == "private" and note.seat == seat
            public.append(note)
    public_text = repr(engine.snapshot(None)) + repr(engine.snapshot(CAL))
    for word in ("HACK", "HALT", "LATH", "TALL", "hack", "lath"):
        assert word not in public_text
    ann_view = "\n".join(engine.snapshot(ANN).lines)
    assert "HACK, HALT, TALL" in ann_view and "LATH" not in ann_view
    assert "LATH" in "\n".join(engine.snapshot(BOB).lines)
    done = engine.apply(Action("say", 4.0, ANN, "done", private=True))
    assert all("HACK" not in n.text for n in done)
    assert any(n.kind == "announce" and n.text == "Ann is done writing." for n in done)
    notes = engine.apply(Action("vote", 5.0, BOB, "skip"))  # everyone done: reveal early
    assert any(n.kind == "announce" and "HACK 2" in n.text and "LATH 4" in n.text for n in notes)


def test_a_word_typed_in_the_channel_is_refused_and_not_added() -> None:
    engine = eagle()
    show(engine, "h", "t", "l", "a")
    notes = engine.apply(Action("claims", 1.0, claims=(Claim(ANN, "hack", 1.0, ref="m1"),)))
    assert len(notes) == 1
    rejected = notes[0]
    assert rejected.kind == "rejected" and rejected.ref == "m1" and rejected.seat == ANN
    assert "privately" in rejected.text and "HACK" not in rejected.text.upper()
    notes = engine.apply(Action("say", 1.5, BOB, "halt", ref="m2"))  # public say
    assert [n.kind for n in notes] == ["rejected"] and "privately" in notes[0].text
    assert engine.lists == {ANN: [], BOB: []}
    assert engine.apply(Action("claims", 2.0, claims=(Claim(ANN, "lol 😂", 2.0),))) == []


def test_bad_words_are_explained_privately() -> None:
    engine = eagle()
    show(engine, "h", "t", "l", "a")
    [note] = write(engine, ANN, "dog zzzz ha!ck hack hack")
    assert note.kind == "private" and note.seat == ANN
    assert "DOG uses none of the face-up letters" in note.text
    assert "ZZZZ" in note.text and "'ha!ck' is not a single word" in plain(note.text)
    assert engine.lists[ANN] == ["hack"]  # the repeat counted once


def test_rounds_deal_new_letters_and_add_up() -> None:
    engine = eagle(options={"rounds": 2, "hourglass": 20})
    show(engine, "h", "t", "l", "a")
    write(engine, ANN, "hack")
    notes = engine.apply(Action("tick", 20.0))
    assert not engine.finished and any("Next round in 5 s" in n.text for n in notes)
    assert not engine.cards and engine.next_deadline() == 25.0
    late = write(engine, BOB, "hat", 21.0)
    assert "This round is over" in late[0].text
    notes = engine.apply(Action("tick", 25.0))
    assert engine.round == 2 and len(engine.cards) == 4 and engine.writing_until == 45.0
    assert any("round 2 of 2" in n.text for n in notes)
    show(engine, "c", "a", "t", "e")
    write(engine, BOB, "teach", 30.0)
    engine.apply(Action("tick", 45.0))
    assert engine.finished and engine.result().scores == {ANN: 2, BOB: 4}
    assert all_cards(engine) == DECK_SIZE


def test_leaving_and_bad_actions_never_raise() -> None:
    engine = eagle(ANN, BOB, CAL)
    for action in (
        Action("say", 1.0, "ghost", "cat", private=True),
        Action("say", 1.0, ANN, "", private=True),
        Action("say", 1.0, ANN, "x" * 5000, private=True),
        Action("vote", 1.0, "ghost", "skip"),
        Action("vote", 1.0, ANN, "maybe"),
        Action("leave", 1.0, "ghost"),
        Action("claims", 1.0, claims=(Claim("ghost", "cat", 1.0),)),
        Action("tick", 0.5),
    ):
        engine.apply(action)
    engine.apply(Action("leave", 2.0, CAL))
    assert CAL in engine.left and not engine.finished
    engine.apply(Action("leave", 3.0, ANN))
    engine.apply(Action("leave", 4.0, BOB))
    assert engine.finished
    assert engine.apply(Action("tick", 100.0)) == []


def test_a_whole_game_with_bots_reaches_the_end() -> None:
    seats = [Seat(ANN, "Ann"), Seat("bot:1", "Chip", "hard"), Seat("bot:2", "Dot", "easy")]
    engine = create(Setup({"variation": "eagle", "rounds": 3}, seats, 7, judge=ListJudge(EAGLE_WORDS)))
    assert isinstance(engine, EagleEyes)
    engine.apply(Action("begin", 0.0))
    public: list[Notice] = []
    steps = 0
    while not engine.finished and steps < 100:
        steps += 1
        assert engine.bot_claims(1e9) == [] and engine.next_bot_time() is None
        deadline = engine.next_deadline()
        assert deadline is not None
        public += [n for n in engine.apply(Action("tick", deadline)) if n.kind != "private"]
    assert engine.finished and engine.round == 3
    handed = [n for n in public if "handed in a list" in n.text]
    assert len(handed) == 6
    result = engine.result()
    assert set(result.scores) == {ANN, "bot:1", "bot:2"} and result.scores[ANN] == 0
    assert all_cards(engine) == DECK_SIZE


def test_bots_only_game_and_replay() -> None:
    def play() -> tuple[object, ...]:
        seats = [Seat("bot:1", "Chip", "normal"), Seat("bot:2", "Dot", "hard")]
        engine = create(Setup({"variation": ("eagle-eyes",)}, seats, 3, judge=ListJudge(EAGLE_WORDS)))
        engine.apply(Action("begin", 0.0))
        while not engine.finished:
            deadline = engine.next_deadline()
            assert deadline is not None
            engine.apply(Action("tick", deadline))
        assert isinstance(engine, EagleEyes)
        return (engine.result().scores, engine.reveals)

    assert play() == play()


def test_the_flip_race_is_still_the_default() -> None:
    from games.race.engine import FlipRace

    engine = create(Setup({}, [Seat(ANN, "Ann")], 1, judge=ListJudge()))
    assert isinstance(engine, FlipRace)
