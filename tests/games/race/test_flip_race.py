"""The flip race engine: deal, claims, locks, ties, the hourglass, skips and the end."""

from __future__ import annotations

from games.common.protocol import Action, Claim
from games.common.text import plain
from games.race.cards import DECK_SIZE
from tests.games.race.helpers import ANN, BOB, CAL, DEE, claim, put, race, total_cards


def test_deal_flips_one_card_per_player() -> None:
    engine = race(options={"cards": 5})
    assert [len(engine.stacks[s]) for s in (ANN, BOB)] == [4, 4]
    assert len(engine.snapshot().cards) == 2
    assert total_cards(engine) == DECK_SIZE


def test_a_word_collects_only_the_cards_it_uses() -> None:
    engine = race(ANN, BOB, CAL, options={"cards": 5})
    put(engine, ann="c", bob="a", cal="x")
    notes = claim(engine, (CAL, "cat", 1.0))
    assert notes[0][0] == "accepted" and "Cal takes C A with CAT" in notes[0][1]
    assert [c.letter for c in engine.won[CAL]] == ["c", "a"]
    assert [c.letter for c in engine.piles[CAL]] == ["x"]  # unused: stays face-up
    # the owners of the taken cards flip after a pause; until then they can't collect
    assert set(engine.flip_at) == {ANN, BOB}
    notes = claim(engine, (ANN, "tax", 1.2))
    # the flip is automatic: the refusal says when it comes, not that the player must act
    pause = engine.cfg.flip_pause
    assert notes[0] == (
        "rejected",
        f"Your card was just taken: your next card flips by itself in {pause - 0.2:.1f} s, "
        "and then you can collect again.",
    )


def test_each_letter_claims_one_card_and_two_are_needed() -> None:
    engine = race(ANN, BOB, CAL, options={"cards": 5})
    put(engine, ann="t", bob="t", cal="a")
    notes = claim(engine, (CAL, "tat", 2.0))
    assert notes[0][0] == "accepted"
    assert sorted(c.letter for c in engine.won[CAL]) == ["a", "t", "t"]


def test_one_matching_card_is_not_enough() -> None:
    engine = race(options={"cards": 5})
    put(engine, ann="d", bob="q")
    kind, text = claim(engine, (ANN, "dog", 1.0))[0]
    assert (kind, text) == ("rejected", "DOG uses only 1 face-up card; at least 2 are needed")


def test_unknown_words_and_chatter() -> None:
    engine = race(options={"cards": 5})
    put(engine, ann="c", bob="a")
    assert claim(engine, (ANN, "cax", 1.0)) == [("rejected", "CAX isn't in my dictionary.")]
    assert claim(engine, (ANN, "lol 😂 nice", 1.1)) == []  # chatter is ignored


def test_a_contraction_typed_with_its_apostrophe_gets_a_reason() -> None:
    engine = race(options={"cards": 5})
    put(engine, ann="d", bob="t")
    assert [(kind, plain(text)) for kind, text in claim(engine, (ANN, "DON'T", 1.0))] == [
        ("rejected", "DON'T is a contraction, banned in this game.")
    ]
    assert claim(engine, (ANN, "rock'n'roll!", 1.1))[0][0] == "rejected"


def test_earliest_sent_wins_with_the_margin() -> None:
    engine = race(options={"cards": 5})
    put(engine, ann="c", bob="a")
    notes = claim(engine, (BOB, "act", 1.250), (ANN, "cat", 1.130))
    accepted = [t for k, t in notes if k == "accepted"]
    assert len(accepted) == 1 and accepted[0].startswith("Ann takes")
    assert "won by 120 ms over Bob" in accepted[0]
    assert any(k == "rejected" and "Too late" in t and "120 ms" in t for k, t in notes)


def test_a_tie_goes_to_the_first_different_word() -> None:
    engine = race(options={"cards": 5, "tie-ms": 10})
    put(engine, ann="c", bob="a")
    notes = claim(engine, (ANN, "cat", 1.000), (BOB, "act", 1.004))
    assert any(k == "announce" and text.startswith("Tie!") for k, text in notes)
    assert not engine.won[ANN] and not engine.won[BOB]
    assert claim(engine, (ANN, "cat", 2.0))[0][0] == "rejected"  # part of the tie
    notes = claim(engine, (BOB, "arc", 2.5))
    assert notes[0][0] == "accepted" and "Bob takes" in notes[0][1]


def test_claims_the_platform_cannot_tell_apart_in_time_are_a_tie() -> None:
    # tie-ms 10, but the platform stamps messages to the 50 ms: 30 ms apart is no proof of first
    engine = race(options={"cards": 5, "tie-ms": 10}, timestamp_precision=0.05)
    assert engine.cfg.tie == 0.05
    put(engine, ann="c", bob="a")
    notes = claim(engine, (ANN, "cat", 1.000), (BOB, "act", 1.030))
    assert any(k == "announce" and text.startswith("Tie!") for k, text in notes)
    # on a platform with exact times the same claims are won by 30 ms
    engine = race(options={"cards": 5, "tie-ms": 10}, timestamp_precision=0.001)
    put(engine, ann="c", bob="a")
    notes = claim(engine, (ANN, "cat", 1.000), (BOB, "act", 1.030))
    assert any(k == "accepted" and "won by 30 ms over Bob" in text for k, text in notes)


