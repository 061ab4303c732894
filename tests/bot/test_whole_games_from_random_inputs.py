"""Every game, played to its end through the manager from random legal inputs.

Two people (Ann, the host, and Bob) and one computer player sit at each table; Cat watches.
Hypothesis picks each step: the person to move plays a legal move (from the game's own move
generator, the one its computer players use), someone types a command at a random time
(``skip``, ``why``, ``hand``, ``pass``, a vote, nonsense, a pasted wall of text…), or time
passes. After the random steps the people play legal moves only, and the game must end within
:data:`FINISH_STEPS`. Throughout:

* every command gets an answer (a private reply to its author, or a post in the channel);
* nothing crashes (``manager.errors`` stays empty);
* no public post shows a rack or a hand.

The driver leaves out what could loop for ever while another branch fixes it in the engines
(shed's Draw-Two exchange once the deck is empty, board's swaps with a full bag): a person
never swaps in board and never plays a Draw Two card after :data:`LOOPY_AFTER` steps.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, MessageRef, Player, Post, Private, Text
from bot.core.registry import Registry, load_default
from bot.hosting.manager import GameManager
from bot.sessions.session import Session
from tests.doubles import FakeOutbox, MemoryLog

CHAT = ChatKey("test", "w", "props")
ANN = Player("test", "ann", "Ann")
BOB = Player("test", "bob", "Bob")
CAT = Player("test", "cat", "Cat")  # never joins
PEOPLE = {ANN.seat_id: ANN, BOB.seat_id: BOB}

#: Short settings per game, so that a whole game takes a few seconds.
OPTIONS: dict[str, tuple[str, ...]] = {
    "race": ("bots=1", "cards=5"),
    "board": ("bots=1", "live=on"),
    "dice": ("bots=1", "words=2"),
    "paths": ("bots=1", "size=8", "knock=5"),
    "shed": ("bots=1", "hand=4"),
}
#: Random steps at most, then steps of legal moves in which the game must end (the bound).
RANDOM_STEPS = 40
FINISH_STEPS = 400
#: Steps after which the driver stops choosing moves that may loop (see the module's note).
LOOPY_AFTER = 60
LONG = "Q" * 1500

#: Commands typed at random moments (besides legal moves).
NOISE: tuple[tuple[str, ...], ...] = (
    ("skip",),
    ("why",),
    ("hand",),
    ("board",),
    ("vote", "yes"),
    ("vote", "no"),
    ("play", "pass"),
    ("play", "zz9", "qq"),
    ("play", LONG),
    ("list", "cat", "act"),
    ("join",),
    ("go",),
    ("rules",),
    ("help",),
    ("start",),
    ("leave",),
)
#: What only a player's own private view shows.
PRIVATE_MARKS = ("Your rack", "Your hand", "Your tiles", "Your list")


def _legal_move(session: Session, seat: str, step: int) -> str | None:
    """A legal move for ``seat`` now, from the game's own move generator (None: none to offer)."""
    engine: Any = session.engine
    rng = random.Random(step)
    name = session.info.name
    if name == "race":
        plans = [word for _, word in getattr(engine, "plans", {}).values()]
        return rng.choice(plans) if plans else None
    if name == "board":
        from games.board.player import choose

        move = str(
            choose(engine.board, engine.racks[seat], engine.check, "easy", rng, engine._rules_for_bots())
        )
        return "pass" if move.startswith("swap") and step > LOOPY_AFTER else move
    if name == "dice":
        return str(engine._bot_move(seat))
    if name == "paths":
        from games.paths import bots

        return str(bots.choose(engine, seat, "normal", rng))
    if name == "shed":
        from games.shed.bots import plan_turn

        move = str(plan_turn(engine, seat, "easy", rng))
        if step > LOOPY_AFTER and ("+2" in move or "draw2" in move or "draw-two" in move):
            return "draw"
        return move
    raise AssertionError(name)


def _to_move(session: Session) -> list[str]:
    """The people who may act now (everyone in the race; the seat to move in a turn-based game)."""
    engine: Any = session.engine
    if session.info.name == "dice" and engine.phase == "last-call" and engine.pending is not None:
        # the last word: the other side may challenge or accept it
        seats = [engine.roller(1 - engine.pending.side, engine.turn)]
    else:
        seats = [s.seat for s in session.snapshot(None).seats if s.active]
    return [seat for seat in seats if seat in PEOPLE and seat in session.state.by_seat]


