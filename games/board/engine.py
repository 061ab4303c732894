"""The MOJO board game (and the classic 15×15 layout) as a pure, turn-based engine.

State changes only through :meth:`BoardGame.apply`; time is whatever the
actions carry. Racks travel only in ``private`` notices and ``snapshot(seat)``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.board.core import (
    HOW,
    Board,
    Pass,
    Play,
    Resign,
    Scored,
    Swap,
    WordCheck,
    parse_move,
    play_from_tiles,
    rack_text,
)
from games.board.layout import BLANK, Layout
from games.board.options import BoardConfig
from games.board.player import BotRules, choose, missed_move
from games.board.trie import Trie, trie_for
from games.board.words import game_words
from games.common import meaning
from games.common.engine import GameEngine
from games.common.grammar import is_you
from games.common.languages import language
from games.common.options import OptionValue
from games.common.protocol import (
    NO_LISTS,
    Action,
    Claim,
    Notice,
    NoticeKind,
    Reading,
    Result,
    Seat,
    SeatLine,
    Setup,
    Snapshot,
)
from games.common.speech import _, _n, _p, duration, listing
from games.common.words import GameWords, Verdict

#: Seconds a computer player "thinks" before its move is played.
BOT_DELAY = 2.0
#: Reminders go out when this share of the turn is left (72 h: 24 h and 6 h left).
REMINDERS = (1 / 3, 1 / 12)
#: Consecutive passes by one player that end the game.
PASSES_TO_END = 3


def word_check(setup: Setup, dictionary: str, lang: str = "en") -> WordCheck:
    """The test for words on the board (in language ``lang``): the game's verdict
    (:func:`games.board.words.game_words`), with the workspace's own added and banned words."""
    return game_words(dictionary, lang, setup.judge, setup.added_words, setup.banned_words).allows


@dataclass(slots=True)
class Turn:
    """One turn taken, for the end-of-game "best move you missed"."""

    seat: str
    number: int
    board: Board
    rack: tuple[str, ...]
    text: str
    score: int


@dataclass(frozen=True, slots=True)
class Preview:
    """What tiles placed on the board would make, before the move is played (a web page's
    preview): the move in notation, each word formed (main word first) and its score, the
    bonus for using every tile, the total; or, for an illegal move, the reason the game will
    give when it is played (``reason``; no words, no score)."""

    move: str
    words: tuple[tuple[str, int], ...] = ()
    bingo: int = 0
    score: int = 0
    reason: str = ""


class BoardReader:
    """The moves of a MOJO game with given options (:attr:`GameInfo.reads`)."""

    def __init__(self, options: Mapping[str, OptionValue], seed: int = 0) -> None:
        config = BoardConfig.from_options(options)
        self.size = Layout.named(config.layout).size
        self.language = language(config.language)

    def read(self, text: str, *, private: bool = False) -> Reading:
        """A move (``H8 across WORD``, ``pass``…), legal or not; else why it is none."""
        if private:
            return Reading(None, _(NO_LISTS))
        move = parse_move(text.strip().removeprefix("play ").strip(), self.size, self.language)
        return Reading(None, move) if isinstance(move, str) else Reading(text)


