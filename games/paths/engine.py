"""Mark My Words as a pure turn-based engine.

State changes only through :meth:`PathsEngine.apply`; every time comes from the
actions, and the only randomness is the seeded deal, so replaying a game's
action log rebuilds it exactly — deadlines included.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from games.common import meaning
from games.common.engine import GameEngine
from games.common.grammar import is_you
from games.common.languages import language
from games.common.options import OptionError, OptionValue
from games.common.protocol import (
    NO_LISTS,
    Action,
    CardFace,
    Cell,
    Claim,
    Notice,
    Reading,
    Result,
    SeatLine,
    Setup,
    Snapshot,
)
from games.common.speech import N_, _, _n, _p, duration, listing
from games.common.words import Verdict, WordRules
from games.paths import bots
from games.paths.finder import Finder, WordList
from games.paths.grid import BLANK, EMPTY, square_name, text_rows
from games.paths.moves import Discard, Free, Knock, Move, MoveError, Pass, Place, PlaceBlank, parse_move
from games.paths.options import PathsConfig
from games.paths.state import Board, Recording
from games.paths.tiles import deal
from games.paths.wordlists import allowed_words, game_words

#: Seconds a computer player "thinks" before its move, by level.
BOT_DELAY: dict[str, float] = {"easy": 6.0, "normal": 4.0, "hard": 2.0}
#: Seconds into a knock window before a computer player knocks, by level (easy ones never knock).
KNOCK_DELAY: dict[str, float] = {"normal": 12.0, "hard": 6.0}

TITLE = N_("Mark My Words")
#: Why a game ended (English, marked: shown through ``_()`` in the language spoken).
EVERYONE_LEFT = N_("everyone left")
ALL_PASSED = N_("every player passed in a row")
STUCK = N_("nobody can form a new word")
NO_TILES = N_("no tiles are left to play")


@dataclass(frozen=True, slots=True)
class _Refusal:
    """Why a claim of words was refused (``words``: the reasons about the words alone, in the third
    person, for the channel; "" when the words were fine but none used the tile)."""

    reason: str
    words: str = ""


@dataclass(frozen=True, slots=True)
class _Claimed:
    """The named words that count (their recordings) and why each of the others doesn't."""

    recordings: list[Recording]
    skipped: list[str]

    def note(self) -> str:
        """`` Not marked: …`` for the words that didn't count ("" when all did)."""
        return " " + _("Not marked: {reasons}", reasons=" ".join(self.skipped)) if self.skipped else ""


@dataclass(frozen=True, slots=True)
class PathsPreview:
    """What a placing move would do, judged as the move itself would be (:meth:`PathsEngine.preview`).

    ``words``: each named word, its points if it would be marked down, and why not ("" when it
    counts). ``reason``: why the move would be refused or cost the tile ("" when it stands);
    ``score``: the points it would bring.
    """

    move: str
    words: tuple[tuple[str, int, str], ...] = ()
    score: int = 0
    reason: str = ""


class PathsReader:
    """The moves of a Mark My Words game with given options (:attr:`GameInfo.reads`)."""

    def __init__(self, options: Mapping[str, OptionValue], seed: int = 0) -> None:
        config = PathsConfig.from_options(options)
        self.size = config.size
        self.language = language(config.language)

    def read(self, text: str, *, private: bool = False) -> Reading:
        """A move (``E5 T ATE``, ``pass``…), legal or not; else why it is none."""
        if private:
            return Reading(None, NO_LISTS)
        try:
            parse_move(text, self.size, self.size, self.language)
        except MoveError as exc:
            return Reading(None, str(exc))
        return Reading(text)


