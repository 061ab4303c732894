"""Off the Grid: a grid of face-up letter cards, and players take turns naming words.

The grid's size follows the rulebook's chart (2 players 5 x 5, 3: 6 x 6, 4: 7 x 7,
5: 8 x 8, 6: 9 x 9; house defaults: one player 5 x 5, seven or more 10 x 10, the
most the 104-card deck fills). Players take turns in seat (join) order; each turn
lasts ``turn`` seconds (30). The player whose turn it is names one word that
uses at least two face-up cards (other letters may be imagined; the cards need
not be adjacent) and collects the cards it uses, exactly as in the flip race:
each letter of the word claims one matching card. Wrong words may be retried
until time runs out; then (or on ``pass``) the turn passes.

The game ends when no card, or only one card, remains face-up, or when a whole
round goes by in which nobody names a word. Points are the collected cards'.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.common.grammar import is_you
from games.common.protocol import Action, Claim, Notice, SeatLine, Setup, Snapshot
from games.common.speech import N_, _, _n
from games.race.base import RaceBase
from games.race.bots import LEVELS
from games.race.cards import DECK_SIZE, Card, letters_text, shuffled_deck
from games.race.referee import NO_VOTES, Ruling, unknown_title

#: Grid side by number of players (the rulebook's chart).
GRID_SIDES: dict[int, int] = {2: 5, 3: 6, 4: 7, 5: 8, 6: 9}
#: What the player whose turn it is types to pass.
PASS_WORDS = frozenset({"pass", "skip"})
#: Variations that need cards owned by players, so they do nothing here.
NOT_ON_THE_GRID = {
    "stack-em-up": N_("Stack 'Em Up has no effect in Off the Grid: the grid's cards belong to nobody."),
    "three-amigos": N_("Three Amigos has no effect in Off the Grid: the grid's cards belong to nobody."),
}


def grid_side(players: int) -> int:
    """Rows (and columns) of the grid for ``players`` players."""
    if players <= 2:
        return GRID_SIDES[2]
    if players in GRID_SIDES:
        return GRID_SIDES[players]
    side = GRID_SIDES[6] + 1
    while side * side > DECK_SIZE:
        side -= 1
    return side


class OffTheGrid(RaceBase):
    """The Off the Grid variation of moji: a shared grid of cards and timed turns."""

    title = N_("moji: Off the Grid")

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.monochrome = "monochrome" in self.cfg.variations
        self.side = grid_side(len(self.order))
        self.deck: list[Card] = []
        self.grid: list[Card | None] = []
        self.won: dict[str, list[Card]] = {sid: [] for sid in self.order}
        self.current: str | None = None
        self.turn_until: float | None = None
        self.passes = 0  # turns in a row that ended without a word
        self.bot_pass_at: float | None = None
        self.turns = 0
        self.amigos = False
        if self.amigos_dropped:
            self.notes.pop()  # "Three Amigos needs 4 or more players": the note below says more
        for code, note in NOT_ON_THE_GRID.items():
            if code in self.cfg.variations:
                self.notes.append(_(note))
        if self.ball_and_chain:
            self.notes.append(
                _("Ball and Chain plays as Do-si-do in Off the Grid: partners add up their cards.")
            )
        self.ball_and_chain = False
        if "eagle-eyes" in self.cfg.variations:
            self.notes.append(_("Off the Grid and Eagle Eyes can't be combined: this game is Off the Grid."))

    # ----- the protocol --------------------------------------------------------------
    def _answers(self, action: Action, out: list[Notice]) -> None:
        for claim in self.sort_claims(action.claims):
            self._advance(claim.sent_at, out)
            if self.over:
                break
            self._claim(claim, out)
        self._advance(action.now, out)

    def _say(self, sid: str, text: str, action: Action, out: list[Notice]) -> None:
        if text.strip().lower() in PASS_WORDS:
            self._pass_request(sid, action.now, out)
        elif not action.private:
            self._claim(Claim(sid, text, action.now, action.ref), out)

    def _vote(self, action: Action, out: list[Notice]) -> None:
        if action.seat is not None and (action.text or "").strip().lower() == "skip":
            self._pass_request(action.seat, action.now, out)

    def next_deadline(self) -> float | None:
        """The end of the current turn, or when a stuck computer player passes."""
        if self.over or not self.started:
            return None
        times = [t for t in (self.turn_until, self.bot_pass_at) if t is not None]
        return min(times) if times else None

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The grid, the scores and whose turn it is (nothing here is hidden)."""
        rows = tuple(
            " ".join(c.label if c else "·" for c in self.grid[r * self.side : (r + 1) * self.side])
            for r in range(self.side)
            if self.grid
        )
        seats: list[SeatLine] = []
        for sid in self.order:
            bits = [_n("{count} card won", "{count} cards won", len(self.won[sid]))]
            if sid in self.left:
                bits.append(_("left the game"))
            elif sid == self.current and not self.over:
                bits.append(_("to play"))
            if sid in self.partner:
                bits.append(_("partner {name}", name=self.name(self.partner[sid])))
            seats.append(
                SeatLine(
                    sid,
                    self.name(sid),
                    self.score(sid),
                    ", ".join(bits),
                    active=sid == self.current and not self.over,
                )
            )
        lines = self.cfg.challenge_lines()
        if self.over:
            lines.append(_("Game over"))
        elif self.current is not None:
            who = self.name(self.current)
            if is_you(who):
                lines.append(
                    _n(
                        "Your turn: name a word that uses at least two letters (or type pass). "
                        "{count} card on the grid.",
                        "Your turn: name a word that uses at least two letters (or type pass). "
                        "{count} cards on the grid.",
                        self.face_up(),
                    )
                )
            else:
                lines.append(
                    _n(
                        "{name}'s turn: name a word that uses at least two letters (or type pass). "
                        "{count} card on the grid.",
                        "{name}'s turn: name a word that uses at least two letters (or type pass). "
                        "{count} cards on the grid.",
                        self.face_up(),
                        name=who,
                    )
                )
        return Snapshot(
            title=self.table_title(),
            seats=tuple(seats),
            lines=tuple(lines),
            grid=rows,
            deadline=None if self.over else self.turn_until,
        )

    def points(self, sid: str) -> int:
        """Points of the cards a seat collected."""
        return sum(c.points for c in self.won.get(sid, ()))

    # ----- the grid ------------------------------------------------------------------
    def face_up(self) -> int:
        """How many cards are still on the grid."""
        return sum(1 for c in self.grid if c is not None)

    def cards_on_grid(self) -> list[Card]:
        """The face-up cards, in reading order."""
        return [c for c in self.grid if c is not None]

    def groups(self) -> list[list[Card]]:
        """The card sets a word may use (Monochrome: one per colour)."""
        cards = self.cards_on_grid()
        if not self.monochrome:
            return [cards]
        by_colour: dict[str, list[Card]] = {}
        for card in cards:
            by_colour.setdefault(card.colour, []).append(card)
        return list(by_colour.values())

    def _players(self) -> list[str]:
        return [s for s in self.order if s not in self.left]

    # ----- turns ---------------------------------------------------------------------
    def _begin(self, now: float, out: list[Notice]) -> None:
        self.started = True
        self.now = now
        self.deck = shuffled_deck(self.rng, self.language)
        self.grid = [self.deck.pop() for __ in range(self.side * self.side)]
        names = ", ".join(self.name(s) for s in self.order)
        intro = [
            _(
                "moji: Off the Grid! A {side} x {side} grid of letters for {names}. On your turn "
                "you have {seconds} s to name one word that uses at least two face-up letters "
                "(they need not touch, and you may imagine other letters): you collect the cards it uses. "
                "Type pass to pass.",
                side=self.side,
                names=names,
                seconds=round(self.cfg.turn),
            )
        ]
        if self.cfg.drawn:
            intro.append(_("Challenge of the round: {cards}", cards=", ".join(self.cfg.drawn)))
        intro.extend(self.cfg.rule_lines())
        intro.extend(self.notes)
        out.append(Notice("announce", "\n".join(intro)))
        self._start_turn(self.order[0], now, out)

    def _start_turn(self, sid: str, now: float, out: list[Notice]) -> None:
        self.current = sid
        self.turns += 1
        self.turn_until = now + self.cfg.turn
        self.bot_pass_at = None
        self.plans.clear()
        seat = self.by_id[sid]
        if seat.bot:
            self._plan_bot(sid, seat.bot, now)
        who = self.name(sid)
        seconds = round(self.cfg.turn)
        text = (
            _("Your turn ({seconds} s).", seconds=seconds)
            if is_you(who)
            else _("{name}'s turn ({seconds} s).", name=who, seconds=seconds)
        )
        out.append(Notice("announce", text))
        out.append(Notice("table"))

    def _plan_bot(self, sid: str, level_name: str, now: float) -> None:
        assert self.turn_until is not None
        plan = self.planner.plan(level_name, self.groups(), self.used, now)
        if plan is not None:
            at, word = plan
            self.plans[sid] = (min(at, self.turn_until - 0.5), word)
        else:
            level = LEVELS.get(level_name, LEVELS["normal"])
            self.bot_pass_at = min(now + 2 * level.react, self.turn_until - 0.5)

    def _next_turn(self, now: float, out: list[Notice]) -> None:
        """Hand the turn to the next player still in the game, or end the game."""
        players = self._players()
        if self._check_end(now, out):
            return
        assert self.current is not None
        i = self.index[self.current]
        n = len(self.order)
        nxt = next(self.order[(i + k) % n] for k in range(1, n + 1) if self.order[(i + k) % n] in players)
        self._start_turn(nxt, now, out)

    def _check_end(self, now: float, out: list[Notice]) -> bool:
        players = self._players()
        left = self.face_up()
        why = ""
        if not players:
            why = _("Everyone left.")
        elif left == 0:
            why = _("No cards remain face-up.")
        elif left == 1:
            why = _("Only one card remains face-up.")
        elif self.passes >= len(players):
            why = _("A whole round went by without a word.")
        if not why:
            return False
        self._finish(now, why, out)
        return True

    def _advance(self, now: float, out: list[Notice]) -> None:
        """Run the turn timer (and a stuck computer player's pass) up to ``now``."""
        while not self.over:
            t = self.next_deadline()
            if t is None or t > now:
                break
            self.now = max(self.now, t)
            who = self.current
            if who is None:
                break
            if self.bot_pass_at is not None and self.bot_pass_at == t:
                text = self._passes(who)
            else:
                name = self.name(who)
                text = _("Time's up for you.") if is_you(name) else _("Time's up for {name}.", name=name)
            self._pass(t, text, out)
        self.now = max(self.now, now)

    def _pass(self, now: float, text: str, out: list[Notice]) -> None:
        self.passes += 1
        self.plans.clear()
        self.turn_until = None
        self.bot_pass_at = None
        out.append(Notice("announce", text))
        self._next_turn(now, out)

    def _pass_request(self, sid: str, now: float, out: list[Notice]) -> None:
        if sid not in self.index or sid in self.left:
            return
        if sid != self.current:
            out.append(Notice("rejected", self._not_your_turn(), sid))
            return
        self._pass(now, self._passes(sid), out)

    def _passes(self, sid: str) -> str:
        name = self.name(sid)
        return _("You pass.") if is_you(name) else _("{name} passes.", name=name)

    def _not_your_turn(self) -> str:
        if not self.current:
            return _("Wait for the next turn.")
        name = self.name(self.current)
        return _("It's your turn.") if is_you(name) else _("It's {name}'s turn.", name=name)

    def _finish(self, now: float, why: str, out: list[Notice]) -> None:
        self.over = True
        self.current = None
        self.turn_until = None
        self.bot_pass_at = None
        self.plans.clear()
        self.now = max(self.now, now)
        left = self.cards_on_grid()
        if left:
            why += " " + _("Left on the grid: {letters}.", letters=letters_text(left))
        out.append(Notice("announce", why))
        out.append(Notice("table"))
        out.append(Notice("end", self.result().summary))

    def _leave(self, sid: str, now: float, out: list[Notice]) -> None:
        self.left.add(sid)
        self.plans.pop(sid, None)
        out.append(
            Notice("announce", _("{name} left the game; their cards still count.", name=self.name(sid)))
        )
        if sid == self.current:
            self.turn_until = None
            self.bot_pass_at = None
            self.plans.clear()
            self._next_turn(now, out)
        else:
            self._check_end(now, out)

    # ----- words ---------------------------------------------------------------------
    def _claim(self, claim: Claim, out: list[Notice]) -> None:
        sid = claim.seat
        if self.over or sid not in self.index or sid in self.left:
            return
        if self.referee.normalize(claim.text) is None:
            return  # chatter, not an answer
        if sid != self.current:
            out.append(Notice("rejected", self._not_your_turn(), sid, claim.ref))
            return
        ruling = self.referee.rule(claim.text, self.groups(), self.used, whole_table=self.cards_on_grid())
        if ruling.undecided:
            out.append(
                Notice(
                    "rejected",
                    unknown_title(ruling.word, self.cfg.themes, NO_VOTES),
                    sid,
                    claim.ref,
                )
            )
            return
        if not ruling.ok:
            out.append(Notice("rejected", ruling.reason, sid, claim.ref))
            return
        self._award(sid, ruling, claim.sent_at, claim.ref, out)

    def _award(self, sid: str, ruling: Ruling, now: float, ref: str | None, out: list[Notice]) -> None:
        taken: Sequence[Card] = ruling.cards
        ids = {c.id for c in taken}
        self.grid = [None if c is not None and c.id in ids else c for c in self.grid]
        self.won[sid].extend(taken)
        self.used.add(ruling.word)
        self.passes = 0
        gained = sum(c.points for c in taken)
        self.note_best(sid, ruling.word, gained)
        text = self.took_text(sid, letters_text(list(taken)), ruling.word, gained)
        out.append(
            Notice(
                "accepted",
                _("{text}.", text=text) + self.meaning_of_bot_word(sid, ruling.word),
                sid,
                ref,
            )
        )
        self.plans.clear()
        self.turn_until = None
        self.bot_pass_at = None
        self._next_turn(now, out)
