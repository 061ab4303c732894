"""Off the Grid: the chart's grid sizes, timed turns, collecting, the three end conditions, bots."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.protocol import Action, Claim, Notice, Seat, Setup
from games.race import create
from games.race.cards import DECK_SIZE
from games.race.grid import OffTheGrid, grid_side
from tests.games.race.helpers import ANN, BOB, CAL, DEE, NAMES, WORDS, ListJudge


def grid(*players: str, options: dict[str, object] | None = None, seed: int = 1) -> OffTheGrid:
    """A begun Off the Grid game (default Ann and Bob) at time 0."""
    seats = [
        Seat(p, NAMES.get(p, p), "normal" if p.startswith("bot:") else None) for p in players or (ANN, BOB)
    ]
    opts: dict[str, object] = {"variation": ("off-the-grid",), **(options or {})}
    engine = create(Setup(opts, seats, seed, judge=ListJudge()))
    assert isinstance(engine, OffTheGrid)
    engine.apply(Action("begin", 0.0))
    return engine


def lay(engine: OffTheGrid, letters: str) -> None:
    """Lay out the grid in reading order ('.' is an empty place); cards come from the deck."""
    pool = engine.deck + engine.cards_on_grid()
    cells: list[object] = []
    for ch in letters.ljust(engine.side * engine.side, "."):
        if ch == ".":
            cells.append(None)
            continue
        found = next(c for c in pool if c.letter == ch)
        pool.remove(found)
        cells.append(found)
    engine.deck = pool
    engine.grid = cells  # type: ignore[assignment]


def say(engine: OffTheGrid, seat: str, text: str, at: float) -> list[tuple[str, str]]:
    claim = Claim(seat, text, at, ref=f"{seat}@{at}")
    return [(n.kind, n.text) for n in engine.apply(Action("claims", at, claims=(claim,)))]


def total_cards(engine: OffTheGrid) -> int:
    return len(engine.deck) + engine.face_up() + sum(len(w) for w in engine.won.values())


def test_grid_sizes_follow_the_chart() -> None:
    assert [grid_side(n) for n in (2, 3, 4, 5, 6)] == [5, 6, 7, 8, 9]
    assert grid_side(1) == 5 and grid_side(7) == 10 and grid_side(12) == 10
    for players, side in ((2, 5), (3, 6), (4, 7)):
        engine = grid(*[ANN, BOB, CAL, DEE][:players])
        assert engine.side == side and engine.face_up() == side * side
        snap = engine.snapshot()
        assert len(snap.grid) == side and all(len(row.split()) == side for row in snap.grid)
        assert total_cards(engine) == DECK_SIZE


def test_turns_go_in_seat_order_and_last_30_seconds() -> None:
    engine = grid(ANN, BOB, CAL)
    snap = engine.snapshot()
    assert engine.current == ANN and snap.deadline == 30.0 and engine.next_deadline() == 30.0
    assert [s.active for s in snap.seats] == [True, False, False]
    assert any("Ann's turn" in line for line in snap.lines)
    notes = engine.apply(Action("tick", 30.0))
    assert any(n.text == "Time's up for Ann." for n in notes)
    assert engine.current == BOB and engine.turn_until == 60.0


def test_the_turn_option_sets_the_time() -> None:
    engine = grid(options={"turn": 10})
    assert engine.turn_until == 10.0


def test_a_word_collects_the_cards_it_uses_and_passes_the_turn() -> None:
    engine = grid()
    lay(engine, "cxatq" + "zzqqt" + "jjj")
    notes = say(engine, ANN, "tact", 1.0)
    assert notes[0] == ("accepted", "Ann takes C A T T with TACT (+6 points, 6 in all).")
    assert sorted(c.letter for c in engine.won[ANN]) == ["a", "c", "t", "t"]
    assert engine.snapshot().grid[0] == "· X · · Q"
    assert engine.current == BOB and engine.turn_until == 31.0
    assert engine.result().scores[ANN] == 6


def test_each_letter_claims_one_card() -> None:
    engine = grid()
    lay(engine, "ccaaxt")
    say(engine, ANN, "cat", 1.0)
    assert sorted(c.letter for c in engine.won[ANN]) == ["a", "c", "t"]
    assert "".join(engine.snapshot().grid).replace(" ", "").startswith("·C·AX·")


def test_claims_out_of_turn_are_refused_with_a_reason() -> None:
    engine = grid()
    lay(engine, "catxx")
    assert say(engine, BOB, "cat", 1.0) == [("rejected", "It's Ann's turn.")]
    assert engine.won[BOB] == [] and engine.current == ANN
    notes = engine.apply(Action("say", 2.0, BOB, "pass"))
    assert [(n.kind, n.text) for n in notes] == [("rejected", "It's Ann's turn.")]


def test_wrong_words_may_be_retried_until_time_runs_out() -> None:
    engine = grid()
    lay(engine, "catxxdqqq")
    assert say(engine, ANN, "dog", 1.0) == [
        ("rejected", "DOG uses only 1 face-up card; at least 2 are needed")
    ]
    assert say(engine, ANN, "cax", 2.0) == [("rejected", "CAX isn't in my dictionary.")]
    assert say(engine, ANN, "lol 😂", 3.0) == []
    assert say(engine, ANN, "act", 4.0)[0][0] == "accepted"


def test_a_claim_after_the_turn_ended_is_out_of_turn() -> None:
    engine = grid()
    lay(engine, "catxx")
    notes = say(engine, ANN, "cat", 30.5)
    assert ("announce", "Time's up for Ann.") in notes and ("rejected", "It's Bob's turn.") in notes


def test_typing_pass_passes_the_turn() -> None:
    engine = grid()
    notes = engine.apply(Action("say", 3.0, ANN, "pass"))
    assert any(n.text == "Ann passes." for n in notes) and engine.current == BOB


def test_end_when_no_cards_remain() -> None:
    engine = grid()
    lay(engine, "cat")
    notes = say(engine, ANN, "cat", 1.0)
    assert engine.finished and ("announce", "No cards remain face-up.") in notes
    assert notes[-1][0] == "end" and "Ann is the moji Master" in notes[-1][1]


def test_end_when_only_one_card_remains() -> None:
    engine = grid()
    lay(engine, "catq")
    notes = say(engine, ANN, "cat", 1.0)
    assert engine.finished
    assert ("announce", "Only one card remains face-up. Left on the grid: Q.") in notes
    assert total_cards(engine) == DECK_SIZE


def test_end_after_a_round_without_a_word() -> None:
    engine = grid(ANN, BOB, CAL)
    lay(engine, "catqz")
    engine.apply(Action("tick", 30.0))  # Ann times out
    say(engine, BOB, "cat", 31.0)  # a word resets the count
    engine.apply(Action("tick", 61.0))  # Cal
    engine.apply(Action("say", 62.0, ANN, "pass"))
    assert not engine.finished and engine.current == BOB
    notes = engine.apply(Action("tick", 200.0))  # Bob times out: a whole round without a word
    assert engine.finished
    assert any(n.text.startswith("A whole round went by without a word.") for n in notes)
    assert engine.result().winners == (BOB,)


def test_leaving_passes_the_turn_and_bad_input_never_raises() -> None:
    engine = grid(ANN, BOB, CAL)
    for action in (
        Action("say", 1.0, "ghost", "cat"),
        Action("say", 1.0, ANN, ""),
        Action("vote", 1.0, "ghost", "skip"),
        Action("leave", 1.0, "ghost"),
        Action("claims", 1.0, claims=(Claim("ghost", "cat", 1.0),)),
        Action("claims", 1.0, claims=(Claim(ANN, "x" * 4000, 1.0),)),
        Action("say", 1.0, ANN, "cat", private=True),
        Action("tick", 0.5),
    ):
        engine.apply(action)
    assert engine.current == ANN
    engine.apply(Action("leave", 2.0, ANN))
    assert engine.current == BOB and engine.turn_until == 32.0
    engine.apply(Action("leave", 3.0, CAL))
    engine.apply(Action("tick", 32.0))  # Bob alone: his timeout is a whole round
    assert engine.finished and total_cards(engine) == DECK_SIZE
    assert engine.apply(Action("tick", 99.0)) == []


def test_before_begin_nothing_happens() -> None:
    seats = [Seat(ANN, "Ann"), Seat(BOB, "Bob")]
    engine = create(Setup({"variation": "grid"}, seats, 1, judge=ListJudge()))
    assert isinstance(engine, OffTheGrid)
    assert engine.apply(Action("claims", 1.0, claims=(Claim(ANN, "cat", 1.0),))) == []
    assert engine.next_deadline() is None and not engine.finished


def test_monochrome_applies_on_the_grid() -> None:
    engine = grid(options={"variation": ("off-the-grid", "monochrome")})
    lay(engine, "ca")
    c, a = engine.cards_on_grid()
    engine.grid[1] = type(a)(a.id, "a", "blue" if c.colour != "blue" else "red")
    kind, text = say(engine, ANN, "cat", 1.0)[0]
    assert kind == "rejected" and "Monochrome" in text


def test_computer_players_take_their_turns() -> None:
    answered = passed = 0
    for seed in range(12):
        engine = grid(ANN, "bot:1", seed=seed)
        lay(engine, "catdogxq")
        engine.apply(Action("say", 1.0, ANN, "pass"))
        assert engine.current == "bot:1"
        t = engine.next_bot_time()
        if t is not None:
            assert t < 31.0
            due = engine.bot_claims(t)
            assert [c.seat for c in due] == ["bot:1"]
            notes = engine.apply(Action("claims", t, claims=tuple(due)))
            assert notes[0].kind == "accepted" and engine.won["bot:1"]
            assert engine.current == ANN
            answered += 1
        else:  # stuck: it passes well before its time runs out
            deadline = engine.next_deadline()
            assert deadline is not None and deadline < 31.0
            notes = engine.apply(Action("tick", deadline))
            assert notes[0].text == "bot:1 passes."
            assert engine.finished  # Ann passed too: a whole round without a word
            passed += 1
    assert answered and passed


def play_bots(
    players: int, seed: int, options: dict[str, object] | None = None
) -> tuple[OffTheGrid, list[Notice]]:
    seats = [Seat(f"bot:{i}", f"Bot {i}", ("easy", "normal", "hard")[i % 3]) for i in range(1, players + 1)]
    opts: dict[str, object] = {"variation": ("off-the-grid",), **(options or {})}
    engine = create(Setup(opts, seats, seed, judge=ListJudge()))
    assert isinstance(engine, OffTheGrid)
    notes = engine.apply(Action("begin", 0.0))
    steps = 0
    while not engine.finished and steps < 2000:
        steps += 1
        times = [t for t in (engine.next_deadline(), engine.next_bot_time()) if t is not None]
        assert times, "a running game always has a timer"
        now = min(times)
        due = engine.bot_claims(now)
        action = Action("claims", now, claims=tuple(due)) if due else Action("tick", now)
        notes += engine.apply(action)
        assert total_cards(engine) == DECK_SIZE
    return engine, notes


def test_a_whole_game_with_bots_reaches_the_end() -> None:
    engine, notes = play_bots(3, 5)
    assert engine.finished and notes[-1].kind == "end"
    assert any(n.kind == "accepted" for n in notes)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 7))
def test_random_bot_games_keep_the_invariants(seed: int, players: int) -> None:
    engine, _ = play_bots(players, seed, {"turn": 5})
    assert engine.finished
    placed = [c.id for c in engine.deck] + [c.id for c in engine.cards_on_grid()]
    placed += [c.id for w in engine.won.values() for c in w]
    assert sorted(placed) == list(range(DECK_SIZE))  # every card in exactly one place
    scores = engine.result().scores
    assert scores == {sid: sum(c.points for c in engine.won[sid]) for sid in engine.order}


@settings(max_examples=40, deadline=None)
@given(
    moves=st.lists(
        st.tuples(
            st.sampled_from([ANN, BOB, CAL, "ghost"]),
            st.sampled_from([*sorted(WORDS), "pass", "zzz", "", "hi there"]),
            st.floats(0.0, 40.0),
        ),
        max_size=30,
    )
)
def test_random_moves_never_lose_a_card_and_the_game_ends(moves: list[tuple[str, str, float]]) -> None:
    engine = grid(ANN, BOB, CAL)
    now = 0.0
    for seat, text, gap in moves:
        now += gap
        engine.apply(Action("claims", now, claims=(Claim(seat, text, now),)))
        assert total_cards(engine) == DECK_SIZE
        assert sum(engine.result().scores.values()) == sum(c.points for w in engine.won.values() for c in w)
    engine.apply(Action("tick", now + 3 * 31.0))  # a whole round of timeouts at most
    assert engine.finished