class BoardGame(GameEngine):
    """A game of MOJO on one layout (see ``docs/BOARD.md``)."""

    def __init__(
        self,
        setup: Setup,
        *,
        layout: Layout | None = None,
        check: WordCheck | None = None,
        trie: Trie | None = None,
    ) -> None:
        """A game of ``setup``; ``layout``, ``check`` and ``trie`` (the computer players'
        words) replace the shipped layout, the lexicon and its trie (tests)."""
        self.config = BoardConfig.from_options(setup.options)
        self.language = language(self.config.language)
        self.layout = layout or Layout.named(self.config.layout, self.config.language)
        self.seats: dict[str, Seat] = {s.id: s for s in setup.seats}
        self.names = {s.id: s.name for s in setup.seats}
        #: the one verdict on a word (None when a test gives its own ``check``): every word a move
        #: forms is judged by it, and the computer players' trie is built from it
        self.game_words: GameWords | None = None
        if check is None:
            self.game_words = game_words(
                self.config.dictionary,
                self.config.language,
                setup.judge,
                setup.added_words,
                setup.banned_words,
            )
            check = self.game_words.allows
        self.check = check
        self.gloss: meaning.Glosser = meaning.glosser(setup, self.config.language)
        self._trie = trie
        self.rng = random.Random(setup.seed)
        self.bot_rng = random.Random(f"board-bots:{setup.seed}")
        self.board = Board(self.layout.realise(setup.seed), self.layout.points)
        self.bag: list[str] = []
        self.racks: dict[str, list[str]] = {s.id: [] for s in setup.seats}
        self.scores: dict[str, int] = {s.id: 0 for s in setup.seats}
        self.passes: dict[str, int] = {s.id: 0 for s in setup.seats}
        self.best_words: dict[str, tuple[int, str]] = {}
        self.order: list[str] = [s.id for s in setup.seats]
        self.out: dict[str, str] = {}  # seat -> how it left the game ("resigned", "ran out of time")
        self.turn = 0
        self.moves = 0  # turns taken so far
        self.scoreless = 0  # scoreless turns in a row (passes, swaps, words worth 0), by anyone
        self.turn_started = 0.0
        self.reminded = 0
        self.recent: frozenset[tuple[int, int]] = frozenset()
        #: The last move for the table: (kind, name, move, number), said in the language of the view.
        self.last: tuple[str, str, str, int] | None = None
        self.started = False
        self.done = False
        self.summary = ""
        self.turns: list[Turn] = []
        self._bot_tried = -1
        self.legend = _squares(self.board)

    # ------------------------------------------------------------ queries

    @property
    def current(self) -> str:
        """The seat whose turn it is."""
        return self.order[self.turn]

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.done

    def total_tiles(self) -> int:
        """Tiles in play: bag + racks + board (constant through a game)."""
        return len(self.bag) + sum(len(r) for r in self.racks.values()) + self.board.count

    def turn_ends(self) -> float:
        """When the current turn runs out."""
        return self.turn_started + self.config.turn_seconds

    def next_deadline(self) -> float | None:
        """The next reminder, or the end of the turn."""
        if self.done or not self.started:
            return None
        if self.reminded < len(REMINDERS):
            return self._reminder_at(self.reminded)
        return self.turn_ends()

    def _reminder_at(self, index: int) -> float:
        limit = self.config.turn_seconds
        return self.turn_started + limit - limit * REMINDERS[index]

    def next_bot_time(self) -> float | None:
        """When the computer player to move will play."""
        if self.done or not self.started or self.seats[self.current].bot is None:
            return None
        return self.turn_started + BOT_DELAY

    def bot_claims(self, now: float) -> list[Claim]:
        """The move of the computer player to move, once it has "thought"."""
        when = self.next_bot_time()
        if when is None or now < when:
            return []
        seat = self.current
        if self._bot_tried == self.moves:
            return [Claim(seat, "pass", now)]  # its move was refused: never stall the game
        self._bot_tried = self.moves
        level = self.seats[seat].bot or "normal"
        text = choose(self.board, self.racks[seat], self.check, level, self.bot_rng, self._rules_for_bots())
        return [Claim(seat, text, now)]

    def word_verdict(self, word: str) -> Verdict:
        """Is ``word`` (folded) a word of this game's dictionary, its bans and the workspace's
        own words (``define``)?"""
        if self.check(word):
            return Verdict(True, None, _("{word} is a word in this game.", word=word.upper()))
        why = self.game_words.verdict(word).message if self.game_words is not None else ""
        return Verdict(False, "unknown", why or _("{word} isn't a word in this game.", word=word.upper()))

    def rack_of(self, seat: str) -> tuple[tuple[str, int], ...]:
        """``seat``'s own rack as (tile, points) pairs (``?``, a blank, is worth 0); empty for
        anyone else. Private: only ever shown to that seat."""
        return tuple((tile, self.layout.points.get(tile, 0)) for tile in self.racks.get(seat, ()))

    def preview(self, seat: str, tiles: Sequence[tuple[int, int, str]]) -> Preview | str:
        """What ``seat`` laying ``tiles`` ((row, column, tile), a lower-case tile a blank) from
        their rack would make now, judged as the move itself would be (the dictionary, the
        rack, the board's rules); or the reason it is no legal move. Changes nothing."""
        if seat not in self.racks:
            return _("You're not playing in this game.")
        play = play_from_tiles(self.board, tiles)
        if isinstance(play, str):
            return play
        scored = self.board.evaluate(
            play,
            self.racks[seat],
            self.check,
            rack_size=self.layout.rack,
            bingo=self.layout.bingo,
            dictionary=self.config.dictionary,
        )
        if isinstance(scored, str):
            return Preview(play.text(), reason=scored)
        return Preview(play.text(), scored.words, scored.bingo, scored.score)

    def _rules_for_bots(self) -> BotRules:
        trie = self._trie
        if trie is None and self.config.language != "en":
            trie = self._trie = trie_for(self.config.dictionary, self.config.language)
        return BotRules(self.layout.rack, self.layout.bingo, len(self.bag), self.config.dictionary, trie)

    # ------------------------------------------------------------ actions

    def apply(self, action: Action) -> list[Notice]:
        """Apply one action; bad input comes back as a ``rejected`` notice."""
        if self.done:
            if action.kind == "say" and action.seat:
                return [Notice("rejected", _("The game is over."), action.seat, action.ref)]
            return []
        if action.kind == "begin":
            return self._begin(action.now) if not self.started else []
        if not self.started:
            return []
        if action.kind == "tick":
            return self._tick(action.now)
        if action.kind == "leave" and action.seat in self.racks:
            return self._forfeit(action.seat, "left the game", action.now)
        if action.kind == "say" and action.seat is not None:
            return self._say(action.seat, action.text or "", action.now, action.ref)
        return []

    def _begin(self, now: float) -> list[Notice]:
        self.started = True
        self.bag = self.layout.bag()
        self.rng.shuffle(self.bag)
        start = self.rng.randrange(len(self.order))
        self.order = self.order[start:] + self.order[:start]
        for seat in self.order:
            self._draw(seat)
        self.turn_started = now
        first = self.names[self.current]
        begins = _(
            "{title}: first to play: {name}. The first word must cover a star.",
            title=layout_title(self.layout),
            name=first,
        )
        notes = [Notice("announce", f"{begins} {_(HOW)}")]
        notes += self._racks_privately(self.order)
        notes.append(Notice("table"))
        return notes

    def _say(self, seat: str, text: str, now: float, ref: str | None) -> list[Notice]:
        if seat not in self.racks:
            return [Notice("rejected", _("You're not playing in this game."), seat, ref)]
        if seat in self.out:
            return [Notice("rejected", _out_already(self.out[seat], also=False), seat, ref)]
        move = parse_move(text.strip().removeprefix("play ").strip(), self.board.size, self.language)
        if isinstance(move, Resign):
            return self._forfeit(seat, "resigned", now, ref)
        if seat != self.current:
            whose = _("It's {name}'s turn, not yours.", name=self.names[self.current])
            return [Notice("rejected", whose, seat, ref)]
        if isinstance(move, str):
            return [Notice("rejected", move, seat, ref)]
        rack = self.racks[seat]
        if isinstance(move, Pass):
            self._remember(seat, rack, "pass", 0)
            self.passes[seat] += 1
            name = self.names[seat]
            if self.passes[seat] >= PASSES_TO_END:
                if is_you(name):
                    third = _("You pass for the third time in a row.")
                    why = _("You passed three times in a row, so the game ends.")
                else:
                    third = _("{name} passes for the third time in a row.", name=name)
                    why = _("{name} passed three times in a row, so the game ends.", name=name)
                return [Notice("accepted", third, seat, ref), *self._end(now, why)]
            self.last = ("pass", name, "", 0)
            passes = _("You pass.") if is_you(name) else _("{name} passes.", name=name)
            notes = [Notice("accepted", passes, seat, ref)]
            return notes + (self._scoreless(now, True) or self._next_turn(now))
        if isinstance(move, Swap):
            return self._swap(seat, move, now, ref)
        assert isinstance(move, Play)
        scored = self.board.evaluate(
            move,
            rack,
            self.check,
            rack_size=self.layout.rack,
            bingo=self.layout.bingo,
            dictionary=self.config.dictionary,
        )
        if isinstance(scored, str):
            return [Notice("rejected", scored, seat, ref)]
        return self._play(seat, scored, now, ref)

    def _play(self, seat: str, scored: Scored, now: float, ref: str | None) -> list[Notice]:
        rack = self.racks[seat]
        self._remember(seat, rack, scored.play.text(), scored.score)
        for tile in scored.used:
            rack.remove(tile)
        self.board.place(scored)
        self.scores[seat] += scored.score
        self.passes[seat] = 0
        self.recent = frozenset((r, c) for r, c, __ in scored.placed)
        name = self.names[seat]
        main = scored.words[0]
        if seat not in self.best_words or main[1] > self.best_words[seat][0]:
            self.best_words[seat] = (main[1], main[0])
        self.last = ("play", name, scored.play.text(), scored.score)
        self._draw(seat)
        move, points, words = scored.play.text(), scored.score, scored.describe()
        if is_you(name):
            text = _("You play {move} for {score}: {words}.", move=move, score=points, words=words)
        else:
            text = _(
                "{name} plays {move} for {score}: {words}.", name=name, move=move, score=points, words=words
            )
        if self.seats[seat].bot:
            text += meaning.sentence(main[0], self.gloss, self.config.language)
        notes = [Notice("accepted", text, seat, ref)]
        if not rack and not self.bag:
            if is_you(name):
                why = _("You played your last tile, so the game ends.")
            else:
                why = _("{name} played their last tile, so the game ends.", name=name)
            return notes + self._end(now, why)
        notes += self._racks_privately([seat])
        return notes + (self._scoreless(now, scored.score == 0) or self._next_turn(now))

    def _swap(self, seat: str, move: Swap, now: float, ref: str | None) -> list[Notice]:
        rack = self.racks[seat]
        if len(self.bag) < self.layout.rack:
            return [
                Notice(
                    "rejected",
                    _n(
                        "Swapping needs at least {count} tile in the bag; there are {left}. "
                        "Play a word or pass.",
                        "Swapping needs at least {count} tiles in the bag; there are {left}. "
                        "Play a word or pass.",
                        self.layout.rack,
                        left=len(self.bag),
                    ),
                    seat,
                    ref,
                )
            ]
        missing = Counter(move.tiles) - Counter(rack)
        if missing:
            need = " ".join(sorted(missing.elements()))
            refused = _("You can't swap {tiles}: your rack is {rack}.", tiles=need, rack=rack_text(rack))
            return [Notice("rejected", refused, seat, ref)]
        self._remember(seat, rack, f"swap {move.tiles}", 0)
        for tile in move.tiles:
            rack.remove(tile)
        self._draw(seat)
        self.bag.extend(move.tiles)
        self.rng.shuffle(self.bag)
        self.passes[seat] = 0
        name = self.names[seat]
        self.last = ("swap", name, "", len(move.tiles))
        swapped = len(move.tiles)
        if is_you(name):
            said = _n("You swapped {count} tile.", "You swapped {count} tiles.", swapped)
        else:
            said = _n("{name} swapped {count} tile.", "{name} swapped {count} tiles.", swapped, name=name)
        notes = [Notice("accepted", said, seat, ref), *self._racks_privately([seat])]
        return notes + (self._scoreless(now, True) or self._next_turn(now))

    def _scoreless(self, now: float, scoreless: bool) -> list[Notice]:
        """Count a turn; enough scoreless turns in a row end the game (the end notices), else []."""
        self.scoreless = self.scoreless + 1 if scoreless else 0
        limit = self.config.scoreless * len([s for s in self.order if s not in self.out])
        if not self.config.scoreless or self.scoreless < limit:
            return []
        why = _n(
            "{count} scoreless turn in a row, so the game ends.",
            "{count} scoreless turns in a row, so the game ends.",
            self.scoreless,
        )
        return self._end(now, why)

    def _tick(self, now: float) -> list[Notice]:
        if now >= self.turn_ends():
            return self._forfeit(self.current, "ran out of time", now)
        before = self.reminded
        while self.reminded < len(REMINDERS) and now >= self._reminder_at(self.reminded):
            self.reminded += 1
        if self.reminded == before:
            return []
        seat, left = self.current, self.turn_ends() - now
        text = "⏰ " + _(
            "{name}, {time} left to play your turn, or you lose the game.",
            name=self.names[seat],
            time=duration(left),
        )
        return [Notice("ping", text, seat)]

    def _forfeit(self, seat: str, how: str, now: float, ref: str | None = None) -> list[Notice]:
        if seat in self.out:
            return [Notice("rejected", _out_already(self.out[seat], also=True), seat, ref)]
        was_current = seat == self.current
        self.out[seat] = how
        # the leaver's tiles go back to the bag, so the tile count stays whole
        self.bag.extend(self.racks[seat])
        self.racks[seat].clear()
        self.rng.shuffle(self.bag)
        name = self.names[seat]
        kind: NoticeKind = "accepted" if how == "resigned" else "announce"
        notes = [Notice(kind, _out_and_loses(how, name), seat, ref)]
        left = [s for s in self.order if s not in self.out]
        if len(left) <= 1:
            why = f"{_out(how, name)} {_wins([self.names[left[0]]] if left else [], final=False)}"
            return notes + self._end(now, why, adjust=False)
        if was_current:
            return notes + self._next_turn(now, advance=True)
        return [*notes, Notice("table")]

    # ------------------------------------------------------------ helpers

    def _draw(self, seat: str) -> None:
        rack = self.racks[seat]
        while len(rack) < self.layout.rack and self.bag:
            rack.append(self.bag.pop())

    def _racks_privately(self, seats: list[str]) -> list[Notice]:
        return [
            Notice("private", _("Your rack: {rack}", rack=rack_text(self.racks[s])), s)
            for s in seats
            if self.seats[s].bot is None and s not in self.out
        ]

    def _remember(self, seat: str, rack: list[str], text: str, score: int) -> None:
        self.moves += 1
        if self.config.missed and self.seats[seat].bot is None:
            self.turns.append(Turn(seat, self.moves, self.board.copy(), tuple(rack), text, score))

    def _next_turn(self, now: float, *, advance: bool = True) -> list[Notice]:
        if advance:
            for _seat in range(len(self.order)):
                self.turn = (self.turn + 1) % len(self.order)
                if self.current not in self.out:
                    break
        self.turn_started = now
        self.reminded = 0
        seat = self.current
        notes = [Notice("table")]
        if self.seats[seat].bot is None:
            notes.append(
                Notice(
                    "private",
                    _("Your turn. Your rack: {rack}.", rack=rack_text(self.racks[seat])) + " " + _(HOW),
                    seat,
                )
            )
        return notes

    def _end(self, now: float, why: str, *, adjust: bool = True) -> list[Notice]:
        self.done = True
        lines = [why]
        if adjust:
            lines += self._adjust()
        result = self.result()
        shown = ", ".join(_("{name} {score}", name=self.names[s], score=self.scores[s]) for s in self.order)
        winners = [self.names[w] for w in result.winners]
        lines.append(_("Final scores: {scores}.", scores=shown) + " " + _wins(winners, final=True))
        self.summary = " ".join(lines)
        notes = [Notice("end", "\n".join(lines))]
        if self.config.missed:
            notes += self._missed()
        return notes

    def _adjust(self) -> list[str]:
        """End-of-game adjustments, exactly as the rulebook writes them."""
        left = {
            s: sum(self.layout.points.get(t, 0) for t in self.racks[s])
            for s in self.order
            if s not in self.out
        }
        out = [s for s, pts in left.items() if not self.racks[s]]
        lines = []
        for seat, pts in left.items():
            if pts:
                self.scores[seat] -= pts
                name, rack = self.names[seat], rack_text(self.racks[seat])
                if is_you(name):
                    lines.append(_("You lose {points} for tiles left ({rack}).", points=pts, rack=rack))
                else:
                    lines.append(
                        _("{name} loses {points} for tiles left ({rack}).", name=name, points=pts, rack=rack)
                    )
        others = sum(left.values())
        for seat in out:
            if others:
                self.scores[seat] += others
                name = self.names[seat]
                if is_you(name):
                    lines.append(_("You used every tile and gain the others' {points}.", points=others))
                else:
                    lines.append(
                        _("{name} used every tile and gains the others' {points}.", name=name, points=others)
                    )
        return lines

    def _missed(self) -> list[Notice]:
        by_seat: dict[str, list[str]] = {}
        for turn in self.turns:
            found = missed_move(turn.board, turn.rack, self.check, self._rules_for_bots())
            if found is not None and found[1] > turn.score:
                line = _(
                    "turn {number}: you played {move} ({score}); best was {best} ({points})",
                    number=turn.number,
                    move=turn.text,
                    score=turn.score,
                    best=found[0],
                    points=found[1],
                )
                by_seat.setdefault(turn.seat, []).append(line)
        return [
            Notice("private", _("Best moves you missed:") + "\n" + "\n".join(lines), seat)
            for seat, lines in by_seat.items()
        ]

    # ------------------------------------------------------------ views

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The board and scores; a player's own rack only when ``viewer`` is that player."""
        seats = tuple(
            SeatLine(
                s,
                self.names[s],
                self.scores[s],
                _out_label(self.out[s])
                if s in self.out
                else _n("{count} tile", "{count} tiles", len(self.racks[s])),
                active=not self.done and s == self.current and self.started,
            )
            for s in self.order
        )
        lines: list[str] = []
        if self.done:
            lines.append(_("Game over."))
        elif self.started:
            name, bag = self.names[self.current], len(self.bag)
            if is_you(name):
                lines.append(_n("Your turn. Bag: {count} tile.", "Your turn. Bag: {count} tiles.", bag))
            else:
                lines.append(
                    _n(
                        "{name} to play. Bag: {count} tile.",
                        "{name} to play. Bag: {count} tiles.",
                        bag,
                        name=name,
                    )
                )
        if self.last:
            lines.append(_last_move(*self.last))
        if viewer in self.racks and viewer not in self.out:
            lines.append(_("Your rack: {rack}", rack=rack_text(self.racks[viewer])))
        if not self.done:
            lines.append(_legend(self.legend))
            lines.append(
                _("Moves: H8 across WORD, H8 down WORD (a blank in lower case), swap ABC, pass, resign.")
            )
        title = layout_title(self.layout)
        if self.language.code != "en":
            title += f" · {self.language.spoken}"
        if self.done:
            title = _("{title} — game over", title=title)
        return Snapshot(
            title=title,
            seats=seats,
            lines=tuple(lines),
            grid=self.board.grid(self.recent),
            board=self.board.cells(self.recent),
            deadline=None if self.done or not self.started else self.turn_ends(),
        )

    def result(self) -> Result:
        """Scores and winners: the highest score among players still in; the last one in if others left."""
        left = [s for s in self.order if s not in self.out]
        if len(left) == 1 and self.out:
            winners: tuple[str, ...] = (left[0],)
        else:
            top = max((self.scores[s] for s in left), default=0)
            winners = tuple(s for s in left if self.scores[s] == top)
        best = {s: w for s, (__, w) in self.best_words.items()}
        return Result(dict(self.scores), winners, self.summary or _("MOJO in progress"), best)


