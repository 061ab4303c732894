"""The shedding game as a pure, deterministic turn-based engine.

Players take turns; a turn is one line in the notation (``games.shed.notation``),
applied all or nothing. The first to shed every card wins the round; with
``rounds`` > 1 the winner of each round scores one point per card the others
still hold, and the most points after the last round wins.

Time comes only from the actions: a turn's deadline is the time it started
plus the turn limit, so a game rebuilt from its log keeps its deadlines. A
missed turn draws a card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.common import meaning
from games.common.engine import GameEngine
from games.common.grammar import is_you
from games.common.options import OptionValue
from games.common.protocol import (
    NO_LISTS,
    Action,
    CardFace,
    Cell,
    Claim,
    Notice,
    Reading,
    Result,
    Seat,
    SeatLine,
    Setup,
    Snapshot,
)
from games.common.speech import N_, _, _n, _p, listing
from games.common.text import user
from games.common.words import GameWords, Verdict, WordJudge, WordRules
from games.shed.cards import ACTIONS, Card, deck_for, hand_text, resolve_set
from games.shed.notation import NotationError, parse
from games.shed.options import ShedConfig
from games.shed.rearrange import Refusal
from games.shed.turn import Opponent, Round, TurnReport, TurnRules, play_turn

TITLE = N_("Shed")
#: Why a game ended before anyone shed their hand (English, marked; shown through ``_()``).
NEEDS_TWO = N_("Shed needs two players.")
TOO_FEW = N_("Too few players are left.")
#: Seconds a computer player waits before moving, by level.
BOT_DELAY: dict[str, float] = {"easy": 6.0, "normal": 4.0, "hard": 3.0}


def load_judge(dictionary: str, language: str = "en") -> WordJudge:
    """The project lexicon of ``language``, imported lazily (only when a game has no judge)."""
    from games.lexicon import load

    judge: WordJudge = load(dictionary, language=language)
    return judge


@dataclass(frozen=True, slots=True)
class ShedPreview:
    """A line's preview (:meth:`ShedGame.preview`): whether it would be played, why not, and
    what the table would hear (``You play WHO (5 cards left).``)."""

    ok: bool
    reason: str = ""
    said: str = ""


@dataclass(frozen=True, slots=True)
class HandCard:
    """One card of a hand as its owner's page shows it (:meth:`ShedGame.hand_of`)."""

    kind: str  # "letter" | "joker" | "action"
    letter: str = ""  # a letter card's letter, lower-case
    colour: str = ""
    action: str = ""  # an action card's code ("skip", "deck-trade"…)
    name: str = ""  # an action card's name ("Deck Trade")
    usage: str = ""  # how an action card is typed ("trade Q Bob")
    help: str = ""  # what an action card does


class ShedReader:
    """The turns of a Shed game with given options (:attr:`GameInfo.reads`)."""

    def __init__(self, options: Mapping[str, OptionValue], seed: int = 0) -> None:
        self.language = ShedConfig.from_options(options).lang

    def read(self, text: str, *, private: bool = False) -> Reading:
        """A turn (``WHO``, ``SOCK+H -> SHOCK``, ``draw``…), legal or not; else why it is none."""
        if private:
            return Reading(None, NO_LISTS)
        try:
            parse(text, self.language)
        except NotationError as exc:
            return Reading(None, str(exc))
        return Reading(text)


