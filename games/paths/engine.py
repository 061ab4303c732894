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

from games.common import grammar, meaning
from games.common.engine import GameEngine
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
from games.common.words import Verdict, WordJudge, WordRules
from games.paths import bots
from games.paths.finder import Finder, WordList
from games.paths.grid import BLANK, EMPTY, square_name, text_rows
from games.paths.moves import Discard, Free, Knock, Move, MoveError, Pass, Place, PlaceBlank, parse_move
from games.paths.options import PathsConfig
from games.paths.state import Board, Recording
from games.paths.tiles import deal
from games.paths.wordlists import allowed_words, lexicon

#: Seconds a computer player "thinks" before its move, by level.
BOT_DELAY: dict[str, float] = {"easy": 6.0, "normal": 4.0, "hard": 2.0}
#: Seconds into a knock window before a computer player knocks, by level (easy ones never knock).
KNOCK_DELAY: dict[str, float] = {"normal": 12.0, "hard": 6.0}

TITLE = "Mark My Words"


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
        return f" Not marked: {' '.join(self.skipped)}" if self.skipped else ""


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
        self._judge: WordJudge | None = setup.judge
        self.words = (
            words if words is not None else allowed_words(self.rules, setup.judge, self.config.language)
        )
        self._own_words = words is not None and setup.judge is None
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
        return TITLE if self.language.code == "en" else f"{TITLE} · {self.language.name}"

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
            return "Only a tile placed on the grid has a preview."
        name = square_name(move.square, self.size)
        shown = " ".join((name, move.letter.upper(), *(w.upper() for w in move.words)))

        def refused(reason: str) -> PathsPreview:
            return PathsPreview(shown, reason=reason)

        if seat not in self.racks:
            return refused("You're not playing in this game.")
        if self.done or not self.started:
            return refused("The game is over." if self.done else "The game hasn't started yet.")
        if seat in self.gone:
            return refused("You left this game.")
        if seat != self.seat_id:
            return refused(f"It's {grammar.possessive(self.names[self.seat_id], start=False)} turn.")
        if move.letter not in self.racks[seat]:
            return refused(f"You have no {move.letter.upper()} tile. {self._rack_text(seat)}")
        held = self.squares[move.square]
        if held.isalpha():
            return refused(f"{name} already holds {grammar.a(held.upper())}.")
        if move.swap and held != BLANK:
            return refused(f"{name} holds no blank tile to exchange.")
        must_word = held == BLANK or not self.first_round or self.board.touches(move.square)
        if must_word and not move.words:
            return refused(
                f"Name the new word your tile makes there, like `{name} {move.letter.upper()} WORD`."
            )
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
                where = "the Free Letter Pile" if self.config.free_pile else "out of the game"
                reason += (
                    f" Played like this, your {move.letter.upper()} would go to {where} and your turn end."
                )
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
            return [Notice("rejected", "You're not playing this game.", seat, action.ref)]
        notices = self._say(seat, action.text or "", action.now, action.ref)
        refused = any(n.kind == "rejected" and n.seat == seat for n in notices)
        knock = (action.text or "").strip().lower().startswith("knock")
        if refused and self.level(seat) and not knock and not self.done and self.seat_id == seat:
            # a computer move should never be refused; if one is, it passes rather than stall the game
            notices += self._end_turn(action.now, passed=True, why=f"{self.names[seat]} passed.")
        return notices

    def _say(self, seat: str, text: str, now: float, ref: str | None) -> list[Notice]:
        if self.done:
            return _no("The game is over.", seat, ref)
        if seat in self.gone:
            return _no("You left this game.", seat, ref)
        try:
            move = parse_move(text, self.size, self.size, self.language)
        except MoveError as exc:
            return _no(str(exc), seat, ref)
        if isinstance(move, Knock):
            return self._knock(seat, move, now, ref)
        if seat != self.seat_id:
            return _no(
                f"It's {grammar.possessive(self.names[self.seat_id], start=False)} turn "
                "(knocking is open to all).",
                seat,
                ref,
            )
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
            passes = f"{self.names[seat]} passed."
            return [Notice("accepted", "", seat, ref), *self._end_turn(now, True, passes)]
        return _no("That move can't be played on your turn.", seat, ref)

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
                f"{self.title}: {count} tiles each on a {self.size}×{self.size} grid. "
                "First round: place a tile anywhere (if it touches another, it must form a word). "
                f"First to play: {self.names[self.seat_id]}.",
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
            return notices + self._finish("everyone left")
        if self.passes >= len(active):
            return notices + self._finish("every player passed in a row")
        if self.stuck():
            return notices + self._finish("nobody can form a new word")
        for step in range(1, len(self.seats) + 1):
            index = (self.current + step) % len(self.seats)
            if self.can_act(self.seats[index].id):
                self.current = index
                break
        else:
            # nobody has a tile to play; only new words already on the board are left to knock for
            if not self.knock_open(now):
                return notices + self._finish("no tiles are left to play")
            self.turn_started = now
            notices.append(Notice("announce", "No tiles are left to play: knock for the words still left!"))
            notices.append(Notice("table"))
            return notices
        self.turn_started = now
        seat = self.seat_id
        notices.append(Notice("private", "Your turn. " + self._rack_text(seat), seat))
        notices.append(Notice("table"))
        return notices

    def _waiting_for_knocks(self) -> bool:
        return not any(self.can_act(s.id) for s in self.seats)

    def _tick(self, now: float) -> list[Notice]:
        if self.done:
            return []
        if self._waiting_for_knocks():
            if not self.knock_open(now):
                return self._finish("no tiles are left to play")
            return []
        deadline = self.turn_deadline()
        if deadline is not None and now >= deadline:
            return self._end_turn(now, True, f"Time's up for {self.names[self.seat_id]}: the turn passes.")
        return []

    def _leave(self, seat: str, now: float) -> list[Notice]:
        if seat in self.gone or seat not in self.scores or self.done:
            return []
        self.gone.add(seat)
        notices = [Notice("announce", f"{self.names[seat]} left the game.")]
        if self.seat_id == seat:
            notices += self._end_turn(now, True, "")
        elif all(s.id in self.gone for s in self.seats):
            notices += self._finish("everyone left")
        return notices

    def _finish(self, reason: str) -> list[Notice]:
        self.done = True
        self.end_reason = reason
        self.knock_until = None
        result = self.result()
        best = max(result.scores.values(), default=0)
        if not result.winners:
            return [Notice("end", f"Game over: {reason}. Nobody scored.")]
        names = " and ".join(self.names[w] for w in result.winners)
        won = grammar.verb(names, "wins") if len(result.winners) == 1 else "share the win"
        return [Notice("end", f"Game over: {reason}. {names} {won} with {grammar.count(best, 'point')}.")]

    # ------------------------------------------------------------ moves

    def _place(self, seat: str, move: Place, now: float, ref: str | None) -> list[Notice]:
        rack = self.racks[seat]
        letter, square = move.letter, move.square
        name = square_name(square, self.size)
        if letter not in rack:
            return _no(f"You have no {letter.upper()} tile. {self._rack_text(seat)}", seat, ref)
        held = self.squares[square]
        if held.isalpha():
            return _no(f"{name} already holds {grammar.a(held.upper())}.", seat, ref)
        if move.swap and held != BLANK:
            return _no(f"{name} holds no blank tile to exchange.", seat, ref)
        exchange = held == BLANK
        must_word = exchange or not self.first_round or self.board.touches(square)
        if must_word and not move.words:
            example = f"`{name} {letter.upper()} WORD`"
            return _no(f"Name the new word your tile makes there, like {example}.", seat, ref)
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
        what = f"exchanged the blank on {name} for {shown}" if exchange else f"placed {shown} on {name}"
        self.recent = {square}
        self.last_move = f"{self.names[seat]} {what}" + (f": {self._list(recordings)}" if recordings else "")
        text = self.last_move + (f" (+{gained})" if gained else "") + "." + claimed.note()
        text += self._bot_meaning(seat, recordings)
        return [Notice("accepted", text, seat, ref), *self._end_turn(now, False, "")]

    def _misplaced(
        self, seat: str, letter: str, name: str, refusal: _Refusal, now: float, ref: str | None
    ) -> list[Notice]:
        """The rulebook: a letter tile placed without creating a new word is lost and the turn ends.

        Both messages say first why no new word was made, then what it cost."""
        self.racks[seat].remove(letter)
        shown = letter.upper()
        if self.config.free_pile:
            self.pile.append(letter)
            self.pile.sort()
            where = "goes to the Free Letter Pile"
        else:
            self.box.append(letter)  # no Free Letter Pile in this game: the tile leaves play
            where = "is out of the game (no Free Letter Pile here)"
        player = self.names[seat]
        self.last_move = f"{player} placed {shown} on {name} without making a new word"
        if refusal.words:
            text = f"{refusal.words} So {grammar.possessive(player)} {shown} on {name} made no new word"
        else:
            text = f"None of the words {player} named uses the {shown} on {name}, so it made no new word"
        notices = [
            Notice(
                "rejected",
                f"{refusal.reason} So your {shown} tile {where} and your turn ends "
                f"(misplaced={self.config.misplaced}).",
                seat,
                ref,
            ),
            Notice("announce", f"{text}: the tile {where} and the turn ends."),
        ]
        # like a discard: a move (it feeds the pile), not a pass, and no knock window
        return notices + self._end_turn(now, False, "", board_changed=False)

    def _place_blank(self, seat: str, move: PlaceBlank, now: float, ref: str | None) -> list[Notice]:
        name = square_name(move.square, self.size)
        if not self.blanks[seat]:
            return _no("You have no blank tile.", seat, ref)
        if self.first_round:
            return _no("In the first round everyone places a letter tile.", seat, ref)
        if self.squares[move.square] != EMPTY:
            return _no(f"{name} is not empty.", seat, ref)
        if self.can_place(seat):
            return _no(self._still_can("The blank"), seat, ref)
        self.squares[move.square] = BLANK
        self.blanks[seat] -= 1
        self.recent = {move.square}
        self.last_move = f"{self.names[seat]} placed a blank tile on {name}"
        return [Notice("accepted", self.last_move + ".", seat, ref), *self._end_turn(now, False, "")]

    def _discard(self, seat: str, move: Discard, now: float, ref: str | None) -> list[Notice]:
        if not self.config.free_pile:
            return _no("This game has no Free Letter Pile (free-pile=off): pass instead.", seat, ref)
        if move.letter not in self.racks[seat]:
            return _no(f"You have no {move.letter.upper()} tile.", seat, ref)
        if self.first_round:
            return _no("In the first round everyone places a letter tile.", seat, ref)
        if self.can_place(seat):
            return _no(self._still_can("The Free Letter Pile"), seat, ref)
        self.racks[seat].remove(move.letter)
        self.pile.append(move.letter)
        self.pile.sort()
        self.last_move = f"{self.names[seat]} put {move.letter.upper()} on the Free Letter Pile"
        # a discard is a move (it feeds the pile), not a pass, but it opens no knock window
        ended = self._end_turn(now, False, "", board_changed=False)
        return [Notice("accepted", self.last_move + ".", seat, ref), *ended]

    def _free(self, seat: str, move: Free, now: float, ref: str | None) -> list[Notice]:
        if not self.config.free_pile:
            return _no("This game has no Free Letter Pile (free-pile=off).", seat, ref)
        if self.free_used:
            return _no("You have used the Free Letter Pile this turn: now play your turn.", seat, ref)
        wanted = Counter(letter for letter, _ in move.tiles)
        have = Counter(self.pile)
        short = sorted(ch.upper() for ch, n in wanted.items() if have[ch] < n)
        if short:
            pile = " ".join(ch.upper() for ch in self.pile) or "empty"
            return _no(f"The Free Letter Pile has no {', '.join(short)} to spare (pile: {pile}).", seat, ref)
        squares = [sq for _, sq in move.tiles]
        if len(set(squares)) != len(squares):
            return _no("Each free tile needs its own square.", seat, ref)
        for sq in squares:
            if self.squares[sq] != EMPTY:
                return _no(f"{square_name(sq, self.size)} is not empty.", seat, ref)
        for letter, sq in move.tiles:
            self.squares[sq] = letter
        claimed = self._claims(seat, (move.word,), "free", must_all=frozenset(squares))
        self.free_used = True
        if isinstance(claimed, _Refusal):
            for sq in squares:
                self.squares[sq] = EMPTY
            return self._free_penalty(seat, claimed.reason, now, ref)
        for letter, _ in move.tiles:
            self.pile.remove(letter)
        gained = self._keep(claimed.recordings)
        self.recent = set(squares)
        tiles = ", ".join(f"{ch.upper()} on {square_name(sq, self.size)}" for ch, sq in move.tiles)
        self.last_move = f"{self.names[seat]} took free tiles ({tiles}): {self._list(claimed.recordings)}"
        told = self._bot_meaning(seat, claimed.recordings)
        notices = [
            Notice("accepted", f"{self.last_move} (+{gained}). Now the regular turn.{told}", seat, ref)
        ]
        if not self.racks[seat] and not self.blanks[seat]:
            notices += self._end_turn(
                now, False, f"{grammar.does(self.names[seat], 'has')} no tiles left to play."
            )
        else:
            notices.append(Notice("table"))
        return notices

    def _free_penalty(self, seat: str, reason: str, now: float, ref: str | None) -> list[Notice]:
        rack = self.racks[seat]
        name = self.names[seat]
        text = (
            f"{grammar.possessive(name)} free tiles made no new word, so they go back to the Free Letter Pile"
        )
        if rack:
            counts = Counter(rack)
            given = min(counts, key=lambda ch: (-counts[ch], ch))  # the letter held most, A-Z on a tie
            rack.remove(given)
            self.pile.append(given)
            self.pile.sort()
            tile = grammar.a(given.upper())
            text += f" and {grammar.does(name, 'gives')} {tile} tile to the pile as the penalty"
        notices = [
            Notice("rejected", f"{reason} (penalty: see the channel).", seat, ref),
            Notice("announce", text + "."),
        ]
        if not self.can_act(seat) or not (rack or self.blanks[seat]):
            notices += self._end_turn(now, True, "")
        else:
            notices.append(Notice("table"))
        return notices

    def _knock(self, seat: str, move: Knock, now: float, ref: str | None) -> list[Notice]:
        if self.config.knock <= 0:
            return _no("Knocking is off in this game (knock=0).", seat, ref)
        if not self.knock_open(now):
            return _no("No knock window is open: knocks come in the seconds after a turn.", seat, ref)
        claimed = self._claims(seat, move.words, "knock")
        if isinstance(claimed, _Refusal):
            return _no(claimed.reason, seat, ref)
        if not claimed.recordings:
            return _no(" ".join(claimed.skipped), seat, ref)
        gained = self._keep(claimed.recordings)
        self.knock_until = now + self.config.knock  # the last successful knocker keeps the window open
        knocks = grammar.does(self.names[seat], "knocks")
        text = f"{knocks}: {self._list(claimed.recordings)} (+{gained}).{claimed.note()}"
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
                return _Refusal(f"{why} None of the words that count uses your tile on {name}.", why)
            return _Refusal(f"None of those words uses your tile on {name}: name a new word it makes.")
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
        if word not in self.words or len(word) < self.rules.min_length:
            return self._not_allowed(word)
        paths = self.board.finder.paths_of(self.squares, word)
        if not paths:
            return f"{word.upper()} can't be read along a path of touching tiles."
        fresh = [
            p
            for p in paths
            if self.board.is_new(word, p) and taken.get(word, set()).isdisjoint(p) and must_all <= set(p)
        ]
        if not fresh:
            if must_all and not any(must_all <= set(p) for p in paths):
                return f"{word.upper()} doesn't use every free tile you placed."
            return (
                f"{word.upper()} isn't new: it was marked down before with these tiles "
                "(a new one needs tiles none of which formed it before)."
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

    def _not_allowed(self, word: str) -> str:
        if len(word) < self.rules.min_length:
            return f"{word.upper()} is too short: words need at least {self.rules.min_length} letters."
        judge = self._judge
        if judge is None and not self._own_words:
            judge = lexicon(self.rules.dictionary, self.config.language)
        if judge is not None:
            verdict = judge.judge(word, self.rules)
            if not verdict.ok:
                return verdict.message
        return f"{word.upper()} isn't a word in this game."

    def _still_can(self, what: str) -> str:
        return (
            f"{what} is only for when none of your letters can make a new word, and one of them still "
            "can: keep looking, or pass."
        )

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
        if word in self.words and len(word) >= self.rules.min_length:
            return Verdict(True, None, f"{word.upper()} is a word in this game.")
        return Verdict(False, "unknown", self._not_allowed(word))

    @staticmethod
    def _list(claimed: list[Recording]) -> str:
        return ", ".join(r.word.upper() for r in claimed)

    def _rack_text(self, seat: str) -> str:
        letters = " ".join(ch.upper() for ch in self.racks[seat]) or "no letters"
        blank = f" + {self.blanks[seat]} blank" if self.blanks[seat] else ""
        return f"Your tiles: {letters}{blank}."

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
            lines.append(f"Game over: {self.end_reason}.")
        elif self.started:
            stage = "first round — place anywhere" if self.first_round else "make a new word with each tile"
            lines.append(f"{self.names[self.seat_id]} to play ({stage}).")
        if self.last_move:
            lines.append(f"Last move: {self.last_move}.")
        if self.config.free_pile:
            lines.append("Free Letter Pile: " + (" ".join(ch.upper() for ch in self.pile) or "empty"))
        if self.config.knock > 0:
            lines.append(
                f"Knocking: `knock WORD` claims new words for {self.config.knock:.0f} s after each turn."
            )
        cards: tuple[CardFace, ...] = ()
        if viewer in self.racks:
            lines.append(self._rack_text(viewer))
            cards = tuple(CardFace(ch.upper(), "", 0) for ch in self.racks[viewer])
            cards += tuple(CardFace("", "", 0) for _ in range(self.blanks[viewer]))
        seats = tuple(
            SeatLine(
                s.id,
                s.name,
                self.scores[s.id],
                "left" if s.id in self.gone else _tiles(len(self.racks[s.id]) + self.blanks[s.id]),
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
        summary = f"{total} words marked down" + (f"; {self.end_reason}" if self.end_reason else "")
        return Result(dict(self.scores), winners, summary, longest)


def _tiles(count: int) -> str:
    return f"{count} tile" if count == 1 else f"{count} tiles"


def _no(reason: str, seat: str, ref: str | None) -> list[Notice]:
    """A refused move: ``reason`` goes back to its author."""
    return [Notice("rejected", reason, seat, ref)]