def _squares(board: Board) -> tuple[tuple[str, str], ...]:
    """The bonus squares this board has (kind, shade), in the order the legend names them."""
    shades: dict[str, str] = {}
    for kinds, colours in zip(board.squares.premium, board.squares.shade, strict=True):
        for kind, colour in zip(kinds, colours, strict=True):
            if kind:
                shades[kind] = colour or shades.get(kind, "")
    return tuple((k, shades[k]) for k in ("TW", "DW", "TL", "DL") if k in shades)


def _legend(squares: tuple[tuple[str, str], ...]) -> str:
    """What the marks of the text board mean, for the bonus squares this board has."""
    names = {
        "TW": _("triple word"),
        "DW": _("double word"),
        "TL": _("triple letter"),
        "DL": _("double letter"),
    }
    colours = {"blue": _p("colour", "blue"), "pink": _p("colour", "pink")}
    marks = {"TW": "=", "DW": "-", "TL": '"', "DL": "'"}
    parts = [
        _("{mark} {square} ({colour})", mark=marks[k], square=names[k], colour=colours.get(shade, shade))
        if shade
        else _("{mark} {square}", mark=marks[k], square=names[k])
        for k, shade in squares
    ]
    parts.append(_("{mark} star", mark="*"))
    return _("Squares: {squares}.", squares=", ".join(parts))


