"""Letter dice speaks only through the catalogue: a whole game in the pseudo-language ``qps``
(every message marked ``⟦…⟧``) leaves no unmarked text a player would read."""

from __future__ import annotations

from games.common.protocol import Action, Notice, Seat, Snapshot
from games.common.speech import _, speaking
from games.dice import GAME
from tests.games.dice.helpers import new_game, say
from tests.speech.pseudo import unmarked

ROBO = Seat("ann", "Ann", "hard")
CHIP = Seat("bob", "Bobby", "easy")
ALLOWED = ("Ann", "Bobby", "challenge", "accept", "concede")


def _shown(snap: Snapshot) -> list[str]:
    return [snap.title, *snap.lines, *(f"{s.name} {s.detail}" for s in snap.seats)]


def test_a_whole_game_in_the_pseudo_language_is_all_marked() -> None:
    read: list[str] = []
    with speaking("qps"):
        engine, notes = new_game((ROBO, CHIP), words=3)
        notes = list(notes)
        who = engine.roller() or ""
        for bad in ("12 34", "zzzzqq", "STONE 9 9", "challenge", "accept", "=ACCEPT"):
            notes += say(engine, who, bad)
        notes += say(engine, "ann" if who == "bob" else "bob", "stone")
        read += [engine.preview(who, "qqqq").reason, engine.preview("nobody", "cat").reason]
        now = 1.0
        for _step in range(40):
            when = engine.next_bot_time()
            if engine.finished or when is None:
                break
            now = max(now, when)
            for claim in engine.bot_claims(now):
                notes += engine.apply(Action("say", now, seat=claim.seat, text=claim.text))
            read += _shown(engine.snapshot()) + _shown(engine.snapshot("ann"))
            deadline = engine.next_deadline()
            if deadline is not None and not engine.finished and _step == 3:
                notes += engine.apply(Action("tick", deadline))  # a reminder, then time runs out
                notes += engine.apply(Action("tick", engine.next_deadline() or deadline))
        if not engine.finished:
            notes += say(engine, engine.roller() or "ann", "concede")
        end: list[Notice] = notes
        read += [n.text for n in end] + _shown(engine.snapshot()) + [engine.result().summary]
        read += [GAME.rules_text(), _(GAME.summary)] + [spec.describe() for spec in GAME.options]
    found = [word for text in read for word in unmarked(text, ALLOWED)]
    assert found == [], found