class PathsEngine(GameEngine):
    """One game of Mark My Words (see ``rules_text.RULES`` for the rules as players read them)."""

    def __init__(self, setup: Setup, words: WordList | None = None) -> None:
        """A game of ``setup``; ``words`` replaces the lexicon's allowed words (tests).

        Raises :class:`OptionError` with the reason when the options can't make a game
        (the -s, -ing and -ed bans in a language other than English).
        """
        self.config = PathsConfig.from_options(setup.options)
        refusal = self.config.refusal()
        if refusal is not None:
            raise OptionError(refusal)
        self.language = language(self.config.language)
        self.seats = list(setup.seats)
        self.names = {s.id: s.name for s in self.seats}
        self.rules = WordRules(
            dictionary=self.config.dictionary,
            min_length=self.config.min_length,
            bans=self.config.bans,
            added=setup.added_words,
            banned=setup.banned_words,
        )
        #: the one verdict on a word: claims, ``define`` and the finder's word list all ask it
        self.game_words = game_words(self.rules, setup.judge or words, self.config.language)
        self.words = words if words is not None else allowed_words(self.game_words)
        self.gloss: meaning.Glosser = meaning.glosser(setup, self.config.language)
        size = self.config.size
        self.size = size
        self.board = Board(Finder(self.words, size, size), [EMPTY] * (size * size))
        self.seed = setup.seed
        self.racks: dict[str, list[str]] = {s.id: [] for s in self.seats}
        self.blanks: dict[str, int] = {s.id: 0 for s in self.seats}
        self.box: list[str] = []
        self.spare_blanks = 0
        self.pile: list[str] = []
        self.scores: dict[str, int] = {s.id: 0 for s in self.seats}
        self.gone: set[str] = set()
        self.started = False
        self.done = False
        self.end_reason = ""
        self.current = 0
        self.turns = 0  # turns completed
        self.turn_started = 0.0
        self.free_used = False
        self.passes = 0  # turns passed in a row
        self.knock_until: float | None = None
        self.recent: set[int] = set()
        self.last_move = ""
        # planning state of the computer players, not of the rules: the knock windows
        # (seat, opening time) each has already looked at
        self._knock_checked: set[tuple[str, float]] = set()

    # ------------------------------------------------------------ queries

    @property
    def title(self) -> str:
        """The table's title: the game, and its language when it is not English."""
        if self.language.code == "en":
            return _(TITLE)
        return _("{game} · {language}", game=_(TITLE), language=self.language.spoken)

    @property
    def squares(self) -> list[str]:
        """The grid, row by row ("" empty, "#" a blank tile, else a lower-case letter)."""
        return self.board.squares

    @property
    def seat_id(self) -> str:
        """Whose turn it is."""
        return self.seats[self.current].id

    @property
    def first_round(self) -> bool:
        """True while each player is placing their first tile."""
        return self.turns < len(self.seats)

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.done

    def level(self, seat: str) -> str | None:
        """The computer player level of ``seat`` (None for a person)."""
        return next((s.bot for s in self.seats if s.id == seat), None)

    def tile_count(self) -> int:
        """Every tile, wherever it is (always :data:`TOTAL_TILES`)."""
        on_board = sum(1 for c in self.squares if c != EMPTY)
        held = sum(len(r) for r in self.racks.values()) + sum(self.blanks.values())
        return on_board + held + len(self.pile) + len(self.box) + self.spare_blanks

    def points(self, word: str) -> int:
        """What a new word scores under the game's scoring."""
        return len(word) if self.config.scoring == "letter" else 1

    def turn_deadline(self) -> float | None:
        """When the current turn runs out (None: no time limit)."""
        if not self.started or self.done or self.config.turn <= 0:
            return None
        return self.turn_started + self.config.turn

    def knock_open(self, now: float) -> bool:
        """Is the knock window open at ``now``?"""
        return self.knock_until is not None and now < self.knock_until

    def can_act(self, seat: str) -> bool:
        """Does ``seat`` have anything to do on a turn (tiles, or free tiles to take)?"""
        if seat in self.gone:
            return False
        return bool(self.racks[seat] or self.blanks[seat] or (self.config.free_pile and self.pile))

    def can_place(self, seat: str) -> bool:
        """Could one of ``seat``'s letter tiles form a new word somewhere (the solver's answer)?"""
        letters = "".join(sorted(set(self.racks[seat])))
        squares = self.board.frontier() + self.board.blanks_in_play()
        return self.board.can_form(letters, squares)

    def stuck(self) -> bool:
        """True when nobody can form or discover a new word: the game is over.

        The solver looks for a new word already on the board (anyone may still
        knock for it), then tries every letter in anyone's rack and on the Free
        Letter Pile on every empty square next to a letter tile, and every rack
        letter on every blank tile in play. Words needing two free tiles at
        once are not searched.
        """
        if self.first_round:
            return False
        if self.board.has_new_word():
            return False
        racks = {ch for seat, rack in self.racks.items() if seat not in self.gone for ch in rack}
        pile = set(self.pile) if self.config.free_pile else set()
        if self.board.can_form("".join(sorted(racks | pile)), self.board.frontier()):
            return False
        return not self.board.can_form("".join(sorted(racks)), self.board.blanks_in_play())

    def preview(self, seat: str, text: str) -> PathsPreview | str:
        """What ``seat`` placing a tile as ``text`` says (``E5 T ATE TEA``: a square, a letter of
        their rack and the words they name) would do now, judged by the same rules as the move
        (the rack, the square, the words' dictionary, path and newness, the tile's word); or the
        reason ``text`` is no placing move. It names no word the player did not name, and
        changes nothing."""
        try:
            move = parse_move(text, self.size, self.size, self.language)
        except MoveError as exc:
            return str(exc)
        if not isinstance(move, Place):
            return _("Only a tile placed on the grid has a preview.")
        name = square_name(move.square, self.size)
        shown = " ".join((name, move.letter.upper(), *(w.upper() for w in move.words)))

        def refused(reason: str) -> PathsPreview:
            return PathsPreview(shown, reason=reason)

        if seat not in self.racks:
            return refused(_("You're not playing in this game."))
        if self.done or not self.started:
            return refused(_("The game is over.") if self.done else _("The game hasn't started yet."))
        if seat in self.gone:
            return refused(_("You left this game."))
        if seat != self.seat_id:
            return refused(self._whose_turn())
        if move.letter not in self.racks[seat]:
            return refused(self._no_tile(move.letter, seat))
        held = self.squares[move.square]
        if held.isalpha():
            return refused(_("{square} already holds {letter}.", square=name, letter=held.upper()))
        if move.swap and held != BLANK:
            return refused(_("{square} holds no blank tile to exchange.", square=name))
        must_word = held == BLANK or not self.first_round or self.board.touches(move.square)
        if must_word and not move.words:
            return refused(_name_the_word(name, move.letter))
        must = move.square if must_word else None
        self.squares[move.square] = move.letter  # (put back below: a preview changes nothing)
        try:
            taken: dict[str, set[int]] = {}
            out: list[Recording] = []
            judged = []
            for word in move.words:
                why = self._claim_one(seat, word, "move", taken, must, frozenset(), out)
                judged.append((word.upper(), 0 if why else self.points(word), why or ""))
            claimed = self._claims(seat, move.words, "move", must=must)
        finally:
            self.squares[move.square] = held
        if isinstance(claimed, _Refusal):
            reason = claimed.reason
            if self.config.misplaced != "retry":
                shown_letter = move.letter.upper()
                if self.config.free_pile:
                    cost = _(
                        "Played like this, your {letter} would go to the Free Letter Pile and your turn end.",
                        letter=shown_letter,
                    )
                else:
                    cost = _(
                        "Played like this, your {letter} would go out of the game and your turn end.",
                        letter=shown_letter,
                    )
                reason += " " + cost
            return PathsPreview(shown, tuple(judged), 0, reason)
        return PathsPreview(shown, tuple(judged), sum(r.points for r in claimed.recordings))

    # ------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Notice]:
        """Apply one action; bad input comes back as a ``rejected`` notice."""
        if action.kind == "begin":
            return self._begin(action.now)
        if not self.started:
            return []
        if action.kind == "tick":
            return self._tick(action.now)
        if action.kind == "leave" and action.seat is not None:
            return self._leave(action.seat, action.now)
        if action.kind != "say" or action.seat is None:
            return []
        seat = action.seat
        if seat not in self.scores:
            return [Notice("rejected", _("You're not playing this game."), seat, action.ref)]
        notices = self._say(seat, action.text or "", action.now, action.ref)
        refused = any(n.kind == "rejected" and n.seat == seat for n in notices)
        knock = (action.text or "").strip().lower().startswith("knock")
        if refused and self.level(seat) and not knock and not self.done and self.seat_id == seat:
            # a computer move should never be refused; if one is, it passes rather than stall the game
            notices += self._end_turn(action.now, passed=True, why=self._passed(seat))
        return notices

    def _say(self, seat: str, text: str, now: float, ref: str | None) -> list[Notice]:
        if self.done:
            return _no(_("The game is over."), seat, ref)
        if seat in self.gone:
            return _no(_("You left this game."), seat, ref)
        try:
            move = parse_move(text, self.size, self.size, self.language)
        except MoveError as exc:
            return _no(str(exc), seat, ref)
        if isinstance(move, Knock):
            return self._knock(seat, move, now, ref)
        if seat != self.seat_id:
            return _no(self._whose_turn(knocking=True), seat, ref)
        return self._turn(seat, move, now, ref)

    def _turn(self, seat: str, move: Move, now: float, ref: str | None) -> list[Notice]:
        if isinstance(move, Place):
            return self._place(seat, move, now, ref)
        if isinstance(move, PlaceBlank):
            return self._place_blank(seat, move, now, ref)
        if isinstance(move, Free):
            return self._free(seat, move, now, ref)
        if isinstance(move, Discard):
            return self._discard(seat, move, now, ref)
        if isinstance(move, Pass):
            return [Notice("accepted", "", seat, ref), *self._end_turn(now, True, self._passed(seat))]
        return _no(_("That move can't be played on your turn."), seat, ref)

    def _passed(self, seat: str) -> str:
        name = self.names[seat]
        return _("You passed.") if is_you(name) else _("{name} passed.", name=name)

    def _whose_turn(self, *, knocking: bool = False) -> str:
        """``It's Bob's turn.`` (``It's your turn`` for the terminal's player)."""
        name = self.names[self.seat_id]
        if knocking:
            if is_you(name):
                return _("It's your turn (knocking is open to all).")
            return _("It's {name}'s turn (knocking is open to all).", name=name)
        return _("It's your turn.") if is_you(name) else _("It's {name}'s turn.", name=name)

    def _no_tile(self, letter: str, seat: str) -> str:
        return _("You have no {letter} tile.", letter=letter.upper()) + " " + self._rack_text(seat)

    # ------------------------------------------------------------ begin and turns

    def _begin(self, now: float) -> list[Notice]:
        if self.started:
            return []
        dealt = deal(
            [s.id for s in self.seats],
            random.Random(self.seed),
            blanks=self.config.blanks,
            language=self.config.language,
        )
        self.racks, self.blanks = dealt.racks, dealt.blanks
        self.box, self.spare_blanks = dealt.box, dealt.spare_blanks
        self.started = True
        self.turn_started = now
        count = len(next(iter(self.racks.values()), []))
        notices = [
            Notice(
                "announce",
                _(
                    "{game}: {count} tiles each on a {size}×{size} grid. First round: place a tile "
                    "anywhere (if it touches another, it must form a word). First to play: {name}.",
                    game=self.title,
                    count=count,
                    size=self.size,
                    name=self.names[self.seat_id],
                ),
            )
        ]
        notices += [Notice("private", self._rack_text(s.id), s.id) for s in self.seats]
        notices.append(Notice("table"))
        return notices

    def _end_turn(self, now: float, passed: bool, why: str, *, board_changed: bool = True) -> list[Notice]:
        notices: list[Notice] = [Notice("announce", why)] if why else []
        self.turns += 1
        self.passes = self.passes + 1 if passed else 0
        self.free_used = False
        if not passed and board_changed and self.config.knock > 0:
            self.knock_until = now + self.config.knock
        active = [s.id for s in self.seats if s.id not in self.gone]
        if not active:
            return notices + self._finish(EVERYONE_LEFT)
        if self.passes >= len(active):
            return notices + self._finish(ALL_PASSED)
        if self.stuck():
            return notices + self._finish(STUCK)
        for step in range(1, len(self.seats) + 1):
            index = (self.current + step) % len(self.seats)
            if self.can_act(self.seats[index].id):
                self.current = index
                break
        else:
            # nobody has a tile to play; only new words already on the board are left to knock for
            if not self.knock_open(now):
                return notices + self._finish(NO_TILES)
            self.turn_started = now
            notices.append(
                Notice("announce", _("No tiles are left to play: knock for the words still left!"))
            )
            notices.append(Notice("table"))
            return notices
        self.turn_started = now
        seat = self.seat_id
        notices.append(Notice("private", _("Your turn.") + " " + self._rack_text(seat), seat))
        notices.append(Notice("table"))
        return notices

    def _waiting_for_knocks(self) -> bool:
        return not any(self.can_act(s.id) for s in self.seats)

    def _tick(self, now: float) -> list[Notice]:
        if self.done:
            return []
        if self._waiting_for_knocks():
            if not self.knock_open(now):
                return self._finish(NO_TILES)
            return []
        deadline = self.turn_deadline()
        if deadline is not None and now >= deadline:
            name = self.names[self.seat_id]
            if is_you(name):
                why = _("Time's up for you: the turn passes.")
            else:
                why = _("Time's up for {name}: the turn passes.", name=name)
            return self._end_turn(now, True, why)
        return []

    def _leave(self, seat: str, now: float) -> list[Notice]:
        if seat in self.gone or seat not in self.scores or self.done:
            return []
        self.gone.add(seat)
        name = self.names[seat]
        left = _("You left the game.") if is_you(name) else _("{name} left the game.", name=name)
        notices = [Notice("announce", left)]
        if self.seat_id == seat:
            notices += self._end_turn(now, True, "")
        elif all(s.id in self.gone for s in self.seats):
            notices += self._finish(EVERYONE_LEFT)
        return notices

    def _finish(self, reason: str) -> list[Notice]:
        self.done = True
        self.end_reason = reason
        self.knock_until = None
        result = self.result()
        best = max(result.scores.values(), default=0)
        why = _(reason)
        if not result.winners:
            return [Notice("end", _("Game over: {reason}. Nobody scored.", reason=why))]
        if len(result.winners) > 1:
            names = listing(self.names[w] for w in result.winners)
            text = _n(
                "Game over: {reason}. {names} share the win with {count} point.",
                "Game over: {reason}. {names} share the win with {count} points.",
                best,
                reason=why,
                names=names,
            )
        elif is_you(name := self.names[result.winners[0]]):
            text = _n(
                "Game over: {reason}. You win with {count} point.",
                "Game over: {reason}. You win with {count} points.",
                best,
                reason=why,
            )
        else:
            text = _n(
                "Game over: {reason}. {name} wins with {count} point.",
                "Game over: {reason}. {name} wins with {count} points.",
                best,
                reason=why,
                name=name,
            )
        return [Notice("end", text)]

    # ------------------------------------------------------------ moves

    def _place(self, seat: str, move: Place, now: float, ref: str | None) -> list[Notice]:
        rack = self.racks[seat]
        letter, square = move.letter, move.square
        name = square_name(square, self.size)
        if letter not in rack:
            return _no(self._no_tile(letter, seat), seat, ref)
        held = self.squares[square]
        if held.isalpha():
            return _no(_("{square} already holds {letter}.", square=name, letter=held.upper()), seat, ref)
        if move.swap and held != BLANK:
            return _no(_("{square} holds no blank tile to exchange.", square=name), seat, ref)
        exchange = held == BLANK
        must_word = exchange or not self.first_round or self.board.touches(square)
        if must_word and not move.words:
            return _no(_name_the_word(name, letter), seat, ref)
        self.squares[square] = letter
        claimed = self._claims(seat, move.words, "move", must=square if must_word else None)
        if isinstance(claimed, _Refusal):
            self.squares[square] = held
            if self.config.misplaced == "retry":
                return _no(claimed.reason, seat, ref)
            return self._misplaced(seat, letter, name, claimed, now, ref)
        rack.remove(letter)
        if exchange:
            self.blanks[seat] += 1
        recordings = claimed.recordings
        gained = self._keep(recordings)
        shown = letter.upper()
        player, words = self.names[seat], self._list(recordings)
        if exchange and recordings:
            self.last_move = _(
                "{name} exchanged the blank on {square} for {letter}: {words}",
                name=player,
                square=name,
                letter=shown,
                words=words,
            )
        elif exchange:
            self.last_move = _(
                "{name} exchanged the blank on {square} for {letter}", name=player, square=name, letter=shown
            )
        elif recordings:
            self.last_move = _(
                "{name} placed {letter} on {square}: {words}",
                name=player,
                letter=shown,
                square=name,
                words=words,
            )
        else:
            self.last_move = _("{name} placed {letter} on {square}", name=player, letter=shown, square=name)
        self.recent = {square}
        text = _gained(self.last_move, gained) + claimed.note()
        text += self._bot_meaning(seat, recordings)
        return [Notice("accepted", text, seat, ref), *self._end_turn(now, False, "")]

    def _misplaced(
        self, seat: str, letter: str, name: str, refusal: _Refusal, now: float, ref: str | None
    ) -> list[Notice]:
        """The rulebook: a letter tile placed without creating a new word is lost and the turn ends.

        Both messages say first why no new word was made, then what it cost."""
        self.racks[seat].remove(letter)
        shown = letter.upper()
        pile = self.config.free_pile
        if pile:
            self.pile.append(letter)
            self.pile.sort()
        else:
            self.box.append(letter)  # no Free Letter Pile in this game: the tile leaves play
        player = self.names[seat]
        you = is_you(player)
        self.last_move = _(
            "{name} placed {letter} on {square} without making a new word",
            name=player,
            letter=shown,
            square=name,
        )
        setting = f"misplaced={self.config.misplaced}"
        if pile:
            told = _(
                "So your {letter} tile goes to the Free Letter Pile and your turn ends ({setting}).",
                letter=shown,
                setting=setting,
            )
        else:
            told = _(
                "So your {letter} tile is out of the game (no Free Letter Pile here) and your turn ends "
                "({setting}).",
                letter=shown,
                setting=setting,
            )
        if refusal.words and pile:
            if you:
                said = _(
                    "So your {letter} on {square} made no new word: the tile goes to the Free Letter Pile "
                    "and the turn ends.",
                    letter=shown,
                    square=name,
                )
            else:
                said = _(
                    "So {name}'s {letter} on {square} made no new word: the tile goes to the Free Letter "
                    "Pile and the turn ends.",
                    name=player,
                    letter=shown,
                    square=name,
                )
        elif refusal.words:
            if you:
                said = _(
                    "So your {letter} on {square} made no new word: the tile is out of the game (no Free "
                    "Letter Pile here) and the turn ends.",
                    letter=shown,
                    square=name,
                )
            else:
                said = _(
                    "So {name}'s {letter} on {square} made no new word: the tile is out of the game (no "
                    "Free Letter Pile here) and the turn ends.",
                    name=player,
                    letter=shown,
                    square=name,
                )
        elif pile:
            said = _(
                "None of the words {name} named uses the {letter} on {square}, so it made no new word: "
                "the tile goes to the Free Letter Pile and the turn ends.",
                name=player,
                letter=shown,
                square=name,
            )
        else:
            said = _(
                "None of the words {name} named uses the {letter} on {square}, so it made no new word: "
                "the tile is out of the game (no Free Letter Pile here) and the turn ends.",
                name=player,
                letter=shown,
                square=name,
            )
        announced = f"{refusal.words} {said}" if refusal.words else said
        notices = [
            Notice("rejected", f"{refusal.reason} {told}", seat, ref),
            Notice("announce", announced),
        ]
        # like a discard: a move (it feeds the pile), not a pass, and no knock window
        return notices + self._end_turn(now, False, "", board_changed=False)

    def _place_blank(self, seat: str, move: PlaceBlank, now: float, ref: str | None) -> list[Notice]:
        name = square_name(move.square, self.size)
        if not self.blanks[seat]:
            return _no(_("You have no blank tile."), seat, ref)
        if self.first_round:
            return _no(_("In the first round everyone places a letter tile."), seat, ref)
        if self.squares[move.square] != EMPTY:
            return _no(_("{square} is not empty.", square=name), seat, ref)
        if self.can_place(seat):
            return _no(
                _(
                    "The blank is only for when none of your letters can make a new word, and one of "
                    "them still can: keep looking, or pass."
                ),
                seat,
                ref,
            )
        self.squares[move.square] = BLANK
        self.blanks[seat] -= 1
        self.recent = {move.square}
        self.last_move = _("{name} placed a blank tile on {square}", name=self.names[seat], square=name)
        return [Notice("accepted", _gained(self.last_move, 0), seat, ref), *self._end_turn(now, False, "")]

    def _discard(self, seat: str, move: Discard, now: float, ref: str | None) -> list[Notice]:
        if not self.config.free_pile:
            return _no(_("This game has no Free Letter Pile (free-pile=off): pass instead."), seat, ref)
        if move.letter not in self.racks[seat]:
            return _no(_("You have no {letter} tile.", letter=move.letter.upper()), seat, ref)
        if self.first_round:
            return _no(_("In the first round everyone places a letter tile."), seat, ref)
        if self.can_place(seat):
            return _no(
                _(
                    "The Free Letter Pile is only for when none of your letters can make a new word, and "
                    "one of them still can: keep looking, or pass."
                ),
                seat,
                ref,
            )
        self.racks[seat].remove(move.letter)
        self.pile.append(move.letter)
        self.pile.sort()
        self.last_move = _(
            "{name} put {letter} on the Free Letter Pile", name=self.names[seat], letter=move.letter.upper()
        )
        # a discard is a move (it feeds the pile), not a pass, but it opens no knock window
        ended = self._end_turn(now, False, "", board_changed=False)
        return [Notice("accepted", _gained(self.last_move, 0), seat, ref), *ended]

    def _free(self, seat: str, move: Free, now: float, ref: str | None) -> list[Notice]:
        if not self.config.free_pile:
            return _no(_("This game has no Free Letter Pile (free-pile=off)."), seat, ref)
        if self.free_used:
            return _no(_("You have used the Free Letter Pile this turn: now play your turn."), seat, ref)
        wanted = Counter(letter for letter, _x in move.tiles)
        have = Counter(self.pile)
        short = sorted(ch.upper() for ch, n in wanted.items() if have[ch] < n)
        if short:
            pile = " ".join(ch.upper() for ch in self.pile) or _p("pile", "empty")
            return _no(
                _(
                    "The Free Letter Pile has no {letters} to spare (pile: {pile}).",
                    letters=", ".join(short),
                    pile=pile,
                ),
                seat,
                ref,
            )
        squares = [sq for _x, sq in move.tiles]
        if len(set(squares)) != len(squares):
            return _no(_("Each free tile needs its own square."), seat, ref)
        for sq in squares:
            if self.squares[sq] != EMPTY:
                return _no(_("{square} is not empty.", square=square_name(sq, self.size)), seat, ref)
        for letter, sq in move.tiles:
            self.squares[sq] = letter
        claimed = self._claims(seat, (move.word,), "free", must_all=frozenset(squares))
        self.free_used = True
        if isinstance(claimed, _Refusal):
            for sq in squares:
                self.squares[sq] = EMPTY
            return self._free_penalty(seat, claimed.reason, now, ref)
        for letter, _x in move.tiles:
            self.pile.remove(letter)
        gained = self._keep(claimed.recordings)
        self.recent = set(squares)
        tiles = ", ".join(
            _("{letter} on {square}", letter=ch.upper(), square=square_name(sq, self.size))
            for ch, sq in move.tiles
        )
        self.last_move = _(
            "{name} took free tiles ({tiles}): {words}",
            name=self.names[seat],
            tiles=tiles,
            words=self._list(claimed.recordings),
        )
        told = self._bot_meaning(seat, claimed.recordings)
        text = _("{move} (+{points}). Now the regular turn.", move=self.last_move, points=gained)
        notices = [Notice("accepted", text + told, seat, ref)]
        if not self.racks[seat] and not self.blanks[seat]:
            name = self.names[seat]
            if is_you(name):
                none_left = _("You have no tiles left to play.")
            else:
                none_left = _("{name} has no tiles left to play.", name=name)
            notices += self._end_turn(now, False, none_left)
        else:
            notices.append(Notice("table"))
        return notices

    def _free_penalty(self, seat: str, reason: str, now: float, ref: str | None) -> list[Notice]:
        rack = self.racks[seat]
        name = self.names[seat]
        you = is_you(name)
        if rack:
            counts = Counter(rack)
            given = min(counts, key=lambda ch: (-counts[ch], ch))  # the letter held most, A-Z on a tie
            rack.remove(given)
            self.pile.append(given)
            self.pile.sort()
            text = _penalty(name, given.upper(), you)
        elif you:
            text = _("Your free tiles made no new word, so they go back to the Free Letter Pile.")
        else:
            text = _(
                "{name}'s free tiles made no new word, so they go back to the Free Letter Pile.", name=name
            )
        notices = [
            Notice("rejected", _("{reason} (penalty: see the channel).", reason=reason), seat, ref),
            Notice("announce", text),
        ]
        if not self.can_act(seat) or not (rack or self.blanks[seat]):
            notices += self._end_turn(now, True, "")
        else:
            notices.append(Notice("table"))
        return notices

    def _knock(self, seat: str, move: Knock, now: float, ref: str | None) -> list[Notice]:
        if self.config.knock <= 0:
            return _no(_("Knocking is off in this game (knock=0)."), seat, ref)
        if not self.knock_open(now):
            return _no(_("No knock window is open: knocks come in the seconds after a turn."), seat, ref)
        claimed = self._claims(seat, move.words, "knock")
        if isinstance(claimed, _Refusal):
            return _no(claimed.reason, seat, ref)
        if not claimed.recordings:
            return _no(" ".join(claimed.skipped), seat, ref)
        gained = self._keep(claimed.recordings)
        self.knock_until = now + self.config.knock  # the last successful knocker keeps the window open
        name, words = self.names[seat], self._list(claimed.recordings)
        if is_you(name):
            text = _("You knock: {words} (+{points}).", words=words, points=gained)
        else:
            text = _("{name} knocks: {words} (+{points}).", name=name, words=words, points=gained)
        text += claimed.note()
        text += self._bot_meaning(seat, claimed.recordings)
        return [Notice("accepted", text, seat, ref), Notice("table")]

    # ------------------------------------------------------------ claims

    def _claims(
        self,
        seat: str,
        words: tuple[str, ...],
        how: str,
        *,
        must: int | None = None,
        must_all: frozenset[int] = frozenset(),
    ) -> _Claimed | _Refusal:
        """Judge the named words: the ones that count, or the reason the move can't stand.

        ``must``: at least one of the words must use that square (the tile just
        placed). ``must_all``: the (single) word must use all those squares.

        The rulebook marks down each new word a player names; a tile is lost only when it
        made no new word. So with ``named=each`` every word is judged on its own: those that
        count are kept, the others are listed with their reasons, and the claim is refused
        only when no word uses the tile (``must``; nothing counts at all for a knock).
        ``named=all`` (games recorded before the option) refuses the claim at the first word
        that doesn't count.
        """
        taken: dict[str, set[int]] = {}
        out: list[Recording] = []
        skipped: list[str] = []
        for word in words:
            reason = self._claim_one(seat, word, how, taken, must, must_all, out)
            if reason is None:
                continue
            if self.config.named == "all":
                return _Refusal(reason, reason)
            skipped.append(reason)
        if must is not None and not any(must in r.path for r in out):
            name = square_name(must, self.size)
            if skipped:
                why = " ".join(skipped)
                if not out:  # (nothing counted: the reasons say it all)
                    return _Refusal(why, why)
                return _Refusal(
                    f"{why} " + _("None of the words that count uses your tile on {square}.", square=name),
                    why,
                )
            return _Refusal(
                _("None of those words uses your tile on {square}: name a new word it makes.", square=name)
            )
        if must_all and not out:
            return _Refusal(" ".join(skipped), " ".join(skipped))
        return _Claimed(out, skipped)

    def _claim_one(
        self,
        seat: str,
        word: str,
        how: str,
        taken: dict[str, set[int]],
        must: int | None,
        must_all: frozenset[int],
        out: list[Recording],
    ) -> str | None:
        """Record ``word`` in ``out`` along a new path; or the reason it doesn't count."""
        verdict = self.game_words.verdict(word)
        if not verdict.ok:
            return verdict.message or _("{word} isn't a word in this game.", word=word.upper())
        paths = self.board.finder.paths_of(self.squares, word)
        if not paths:
            return _("{word} can't be read along a path of touching tiles.", word=word.upper())
        fresh = [
            p
            for p in paths
            if self.board.is_new(word, p) and taken.get(word, set()).isdisjoint(p) and must_all <= set(p)
        ]
        if not fresh:
            if must_all and not any(must_all <= set(p) for p in paths):
                return _("{word} doesn't use every free tile you placed.", word=word.upper())
            return _(
                "{word} isn't new: it was marked down before with these tiles "
                "(a new one needs tiles none of which formed it before).",
                word=word.upper(),
            )
        best = next((p for p in fresh if must in p), fresh[0]) if must is not None else fresh[0]
        taken.setdefault(word, set()).update(best)
        out.append(Recording(seat, word, best, self.points(word), how))
        return None

    def _keep(self, claimed: list[Recording]) -> int:
        gained = 0
        for recording in claimed:
            self.board.record(recording)
            self.scores[recording.seat] += recording.points
            gained += recording.points
        return gained

    def _bot_meaning(self, seat: str, claimed: list[Recording]) -> str:
        """`` ZAX: a tool for cutting slate.`` for a computer player's best word of a move (its
        meaning, when known; one word, so a move's line stays short), else ``""``."""
        if not claimed or self.level(seat) is None:
            return ""
        best = max(claimed, key=lambda r: (r.points, len(r.word)))
        return meaning.sentence(best.word, self.gloss, self.config.language)

    def word_verdict(self, word: str) -> Verdict:
        """Is ``word`` (folded) a word of this game (its dictionary, bans, minimum length and the
        workspace's own words)? For ``define``."""
        verdict = self.game_words.verdict(word)
        if verdict.ok:
            return Verdict(True, None, _("{word} is a word in this game.", word=word.upper()))
        return Verdict(
            False, "unknown", verdict.message or _("{word} isn't a word in this game.", word=word.upper())
        )

    @staticmethod
    def _list(claimed: list[Recording]) -> str:
        return ", ".join(r.word.upper() for r in claimed)

    def _rack_text(self, seat: str) -> str:
        letters = " ".join(ch.upper() for ch in self.racks[seat])
        blanks = self.blanks[seat]
        if not letters:
            if blanks:
                return _n(
                    "Your tiles: no letters + {count} blank.",
                    "Your tiles: no letters + {count} blanks.",
                    blanks,
                )
            return _("Your tiles: no letters.")
        if blanks:
            return _n(
                "Your tiles: {letters} + {count} blank.",
                "Your tiles: {letters} + {count} blanks.",
                blanks,
                letters=letters,
            )
        return _("Your tiles: {letters}.", letters=letters)

    # ------------------------------------------------------------ timers and computer players

    def next_deadline(self) -> float | None:
        """The turn limit, or the end of the last knock window when only knocking is left."""
        if not self.started or self.done:
            return None
        if self._waiting_for_knocks():
            return self.knock_until
        return self.turn_deadline()

    def next_bot_time(self) -> float | None:
        """When a computer player next acts: a knock in the window, or its move after the window."""
        if not self.started or self.done:
            return None
        times = [when for _, when, _ in self._bot_knocks()]
        level = None if self._waiting_for_knocks() else self.level(self.seat_id)
        if level is not None:
            when = self.turn_started + BOT_DELAY.get(level, BOT_DELAY["normal"])
            times.append(max(when, self.knock_until or when))
        return min(times, default=None)

    def _bot_knocks(self) -> list[tuple[str, float, float]]:
        """(seat, when, window opened) for each computer player yet to look for words to knock."""
        if self.knock_until is None or self.config.knock <= 0:
            return []
        opened = self.knock_until - self.config.knock
        out: list[tuple[str, float, float]] = []
        for seat in self.seats:
            delay = KNOCK_DELAY.get(seat.bot or "")
            if delay is None or seat.id in self.gone or (seat.id, opened) in self._knock_checked:
                continue
            when = opened + delay
            if when < self.knock_until:
                out.append((seat.id, when, opened))
        return out

    def bot_claims(self, now: float) -> list[Claim]:
        """Computer players' knocks and moves due by ``now``, in the move notation."""
        for seat, when, opened in self._bot_knocks():
            if when <= now:
                self._knock_checked.add((seat, opened))
                if self.knock_open(now):
                    found = bots.knock_words(self, seat)
                    if found:
                        return [Claim(seat, "knock " + " ".join(w.upper() for w in found), now)]
        if self._waiting_for_knocks() or self.level(self.seat_id) is None:
            return []
        when = self.turn_started + BOT_DELAY.get(self.level(self.seat_id) or "normal", BOT_DELAY["normal"])
        if now < max(when, self.knock_until or when):
            return []
        seat = self.seat_id
        rng = random.Random(f"{self.seed}:{self.turns}:{self.free_used}")
        text = bots.choose(self, seat, self.level(seat) or "normal", rng)
        return [Claim(seat, text, now)]

    # ------------------------------------------------------------ views

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The table; ``viewer``'s own tiles only in their snapshot."""
        lines: list[str] = []
        if self.done:
            lines.append(_("Game over: {reason}.", reason=_(self.end_reason)))
        elif self.started:
            name = self.names[self.seat_id]
            you = is_you(name)
            if self.first_round and you:
                lines.append(_("Your turn (first round — place anywhere)."))
            elif self.first_round:
                lines.append(_("{name} to play (first round — place anywhere).", name=name))
            elif you:
                lines.append(_("Your turn (make a new word with each tile)."))
            else:
                lines.append(_("{name} to play (make a new word with each tile).", name=name))
        if self.last_move:
            lines.append(_("Last move: {move}.", move=self.last_move))
        if self.config.free_pile:
            if self.pile:
                lines.append(
                    _("Free Letter Pile: {letters}", letters=" ".join(ch.upper() for ch in self.pile))
                )
            else:
                lines.append(_("Free Letter Pile: empty"))
        if self.config.knock > 0:
            lines.append(
                _(
                    "Knocking: `knock WORD` claims new words for {seconds} after each turn.",
                    seconds=duration(self.config.knock),
                )
            )
        cards: tuple[CardFace, ...] = ()
        if viewer in self.racks:
            lines.append(self._rack_text(viewer))
            cards = tuple(CardFace(ch.upper(), "", 0) for ch in self.racks[viewer])
            cards += tuple(CardFace("", "", 0) for _x in range(self.blanks[viewer]))
        seats = tuple(
            SeatLine(
                s.id,
                s.name,
                self.scores[s.id],
                _p("player", "left")
                if s.id in self.gone
                else _tiles(len(self.racks[s.id]) + self.blanks[s.id]),
                active=self.started and not self.done and s.id == self.seat_id,
            )
            for s in self.seats
        )
        board = tuple(
            tuple(self._cell(r * self.size + c) for c in range(self.size)) for r in range(self.size)
        )
        return Snapshot(
            title=self.title,
            cards=cards,
            seats=seats,
            lines=tuple(lines),
            grid=tuple(text_rows(self.squares, self.size)),
            board=board,
            deadline=self.turn_deadline(),
        )

    def _cell(self, index: int) -> Cell:
        held = self.squares[index]
        recent = index in self.recent
        if held == BLANK:
            return Cell(letter=" ", blank=True, recent=recent)
        if held == EMPTY:
            return Cell()
        # tiles carry no points; under per-letter scoring each letter is worth one
        return Cell(letter=held.upper(), points=1 if self.config.scoring == "letter" else 0, recent=recent)

    def result(self) -> Result:
        """Scores, winners and each player's longest word."""
        best = max(self.scores.values(), default=0)
        winners = tuple(seat for seat, pts in self.scores.items() if pts == best and best > 0)
        longest: dict[str, str] = {}
        for rec in self.board.recordings:
            if len(rec.word) > len(longest.get(rec.seat, "")):
                longest[rec.seat] = rec.word
        total = len(self.board.recordings)
        if self.end_reason:
            summary = _n(
                "{count} word marked down; {reason}",
                "{count} words marked down; {reason}",
                total,
                reason=_(self.end_reason),
            )
        else:
            summary = _n("{count} word marked down", "{count} words marked down", total)
        return Result(dict(self.scores), winners, summary, longest)


