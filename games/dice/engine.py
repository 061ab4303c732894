"""The letter-dice game as a pure, turn-based engine.

Two sides (two players, or two teams seated alternately in join order) take turns: the
bot rolls the dice that are not in the word on the mat, and the side on turn makes a word
from them that crosses that word, sharing exactly one of its letters. Five words each
(``words=``); the most points wins, but a side that cannot make a word loses at once.
Words are challenged (or, with ``strict``, judged at once) against the lexicon.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from games.common import meaning
from games.common.engine import GameEngine
from games.common.grammar import excerpt, is_you
from games.common.languages import language as language_named
from games.common.options import OptionValue
from games.common.protocol import (
    NO_LISTS,
    Action,
    CardFace,
    Claim,
    Notice,
    Reading,
    Result,
    Seat,
    SeatLine,
    Setup,
    Snapshot,
)
from games.common.speech import N_, _, _n, _p, duration
from games.common.text import plain
from games.common.words import Verdict, WordRules
from games.dice import mat as mat_view
from games.dice.bots import LEVELS, choose_word, should_challenge, stream
from games.dice.dice import DICE_COUNT, Face, dice_for, roll
from games.dice.mat import MatWord, lay
from games.dice.options import DiceConfig
from games.dice.rules import NOTATION_HELP, Fit, Placed, WordMove, fit_word, parse_move
from games.dice.solver import BOT_STEPS, any_word, best_word, scored
from games.dice.wordlist import DiceLexicon, WordList, allowed_words, game_words
from games.lexicon.vocabulary import min_zipf

#: General Rules bans in force: a standard dictionary's words that need no capital letter.
BANS = frozenset({"proper", "abbrev", "contraction", "foreign"})
DICTIONARY = "tournament"
SHORT_HELP = N_(
    "Type the word (blanks in lower case: STONe), `challenge` or `concede`; `rules dice` explains."
)

Phase = Literal["waiting", "play", "last-call", "over"]


def load_lexicon(language: str = "en") -> DiceLexicon:
    """The project lexicon of ``language``, imported lazily (only when a game has no judge of its own)."""
    from games.lexicon import load

    lexicon: DiceLexicon = load(DICTIONARY, language=language)
    return lexicon


@dataclass(slots=True)
class Played:
    """One turn's outcome: a word (with its fit and score), or a missed turn (``fit`` None)."""

    turn: int
    side: int
    seat: str
    fit: Fit | None
    score: int = 0
    status: Literal["played", "doubled", "challenged-off", "missed"] = "played"


@dataclass(frozen=True, slots=True)
class DicePreview:
    """A word's preview (:meth:`LetterDice.preview`): the move as it would be played
    (``STONe 3 2``), the word as the mat would show it, its score, or why it can't be played.
    Outside strict mode it never says whether the word is in the dictionary (that is what a
    challenge is for)."""

    move: str = ""
    shown: str = ""
    score: int = 0
    reason: str = ""


class DiceReader:
    """The moves of a letter-dice game with given options (:attr:`GameInfo.reads`)."""

    def __init__(self, options: Mapping[str, OptionValue], seed: int = 0) -> None:
        self.language = language_named(DiceConfig.from_options(options).language)

    def read(self, text: str, *, private: bool = False) -> Reading:
        """A move (a word, ``challenge``…), legal or not; else why it is none."""
        if private:
            return Reading(None, _(NO_LISTS))
        if parse_move(text, self.language) is None:
            return Reading(None, _cant_read(text))
        return Reading(text)