def test_hourglass_discards_and_shows_a_word() -> None:
    engine = race(options={"cards": 5, "hourglass": 30})
    put(engine, ann="c", bob="a")
    notes = engine.apply(Action("tick", 30.0))
    text = " ".join(n.text for n in notes if n.kind == "announce")
    assert "hourglass" in text.lower() and "would have worked" in text
    assert sorted(c.letter for c in engine.discard) == ["a", "c"]
    assert total_cards(engine) == DECK_SIZE


def test_unanimous_skip_vote() -> None:
    engine = race(options={"cards": 5})
    put(engine, ann="q", bob="z")
    engine.apply(Action("vote", 1.0, ANN, "skip"))
    assert not engine.discard
    notes = engine.apply(Action("vote", 2.0, BOB, "skip"))
    assert any("Everyone voted to skip" in n.text for n in notes)
    assert sorted(c.letter for c in engine.discard) == ["q", "z"]


def test_a_player_with_an_empty_stack_may_still_claim() -> None:
    engine = race(ANN, BOB, CAL, options={"cards": 5})
    engine.discard.extend(engine.stacks[ANN])
    engine.stacks[ANN] = []
    put(engine, bob="c", cal="a")
    assert claim(engine, (ANN, "cat", 1.0))[0][0] == "accepted"


def test_game_ends_and_names_the_master() -> None:
    engine = race(options={"cards": 1})
    put(engine, ann="c", bob="a")
    notes = claim(engine, (ANN, "cat", 1.0))
    assert engine.finished
    result = engine.result()
    assert result.winners == (ANN,) and result.scores[ANN] == 4
    assert "Ann is the moji Master" in result.summary
    assert notes[0][0] == "accepted"


def test_teams_combine_win_piles() -> None:
    engine = race(ANN, BOB, CAL, DEE, options={"cards": 5, "variation": ("do-si-do",)})
    put(engine, ann="c", bob="a")
    claim(engine, (ANN, "cat", 1.0))
    assert engine.partner[ANN] == CAL
    assert engine.score(CAL) == engine.score(ANN) == 4


def test_ball_and_chain_only_partner_cards() -> None:
    engine = race(ANN, BOB, CAL, DEE, options={"cards": 5, "variation": ("ball-and-chain",)})
    put(engine, ann="c", bob="a", cal="t")
    kind, text = claim(engine, (ANN, "cat", 1.0))[0]
    assert kind == "accepted" and "C T" in text  # Bob's A is not Ann's to use
    assert [c.letter for c in engine.piles[BOB]] == ["a"]


def test_monochrome_needs_one_colour() -> None:
    engine = race(options={"cards": 5, "variation": ("monochrome",)})
    cards = put(engine, ann="c", bob="a")
    engine.piles[BOB] = [type(cards[BOB])(cards[BOB].id, "a", "blue")]
    kind, text = claim(engine, (ANN, "cat", 1.0))[0]
    assert kind == "rejected" and "Monochrome" in text


def test_stack_em_up_takes_the_cards_underneath() -> None:
    engine = race(options={"cards": 5, "variation": ("stack-em-up",)})
    put(engine, ann="q", bob="z")
    engine.apply(Action("tick", 30.0))  # stuck: new cards land on top
    assert len(engine.piles[ANN]) == 2 and len(engine.piles[BOB]) == 2
    top_a, top_b = engine.piles[ANN][-1].letter, engine.piles[BOB][-1].letter
    engine.piles[ANN][-1] = type(engine.piles[ANN][-1])(engine.piles[ANN][-1].id, "c", "red")
    engine.piles[BOB][-1] = type(engine.piles[BOB][-1])(engine.piles[BOB][-1].id, "a", "red")
    notes = claim(engine, (ANN, "cat", 31.0))
    assert "underneath" in notes[0][1], (top_a, top_b, notes)
    assert len(engine.won[ANN]) == 4


def test_theme_answer_the_judge_cannot_decide_goes_to_a_vote() -> None:
    engine = race(ANN, BOB, CAL, options={"cards": 5, "themes": ("movies",)})
    put(engine, ann="c", bob="a")
    notes = claim(engine, (CAL, "the cat", 1.0))
    assert any("vote yes or no" in t for _, t in notes)
    engine.apply(Action("vote", 2.0, ANN, "yes"))
    notes = engine.apply(Action("vote", 2.5, BOB, "yes"))
    assert any(n.kind == "accepted" and "accepted by vote" in n.text for n in notes)
    assert engine.voted_words == ["the cat"]


def test_bad_actions_never_raise() -> None:
    engine = race(options={"cards": 5})
    for action in (
        Action("vote", 1.0, "nobody", "skip"),
        Action("say", 1.0, ANN, ""),
        Action("leave", 1.0, "ghost"),
        Action("claims", 1.0, claims=(Claim("ghost", "cat", 1.0),)),
        Action("claims", 1.0, claims=(Claim(ANN, "x" * 4000, 1.0),)),
    ):
        engine.apply(action)
    assert total_cards(engine) == DECK_SIZE