def _tiles(count: int) -> str:
    return _n("{count} tile", "{count} tiles", count)


def _gained(move: str, points: int) -> str:
    """``Ann placed T on E5: TEA (+1).`` (no points: just the move and a full stop)."""
    if points:
        return _("{move} (+{points}).", move=move, points=points)
    return _("{move}.", move=move)


def _name_the_word(square: str, letter: str) -> str:
    return _(
        "Name the new word your tile makes there, like `{square} {letter} WORD`.",
        square=square,
        letter=letter.upper(),
    )


#: English letters whose names start with a vowel sound ("an F"): only the English message is chosen by it.
_AN = frozenset("AEFHILMNORSX")


def _penalty(name: str, letter: str, you: bool) -> str:
    """The announcement of a failed free-tile word that cost ``letter`` as the penalty."""
    an = letter in _AN
    if you and an:
        return _(
            "Your free tiles made no new word, so they go back to the Free Letter Pile and you give an "
            "{letter} tile to the pile as the penalty.",
            letter=letter,
        )
    if you:
        return _(
            "Your free tiles made no new word, so they go back to the Free Letter Pile and you give a "
            "{letter} tile to the pile as the penalty.",
            letter=letter,
        )
    if an:
        return _(
            "{name}'s free tiles made no new word, so they go back to the Free Letter Pile and {name} "
            "gives an {letter} tile to the pile as the penalty.",
            name=name,
            letter=letter,
        )
    return _(
        "{name}'s free tiles made no new word, so they go back to the Free Letter Pile and {name} "
        "gives a {letter} tile to the pile as the penalty.",
        name=name,
        letter=letter,
    )


def _no(reason: str, seat: str, ref: str | None) -> list[Notice]:
    """A refused move: ``reason`` goes back to its author."""
    return [Notice("rejected", reason, seat, ref)]
