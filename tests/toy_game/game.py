"""Spell: a toy game that lives in this folder only, to show what adding a game takes.

Everything a game declares is here — its engine (on :class:`games.common.engine.GameEngine`,
so it overrides only the hooks it uses), which typed texts are its answers, its options and
which of them a start form shows, its own command (``shout WORD``, :data:`SHOUT`), its rules
text (``RULES.md`` beside this file) — and it joins a bot with one registry line:
``Registry([*load_default(), SPELL])``.

A length is shown; the first answer (by send time) of a word with exactly that many letters
scores; first to ``target`` points wins. A shouted word (``shout WORD``, typed or as the command)
scores twice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

from games.common.engine import GameEngine, nothing_to_prepare
from games.common.options import OptionSpec, OptionValue
from games.common.protocol import (
    Action,
    Claim,
    GameInfo,
    GameVerb,
    Notice,
    Reading,
    Result,
    SeatLine,
    Setup,
    Snapshot,
    VerbArgument,
)
from games.common.text import user

RULES = (Path(__file__).parent / "RULES.md").read_text(encoding="utf-8").strip()


#: Spell's own command: a word shouted, which scores twice (a move: the same typed in the chat).
SHOUT = GameVerb(
    "shout",
    "shout WORD",
    "shout a word: if it fits, it scores twice",
    "move",
    aliases=("yell",),
    argument=VerbArgument("word", "The word you shout"),
    missing="Shout a word, like `shout tree`.",
    absent="`shout WORD` scores twice in Spell; {title} has no shouting.",
)


def _shouted(text: str) -> tuple[str, bool]:
    """The word of an answer, and whether it was shouted (``shout WORD``)."""
    head, _, word = text.strip().partition(" ")
    return (word.strip(), True) if head.lower() in ("shout", "yell") else (text, False)


class SpellReader:
    """Spell's answers: one word of letters, shouted or not; anything else is chatter."""

    def __init__(self, options: Mapping[str, OptionValue], seed: int) -> None:
        self.options = options

    def read(self, text: str, *, private: bool = False) -> Reading:
        if _shouted(text)[0].isalpha():
            return Reading(text)
        return Reading(None, f"“{text}” is not one word of letters.")


class SpellEngine(GameEngine):
    """The rules: lengths drawn from the seed, first claim by send time wins the point."""

    def __init__(self, setup: Setup) -> None:
        self.seats = list(setup.seats)
        self.shortest, self.longest = _ints(setup.options, "shortest", "longest")
        (self.target,) = _ints(setup.options, "target")
        self.per_letter = setup.options["tally"] == "letters"
        self.rng = random.Random(setup.seed)
        self.scores = {seat.id: 0 for seat in self.seats}
        self.length = 0
        self.done = False

    def _draw(self) -> None:
        self.length = self.rng.randint(self.shortest, max(self.shortest, self.longest))

    def apply(self, action: Action) -> list[Notice]:
        if action.kind == "begin":
            self._draw()
            return [Notice("table")]
        if action.kind == "say" and action.seat is not None and action.text and not action.private:
            # a move: a shout sent as the command (typed in the chat, it comes as a claim)
            claims: tuple[Claim, ...] = (Claim(action.seat, action.text, action.now, action.ref),)
        elif action.kind == "claims":
            claims = action.claims
        else:
            return []
        if self.done:
            return []
        out: list[Notice] = []
        taken = False
        for claim in sorted(claims, key=lambda c: (c.sent_at, c.seat)):
            word, shouted = _shouted(claim.text)
            word = word.lower()
            if taken:
                out.append(
                    Notice("rejected", "Too late: someone was faster.", claim.seat, claim.ref, late=True)
                )
            elif len(word) != self.length:
                out.append(
                    Notice("rejected", f"“{user(word)}” is not {self.length} letters.", claim.seat, claim.ref)
                )
            else:
                taken = True
                points = (self.length if self.per_letter else 1) * (2 if shouted else 1)
                self.scores[claim.seat] += points
                said = f"{user(word.upper())} spells {self.length}!" + (
                    " Shouted: twice the points." if shouted else ""
                )
                out.append(Notice("accepted", said, claim.seat, claim.ref))
        if taken and max(self.scores.values()) >= self.target:
            self.done = True
            out.append(Notice("end", "Spelled out!"))
        elif taken:
            self._draw()
            out.append(Notice("table"))
        return out

    def next_deadline(self) -> float | None:
        return None

    def bot_claims(self, now: float) -> list[Claim]:
        return []

    def next_bot_time(self) -> float | None:
        return None

    @property
    def finished(self) -> bool:
        return self.done

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        return Snapshot(
            title="spell",
            seats=tuple(SeatLine(s.id, s.name, self.scores[s.id]) for s in self.seats),
            lines=(f"Spell a word of {self.length} letters.",),
        )

    def result(self) -> Result:
        best = max(self.scores.values(), default=0)
        winners = tuple(seat for seat, points in self.scores.items() if points == best and best > 0)
        return Result(dict(self.scores), winners, "Spell is over.")


def _ints(options: Mapping[str, OptionValue], *names: str) -> tuple[int, ...]:
    values = [options[name] for name in names]
    return tuple(value for value in values if isinstance(value, int) and not isinstance(value, bool))


SPELL = GameInfo(
    name="spell",
    title="Spell",
    summary="Type a word of the length shown.",
    rules=RULES,
    options=(
        OptionSpec("target", "int", 1, "points to win", low=1, high=5),
        OptionSpec("shortest", "int", 3, "the shortest length drawn", low=2, high=8),
        OptionSpec("longest", "int", 3, "the longest length drawn", low=2, high=8),
        OptionSpec(
            "tally", "choice", "words", "a point per word, or per letter", choices=("words", "letters")
        ),
    ),
    create=SpellEngine,
    reads=SpellReader,
    prepare=nothing_to_prepare,
    aliases=("spelling",),
    start_form=("target", "tally", "shortest", "longest"),
    verbs=(SHOUT,),
    page="tests.toy_game.web",
)
