"""A tiny real-time game for testing the bot core without the real games.

One letter is shown; the first claim (by send time) of a word containing it
scores a point and a new letter is drawn. The hourglass (10 s) draws a new
letter when nobody answers. First to ``target`` points wins. A claim of
``boom`` raises inside the engine when ``crash`` is on (to test supervision).

:data:`LINGO` is the toy with a ``language`` option (as every real game has): any word
of its language's letters scores, and it keeps every answer exactly as it reached it.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Mapping

from games.common.engine import GameEngine, nothing_to_prepare
from games.common.languages import language
from games.common.options import OptionSpec, OptionValue, language_option
from games.common.protocol import (
    Action,
    CardFace,
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

HOURGLASS = 10.0


class ToyReader:
    """The toy's answers and moves: letters and spaces (and ``boom``'s crash), nothing else."""

    def __init__(self, options: Mapping[str, OptionValue], seed: int = 0) -> None:
        self.options = options

    def read(self, text: str, *, private: bool = False) -> Reading:
        if all(ch.isalpha() or ch.isspace() for ch in unicodedata.normalize("NFC", text)):
            return Reading(text)
        return Reading(None, f"“{text}” is no word of letters.")


BOT_DELAY = 3.0


class ToyEngine(GameEngine):
    #: Takes private word lists (`list`, a DM, Discord's modal) as an Eagle Eyes race does.
    takes_lists = True

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.seats = list(setup.seats)
        target = setup.options["target"]
        assert isinstance(target, int)
        self.target = target
        self.crash = bool(setup.options.get("crash"))
        self.rng = random.Random(setup.seed)
        self.scores = {s.id: 0 for s in self.seats}
        self.letter = ""
        self.flipped_at = 0.0
        self.deadline: float | None = None
        self.done = False
        self.bot_planned: float | None = None

    def _flip(self, now: float) -> None:
        self.letter = self.rng.choice("abcdefghilmnoprst")
        self.flipped_at = now
        self.deadline = now + HOURGLASS
        self.bot_planned = now + BOT_DELAY if any(s.bot for s in self.seats) else None

    def apply(self, action: Action) -> list[Notice]:
        if action.kind == "begin":
            self._flip(action.now)
            return [Notice("table")]
        if action.kind == "tick" and self.deadline is not None and action.now >= self.deadline:
            old = self.letter
            self._flip(action.now)
            return [Notice("announce", f"Nobody found a word with {old.upper()}."), Notice("table")]
        if action.kind == "vote" and action.text == "skip":
            self._flip(action.now)
            return [Notice("table")]
        if action.kind == "claims":
            out: list[Notice] = []
            winner: Claim | None = None
            for claim in sorted(action.claims, key=lambda c: (c.sent_at, c.seat, c.text)):
                if self.crash and claim.text == "boom":
                    raise RuntimeError("boom")
                word = claim.text.strip().lower()
                if winner is not None or self.done:
                    out.append(Notice("rejected", "Too late: someone was faster.", claim.seat, claim.ref))
                elif self._fits(word):
                    winner = claim
                    self.scores[claim.seat] += 1
                    out.append(
                        Notice(
                            "accepted",
                            f"{claim.seat} takes {self.letter.upper()} with {word}.",
                            claim.seat,
                            claim.ref,
                        )
                    )
                else:
                    out.append(
                        Notice(
                            "rejected", f"“{user(word)}” has no {self.letter.upper()}.", claim.seat, claim.ref
                        )
                    )
            if winner is not None:
                if self.scores[winner.seat] >= self.target:
                    self.done = True
                    self.deadline = None
                    self.bot_planned = None
                    out.append(Notice("end", f"{winner.seat} wins!"))
                else:
                    self._flip(action.now)
                    out.append(Notice("table"))
            return out
        return []

    def _fits(self, word: str) -> bool:
        return self.letter in word and word.isalpha()

    def next_deadline(self) -> float | None:
        return None if self.done else self.deadline

    def bot_claims(self, now: float) -> list[Claim]:
        if self.bot_planned is None or now < self.bot_planned:
            return []
        at, self.bot_planned = self.bot_planned, None
        bot = next(s for s in self.seats if s.bot)
        return [Claim(bot.id, self.letter + "at", at)]

    def next_bot_time(self) -> float | None:
        return self.bot_planned

    @property
    def finished(self) -> bool:
        return self.done

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        return Snapshot(
            title=self._title(),
            cards=(CardFace(self.letter.upper(), "red", 1),),
            seats=tuple(SeatLine(s.id, s.name, self.scores[s.id]) for s in self.seats),
            deadline=self.deadline,
        )

    def _title(self) -> str:
        return "toy"

    def result(self) -> Result:
        best = max(self.scores.values(), default=0)
        winners = tuple(seat for seat, pts in self.scores.items() if pts == best and best > 0)
        return Result(dict(self.scores), winners, "toy over")


#: The toy's own commands, as a race's: a ``skip`` vote (a new letter), ``vote yes|no`` (on nothing:
#: the toy never disputes an answer) and private word ``list`` (the engine takes lists).
TOY_VERBS = (
    GameVerb("skip", "skip", "vote for a new letter", "vote", absent="`skip` draws a new letter in Toy."),
    GameVerb(
        "vote",
        "vote yes|no",
        "vote on an answer",
        "vote",
        argument=VerbArgument("choice", "Yes or no", choices=("yes", "no")),
        missing="Vote `yes` or `no`.",
    ),
    GameVerb(
        "list",
        "list WORD …",
        "hand in words privately",
        "private",
        argument=VerbArgument("words", "Your words"),
        missing="Give your words, like `list cat act tact`.",
    ),
)

TOY = GameInfo(
    name="toy",
    title="Toy",
    summary="Name a word with the letter shown.",
    rules="First to the target wins.",
    options=(
        OptionSpec("target", "int", 2, "points to win", low=1, high=10),
        OptionSpec("bots", "int", 0, "computer players", low=0, high=3),
        OptionSpec("crash", "bool", False, "crash on 'boom'"),
    ),
    create=ToyEngine,
    reads=ToyReader,
    prepare=nothing_to_prepare,
    min_players=1,
    aliases=("t",),
    verbs=TOY_VERBS,
)


class LingoEngine(ToyEngine):
    """The toy in a language: any word of the language's letters scores."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.language = language(str(setup.options["language"]))
        #: Every answer as it reached the engine, and the words it folded them to.
        self.heard: list[str] = []
        self.folded: list[str] = []

    def apply(self, action: Action) -> list[Notice]:
        if action.kind == "claims":
            self.heard.extend(claim.text for claim in action.claims)
        return super().apply(action)

    def _fits(self, word: str) -> bool:
        folded = self.language.fold(word)
        if folded is not None:
            self.folded.append(folded)
        return folded is not None

    def _title(self) -> str:
        return "toy" if self.language.code == "en" else f"toy · {self.language.name}"


LINGO = GameInfo(
    name="lingo",
    title="Lingo",
    summary="Name any word of the language.",
    rules="First to the target wins.",
    options=(
        OptionSpec("target", "int", 2, "points to win", low=1, high=10),
        OptionSpec("bots", "int", 0, "computer players", low=0, high=3),
        language_option(),
    ),
    create=LingoEngine,
    reads=ToyReader,
    prepare=nothing_to_prepare,
    min_players=1,
)