class Table:
    """One game through a manager, with the checks every step makes."""

    def __init__(self, registry: Registry, game: str) -> None:
        self.game = game
        self.clock, self.outbox, self.log = FakeClock(), FakeOutbox(), MemoryLog()
        self.manager = GameManager(registry, self.outbox, self.log, self.clock, rng=random.Random(11))
        self.step = 0
        self._ids = 0

    async def command(self, who: Player, *words: str) -> None:
        before = len(self.outbox.sent)
        await self.manager.handle(Command(words[0], words[1:], CHAT, who))
        new = self.outbox.sent[before:]
        answered = any(isinstance(m, Post) or (isinstance(m, Private) and m.player == who) for m in new)
        assert answered, f"{self.game}: {' '.join(words)[:40]!r} by {who.display_name} went unanswered"

    async def typed(self, who: Player, text: str) -> None:
        self._ids += 1
        ref = MessageRef(CHAT, f"typed{self._ids}")
        await self.manager.handle(Text(CHAT, who, text, self.clock.now(), ref))

    async def wait(self, seconds: float) -> None:
        await self.clock.advance(seconds)

    @property
    def session(self) -> Session | None:
        return self.manager.sessions.get(CHAT)

    async def legal(self, pick: Callable[[list[str]], str], as_text: bool) -> bool:
        """The person to move (``pick`` chooses among several) plays a legal move; False: none."""
        session = self.session
        if session is None or session.engine is None:
            return False
        movers = _to_move(session)
        if not movers:
            return False
        seat = pick(movers)
        move = _legal_move(session, seat, self.step)
        if move is None:
            return False
        who = PEOPLE[seat]
        if as_text or session.info.realtime:
            await self.typed(who, move)
        else:
            await self.command(who, "play", *move.split())
        return True

    def check(self) -> None:
        assert not self.manager.errors, self.manager.errors
        for message in self.outbox.sent:
            if isinstance(message, Post):
                text = message.view.plain()
                assert not any(mark in text for mark in PRIVATE_MARKS), text
                assert message.view.kind != "private", text
        self._racks_stay_private()

    def _racks_stay_private(self) -> None:
        """No public post shows a person's rack or hand as their private view lists it."""
        session = self.session
        if session is None or session.engine is None:
            return
        public = "\n".join(m.view.plain() for m in self.outbox.sent if isinstance(m, Post))
        for seat in PEOPLE:
            if seat not in session.state.by_seat:
                continue
            mine = session.snapshot(seat).cards
            theirs = session.snapshot(None).cards
            if mine == theirs or len(mine) < 4:
                continue  # nothing hidden (race, dice), or too few letters to tell
            hidden = " ".join(c.letter or "?" for c in mine)
            assert f": {hidden}\n" not in public + "\n", hidden


async def play(registry: Registry, game: str, choices: st.DataObject) -> None:
    table = Table(registry, game)
    try:
        await table.command(ANN, "start", game, *OPTIONS[game])
        await table.command(BOB, "join")
        await table.command(ANN, "go")
        for table.step in range(RANDOM_STEPS):
            if table.session is None:
                break
            kind = choices.draw(st.sampled_from(("legal", "legal", "legal", "typed", "noise", "wait")))
            if kind in {"legal", "typed"}:
                pick = choices.draw(st.sampled_from((min, max)))
                if not await table.legal(pick, as_text=kind == "typed"):
                    await table.wait(2.0)
            elif kind == "noise":
                who = choices.draw(st.sampled_from((ANN, BOB, CAT)))
                words = choices.draw(st.sampled_from(NOISE))
                if words == ("leave",) and who == ANN:
                    who = BOB  # (the host stays, so the game has a person to the end)
                await table.command(who, *words)
            else:
                await table.wait(choices.draw(st.sampled_from((0.2, 1.0, 5.0, 30.0))))
            await table.wait(0.2)  # the settle window closes, timers fire
            table.check()
        for table.step in range(RANDOM_STEPS, RANDOM_STEPS + FINISH_STEPS):
            if table.session is None:
                break
            if not await table.legal(min, as_text=False):
                await table.wait(5.0)
            await table.wait(0.5)
            table.check()
        assert table.session is None, f"{game} did not end within {FINISH_STEPS} steps of legal moves"
        table.check()
        results = list(table.log.results.values())
        assert len(results) == 1 and not table.log.voided, (results, table.log.voided)
        assert ANN.seat_id in results[0].scores  # (the host never leaves: the game counted)
        await table.command(CAT, "why")  # after the end, too
    finally:
        await table.manager.shutdown()


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_default()


@pytest.mark.parametrize("game", sorted(OPTIONS))
@settings(
    max_examples=2,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),  # (a whole game shrinks slowly; the seed is fixed)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(choices=st.data())
def test_every_game_ends_and_answers_everything_from_random_legal_inputs(
    registry: Registry, game: str, choices: st.DataObject
) -> None:
    asyncio.run(play(registry, game, choices))