class ShedGame(GameEngine):
    """One game of shed (see the module docstring); implements ``games.common.protocol.Engine``."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.config = ShedConfig.from_options(setup.options)
        self.seats: list[Seat] = list(setup.seats)
        self.names = {s.id: s.name for s in self.seats}
        self.numbers = {s.id: n for n, s in enumerate(self.seats, start=1)}
        self.rng = random.Random(setup.seed)
        self.bot_rng = random.Random(setup.seed * 7919 + 1)
        self.language = self.config.lang
        #: why the game can't start (the -s, -ing or -ed bans in another language), or None
        self.refusal = self.config.refusal
        self.judge: WordJudge | None = setup.judge
        if self.judge is None and not self.refusal:  # a refused game never judges a word
            self.judge = load_judge(self.config.dictionary, self.language.code)
        self.rules: WordRules = self.config.word_rules(setup.added_words, setup.banned_words)
        #: the one verdict on a word (None in a game that didn't start): every word a turn makes,
        #: ``define`` and the computer players' word index ask it, through :meth:`check_word`
        self.game_words: GameWords | None = None
        if self.judge is not None:
            own = None if self.config.verbs_allowed else self._only_a_verb
            self.game_words = GameWords(self.judge, self.rules, self.language, own)
        self.gloss: meaning.Glosser = meaning.glosser(setup, self.language.code)
        self.card_set = resolve_set(self.config.card_set, len(self.seats))
        self.active: list[str] = [s.id for s in self.seats]
        self.scores: dict[str, int] = {s.id: 0 for s in self.seats}
        self.best: dict[str, str] = {}
        self.round = Round([])
        self.round_no = 0
        self.starter = 0
        self.current: str | None = None
        self.turn_started = 0.0
        self.turn_no = 0
        self.empty_passes = 0
        self.done = False
        self.summary = ""
        self.round_winners: list[tuple[str, ...]] = []
        self.bot_turn_done = -1
        self.recent: set[int] = set()  # cards of the words the last turn made

    # ------------------------------------------------------------ words

    def word_verdict(self, word: str) -> Verdict:
        """Is ``word`` (folded) playable in this game (dictionary, bans, length, verbs)? For
        ``define``."""
        reason = self.check_word(word)
        if reason is None:
            return Verdict(True, None, _("{word} is a word in this game.", word=word.upper()))
        return Verdict(False, "unknown", reason)

    def check_word(self, word: str) -> str | None:
        """None when ``word`` may be played, else the reason."""
        folded = self.language.fold(word)
        if folded is None or not self.language.is_word(folded):
            return _("{word} is not a word.", word=user(word.upper()))
        if len(folded) < self.config.min_length:
            return _n(
                "{word} is too short: words need at least {count} letter.",
                "{word} is too short: words need at least {count} letters.",
                self.config.min_length,
                word=folded.upper(),
            )
        if self.game_words is None:
            return _("This game didn't start.")
        verdict = self.game_words.verdict(folded)
        if not verdict.ok:
            return verdict.message or _("{word} is not allowed.", word=folded.upper())
        return None

    def _only_a_verb(self, word: str) -> Verdict | None:
        """verbs=off: the refusal of a word the dictionary knows only as a verb, or None."""
        kinds_of = getattr(self.judge, "kinds", None)
        if not callable(kinds_of):
            return None
        kinds = set(kinds_of(word))
        if "verbs" in kinds and not kinds & {"nouns", "adjectives"}:
            refusal = _("{word} is only a verb, and verbs are not allowed in this game.", word=word.upper())
            return Verdict(False, "verb", refusal)
        return None

    # ------------------------------------------------------------ rounds

    def _deal(self, now: float) -> list[Notice]:
        self.round_no += 1
        cards = deck_for(self.card_set, len(self.seats), self.language)
        self.rng.shuffle(cards)
        self.round = Round(
            cards, hands={seat: [] for seat in self.active}, refill=self.config.reshuffle != "off"
        )
        self.recent = set()
        for _x in range(self.config.hand):
            for seat in self.active:
                self.round.draw(seat, self.rng)
        self.empty_passes = 0
        first = self.active[(self.round_no - 1) % len(self.active)]
        self._start_turn(first, now)
        name = self.names[first]
        if is_you(name):
            dealt = _n(
                "{count} card each; you begin. Hands are private: `hand` shows yours.",
                "{count} cards each; you begin. Hands are private: `hand` shows yours.",
                self.config.hand,
            )
        else:
            dealt = _n(
                "{count} card each; {name} begins. Hands are private: `hand` shows yours.",
                "{count} cards each; {name} begins. Hands are private: `hand` shows yours.",
                self.config.hand,
                name=name,
            )
        if self.config.rounds > 1:
            dealt = _(
                "Round {number} of {rounds}: {text}",
                number=self.round_no,
                rounds=self.config.rounds,
                text=dealt,
            )
        notices = [Notice("announce", dealt)]
        notices += [self._hand_notice(seat) for seat in self.active]
        notices.append(Notice("table"))
        return notices

    def _start_turn(self, seat: str, now: float) -> None:
        self.current = seat
        self.turn_started = now
        self.turn_no += 1

    def _advance(self, now: float, leaving: str | None = None) -> list[Notice]:
        notices: list[Notice] = []
        assert self.current is not None
        pos = self.active.index(self.current) if self.current in self.active else -1
        for _x in range(len(self.active) * 8):
            pos = (pos + 1) % len(self.active)
            seat = self.active[pos]
            if seat == leaving:
                continue
            if self.round.skips.get(seat, 0) > 0:
                self.round.skips[seat] -= 1
                name = self.names[seat]
                skipped = (
                    _("You skip this turn.") if is_you(name) else _("{name} skips this turn.", name=name)
                )
                notices.append(Notice("announce", skipped))
                continue
            break
        self._start_turn(self.active[pos], now)
        return notices

    def _hand_notice(self, seat: str) -> Notice:
        return Notice(
            "private", _("Your hand: {cards}", cards=hand_text(self.round.hands.get(seat, []))), seat
        )

    def _end_round(self, winners: Sequence[str], now: float, how: str) -> list[Notice]:
        left = {seat: len(self.round.hands.get(seat, [])) for seat in self.active}
        points = sum(n for seat, n in left.items() if seat not in winners)
        for seat in winners:
            self.scores[seat] += points
        self.round_winners.append(tuple(winners))
        if len(winners) > 1:
            won = _n(
                "{names} win the round and score {count} point (one for each card the others hold).",
                "{names} win the round and score {count} points (one for each card the others hold).",
                points,
                names=listing(self.names[w] for w in winners),
            )
        elif is_you(name := self.names[winners[0]]):
            won = _n(
                "You win the round and score {count} point (one for each card the others hold).",
                "You win the round and score {count} points (one for each card the others hold).",
                points,
            )
        else:
            won = _n(
                "{name} wins the round and scores {count} point (one for each card the others hold).",
                "{name} wins the round and scores {count} points (one for each card the others hold).",
                points,
                name=name,
            )
        notices = [Notice("announce", f"{how} {won}")]
        if self.round_no < self.config.rounds:
            return notices + self._deal(now)
        return notices + self._finish(now)

    def _finish(self, now: float, why: str = "") -> list[Notice]:
        self.done = True
        self.current = None
        result = self.result()
        if not result.winners:
            won = _("Nobody wins!")
        elif len(result.winners) > 1:
            won = _("{names} win!", names=listing(self.names[w] for w in result.winners))
        elif is_you(name := self.names[result.winners[0]]):
            won = _("You win!")
        else:
            won = _("{name} wins!", name=name)
        self.summary = f"{_(why)} {won}" if why else won
        return [Notice("end", self.summary)]

    # ------------------------------------------------------------ actions

    def apply(self, action: Action) -> list[Notice]:
        """Apply one action and report what happened. Never raises on bad input."""
        if action.kind == "begin":
            if self.round_no or self.done:
                return []
            if len(self.active) < 2:
                return self._finish(action.now, NEEDS_TWO)
            if self.refusal:
                self.done = True
                self.current = None
                self.summary = _("This game can't start: {reason}", reason=self.refusal)
                return [Notice("end", self.summary)]
            return self._deal(action.now)
        if action.kind == "say":
            return self._say(action)
        if action.kind == "tick":
            return self._tick(action.now)
        if action.kind == "leave" and action.seat is not None:
            return self._leave(action.seat, action.now)
        return []

    def _say(self, action: Action) -> list[Notice]:
        seat = action.seat or ""

        def refuse(reason: str) -> list[Notice]:
            return [Notice("rejected", reason, seat, action.ref)]

        if self.done:
            return refuse(_("The game is over."))
        if not self.round_no:
            return refuse(_("The game hasn't started yet."))
        if seat not in self.active:
            return refuse(_("You're not playing in this game."))
        if seat != self.current:
            return refuse(self._not_your_turn())
        try:
            ops = parse(action.text or "", self.language)
        except NotationError as exc:
            return refuse(str(exc))
        state = self.round.copy()
        rng_state = self.rng.getstate()
        try:
            report = play_turn(state, seat, ops, self._turn_rules(), self.rng)
        except Refusal as exc:
            self.rng.setstate(rng_state)
            return refuse(str(exc))
        self.round = state
        return self._after_turn(seat, report, action)

    def hand_of(self, seat: str) -> tuple[HandCard, ...]:
        """``seat``'s own hand, in the order the table lists hands (letters A-Z, jokers, action
        cards); empty for anyone else. Private: only ever shown to that seat."""
        order = {"letter": 0, "joker": 1, "action": 2}
        cards = sorted(
            self.round.hands.get(seat, ()), key=lambda c: (order[c.kind], c.letter, c.action, c.id)
        )
        out = []
        for card in cards:
            name, usage, help_text = ACTIONS.get(card.action, ("", "", ""))
            name, help_text = (_(name), _(help_text)) if name else (name, help_text)
            out.append(HandCard(card.kind, card.letter, card.colour, card.action, name, usage, help_text))
        return tuple(out)

    def preview(self, seat: str, text: str) -> ShedPreview:
        """What ``seat`` playing the line ``text`` would do now, judged by the same rules as the
        line itself (all or nothing), on a copy of the round: nothing changes, and the preview
        says only what the table would hear (never a card drawn or taken)."""
        if self.done:
            return ShedPreview(False, _("The game is over."))
        if not self.round_no:
            return ShedPreview(False, _("The game hasn't started yet."))
        if seat not in self.active:
            return ShedPreview(False, _("You're not playing in this game."))
        if seat != self.current:
            return ShedPreview(False, self._not_your_turn())
        try:
            ops = parse(text, self.language)
        except NotationError as exc:
            return ShedPreview(False, str(exc))
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        state = self.round.copy()
        try:
            report = play_turn(state, seat, ops, self._turn_rules(), rng)
        except Refusal as exc:
            return ShedPreview(False, str(exc))
        return ShedPreview(True, "", _said(report, _p("player", "You"), len(state.hands[seat])))

    def _not_your_turn(self) -> str:
        if self.current is None or self.current not in self.names:
            return _("It's not your turn.")
        return _("It's not your turn: it's {name}'s.", name=self.names[self.current])

    def _turn_rules(self) -> TurnRules:
        opponents = [Opponent(s, self.names[s], self.numbers[s]) for s in self.active]
        return TurnRules(
            self.check_word,
            self.config.opening == "turn",
            opponents,
            self.names,
            action_alone=self.config.actions == "alone",
            actions_out=not self.config.legacy_end,
        )

    def _after_turn(self, seat: str, report: TurnReport, action: Action) -> list[Notice]:
        self.recent = report.placed
        for word in report.new_words:
            if len(word) > len(self.best.get(seat, "")):
                self.best[seat] = word
        hand = self.round.hands[seat]
        name = self.names[seat]
        text = _said(report, name, len(hand))
        if report.new_words and any(s.id == seat and s.bot for s in self.seats):
            # a computer player's longest new word with its meaning (one: the line stays short)
            longest = max(report.new_words, key=len)
            text += meaning.sentence(longest, self.gloss, self.language.code)
        notices = [Notice("accepted", text, seat, action.ref)]
        notices += [self._hand_notice(s) for s in sorted(report.touched) if s in self.active]
        if self.config.legacy_end:  # a game recorded before the rule: any play held the round open
            if report.played:
                self.empty_passes = 0
            elif report.drew == 0:
                self.empty_passes += 1
        elif report.laid or report.action or report.drew:
            self.empty_passes = 0
        else:  # a pass, or a turn that only moved letters between table words
            self.empty_passes += 1
        if not hand:
            none_left = (
                _("You have no cards left:") if is_you(name) else _("{name} has no cards left:", name=name)
            )
            return notices + self._end_round([seat], action.now, none_left)
        if self.empty_passes >= len(self.active):
            return notices + self._blocked(action.now)
        notices += self._advance(action.now)
        notices.append(Notice("table"))
        return notices

    def _blocked(self, now: float) -> list[Notice]:
        """A full round of turns without progress: the fewest cards win the round (docs/SHED.md)."""
        fewest = min(len(self.round.hands[s]) for s in self.active)
        winners = [s for s in self.active if len(self.round.hands[s]) == fewest]
        how = _("No cards are left to draw and nobody can play:")
        if self.round.can_draw():  # a round of turns that only moved table letters
            how = _("A full round went by without anyone laying a card from their hand, or drawing one:")
        return self._end_round(winners, now, how)

    def _tick(self, now: float) -> list[Notice]:
        deadline = self.next_deadline()
        if deadline is None or now < deadline or self.current is None:
            return []
        seat = self.current
        card = self.round.draw(seat, self.rng)
        if card is None:
            self.empty_passes += 1
        elif not self.config.legacy_end:
            self.empty_passes = 0
        name = self.names[seat]
        if card and is_you(name):
            text = _("Time's up! You draw a card.")
        elif card:
            text = _("Time's up! {name} draws a card.", name=name)
        elif is_you(name):
            text = _("Time's up! You pass (no cards left to draw).")
        else:
            text = _("Time's up! {name} passes (no cards left to draw).", name=name)
        notices = [Notice("announce", text), self._hand_notice(seat)]
        if self.empty_passes >= len(self.active):
            return notices + self._blocked(now)
        notices += self._advance(now)
        notices.append(Notice("table"))
        return notices

    def _leave(self, seat: str, now: float) -> list[Notice]:
        if self.done or seat not in self.active:
            return []
        if not self.round_no:
            self.active.remove(seat)  # before the deal: the game starts without them
            return [Notice("announce", _("{name} left the game.", name=self.names[seat]))]
        was_turn = seat == self.current
        notices = self._advance(now, leaving=seat) if was_turn and len(self.active) > 2 else []
        self.active.remove(seat)
        for card in self.round.hands.pop(seat, []):
            out = card.kind == "action" and not self.config.legacy_end
            (self.round.out if out else self.round.discard).append(card)
        self.round.skips.pop(seat, None)
        notices.insert(
            0,
            Notice("announce", _("{name} left the game; their cards are discarded.", name=self.names[seat])),
        )
        humans = [s for s in self.active if self._seat(s).bot is None]
        if len(self.active) < 2 or not humans:
            fewest = min((len(self.round.hands[s]) for s in self.active), default=0)
            winners = [s for s in self.active if len(self.round.hands[s]) == fewest]
            self.round_winners.append(tuple(winners))
            return notices + self._finish(now, TOO_FEW)
        notices.append(Notice("table"))
        return notices

    def _seat(self, seat: str) -> Seat:
        return next(s for s in self.seats if s.id == seat)

    # ------------------------------------------------------------ time and bots

    def next_deadline(self) -> float | None:
        """When the current turn runs out (None once the game is over)."""
        if self.done or self.current is None:
            return None
        return self.turn_started + self.config.turn_seconds

    def next_bot_time(self) -> float | None:
        """When the computer player whose turn it is will move."""
        if self.done or self.current is None or self.bot_turn_done == self.turn_no:
            return None
        level = self._seat(self.current).bot
        if level is None:
            return None
        return self.turn_started + BOT_DELAY.get(level, BOT_DELAY["normal"])

    def bot_claims(self, now: float) -> list[Claim]:
        """The computer player's whole turn, in the notation, once its thinking time is up."""
        due = self.next_bot_time()
        if due is None or now < due or self.current is None:
            return []
        from games.shed.bots import plan_turn

        self.bot_turn_done = self.turn_no
        seat = self.current
        text = plan_turn(self, seat, self._seat(seat).bot or "normal", self.bot_rng)
        return [Claim(seat, text, now)]

    # ------------------------------------------------------------ views

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.done

    def table_lines(self) -> list[str]:
        """The public table: words, deck, whose turn."""
        lines: list[str] = []
        if self.round.table:
            lines.append(_("Table words:"))
            lines += [
                f"  #{i}  {tw.shown}  ({self.names[tw.owner]})" for i, tw in enumerate(self.round.table, 1)
            ]
        else:
            lines.append(_("No words on the table yet."))
        deck = _n("Deck: {count} card", "Deck: {count} cards", len(self.round.deck))
        lines.append(_("{deck} · discard pile: {count}", deck=deck, count=len(self.round.discard)))
        if self.current is not None:
            name = self.names[self.current]
            if is_you(name):
                lines.append(_("Your turn: a word, `SOCK+H -> SHOCK`, or `draw`."))
            else:
                lines.append(_("{name} to play: a word, `SOCK+H -> SHOCK`, or `draw`.", name=name))
        return lines

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The table as ``viewer`` sees it; only a seat's own snapshot holds its hand."""
        title = self.table_title()
        if self.config.rounds > 1:
            title = _(
                "{title} — round {number} of {rounds}",
                title=title,
                number=self.round_no,
                rounds=self.config.rounds,
            )
        seats = tuple(
            SeatLine(
                s.id,
                s.name,
                self.scores[s.id],
                _detail(
                    self.numbers[s.id],
                    len(self.round.hands.get(s.id, [])),
                    self.round.skips.get(s.id, 0),
                    s.id in self.active,
                ),
                s.id == self.current,
            )
            for s in self.seats
        )
        lines = self.table_lines()
        deadline = self.next_deadline()
        board = self.board()
        if viewer is None or viewer not in self.round.hands:
            return Snapshot(
                title, seats=seats, lines=tuple(lines), board=board, board_labels=False, deadline=deadline
            )
        hand = self.round.hands[viewer]
        shown = sorted(
            (c for c in hand if c.kind != "action"), key=lambda c: (c.kind != "letter", c.letter, c.id)
        )
        faces = tuple(_face(c) for c in shown)
        mine = [_("Your hand: {cards}", cards=hand_text(hand)), *lines]
        return Snapshot(
            _("{title} — your hand", title=title),
            cards=faces,
            seats=seats,
            lines=tuple(mine),
            board=board,
            board_labels=False,
            deadline=deadline,
        )

    def table_title(self) -> str:
        """``Shed``, with the language when it is not English (``Shed · German``)."""
        if self.language.code == "en":
            return _(TITLE)
        return _("{game} · {language}", game=_(TITLE), language=self.language.spoken)

    def board(self) -> tuple[tuple[Cell, ...], ...]:
        """The table words for pictures, a word a row: jokers as blank tiles, the last turn's words framed."""
        return tuple(
            tuple(
                Cell(
                    letter.upper(),
                    0 if card.kind == "joker" else 1,
                    card.kind == "joker",
                    recent=card.id in self.recent,
                )
                for card, letter in word.cards
            )
            for word in self.round.table
        )

    def result(self) -> Result:
        """Points per seat and the winners (final once :attr:`finished`)."""
        if self.config.rounds == 1 or not self.round_winners:
            winners = self.round_winners[-1] if self.round_winners else ()
        else:
            top = max(self.scores.values())
            winners = tuple(s.id for s in self.seats if self.scores[s.id] == top)
        return Result(
            dict(self.scores),
            tuple(winners),
            self.summary,
            best_words=dict(self.best),
            voided=self.refusal is not None,  # refused at the start: the game never began
        )


def _detail(number: int, cards: int, skips: int, playing: bool) -> str:
    """``#2 · 7 cards``: the seat number (action cards can name it) and the hand's size."""
    if not playing:
        return _("#{number} · left the game", number=str(number))
    text = _n("#{number} · {count} card", "#{number} · {count} cards", cards, number=str(number))
    return _("{seat} · skips next turn", seat=text) if skips else text


def _said(report: TurnReport, name: str, left: int) -> str:
    """``Ann plays CAT; Ann turns SOCK into SOCKS (3 cards left).``: each move, then the hand."""
    moves = "; ".join(clause(name) for clause in report.words)
    return _n("{moves} ({count} card left).", "{moves} ({count} cards left).", left, moves=moves)


def _face(card: Card) -> CardFace:
    """A letter card, or a joker as a blank card; every card left in a hand is 1 point."""
    if card.kind == "letter":
        return CardFace(card.letter.upper(), card.colour, 1)
    return CardFace("", "", 1)