class LetterDice(GameEngine):
    """The letter-dice engine (see the module docstring); mutated only by :meth:`apply`."""

    def __init__(self, setup: Setup, lexicon: DiceLexicon | None = None) -> None:
        self.cfg = DiceConfig.from_options(setup.options)
        self.language = language_named(self.cfg.language)
        self.dice = dice_for(self.language.code)
        self.seats = list(setup.seats)
        self.seed = setup.seed
        self.names = {s.id: s.name for s in self.seats}
        self.levels = {s.id: s.bot for s in self.seats if s.bot}
        judge = setup.judge if isinstance(setup.judge, DiceLexicon) else None
        self.lexicon: DiceLexicon = lexicon or judge or load_lexicon(self.language.code)
        self.rules = WordRules(
            dictionary=DICTIONARY, bans=BANS, added=setup.added_words, banned=setup.banned_words
        )
        #: the one verdict on a word: challenges, strict games, ``define`` and the solver's words
        self.game_words = game_words(self.lexicon, self.rules, self.language)
        self._wordlist: WordList | None = None
        self.gloss: meaning.Glosser = meaning.glosser(setup, self.language.code)
        self.rng = random.Random(setup.seed)
        first = _first_seat(self.seats)
        members: list[list[str]] = [[], []]
        for n, seat in enumerate(self.seats):
            members[(n + first) % 2].append(seat.id)
        while self.seats and members[0][0] != self.seats[first].id:
            members[0].append(members[0].pop(0))  # the longest first name rolls first
        self.members = members  # side 0 plays first
        self.left: set[str] = set()
        self.phase: Phase = "waiting"
        self.turn = 0  # turns taken so far; the side on turn is turn % 2
        self.total = 2 * self.cfg.words
        self.scores = [0, 0]
        self.history: list[Played] = []
        self.laid: list[MatWord] = []  # words on the mat that stood; the last one is "the mat"
        self.rolled: list[tuple[int, Face]] = []
        self.pending: Played | None = None  # the last word, while it may still be challenged
        self.challenged_turn = -1  # a challenge was already made against this turn's word
        self.stuck = False  # the side on turn cannot make any word from this roll
        self.turn_started = 0.0
        self.bot_from = 0.0
        self.reminded = False
        self.call_until: float | None = None  # end of the last word's challenge window
        self.loser: int | None = None  # a side that lost outright (no word, conceded, left)
        self.ending = ""
        self._bot_refusals = 0

    # ------------------------------------------------------------------ queries
    @property
    def wordlist(self) -> WordList:
        """The allowed words (built on first use, then shared by every game with the same rules)."""
        if self._wordlist is None:
            self._wordlist = allowed_words(self.game_words)
        return self._wordlist

    def bot_words(self, level: str) -> WordList:
        """The allowed words a computer player of ``level`` knows (its vocabulary; hard: every word)."""
        if min_zipf(level) is None:
            return self.wordlist
        return allowed_words(self.game_words, level)

    @property
    def side(self) -> int:
        """The side on turn (0 or 1)."""
        return self.turn % 2

    @property
    def mat(self) -> tuple[Placed, ...]:
        """The word on the mat, die by die (empty before the first word)."""
        return self.laid[-1].placed if self.laid else ()

    def side_of(self, seat: str) -> int | None:
        """The side ``seat`` plays on, or None for someone not in the game."""
        for side, ids in enumerate(self.members):
            if seat in ids:
                return side
        return None

    def active(self, side: int) -> list[str]:
        """The side's seats still in the game, in seat order."""
        return [s for s in self.members[side] if s not in self.left]

    def roller(self, side: int | None = None, turn: int | None = None) -> str | None:
        """Whose roll it is on ``side`` for ``turn`` (members take turns rolling)."""
        side = self.side if side is None else side
        turn = self.turn if turn is None else turn
        ids = self.active(side)
        return ids[(turn // 2) % len(ids)] if ids else None

    def side_name(self, side: int) -> str:
        """``Ann``, or ``Ann & Basil`` for a team."""
        return " & ".join(self.names[s] for s in self.members[side])

    def name(self, seat: str) -> str:
        """A seat's display name."""
        return self.names.get(seat, seat)

    def dice_on_mat(self) -> frozenset[int]:
        """The dice of the word on the mat."""
        return frozenset(p.die for p in self.mat)

    # ------------------------------------------------------------------ protocol
    def apply(self, action: Action) -> list[Notice]:
        """Apply one action; bad input comes back as a ``rejected`` notice, never an exception."""
        if action.kind == "begin":
            return self._begin(action.now)
        if self.phase in ("waiting", "over"):
            if action.kind == "say" and action.seat:
                why = _("The game is over.") if self.phase == "over" else _("The game hasn't started yet.")
                return [Notice("rejected", why, action.seat, action.ref)]
            return []
        if action.kind == "tick":
            return self._tick(action.now)
        if action.kind == "leave" and action.seat:
            return self._leave(action.seat, action.now)
        if action.kind == "say" and action.seat:
            notices = self._say(action.seat, action.text or "", action.now, action.ref)
            if action.seat in self.levels and any(n.kind == "rejected" for n in notices):
                self._bot_refusals += 1  # never expected; keeps a confused bot from retrying forever
            return notices
        return []

    def next_deadline(self) -> float | None:
        """The reminder, the end of the turn, or the end of the last word's challenge window."""
        if self.phase == "play":
            end = self.turn_started + self.cfg.turn
            return end if self.reminded else end - self.cfg.reminder
        if self.phase == "last-call":
            return self.call_until
        return None

    def _runs_out(self) -> float | None:
        """When the turn (or the last word's challenge window) runs out."""
        if self.phase == "play":
            return self.turn_started + self.cfg.turn
        return self.call_until if self.phase == "last-call" else None

    def next_bot_time(self) -> float | None:
        """When a computer player decides next (its think time after the turn or challenge)."""
        seat = self._bot_to_act()
        if seat is None:
            return None
        return self.bot_from + LEVELS.get(self.levels[seat], LEVELS["normal"]).think

    def bot_claims(self, now: float) -> list[Claim]:
        """The computer player's next move (one at a time: a challenge changes the roll)."""
        at = self.next_bot_time()
        seat = self._bot_to_act()
        if seat is None or at is None or now < at:
            return []
        return [Claim(seat, self._bot_move(seat), now)]

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.phase == "over"

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The mat, the roll and the scores. Nothing is hidden in this game, and the
        public view never shows a word that could be played (no spoilers)."""
        lines: list[str] = []
        if self.phase == "play":
            roller = self.roller()
            who = self.name(roller) if roller else self.side_name(self.side)
            lines.append(_("Roll: {dice}", dice=" ".join(f.label() for __, f in self.rolled)))
            if self.mat:
                shown = "".join(p.letter.upper() for p in self.mat)
                lines.append(
                    _(
                        "{name}: make a word crossing {word}, sharing exactly one of its letters.",
                        name=who,
                        word=shown,
                    )
                )
            else:
                lines.append(_("{name}: make the first word from the dice.", name=who))
            if self.pending is not None and self.pending.fit is not None:
                word = self.pending.fit.word.upper()
                lines.append(
                    _("{word} may be challenged (`challenge`) before the next word is played.", word=word)
                )
            if self.stuck:
                lines.append(_("No word can be made from this roll: challenge or concede."))
            lines.append(_(SHORT_HELP))
        elif self.phase == "last-call" and self.pending is not None and self.pending.fit is not None:
            word = self.pending.fit.word.upper()
            lines.append(
                _(
                    "Last word: {word}. {name} may `challenge` it or `accept`.",
                    word=word,
                    name=self.side_name(1 - self.pending.side),
                )
            )
        if viewer is not None:
            mine = self.side_of(viewer)
            if mine is not None and self.phase == "play":
                lines.append(
                    _("Your side's turn.") if mine == self.side else _("Waiting for the other side.")
                )
        cards = tuple(CardFace(f.letter.upper(), "", f.points) for __, f in self.rolled)
        # While a turn is on, the word crossed last has been picked up (its dice are in the
        # roll): only the word on the mat is shown. At the end, the last two words cross.
        on_mat = self.laid[-1:] if self.phase == "play" else self.laid[-2:]
        return Snapshot(
            title=self._title(),
            cards=cards if self.phase == "play" else (),
            seats=self._seat_lines(),
            lines=tuple(lines),
            grid=mat_view.grid(on_mat),
            board=mat_view.board(on_mat),
            board_labels=False,
            deadline=self._runs_out(),
        )

    def result(self) -> Result:
        """Scores (each seat shows its side's total) and the winners."""
        scores = {sid: self.scores[side] for side in (0, 1) for sid in self.members[side]}
        if self.loser is not None:
            win_sides = [1 - self.loser]
        elif self.scores[0] == self.scores[1]:
            win_sides = [0, 1] if self.scores[0] > 0 else []
        else:
            win_sides = [0 if self.scores[0] > self.scores[1] else 1]
        winners = tuple(sid for side in win_sides for sid in self.members[side])
        best: dict[str, tuple[int, str]] = {}
        for played in self.history:
            kept = played.fit is not None and played.status != "challenged-off"
            if kept and played.fit is not None and played.score > best.get(played.seat, (-1, ""))[0]:
                best[played.seat] = (played.score, played.fit.word)
        lines = [self.ending] if self.ending else []
        lines += [
            _n("{name}: {count} point", "{name}: {count} points", self.scores[s], name=self.side_name(s))
            for s in (0, 1)
        ]
        return Result(
            scores=scores,
            winners=winners,
            summary="\n".join(lines),
            best_words={sid: w for sid, (_, w) in best.items()},
        )

    # ------------------------------------------------------------------ turns
    def _begin(self, now: float) -> list[Notice]:
        if self.phase != "waiting":
            return []
        if not self.active(0) or not self.active(1):
            self.phase = "over"
            self.ending = _("Letter dice needs two players or two teams.")
            return [Notice("end", self.ending)]
        self.phase = "play"
        notices = [Notice("announce", self._side_says(0, *_GOES_FIRST))]
        return notices + self._start_turn(now)

    def _start_turn(self, now: float) -> list[Notice]:
        """Roll every die not in the word on the mat for the side on turn."""
        on_mat = self.dice_on_mat()
        self.rolled = roll(self.rng, [d for d in range(DICE_COUNT) if d not in on_mat], self.dice)
        self.turn_started = self.bot_from = now
        self.reminded = False
        self.stuck = any_word(self.wordlist, self.rolled, self.mat) is None
        if self.stuck and not self._can_challenge():
            return self._no_word(now)
        notices = [Notice("table")]
        if self.stuck:
            notices.insert(
                0, Notice("announce", self._no_word_text() + " " + _("Challenge the last word, or concede."))
            )
        return notices

    def _no_word_text(self) -> str:
        dice = ", ".join(f.label() for __, f in self.rolled)
        words = len(self.wordlist)
        if not dice:
            return _n(
                "No word can be made without dice: all {count} allowed word of the tournament dictionary "
                "was checked.",
                "No word can be made without dice: all {count} allowed words of the tournament dictionary "
                "were checked.",
                words,
            )
        if self.mat:
            return _n(
                "No word can be made from {dice} crossing {word}: "
                "all {count} allowed word of the tournament dictionary was checked.",
                "No word can be made from {dice} crossing {word}: "
                "all {count} allowed words of the tournament dictionary were checked.",
                words,
                dice=dice,
                word="".join(p.letter.upper() for p in self.mat),
            )
        return _n(
            "No word can be made from {dice}: "
            "all {count} allowed word of the tournament dictionary was checked.",
            "No word can be made from {dice}: "
            "all {count} allowed words of the tournament dictionary were checked.",
            words,
            dice=dice,
        )

    def _no_word(self, now: float) -> list[Notice]:
        side = self.side
        text = (
            f"{self._no_word_text()} {self._side_says(side, *_CANT_PLAY)} {self._side_says(1 - side, *_WINS)}"
        )
        return self._end(text, loser=side)

    def _can_challenge(self) -> bool:
        return (
            not self.cfg.strict
            and self.pending is not None
            and self.pending.side != self.side
            and self.challenged_turn != self.pending.turn
        )

    def _next_turn(self, now: float) -> list[Notice]:
        self.turn += 1
        if self.turn >= self.total:
            last = self.history[-1] if self.history else None
            if self.cfg.strict or last is None or last.fit is None or last.status != "played":
                return self._end_by_points()
            self.phase = "last-call"
            self.pending = last
            self.call_until = now + self.cfg.window
            self.bot_from = now
            word = last.fit.word.upper()
            return [
                Notice(
                    "announce",
                    _(
                        "That was the last word. {name}: `challenge` {word} or `accept` it "
                        "(the game ends in {time} either way).",
                        name=self.side_name(1 - last.side),
                        word=word,
                        time=duration(self.cfg.window),
                    ),
                ),
                Notice("table"),
            ]
        return self._start_turn(now)

    def _tick(self, now: float) -> list[Notice]:
        if self.phase == "last-call":
            if self.call_until is not None and now >= self.call_until:
                self.pending = None
                return self._end_by_points(_("Nobody challenged the last word."))
            return []
        end = self.turn_started + self.cfg.turn
        if now >= end:
            side, seat = self.side, self.roller() or ""
            if self.stuck:
                up = _("Time is up.")
                text = f"{up} {self._no_word_text()} {self._side_says(side, *_LOSES)}"
                return self._end(text, loser=side)
            self.history.append(Played(self.turn, side, seat, None, 0, "missed"))
            self.pending = None
            notice = Notice("announce", self._side_says(side, *_SCORES_NOTHING))
            return [notice, *self._next_turn(now)]
        if not self.reminded and now >= end - self.cfg.reminder:
            self.reminded = True
            who = self.name(self.roller() or "") or self.side_name(self.side)
            text = _("{name}, {time} left to play your word.", name=who, time=duration(end - now))
            roller = self.roller()
            return [Notice("ping", text, roller) if roller else Notice("announce", text)]
        return []

    # ------------------------------------------------------------------ moves
    def _say(self, seat: str, text: str, now: float, ref: str | None) -> list[Notice]:
        side = self.side_of(seat)
        if side is None or seat in self.left:
            return [Notice("rejected", _("You're not playing in this game."), seat, ref)]
        move = parse_move(text, self.language)
        if move is None:
            return [Notice("rejected", _cant_read(text), seat, ref)]
        if move == "challenge":
            return self._challenge(seat, side, now, ref)
        if move == "accept":
            return self._accept(seat, side, now, ref)
        if move == "concede":
            return self._concede(seat, side, ref)
        assert isinstance(move, WordMove)
        if self.phase != "play":
            return [
                Notice(
                    "rejected",
                    _("No more words: the last one can only be challenged or accepted."),
                    seat,
                    ref,
                )
            ]
        if side != self.side:
            return [Notice("rejected", self._not_yours(), seat, ref)]
        fit = fit_word(
            move.word, self.rolled, self.mat, blanks_at=move.blanks, cross=move.cross, prev=move.prev
        )
        if isinstance(fit, str):
            return [Notice("rejected", fit, seat, ref)]
        if self.cfg.strict:
            verdict = self.game_words.verdict(fit.word)
            if not verdict.ok:
                return [Notice("rejected", verdict.message, seat, ref)]
        return self._play(seat, side, fit, now, ref)

    def preview(self, seat: str, text: str) -> DicePreview:
        """What ``seat`` playing the word ``text`` (``STONE``, ``STONe 3 2``) would do now: fitted to
        the roll and the mat as the move would be (in strict mode judged by the dictionary too,
        as the move is at once). Changes nothing."""
        side = self.side_of(seat)
        if side is None or seat in self.left:
            return DicePreview(reason=_("You're not playing in this game."))
        move = parse_move(text, self.language)
        if not isinstance(move, WordMove):
            cant = _("I can't read {text} as a word.", text=excerpt(text.strip()))
            return DicePreview(reason=f"{cant} {_(NOTATION_HELP)}")
        if self.phase != "play":
            return DicePreview(reason=_("No more words: the last one can only be challenged or accepted."))
        if side != self.side:
            return DicePreview(reason=self._not_yours())
        fit = fit_word(
            move.word, self.rolled, self.mat, blanks_at=move.blanks, cross=move.cross, prev=move.prev
        )
        if isinstance(fit, str):
            return DicePreview(reason=fit)
        if self.cfg.strict:
            verdict = self.game_words.verdict(fit.word)
            if not verdict.ok:
                return DicePreview(fit.notation(), fit.shown(), fit.score, verdict.message)
        return DicePreview(fit.notation(), fit.shown(), fit.score)

    def _play(self, seat: str, side: int, fit: Fit, now: float, ref: str | None) -> list[Notice]:
        played = Played(self.turn, side, seat, fit, fit.score)
        self.history.append(played)
        self.scores[side] += fit.score
        self.laid.append(lay(fit, self.laid[-1] if self.laid else None))
        self.pending = None if self.cfg.strict else played
        me, word, points = self.name(seat), fit.shown(), fit.score
        if fit.cross is not None and fit.prev is not None:
            at = fit.word[fit.cross].upper()
            if is_you(me):
                text = _n(
                    "You play {word}, crossing at {letter}: {count} point.",
                    "You play {word}, crossing at {letter}: {count} points.",
                    points,
                    word=word,
                    letter=at,
                )
            else:
                text = _n(
                    "{name} plays {word}, crossing at {letter}: {count} point.",
                    "{name} plays {word}, crossing at {letter}: {count} points.",
                    points,
                    name=me,
                    word=word,
                    letter=at,
                )
        elif is_you(me):
            text = _n(
                "You play {word}: {count} point.", "You play {word}: {count} points.", points, word=word
            )
        else:
            text = _n(
                "{name} plays {word}: {count} point.",
                "{name} plays {word}: {count} points.",
                points,
                name=me,
                word=word,
            )
        if seat in self.levels:  # a computer player's word (always an allowed one) with its meaning
            text += meaning.sentence(fit.word, self.gloss, self.language.code)
        return [Notice("accepted", text, seat, ref), *self._next_turn(now)]

    def word_verdict(self, word: str) -> Verdict:
        """The dictionary's verdict on ``word`` (folded) under this game's rules (``define``)."""
        return self.game_words.verdict(word)

    def _challenge(self, seat: str, side: int, now: float, ref: str | None) -> list[Notice]:
        if self.cfg.strict:
            return [
                Notice(
                    "rejected", _("This is a strict game: the lexicon already checked every word."), seat, ref
                )
            ]
        pending = self.pending
        if pending is None or pending.fit is None:
            return [Notice("rejected", _("There is no word to challenge right now."), seat, ref)]
        if pending.side == side:
            return [Notice("rejected", _("You can't challenge your own side's word."), seat, ref)]
        if self.challenged_turn == pending.turn:
            return [
                Notice(
                    "rejected", _("{word} was already challenged.", word=pending.fit.word.upper()), seat, ref
                )
            ]
        self.challenged_turn = pending.turn
        verdict = self.game_words.verdict(pending.fit.word)
        author, word = self.name(pending.seat), pending.fit.word.upper()
        self.pending = None
        if verdict.ok:
            self.scores[pending.side] += pending.score
            pending.score *= 2
            pending.status = "doubled"
            me, said, doubled = self.name(seat), verdict.message, pending.score
            if is_you(me):
                text = _(
                    "You challenge {word}: {verdict} {name}'s score doubles to {score}.",
                    word=word,
                    verdict=said,
                    name=author,
                    score=doubled,
                )
            elif is_you(author):
                text = _(
                    "{name} challenges {word}: {verdict} Your score doubles to {score}.",
                    name=me,
                    word=word,
                    verdict=said,
                    score=doubled,
                )
            else:
                text = _(
                    "{name} challenges {word}: {verdict} {author}'s score doubles to {score}.",
                    name=me,
                    word=word,
                    verdict=said,
                    author=author,
                    score=doubled,
                )
            notices = [Notice("accepted", text, seat, ref)]
            if self.phase == "last-call":
                return notices + self._end_by_points()
            self.bot_from = now
            if self.stuck:
                return notices + self._no_word(now)
            return [*notices, Notice("table")]
        self.scores[pending.side] -= pending.score
        pending.score = 0
        pending.status = "challenged-off"
        self.laid.pop()
        if is_you(self.name(seat)):
            text = _(
                "You challenge {word}: {verdict} It scores 0 and comes off the mat.",
                word=word,
                verdict=verdict.message,
            )
        else:
            text = _(
                "{name} challenges {word}: {verdict} It scores 0 and comes off the mat.",
                name=self.name(seat),
                word=word,
                verdict=verdict.message,
            )
        notices = [Notice("accepted", text, seat, ref)]
        if self.phase == "last-call":
            return notices + self._end_by_points()
        return notices + self._start_turn(now)

    def _accept(self, seat: str, side: int, now: float, ref: str | None) -> list[Notice]:
        pending = self.pending
        if pending is None or pending.fit is None or pending.side == side:
            return [
                Notice("rejected", _("There is no word of the other side to accept right now."), seat, ref)
            ]
        self.pending = None
        word = pending.fit.word.upper()
        if is_you(self.name(seat)):
            lets = _("You let {word} stand.", word=word)
        else:
            lets = _("{name} lets {word} stand.", name=self.name(seat), word=word)
        notices = [Notice("accepted", lets, seat, ref)]
        if self.phase == "last-call":
            return notices + self._end_by_points()
        if self.stuck:
            return notices + self._no_word(now)
        return notices

    def _concede(self, seat: str, side: int, ref: str | None) -> list[Notice]:
        shown = ""
        if side == self.side and self.phase == "play" and not self.stuck:
            found = best_word(self.wordlist, self.rolled, self.mat, BOT_STEPS)
            if found is not None:
                told = meaning.note(found.word, self.gloss, self.language.code)
                if told:
                    shown = " " + _n(
                        "({move} would have scored {count} point; {meaning}.)",
                        "({move} would have scored {count} points; {meaning}.)",
                        found.score,
                        move=found.notation(),
                        meaning=told,
                    )
                else:
                    shown = " " + _n(
                        "({move} would have scored {count} point.)",
                        "({move} would have scored {count} points.)",
                        found.score,
                        move=found.notation(),
                    )
        me = self.name(seat)
        concedes = _("You concede.") if is_you(me) else _("{name} concedes.", name=me)
        text = f"{concedes}{shown} {self._side_says(1 - side, *_WINS)}"
        return [Notice("accepted", "", seat, ref), *self._end(text, loser=side)]

    def _leave(self, seat: str, now: float) -> list[Notice]:
        side = self.side_of(seat)
        if side is None or seat in self.left:
            return []
        self.left.add(seat)
        if not self.active(side):
            text = f"{self._side_says(side, *_LEFT)} {self._side_says(1 - side, *_WINS)}"
            return self._end(text, loser=side)
        self.bot_from = now
        return [
            Notice("announce", _("{name} left; the rest of the team plays on.", name=self.name(seat))),
            Notice("table"),
        ]

    # ------------------------------------------------------------------ the end
    def _end_by_points(self, lead: str = "") -> list[Notice]:
        a, b = self.scores
        if a == b:
            text = _n("A tie at {count} point!", "A tie at {count} points!", a)
        else:
            win = 0 if a > b else 1
            high, low = max(a, b), min(a, b)
            if self._you(win):
                text = _("You win, {high} to {low}!", high=high, low=low)
            elif len(self.members[win]) > 1:
                text = _("{names} win, {high} to {low}!", names=self.side_name(win), high=high, low=low)
            else:
                text = _("{name} wins, {high} to {low}!", name=self.side_name(win), high=high, low=low)
        return self._end(f"{lead} {text}".strip(), loser=None)

    def _end(self, text: str, loser: int | None) -> list[Notice]:
        self.phase = "over"
        self.loser = loser
        self.ending = text
        self.pending = None
        self.call_until = None
        return [Notice("end", text)]

    # ------------------------------------------------------------------ computer players
    def _bot_to_act(self) -> str | None:
        if self._bot_refusals > 3:
            return None
        if self.phase == "play":
            seat = self.roller()
        elif self.phase == "last-call" and self.pending is not None:
            seat = self.roller(1 - self.pending.side, self.turn)
        else:
            return None
        return seat if seat in self.levels else None

    def _bot_move(self, seat: str) -> str:
        level = self.levels.get(seat, "normal")
        zipf: Callable[[str], float] = getattr(self.lexicon, "zipf", lambda _w: 4.0)
        if self._bot_refusals:
            return "concede"
        pending = self.pending
        if pending is not None and pending.fit is not None and pending.side != self.side_of(seat):
            if self.phase == "last-call" or self._can_challenge():
                valid = self.game_words.verdict(pending.fit.word).ok
                rng = stream(self.seed, pending.turn, seat, "challenge")
                if self.stuck or should_challenge(valid, zipf(pending.fit.word), level, rng):
                    return "challenge"
            if self.phase == "last-call":
                return "accept"
        if self.stuck:
            return "concede"
        found = scored(self.bot_words(level), self.rolled, self.mat, BOT_STEPS)
        chosen = choose_word(found, level, stream(self.seed, self.turn, seat, "word"), zipf)
        fit = fit_word(chosen.word, self.rolled, self.mat) if chosen is not None else None
        return fit.notation() if isinstance(fit, Fit) else "concede"

    # ------------------------------------------------------------------ views
    def _title(self) -> str:
        game = _("Letter dice")
        if self.language.code != "en":
            game += f" · {self.language.spoken}"
        if self.phase == "over":  # (the result that follows says "game over")
            return _("{game} — the final mat", game=game)
        if self.phase == "last-call":
            return _("{game} — the last word", game=game)
        roller = self.roller()
        who = self.name(roller) if roller else self.side_name(self.side)
        return _(
            "{game} — turn {number} of {total}: {name}",
            game=game,
            number=self.turn + 1,
            total=self.total,
            name=who,
        )

    def _you(self, side: int) -> bool:
        """True when ``side`` is the terminal's own player alone (addressed as "you")."""
        return len(self.members[side]) == 1 and is_you(self.names[self.members[side][0]])

    def _side_says(self, side: int, you: str, one: str, team: str) -> str:
        """One of three sentences about ``side`` (each marked with ``N_()``, ``{name}`` its name):
        ``you`` for the terminal's own player, ``one`` for a player, ``team`` for a team."""
        if self._you(side):
            return _(you)
        if len(self.members[side]) > 1:
            return _(team, name=self.side_name(side))
        return _(one, name=self.side_name(side))

    def _not_yours(self) -> str:
        return _("It's {name}'s turn, not yours.", name=self.side_name(self.side))

    def _seat_lines(self) -> tuple[SeatLine, ...]:
        lines: list[SeatLine] = []
        made = [sum(1 for p in self.history if p.side == s) for s in (0, 1)]
        roller = self.roller() if self.phase == "play" else None
        teams = any(len(m) > 1 for m in self.members)
        for side in (0, 1):
            for sid in self.members[side]:
                bits = [_("{made}/{words} turns", made=made[side], words=self.cfg.words)]
                if teams:
                    bits.insert(0, _("team {number}", number=side + 1))
                if sid in self.left:
                    bits.append(_p("seat", "left"))
                lines.append(SeatLine(sid, self.name(sid), self.scores[side], ", ".join(bits), sid == roller))
        return tuple(lines)


#: Sentences about a side: (you, a player, a team), see :meth:`LetterDice._side_says`.
_GOES_FIRST = (
    N_("You go first (the longest first name; on a tie, the first to join)."),
    N_("{name} goes first (the longest first name; on a tie, the first to join)."),
    N_("{name} go first (the longest first name; on a tie, the first to join)."),
)
_WINS = (N_("You win."), N_("{name} wins."), N_("{name} win."))
_LOSES = (N_("You lose."), N_("{name} loses."), N_("{name} lose."))
_CANT_PLAY = (N_("You can't play."), N_("{name} can't play."), N_("{name} can't play."))
_LEFT = (N_("You left the game."), N_("{name} left the game."), N_("{name} left the game."))
_SCORES_NOTHING = (
    N_("Time is up: you score 0 this turn."),
    N_("Time is up: {name} scores 0 this turn."),
    N_("Time is up: {name} score 0 this turn."),
)


def _cant_read(text: str) -> str:
    """Why ``text`` is no move, and how moves are typed."""
    return _("I can't read {text} as a move.", text=excerpt(text.strip())) + " " + _(NOTATION_HELP)


def _first_name(seat: Seat) -> str:
    words = plain(seat.name).split()
    first = words[0] if words else ""
    return "".join(ch for ch in first if ch.isalpha())


def _first_seat(seats: list[Seat]) -> int:
    """The seat with the longest first name (the rulebook's first player; ties: the first joined)."""
    if not seats:
        return 0
    return max(range(len(seats)), key=lambda n: (len(_first_name(seats[n])), -n))
