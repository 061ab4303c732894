"""The flip race: deal, automatic flips, claims, ties, the hourglass, skip votes and the end.

Also plays the variations that keep the race's shape: Stack 'Em Up, Do-si-do,
Ball and Chain, Monochrome and Three Amigos (see docs/RACE.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from games.common import meaning
from games.common.grammar import is_you
from games.common.protocol import Action, CardFace, Claim, Notice, SeatLine, Setup, Snapshot
from games.common.speech import N_, _, _n, listing
from games.common.text import user
from games.race.base import RaceBase, gap_ms, micros
from games.race.cards import Card, deck_size, letters_text, shuffled_deck, stack_size
from games.race.reading import contraction
from games.race.referee import ALONE, Ruling, unknown_title


@dataclass
class TieBreak:
    """Players who claimed at the same time; the first to name a different word wins."""

    seats: tuple[str, ...]
    words: set[str]


@dataclass
class ThemeVote:
    """A theme answer the lexicon could not judge, put to the other players."""

    seat: str
    word: str
    cards: tuple[Card, ...]
    deadline: float
    voters: frozenset[str]
    ref: str | None
    yes: set[str] = field(default_factory=set)
    no: set[str] = field(default_factory=set)


class FlipRace(RaceBase):
    """The two-player and more-than-two-players moji race."""

    title = N_("moji race")

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.stack_em_up = "stack-em-up" in self.cfg.variations
        self.monochrome = "monochrome" in self.cfg.variations
        self.stacks: dict[str, list[Card]] = {sid: [] for sid in self.order}
        self.piles: dict[str, list[Card]] = {sid: [] for sid in self.order}  # face-up, top last
        self.won: dict[str, list[Card]] = {sid: [] for sid in self.order}
        self.discard: list[Card] = []
        self.undealt: list[Card] = []
        self.flip_at: dict[str, float] = {}
        self.table_since = 0.0  # when the table last changed (hourglass, typing speed)
        self.last_round = False
        self.version = 0
        self.per_flip: dict[str, int] = {}
        self.wrong: dict[str, int] = {}
        self.cool_until: dict[str, float] = {}
        self.skips: set[str] = set()
        self.tie: TieBreak | None = None
        self.vote: ThemeVote | None = None
        self._planned_version = -1

    # ----- the protocol --------------------------------------------------------------
    def _answers(self, action: Action, out: list[Notice]) -> None:
        self._claims(action.claims, out)
        self._advance(action.now, out)

    def _say(self, sid: str, text: str, action: Action, out: list[Notice]) -> None:
        word = text.strip().lower()
        if word in {"skip", "stuck", "pass"}:
            self._vote(Action("vote", action.now, sid, "skip"), out)
        elif word in {"yes", "no"}:
            self._vote(Action("vote", action.now, sid, word), out)
        elif not action.private:
            self._claims((Claim(sid, text, action.now, action.ref),), out)

    def _applied(self, out: list[Notice]) -> None:
        self._replan()

    def next_deadline(self) -> float | None:
        """The earliest timer: a flip, the hourglass or a theme vote."""
        times = [t for t in self._timers()]
        return min(times) if times else None

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The public table (there is no hidden information in the flip race)."""
        cards: list[CardFace] = []
        for sid in self.order:
            pile = self.piles[sid]
            if pile:
                top = pile[-1]
                cards.append(CardFace(top.label, top.colour, top.points, sid, len(pile) - 1))
        seats: list[SeatLine] = []
        for sid in self.order:
            left = len(self.stacks[sid])
            bits = [_n("{count} card left", "{count} cards left", left) if left else _("stack empty")]
            if sid in self.flip_at:
                bits.append(_("waiting to flip"))
            if sid in self.left:
                bits.append(_("left the game"))
            if sid in self.partner:
                bits.append(_("partner {name}", name=self.name(self.partner[sid])))
            seats.append(
                SeatLine(
                    sid,
                    self.name(sid),
                    self.score(sid),
                    ", ".join(bits),
                    active=self._can_collect(sid),
                )
            )
        lines = self.cfg.challenge_lines()
        if self.tie:
            lines.append(
                _(
                    "Tie-break: {names} — first new word wins",
                    names=listing(self.name(s) for s in self.tie.seats),
                )
            )
        if self.vote:
            lines.append(_("Vote open: is {word} allowed? (yes/no)", word=self.vote.word.upper()))
        if self.last_round:
            lines.append(_("Stacks played out: last hourglass for the cards still face-up"))
        if self.over:
            lines.append(_("Game over"))
        return Snapshot(
            title=self.table_title(),
            cards=tuple(cards),
            seats=tuple(seats),
            lines=tuple(lines),
            deadline=self._hourglass_deadline(),
        )

    def points(self, sid: str) -> int:
        """Points in a seat's own win pile."""
        return sum(c.points for c in self.won.get(sid, ()))

    # ----- the table -----------------------------------------------------------------
    def tops(self) -> list[Card]:
        """Face-up top cards in seat order."""
        return [self.piles[sid][-1] for sid in self.order if self.piles[sid]]

    def face_up_cards(self) -> list[Card]:
        """Every face-up card, including the ones stacked underneath (Stack 'Em Up)."""
        return [c for sid in self.order for c in self.piles[sid]]

    def groups_for(self, sid: str) -> tuple[list[list[Card]], str]:
        """The card sets ``sid`` may use (Monochrome: one per colour) and the limit's reason."""
        held = {c.id for c in self.vote.cards} if self.vote else set()
        owners = [s for s in self.order if self.piles[s] and self.piles[s][-1].id not in held]
        restriction = ""
        i, n = self.index[sid], len(self.order)
        if self.ball_and_chain:
            allowed = set(self.team(sid))
            owners = [s for s in owners if s in allowed]
            restriction = _(
                "Ball and Chain: you may only use your own card and the card of your partner {name}.",
                name=self.name(self.partner[sid]),
            )
        elif self.amigos:
            allowed = {sid, self.order[(i - 1) % n], self.order[(i + 1) % n]}
            owners = [s for s in owners if s in allowed]
            restriction = _("Three Amigos: you may only use your own card and your two neighbours' cards.")
        # Prefer the cards with the most underneath (Stack 'Em Up), then seat order.
        owners.sort(key=lambda s: (-len(self.piles[s]), self.index[s]))
        cards = [self.piles[s][-1] for s in owners]
        if self.monochrome:
            by_colour: dict[str, list[Card]] = {}
            for card in cards:
                by_colour.setdefault(card.colour, []).append(card)
            return list(by_colour.values()), restriction
        return [cards], restriction

    def _owner_of(self, card: Card) -> str:
        for sid in self.order:
            if self.piles[sid] and self.piles[sid][-1].id == card.id:
                return sid
        raise KeyError(card.id)

    def _can_collect(self, sid: str) -> bool:
        return self.started and not self.over and sid not in self.left and sid not in self.flip_at

    def _hourglass_deadline(self) -> float | None:
        if not self.started or self.over or self.vote is not None:
            return None
        return self.table_since + self.cfg.hourglass

    def _timers(self) -> list[float]:
        times = list(self.flip_at.values())
        hourglass = self._hourglass_deadline()
        if hourglass is not None:
            times.append(hourglass)
        if self.vote is not None:
            times.append(self.vote.deadline)
        return times

    def _changed(self, now: float) -> None:
        """The face-up cards changed: turn the hourglass, reset per-flip counters."""
        self.table_since = now
        self.version += 1
        self.per_flip.clear()
        self.skips.clear()

    # ----- begin, flips, stuck, end --------------------------------------------------
    def _begin(self, now: float, out: list[Notice]) -> None:
        self.started = True
        self.now = now
        deck = shuffled_deck(self.rng, self.language)
        per = stack_size(len(self.order), self.cfg.cards, deck_size(self.language))
        for sid in self.order:
            self.stacks[sid] = [deck.pop() for __ in range(per)]
        self.undealt = deck
        intro = [
            _n(
                "moji race! {count} card each for {names}. "
                "Type a word that uses at least two face-up letters.",
                "moji race! {count} cards each for {names}. "
                "Type a word that uses at least two face-up letters.",
                per,
                names=", ".join(self.name(s) for s in self.order),
            )
        ]
        if self.cfg.drawn:
            intro.append(_("Challenge of the round: {cards}", cards=", ".join(self.cfg.drawn)))
        intro.extend(self.cfg.rule_lines())
        intro.extend(self.notes)
        out.append(Notice("announce", "\n".join(intro)))
        for sid in self.order:
            self._flip(sid)
        self._changed(now)
        out.append(Notice("table"))
        self._check_end(now, out)

    def _flip(self, sid: str) -> bool:
        self.flip_at.pop(sid, None)
        stack = self.stacks[sid]
        if not stack or sid in self.left:
            return False
        self.piles[sid].append(stack.pop())
        return True

    def _advance(self, now: float, out: list[Notice]) -> None:
        """Run every timer due by ``now``, earliest first."""
        while not self.over:
            timers = self._timers()
            if not timers:
                break
            t = min(timers)
            if t > now:
                break
            self.now = max(self.now, t)
            if self.vote is not None and self.vote.deadline == t:
                self._close_vote(t, out)
                continue
            due = [sid for sid in self.order if self.flip_at.get(sid) == t]
            if due:
                for sid in due:
                    self._flip(sid)
                self._changed(t)
                out.append(Notice("table"))
                self._check_end(t, out)
                continue
            self._stuck(t, out, _("The hourglass ran out."))
        self.now = max(self.now, now)

    def _example(self) -> str | None:
        groups, __ = self._all_groups()
        words = self.planner.candidates(groups, self.used, 1)
        return words[0] if words else None

    def _all_groups(self) -> tuple[list[list[Card]], str]:
        cards = sorted(self.tops(), key=lambda c: (-len(self.piles[self._owner_of(c)]), c.id))
        if self.monochrome:
            by_colour: dict[str, list[Card]] = {}
            for card in cards:
                by_colour.setdefault(card.colour, []).append(card)
            return list(by_colour.values()), ""
        return [cards], ""

    def _stuck(self, now: float, out: list[Notice], why: str) -> None:
        """Nobody found a word: discard (or cover, Stack 'Em Up) and everyone flips."""
        example = self._example()
        self.tie = None
        tops = self.tops()
        lines = [why]
        if example:
            lines.append(meaning.hint(example, self.gloss, self.language.code))
        elif len(tops) >= 2:
            lines.append(_("No word I know would have worked."))
        can_flip = [s for s in self.order if self.stacks[s] and s not in self.left]
        if self.last_round or not can_flip:
            self.discard.extend(self.face_up_cards())
            for sid in self.order:
                self.piles[sid] = []
            self.flip_at.clear()
            lines.append(_("{letters} go to the discard pile.", letters=letters_text(tops)) if tops else "")
            out.append(Notice("announce", " ".join(x for x in lines if x)))
            self._finish(now, out)
            return
        if self.stack_em_up:
            lines.append(_("Stack 'Em Up: everyone flips a new card on top."))
        else:
            self.discard.extend(self.face_up_cards())
            for sid in self.order:
                self.piles[sid] = []
            if tops:
                lines.append(
                    _("{letters} go to the discard pile; everyone flips.", letters=letters_text(tops))
                )
        for sid in self.order:
            self._flip(sid)
        self.flip_at.clear()
        self._changed(now)
        out.append(Notice("announce", " ".join(lines)))
        out.append(Notice("table"))
        self._check_end(now, out)

    def _check_end(self, now: float, out: list[Notice]) -> None:
        if self.over or self.flip_at:
            return
        if not self.last_round:
            holders = [s for s in self.order if self.stacks[s] and s not in self.left]
            players = [s for s in self.order if s not in self.left]
            if holders and not (len(holders) == 1 and len(players) > 1):
                return
            self.last_round = True
            self._changed(now)
            if len(self.tops()) >= 2:
                out.append(
                    Notice(
                        "announce",
                        _("The stacks are played out: one last hourglass for the cards still face-up."),
                    )
                )
        if len(self.tops()) < 2 and self.vote is None:
            self.discard.extend(self.face_up_cards())
            for sid in self.order:
                self.piles[sid] = []
            self._finish(now, out)

    def _finish(self, now: float, out: list[Notice]) -> None:
        self.over = True
        self.tie = None
        self.vote = None
        self.flip_at.clear()
        self.plans.clear()
        self.now = max(self.now, now)
        out.append(Notice("table"))
        out.append(Notice("end", self.result().summary))

    def _leave(self, sid: str, now: float, out: list[Notice]) -> None:
        self.left.add(sid)
        self.discard.extend(self.stacks[sid])
        self.stacks[sid] = []
        self.flip_at.pop(sid, None)
        self.skips.discard(sid)
        self.plans.pop(sid, None)
        out.append(
            Notice("announce", _("{name} left the game; their stack is discarded.", name=self.name(sid)))
        )
        if not [s for s in self.order if s not in self.left]:
            self._finish(now, out)
            return
        self._check_skip(now, out)
        self._check_end(now, out)

    # ----- votes ---------------------------------------------------------------------
    def _vote(self, action: Action, out: list[Notice]) -> None:
        sid, choice = action.seat, (action.text or "").strip().lower()
        if sid not in self.index or sid in self.left:
            return
        if choice == "skip":
            if sid in self.skips:
                return
            self.skips.add(sid)
            need = self.humans() or [s for s in self.order if s not in self.left]
            got = len(self.skips & set(need))
            who = self.name(sid)
            text = (
                _("You vote to skip ({votes}/{needed}).", votes=got, needed=len(need))
                if is_you(who)
                else _("{name} votes to skip ({votes}/{needed}).", name=who, votes=got, needed=len(need))
            )
            out.append(Notice("announce", text))
            self._check_skip(action.now, out)
        elif choice in {"yes", "no", "y", "n"} and self.vote is not None:
            vote = self.vote
            if sid not in vote.voters or sid in vote.yes or sid in vote.no:
                return
            (vote.yes if choice.startswith("y") else vote.no).add(sid)
            if vote.yes | vote.no >= vote.voters:
                self._close_vote(action.now, out)

    def quiet_vote(self, seat: str, choice: str) -> str:
        """Why a vote changed nothing that shows (already counted, no answer to vote on…)."""
        vote = self.vote
        if self.over or seat in self.left:
            return super().quiet_vote(seat, choice)
        if choice == "skip":
            if vote is not None:
                return _(
                    "Finish the vote on {word} first; then vote to skip if you're stuck.",
                    word=vote.word.upper(),
                )
            need = set(self.humans() or [s for s in self.order if s not in self.left])
            return _(
                "You've already voted to skip ({votes}/{needed}). The face-up cards "
                "go when everyone has, or when the hourglass runs out.",
                votes=len(self.skips & need),
                needed=len(need),
            )
        if vote is None:
            return _("There's no answer waiting for a vote right now (votes settle theme answers).")
        if seat == vote.seat:
            return _("{word} is your own answer: the other players vote on it.", word=vote.word.upper())
        if seat not in vote.voters:
            return _(
                "Only the players who were at the table when {word} was said vote on it.",
                word=vote.word.upper(),
            )
        cast = len(vote.yes | vote.no)
        return _(
            "Your vote on {word} is in ({votes} of {voters} voted). "
            "The answer is settled when everyone has voted or the time runs out.",
            word=vote.word.upper(),
            votes=cast,
            voters=len(vote.voters),
        )

    def _check_skip(self, now: float, out: list[Notice]) -> None:
        need = set(self.humans() or [s for s in self.order if s not in self.left])
        if self.skips and need <= self.skips and self.vote is None:
            self._stuck(now, out, _("Everyone voted to skip."))

    def _open_vote(self, claim: Claim, ruling: Ruling, out: list[Notice]) -> None:
        # computer players never vote: with no other person at the table nobody can vouch for
        # the answer, so it is refused, at no more cost than the claim itself (not a wrong answer)
        voters = frozenset(s for s in self.humans() if s != claim.seat)
        if not voters:
            self._reject(claim, unknown_title(ruling.word, self.cfg.themes, ALONE), out)
            return
        self.vote = ThemeVote(
            claim.seat, ruling.word, ruling.cards, claim.sent_at + self.cfg.vote_time, voters, claim.ref
        )
        themes = ", ".join(sorted(self.cfg.themes))
        who = self.name(claim.seat)
        params = {"word": ruling.word.upper(), "themes": themes, "seconds": round(self.cfg.vote_time)}
        text = (
            _(
                "You say {word} — I can't tell if it fits the theme ({themes}). "
                "Others: vote yes or no within {seconds} s.",
                **params,
            )
            if is_you(who)
            else _(
                "{name} says {word} — I can't tell if it fits the theme ({themes}). "
                "Others: vote yes or no within {seconds} s.",
                name=who,
                **params,
            )
        )
        out.append(Notice("announce", text))

    def _close_vote(self, now: float, out: list[Notice]) -> None:
        vote = self.vote
        if vote is None:
            return
        self.vote = None
        if len(vote.yes) > len(vote.no):
            self.referee.accepted.add(vote.word)
            self.voted_words.append(vote.word)
            self._award(vote.seat, vote.word, vote.cards, now, out, vote.ref, note=_("accepted by vote"))
        else:
            out.append(
                Notice(
                    "rejected",
                    _(
                        "{word} was voted down ({yes} yes, {no} no).",
                        word=vote.word.upper(),
                        yes=len(vote.yes),
                        no=len(vote.no),
                    ),
                    vote.seat,
                    vote.ref,
                )
            )
            # The cards didn't change: the hourglass (which stood still during the vote) starts
            # again, but the claims each player made this flip stay counted (`max-claims`), so
            # answers voted down can't hold a flip open for ever (docs/RACE.md, "End").
            self.table_since = now
            self.version += 1
            self.skips.clear()
            out.append(Notice("table"))
        self._check_end(now, out)

    # ----- claims --------------------------------------------------------------------
    def _claims(self, claims: Sequence[Claim], out: list[Notice]) -> None:
        ordered = self.sort_claims(claims)
        done: set[int] = set()
        beaten: dict[int, tuple[str, str, float]] = {}  # claim -> (winner, word, margin)
        for i, claim in enumerate(ordered):
            if i in done or self.over:
                continue
            self._advance(claim.sent_at, out)
            if self.over:
                break
            lost = beaten.get(i)
            if lost is not None and claim.seat in self.flip_at:
                # the winner took this player's own card: "too late" says more than the flip lock
                self._reject(claim, self._too_late(lost), out, late=True)
                continue
            ruling = self._screen(claim, out)
            if ruling is None:
                continue
            if ruling.undecided:
                if self.vote is not None:
                    self._reject(claim, _("Wait for the vote on the current answer to finish."), out)
                else:
                    self._open_vote(claim, ruling, out)
                continue
            if not ruling.ok:
                reason = ruling.reason
                late = bool(lost) and (not ruling.cards or "already played" not in reason)
                if lost and late:
                    reason = self._too_late(lost)
                self._wrong(claim, reason, out, late=late)
                continue
            # A valid claim: look for rivals on the same table among the later claims.
            ids = {c.id for c in ruling.cards}
            tied: list[tuple[int, Claim, Ruling]] = []
            margin: float | None = None
            runner: str | None = None
            for j in range(i + 1, len(ordered)):
                other = ordered[j]
                if other.seat == claim.seat or j in done or not self._may_claim(other.seat):
                    continue
                if self.tie and (other.seat not in self.tie.seats):
                    continue
                groups, restriction = self.groups_for(other.seat)
                rival = self.referee.rule(other.text, groups, self.used, restriction=restriction)
                if not rival.ok or not ids & {c.id for c in rival.cards}:
                    continue
                if self.tie and rival.word in self.tie.words:
                    continue
                gap = other.sent_at - claim.sent_at
                if margin is None:
                    margin, runner = gap, other.seat
                if micros(gap) <= micros(self.cfg.tie):  # exact: whole microseconds
                    tied.append((j, other, rival))
                else:
                    beaten.setdefault(j, (claim.seat, ruling.word, gap))
            if tied:
                seats = (claim.seat, *(c.seat for __, c, ___ in tied if c.seat != claim.seat))
                seats = tuple(dict.fromkeys(seats))
                words = {ruling.word, *(r.word for __, ___, r in tied)}
                if self.tie:
                    words |= self.tie.words
                self.tie = TieBreak(seats, words)
                spread = max(c.sent_at for __, c, ___ in tied) - claim.sent_at
                text = _(
                    "Tie! {names} answered within {ms} ms ({words}). "
                    "The first of you to name a different word wins the cards.",
                    names=listing(self.name(s) for s in seats),
                    ms=gap_ms(spread),
                    words=", ".join(w.upper() for w in sorted(words)),
                )
                out.append(Notice("announce", text))
                for __, c, ___ in [(i, claim, ruling), *tied]:
                    out.append(Notice("rejected", text, c.seat, c.ref))
                done.update(j for j, __, ___ in tied)
                continue
            note = ""
            if margin is not None and runner is not None:
                note = _("won by {ms} ms over {name}", ms=gap_ms(margin), name=self.name(runner))
            self._award(claim.seat, ruling.word, ruling.cards, claim.sent_at, out, claim.ref, note=note)

    def _too_late(self, lost: tuple[str, str, float]) -> str:
        who, word, gap = lost
        name = self.name(who)
        if is_you(name):
            return _(
                "Too late: you took those cards with {word} {ms} ms earlier.",
                word=word.upper(),
                ms=gap_ms(gap),
            )
        return _(
            "Too late: {name} took those cards with {word} {ms} ms earlier.",
            name=name,
            word=word.upper(),
            ms=gap_ms(gap),
        )

    def _may_claim(self, sid: str) -> bool:
        return sid in self.index and sid not in self.left and sid not in self.flip_at

    def _reject(self, claim: Claim, reason: str, out: list[Notice], *, late: bool = False) -> None:
        out.append(Notice("rejected", reason, claim.seat, claim.ref, late=late))

    def _wrong(self, claim: Claim, reason: str, out: list[Notice], *, late: bool = False) -> None:
        """A claim that broke a word rule: counts toward the cooldown."""
        sid = claim.seat
        self.wrong[sid] = self.wrong.get(sid, 0) + 1
        if self.cfg.cooldown > 0 and self.wrong[sid] >= self.cfg.cooldown_after:
            self.wrong[sid] = 0
            self.cool_until[sid] = claim.sent_at + self.cfg.cooldown
            reason += " " + _(
                "That's {count} wrong in a row: wait {seconds} s before claiming again.",
                count=self.cfg.cooldown_after,
                seconds=round(self.cfg.cooldown),
            )
        self._reject(claim, reason, out, late=late)

    def _screen(self, claim: Claim, out: list[Notice]) -> Ruling | None:
        """Every check before the word itself wins; None when already answered."""
        sid = claim.seat
        if sid not in self.index or sid in self.left:
            return None
        word = self.referee.normalize(claim.text)
        if word is None:
            short = contraction(claim.text)
            if short is None:
                return None  # chatter, not an answer
            if "contraction" in self.referee.bans:
                self._reject(
                    claim, _("{word} is a contraction, banned in this game.", word=user(short.upper())), out
                )
                return None
            claim = replace(claim, text=short.replace("'", "").replace("’", ""))
            word = self.referee.normalize(claim.text)
            if word is None:
                return None
        t = claim.sent_at
        if t < self.cool_until.get(sid, float("-inf")):
            self._reject(
                claim,
                _(
                    "Cooling down after wrong claims: {seconds} s left.",
                    seconds=round(self.cool_until[sid] - t, 1),
                ),
                out,
            )
            return None
        self.per_flip[sid] = self.per_flip.get(sid, 0) + 1
        if self.per_flip[sid] > self.cfg.max_claims:
            self._reject(
                claim,
                _n(
                    "You've used your {count} claim for this flip; wait for the next card.",
                    "You've used your {count} claims for this flip; wait for the next card.",
                    self.cfg.max_claims,
                ),
                out,
            )
            return None
        if self.tie and sid not in self.tie.seats:
            names = listing(self.name(s) for s in self.tie.seats)
            self._reject(
                claim,
                _("Tie-break in progress: only {names} may answer until it is settled.", names=names),
                out,
            )
            return None
        if sid in self.flip_at:
            left = max(0.1, self.flip_at[sid] - claim.sent_at)
            self._reject(
                claim,
                _(
                    "Your card was just taken: your next card flips by itself in {seconds} s, "
                    "and then you can collect again.",
                    seconds=round(left, 1),
                ),
                out,
            )
            return None
        groups, restriction = self.groups_for(sid)
        ruling = self.referee.rule(
            claim.text, groups, self.used, restriction=restriction, whole_table=self.tops()
        )
        if self.tie and ruling.word in self.tie.words:
            self._reject(
                claim, _("{word} was part of the tie: name a different word.", word=ruling.word.upper()), out
            )
            return None
        elapsed = t - self.table_since
        needed = len(ruling.word) / self.cfg.cps_limit
        if ruling.ok and elapsed < needed:
            line = (
                f"{self.name(sid)} typed {ruling.word.upper()} {gap_ms(max(elapsed, 0))} ms after the table "
                f"changed (faster than {round(self.cfg.cps_limit)} characters per second)"
            )
            self.flags.append(line)  # the operator's anti-cheat log: English
            if self.cfg.reject_fast:
                self._reject(
                    claim,
                    _(
                        "Too fast to be typed by hand: {word} came {ms} ms after the table changed "
                        "(faster than {cps} characters per second).",
                        word=ruling.word.upper(),
                        ms=gap_ms(max(elapsed, 0)),
                        cps=round(self.cfg.cps_limit),
                    ),
                    out,
                )
                return None
        return ruling

    def _award(
        self,
        sid: str,
        word: str,
        cards: Sequence[Card],
        now: float,
        out: list[Notice],
        ref: str | None,
        note: str = "",
    ) -> None:
        taken: list[Card] = []
        owners: list[str] = []
        for card in cards:
            owner = self._owner_of(card)
            owners.append(owner)
            taken.extend(self.piles[owner])
            self.piles[owner] = []
        self.won[sid].extend(taken)
        self.used.add(word)
        self.wrong[sid] = 0
        self.tie = None
        gained = sum(c.points for c in taken)
        self.note_best(sid, word, gained)
        if not self.last_round:
            for owner in owners:
                if self.stacks[owner] and owner not in self.left:
                    self.flip_at[owner] = now + self.cfg.flip_pause
        extra = len(taken) - len(cards)
        text = self.took_text(sid, letters_text(list(cards)), word, gained, extra)
        if note:
            text = _("{text} — {note}.", text=text, note=note)
        else:
            text = _("{text}.", text=text)
        out.append(Notice("accepted", text + self.meaning_of_bot_word(sid, word), sid, ref))
        self._changed(now)
        if self.cfg.flip_pause <= 0:
            for owner in [o for o in self.order if o in self.flip_at]:
                self._flip(owner)
        out.append(Notice("table"))
        self._check_end(now, out)

    # ----- computer players ----------------------------------------------------------
    def _replan(self) -> None:
        if self.version == self._planned_version and not self._bot_waiting():
            return
        self._planned_version = self.version
        self.plans.clear()
        if self.over or not self.started or self.vote is not None:
            return
        for seat in self.bots():
            sid = seat.id
            if not self._may_claim(sid) or (self.tie and sid not in self.tie.seats):
                continue
            groups, __ = self.groups_for(sid)
            used = self.used | (self.tie.words if self.tie else set())
            plan = self.planner.plan(seat.bot or "normal", groups, used, self.now)
            if plan is not None:
                self.plans[sid] = plan

    def _bot_waiting(self) -> bool:
        return False
