"""Eagle Eyes: face-up letters for everyone, private word lists, duplicates cross out.

Each round two cards per player are placed face-up. For the writing time (the
``hourglass`` option, 30 s) every player sends the bot words privately (a DM, a
modal or an ephemeral command: ``say`` actions with ``private=True``). Each word
must use at least two of the face-up cards, exactly as in the flip race. Then
the lists are revealed together: a word written by more than one player is
crossed out for all of them, and every other word scores one point for each use
of a face-up letter in it (with H T L A face-up: HACK 2, LETTER 3,
ALLITERATION 6). ``rounds`` rounds are played; the most points wins.

A list is only ever shown to its writer (``private`` notices and
``snapshot(viewer=seat)``) until the reveal. Words typed in the channel are
refused with a reminder to send them privately, and never added to a list.
"""

from __future__ import annotations

import re
from collections import Counter

from games.common.grammar import excerpt, is_you
from games.common.protocol import Action, CardFace, Claim, Notice, SeatLine, Setup, Snapshot
from games.common.speech import N_, _, _n
from games.common.text import user
from games.race.base import RaceBase, points_text
from games.race.bots import LEVELS
from games.race.cards import Card, letters_text, shuffled_deck
from games.race.reading import DONE_WORDS
from games.race.referee import SECRET, unknown_title

#: Cards placed face-up per player each round (the rulebook's "two cards ... for each wordsmith").
CARDS_PER_PLAYER = 2
#: Seconds between a round's reveal and the next round's letters.
ROUND_BREAK = 5.0
#: Words one player may hand in per round.
MAX_LIST = 100
#: What a player types (privately or in the channel) to say their list is finished.


def uses(word: str, letters: set[str]) -> int:
    """Points for ``word``: one per use of a face-up letter (each occurrence counts)."""
    return sum(1 for ch in word if ch in letters)


