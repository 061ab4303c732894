"""Players whose private messages the platform refuses (bot/delivery/reach.py), on every platform."""

from __future__ import annotations

from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import Player
from bot.delivery.reach import TRY_AGAIN_AFTER, Unreachable, pointer, with_pointer

ANN = Player("discord", "1", "Ann")


async def test_a_refusal_is_remembered_then_tried_again_a_day_later() -> None:
    clock = FakeClock()
    unreachable = Unreachable(clock)
    assert not unreachable.closed("discord:1")
    assert unreachable.refused(ANN) is True
    assert unreachable.refused(ANN) is False, "the second refusal is not news"
    assert unreachable.closed("discord:1") and not unreachable.closed("discord:2")
    await clock.advance(TRY_AGAIN_AFTER - 1)
    assert unreachable.closed("discord:1")
    await clock.advance(1)
    assert not unreachable.closed("discord:1"), "worth one more try: they may have opened them"


def test_turn_messages_point_the_player_to_my_rack() -> None:
    unreachable = Unreachable(FakeClock())
    turn = views.turn("discord:1", "Ann, it's your turn.", None, "board")
    assert with_pointer(turn, unreachable) is turn
    unreachable.refused(ANN)
    pointed = with_pointer(turn, unreachable)
    assert [b.action for b in pointed.buttons] == [views.HAND] and "My rack" in pointed.lines[-1]
    other = views.turn("discord:2", "Bob, it's your turn.", None, "board")
    assert with_pointer(other, unreachable) is other
    note = pointer(ANN)
    assert note.mentions == ("discord:1",) and [b.action for b in note.buttons] == [views.HAND]
    assert "permission" not in " ".join(note.lines).lower()