def layout_title(layout: Layout) -> str:
    """The layout's title in the language being spoken (a custom layout's as its file says)."""
    titles = {"mojo": _("MOJO 16×16"), "classic": _("Classic 15×15")}
    return (
        titles.get(layout.name, layout.title)
        if layout.title in ("MOJO 16×16", "Classic 15×15")
        else layout.title
    )


def _out(how: str, name: str) -> str:
    """``Ann resigned.``: how a player left the game, as a sentence."""
    you = is_you(name)
    if how == "resigned":
        return _("You resigned.") if you else _("{name} resigned.", name=name)
    if how == "ran out of time":
        return _("You ran out of time.") if you else _("{name} ran out of time.", name=name)
    return _("You left the game.") if you else _("{name} left the game.", name=name)


def _out_and_loses(how: str, name: str) -> str:
    """``Ann resigned and loses.``"""
    you = is_you(name)
    if how == "resigned":
        return _("You resigned and lose.") if you else _("{name} resigned and loses.", name=name)
    if how == "ran out of time":
        return (
            _("You ran out of time and lose.") if you else _("{name} ran out of time and loses.", name=name)
        )
    return _("You left the game and lose.") if you else _("{name} left the game and loses.", name=name)


def _out_already(how: str, *, also: bool) -> str:
    """Said to a player who is out and still types (``also``: who tries to leave again)."""
    if also:
        if how == "resigned":
            return _("You already resigned.")
        if how == "ran out of time":
            return _("You already ran out of time.")
        return _("You already left the game.")
    if how == "resigned":
        return _("You resigned, so you're out of this game.")
    if how == "ran out of time":
        return _("You ran out of time, so you're out of this game.")
    return _("You left the game, so you're out of this game.")