class EagleEyes(RaceBase):
    """The Eagle Eyes variation of moji: private lists, revealed and scored together."""

    title = N_("moji: Eagle Eyes")
    takes_lists = True

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.deck: list[Card] = []
        self.discard: list[Card] = []
        self.cards: list[Card] = []  # face-up this round
        self.lists: dict[str, list[str]] = {sid: [] for sid in self.order}
        self.done: set[str] = set()
        self.round = 0
        self.writing_until: float | None = None
        self.next_round_at: float | None = None
        self.bot_lists: dict[str, tuple[float, list[str]]] = {}
        self.totals: dict[str, int] = dict.fromkeys(self.order, 0)
        self.reveals: list[str] = []

    # ----- the protocol --------------------------------------------------------------
    def _answers(self, action: Action, out: list[Notice]) -> None:
        self._advance(action.now, out)
        for claim in self.sort_claims(action.claims):
            if not self.over:
                self._public(claim, out)

    def _say(self, sid: str, text: str, action: Action, out: list[Notice]) -> None:
        if action.private:
            self._write(sid, text, action.ref, action.now, out)
        else:
            self._public(Claim(sid, text, action.now, action.ref), out)

    def _vote(self, action: Action, out: list[Notice]) -> None:
        if action.seat is not None and (action.text or "").strip().lower() == "skip":
            self._done(action.seat, action.now, out)

    def next_deadline(self) -> float | None:
        """The end of the writing time, a computer player's list, or the next round."""
        times = [t for t, __ in self.bot_lists.values()]
        if self.writing_until is not None:
            times.append(self.writing_until)
        if self.next_round_at is not None:
            times.append(self.next_round_at)
        return min(times) if times and not self.over else None

    def bot_claims(self, now: float) -> list[Claim]:
        """Always empty: computer players hand in their lists privately (on the engine's timer)."""
        return []

    def next_bot_time(self) -> float | None:
        """None: computer players' lists arrive on :meth:`next_deadline`."""
        return None

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The face-up letters and the scores; a viewer also sees their own list."""
        cards = tuple(CardFace(c.label, c.colour, c.points) for c in self.cards)
        writing = self.writing_until is not None
        seats: list[SeatLine] = []
        for sid in self.order:
            if sid in self.left:
                detail = _("left the game")
            elif not writing:
                detail = ""
            elif sid in self.done:
                detail = _("done")
            else:
                detail = _("writing")
            seats.append(
                SeatLine(
                    sid,
                    self.name(sid),
                    self.score(sid),
                    detail,
                    active=writing and sid not in self.done and sid not in self.left,
                )
            )
        lines = self.cfg.challenge_lines()
        if self.over:
            lines.append(_("Game over"))
        elif writing:
            lines.append(
                _(
                    "Round {round} of {rounds}: write words, send your words to me privately "
                    "(a DM, or /moji list).",
                    round=self.round,
                    rounds=self.cfg.rounds,
                )
            )
            if viewer in self.lists and viewer not in self.left:
                mine = self.lists[viewer]
                lines.append(
                    _n(
                        "Your list ({count} word): {words}",
                        "Your list ({count} words): {words}",
                        len(mine),
                        words=", ".join(w.upper() for w in mine),
                    )
                    if mine
                    else _("Your list is empty.")
                )
        elif self.next_round_at is not None:
            lines.append(
                _("Round {round} of {rounds} starts soon.", round=self.round + 1, rounds=self.cfg.rounds)
            )
        deadline = self.writing_until if writing else self.next_round_at
        return Snapshot(
            title=self.table_title(),
            cards=cards,
            seats=tuple(seats),
            lines=tuple(lines),
            deadline=None if self.over else deadline,
        )

    def points(self, sid: str) -> int:
        """Points a seat scored over the rounds so far."""
        return self.totals.get(sid, 0)

    # ----- rounds --------------------------------------------------------------------
    def _players(self) -> list[str]:
        return [s for s in self.order if s not in self.left]

    def _begin(self, now: float, out: list[Notice]) -> None:
        self.started = True
        self.now = now
        self.deck = shuffled_deck(self.rng, self.language)
        intro = [
            _(
                "moji: Eagle Eyes! Each round the letters are face-up for everyone. Write as many words "
                "as you can that use at least two of them, and send your words to me privately (a DM, "
                "or /moji list). Words more than one player writes are crossed out; every other word "
                "scores 1 point per use of a face-up letter."
            )
        ]
        if self.cfg.drawn:
            intro.append(_("Challenge of the round: {cards}", cards=", ".join(self.cfg.drawn)))
        intro.extend(self.cfg.rule_lines())
        intro.extend(self.notes)
        out.append(Notice("announce", "\n".join(intro)))
        self._start_round(now, out)

    def _start_round(self, now: float, out: list[Notice]) -> None:
        self.next_round_at = None
        self.round += 1
        need = CARDS_PER_PLAYER * len(self._players())
        if len(self.deck) < need:
            self.deck.extend(self.discard)
            self.discard = []
            self.rng.shuffle(self.deck)
        self.cards = [self.deck.pop() for __ in range(min(need, len(self.deck)))]
        self.lists = {sid: [] for sid in self.order}
        self.done = set()
        self.writing_until = now + self.cfg.hourglass
        self._plan_bots(now)
        out.append(
            Notice(
                "announce",
                _(
                    "Eagle Eyes round {round} of {rounds}: {letters}. You have {seconds} s — send your "
                    "words to me privately (a DM, or /moji list); type done when finished.",
                    round=self.round,
                    rounds=self.cfg.rounds,
                    letters=letters_text(self.cards),
                    seconds=round(self.cfg.hourglass),
                ),
            )
        )
        out.append(Notice("table"))

    def _plan_bots(self, now: float) -> None:
        """Each computer player's list and when it hands it in (the planner's own random stream)."""
        self.bot_lists = {}
        rng = self.planner.rng
        for seat in self.bots():
            level = LEVELS.get(seat.bot or "normal", LEVELS["normal"])
            words = self.planner.candidates([self.cards], self.used, level.choices * 2, seat.bot or "normal")
            kept = [w for w in words if rng.random() < level.find]
            at = now + self.cfg.hourglass * rng.uniform(0.4, 0.9)
            self.bot_lists[seat.id] = (at, kept)

    def _advance(self, now: float, out: list[Notice]) -> None:
        """Run every timer due by ``now``, earliest first."""
        while not self.over:
            t = self.next_deadline()
            if t is None or t > now:
                break
            self.now = max(self.now, t)
            due = sorted(sid for sid, (at, __) in self.bot_lists.items() if at == t)
            if due:
                for sid in due:
                    self._hand_in_bot(sid, out)
                self._check_all_done(t, out)
            elif self.writing_until is not None and self.writing_until <= t:
                self._reveal(t, out)
            elif self.next_round_at is not None:
                self._start_round(t, out)
        self.now = max(self.now, now)

    def _hand_in_bot(self, sid: str, out: list[Notice]) -> None:
        __, words = self.bot_lists.pop(sid)
        self.lists[sid] = list(words)
        self.done.add(sid)
        out.append(Notice("announce", _("{name} handed in a list.", name=self.name(sid))))

    def _check_all_done(self, now: float, out: list[Notice]) -> None:
        """Reveal early once every person is done (computer players hand in at once)."""
        if self.writing_until is None:
            return
        people = self.humans()
        if people and not set(people) <= self.done:
            return
        if not people and self.bot_lists:
            return  # only computer players: wait for their lists
        for sid in sorted(self.bot_lists):
            self._hand_in_bot(sid, out)
        self._reveal(now, out)

    def _reveal(self, now: float, out: list[Notice]) -> None:
        """Time is up: read the lists, cross out duplicates, score."""
        self.writing_until = None
        self.bot_lists = {}
        players = self._players()
        counts = Counter(w for sid in players for w in set(self.lists[sid]))
        letters = {c.letter for c in self.cards}
        lines = [
            _("Time! Round {round}, letters {letters}:", round=self.round, letters=letters_text(self.cards))
        ]
        crossed_any = False
        for sid in players:
            kept: list[str] = []
            crossed: list[str] = []
            gained = 0
            best = (0, "")
            for word in self.lists[sid]:
                self.used.add(word)
                if counts[word] > 1:
                    crossed.append(word.upper())
                    continue
                value = uses(word.replace(" ", ""), letters)
                gained += value
                kept.append(f"{word.upper()} {value}")
                self.note_best(sid, word, value)
                best = max(best, (value, word), key=lambda pair: pair[0])
            self.totals[sid] += gained
            words = ", ".join(kept) if kept else _("no scoring words")
            if crossed:
                crossed_any = True
                words = _("{words}; crossed out: {crossed}", words=words, crossed=", ".join(crossed))
            lines.append(
                _(
                    "{name}: {words} (+{points}, {score} in all)",
                    name=self.name(sid),
                    words=words,
                    points=points_text(gained),
                    score=self.score(sid),
                )
            )
            # a computer player's best word with its meaning (one a round: the reveal stays short)
            told = self.meaning_of_bot_word(sid, best[1]) if best[1] else ""
            if told:
                lines.append("   " + told.strip())
        if crossed_any:
            lines.append(_("Words more than one player wrote are crossed out."))
        text = "\n".join(lines)
        self.reveals.append(text)
        out.append(Notice("announce", text))
        self.discard.extend(self.cards)
        self.cards = []
        if self.round >= self.cfg.rounds:
            self._finish(now, out)
            return
        self.next_round_at = now + ROUND_BREAK
        out.append(Notice("announce", _("Next round in {seconds} s.", seconds=round(ROUND_BREAK))))
        out.append(Notice("table"))

    def _finish(self, now: float, out: list[Notice]) -> None:
        self.over = True
        self.writing_until = None
        self.next_round_at = None
        self.bot_lists = {}
        self.now = max(self.now, now)
        out.append(Notice("table"))
        out.append(Notice("end", self.result().summary))

    def _leave(self, sid: str, now: float, out: list[Notice]) -> None:
        self.left.add(sid)
        self.lists[sid] = []
        self.done.discard(sid)
        self.bot_lists.pop(sid, None)
        out.append(Notice("announce", _("{name} left the game.", name=self.name(sid))))
        if not self._players():
            self._finish(now, out)
            return
        if any(s in self.done for s in self.humans()):
            self._check_all_done(now, out)

    # ----- lists ---------------------------------------------------------------------
    def _public(self, claim: Claim, out: list[Notice]) -> None:
        """A word typed in the channel: never added to a list (everyone could read it)."""
        sid = claim.seat
        if sid not in self.index or sid in self.left:
            return
        if claim.text.strip().lower() in DONE_WORDS:
            self._done(sid, claim.sent_at, out)
            return
        if self.referee.normalize(claim.text) is None:
            return  # chatter, not an answer
        if self.writing_until is not None:
            reason = _(
                "Eagle Eyes lists are secret: I didn't add that. Please send your words to me "
                "privately (a DM, or /moji list), so nobody can copy them."
            )
        else:
            reason = _(
                "Wait for the next round's letters, then send your words to me privately "
                "(a DM, or /moji list)."
            )
        out.append(Notice("rejected", reason, sid, claim.ref))

    def _write(self, sid: str, text: str, ref: str | None, now: float, out: list[Notice]) -> None:
        """A private message: words to add to the player's list (or ``done``)."""
        if sid not in self.index or sid in self.left:
            return
        if text.strip().lower() in DONE_WORDS:
            self._done(sid, now, out)
            return
        if self.writing_until is None:
            out.append(Notice("private", _("This round is over: wait for the next letters."), sid, ref))
            return
        if sid in self.done:
            out.append(Notice("private", _("You already handed in your list for this round."), sid, ref))
            return
        splitter = r"[\n,;]+" if self.referee.multiword else r"[\s,;]+"
        tokens = [t for t in re.split(splitter, text) if t.strip()][: MAX_LIST * 2]
        mine = self.lists[sid]
        added: list[str] = []
        refused: list[str] = []
        for token in tokens:
            ruling = self.referee.rule(token, [self.cards], self.used)
            shown = user(excerpt(token.strip(), 30))
            if not ruling.answer:
                refused.append(_("{text} is not a single word.", text=shown))
            elif ruling.undecided:
                refused.append(unknown_title(ruling.word, self.cfg.themes, SECRET))
            elif not ruling.ok:
                refused.append(ruling.reason)
            elif ruling.word in mine:
                continue
            elif len(mine) >= MAX_LIST:
                refused.append(_("Your list is full ({count} words).", count=MAX_LIST))
                break
            else:
                mine.append(ruling.word)
                added.append(ruling.word.upper())
        parts: list[str] = []
        if added:
            parts.append(_("Added {words}.", words=", ".join(added)))
        if refused:
            parts.append(_("Not added: {reasons}.", reasons="; ".join(r.rstrip(".") for r in refused)))
        shown_list = ", ".join(w.upper() for w in mine) if mine else _("(empty)")
        parts.append(
            _n(
                "Your list ({count} word): {words}",
                "Your list ({count} words): {words}",
                len(mine),
                words=shown_list,
            )
        )
        out.append(Notice("private", "\n".join(parts), sid, ref))

    def quiet_vote(self, seat: str, choice: str) -> str:
        """Why a vote changed nothing that shows: ``skip`` means done writing."""
        if self.over or seat in self.left or choice != "skip":
            return super().quiet_vote(seat, choice)
        if seat in self.done:
            return _("Your list is already in; the round ends when everyone is done or the time is up.")
        return _("Nobody is writing a list right now: wait for the next round's cards.")

    def _done(self, sid: str, now: float, out: list[Notice]) -> None:
        if sid not in self.index or sid in self.left or self.writing_until is None or sid in self.done:
            return
        self.done.add(sid)
        count = len(self.lists[sid])
        out.append(
            Notice(
                "private",
                _n("Your list is in ({count} word).", "Your list is in ({count} words).", count),
                sid,
            )
        )
        who = self.name(sid)
        out.append(
            Notice(
                "announce",
                _("You are done writing.") if is_you(who) else _("{name} is done writing.", name=who),
            )
        )
        self._check_all_done(now, out)