def _out_label(how: str) -> str:
    """A player who is out, on the scoreboard."""
    if how == "resigned":
        return _p("seat", "resigned")
    if how == "ran out of time":
        return _p("seat", "ran out of time")
    return _p("seat", "left the game")


def _wins(names: list[str], *, final: bool) -> str:
    """``Ann wins!`` (``final``) or ``Ann wins.``; ``You win``, ``Ann and Bo win``, ``Nobody wins``."""
    if not names:
        return _("Nobody wins!") if final else _("Nobody wins.")
    if len(names) > 1:
        both = listing(names)
        return _("{names} win!", names=both) if final else _("{names} win.", names=both)
    if is_you(names[0]):
        return _("You win!") if final else _("You win.")
    return _("{name} wins!", name=names[0]) if final else _("{name} wins.", name=names[0])


def _last_move(kind: str, name: str, move: str, number: int) -> str:
    """The table's ``Last move: …`` line."""
    you = is_you(name)
    if kind == "pass":
        return _("Last move: you passed.") if you else _("Last move: {name} passed.", name=name)
    if kind == "swap":
        if you:
            return _n("Last move: you swapped {count} tile.", "Last move: you swapped {count} tiles.", number)
        return _n(
            "Last move: {name} swapped {count} tile.",
            "Last move: {name} swapped {count} tiles.",
            number,
            name=name,
        )
    if you:
        return _("Last move: you played {move} for {score}.", move=move, score=number)
    return _("Last move: {name}: {move} for {score}.", name=name, move=move, score=number)


__all__ = ["BLANK", "BoardGame", "Preview", "word_check"]
