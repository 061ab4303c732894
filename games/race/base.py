"""What every race game shape shares: seats, options, the referee, computer players, results."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from games.common import meaning
from games.common.engine import GameEngine
from games.common.grammar import is_you
from games.common.placement import Placement
from games.common.protocol import Action, Claim, Notice, Result, Seat, Setup
from games.common.speech import N_, _, _n, listing
from games.common.words import Verdict, WordJudge, WordRules
from games.race.bots import BOT_NAMES, Planner
from games.race.options import RaceConfig
from games.race.referee import Referee

TEAM_VARIATIONS = frozenset({"do-si-do", "ball-and-chain"})


def load_judge(language: str = "en") -> WordJudge:
    """The project lexicon of ``language``, imported lazily (only when a game has no judge)."""
    from games.lexicon import load

    judge: WordJudge = load("casual", language=language)
    return judge


def ms(seconds: float) -> int:
    """Seconds to whole milliseconds."""
    return round(seconds * 1000)


def micros(seconds: float) -> int:
    """A time difference in whole microseconds: exact for times that are whole microseconds
    (a Slack ``ts``, a Discord snowflake's milliseconds), whose doubles near today's epoch
    seconds are off by at most a quarter of a microsecond."""
    return round(seconds * 1_000_000)


def gap_ms(seconds: float) -> int:
    """A time difference in whole milliseconds, half a millisecond rounding up (1.5 → 2),
    computed from :func:`micros` so that a double's error never changes it."""
    return (micros(seconds) + 500) // 1000


def points_text(n: int) -> str:
    """``1 point`` / ``3 points`` in the language being spoken."""
    return _n("{count} point", "{count} points", n)


def cards_text(n: int) -> str:
    """``1 card`` / ``3 cards`` in the language being spoken."""
    return _n("{count} card", "{count} cards", n)


class _RefusedJudge:
    """The judge of a game refused at its start: it is never asked."""

    def judge(self, word: str, rules: WordRules) -> Verdict:
        return Verdict(False, "refused", _("This game didn't start."))

    def examples(
        self,
        letters: Sequence[str],
        rules: WordRules,
        placement: Placement = Placement.ANYWHERE,
        limit: int = 3,
    ) -> list[str]:
        return []


_NO_JUDGE = _RefusedJudge()


class RaceBase(GameEngine):
    """Shared state and helpers of the flip race, Off the Grid and Eagle Eyes."""

    title = N_("moji")

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rng = random.Random(setup.seed)
        cfg = RaceConfig.for_game(setup.options, self.rng)
        # two claims the platform cannot tell apart in time are a tie, whatever tie-ms says
        self.cfg = replace(cfg, tie=max(cfg.tie, setup.timestamp_precision))
        seats = list(setup.seats)
        if self.cfg.bots and not any(s.bot for s in seats):
            for i in range(self.cfg.bots):
                seats.append(Seat(f"bot:{i + 1}", BOT_NAMES[i % len(BOT_NAMES)], self.cfg.level))
        self.seats: list[Seat] = seats
        self.order: list[str] = [s.id for s in seats]
        self.by_id: dict[str, Seat] = {s.id: s for s in seats}
        self.index: dict[str, int] = {sid: i for i, sid in enumerate(self.order)}
        self.left: set[str] = set()
        self.notes: list[str] = []  # announcements queued for `begin` (dropped variations)
        self.partner: dict[str, str] = {}
        n = len(seats)
        wanted_teams = self.cfg.variations & TEAM_VARIATIONS
        if wanted_teams:
            if n >= 4 and n % 2 == 0:
                for i, sid in enumerate(self.order):
                    self.partner[sid] = self.order[(i + n // 2) % n]
            else:
                self.notes.append(
                    _n(
                        "{variations} needs 4 or 6 players (partners sit across the table); "
                        "with {count} everyone plays alone.",
                        "{variations} needs 4 or 6 players (partners sit across the table); "
                        "with {count} everyone plays alone.",
                        n,
                        variations=listing(sorted(wanted_teams)),
                    )
                )
        self.amigos = "three-amigos" in self.cfg.variations
        self.amigos_dropped = False  # Three Amigos asked for with too few players
        if self.amigos and n < 4:
            self.amigos = False
            self.notes.append(
                _n(
                    "Three Amigos needs 4 or more players; with {count} every card is open to all.",
                    "Three Amigos needs 4 or more players; with {count} every card is open to all.",
                    n,
                )
            )
            self.amigos_dropped = True
        self.ball_and_chain = bool(self.partner) and "ball-and-chain" in self.cfg.variations
        self.language = self.cfg.lang
        #: what a word means, for the hints and the computer players' words
        self.gloss: meaning.Glosser = meaning.glosser(setup, self.language.code)
        #: why the game can't start (themes or English-only bans in another language)
        self.refusal = self.cfg.refusal
        judge = setup.judge
        if judge is None:
            # a refused game never judges a word: it needs no lexicon
            judge = _NO_JUDGE if self.refusal else load_judge(self.language.code)
        self.referee = Referee(
            judge,
            language=self.language,
            min_length=self.cfg.min_length,
            placement=self.cfg.placement,
            bans=self.cfg.bans,
            themes=self.cfg.themes,
            added=setup.added_words,
            banned=setup.banned_words,
        )
        self.planner = Planner(self.referee, setup.seed)
        self.plans: dict[str, tuple[float, str]] = {}
        self.used: set[str] = set()
        self.best: dict[str, tuple[int, str]] = {}
        self.voted_words: list[str] = []  # answers accepted by a vote (for the workspace list)
        self.flags: list[str] = []  # anti-cheat log lines
        self.now = 0.0
        self.started = False
        self.over = False

    # ----- the start ---------------------------------------------------------------------
    def table_title(self) -> str:
        """The table's title, with the language when it is not English (``moji race · German``)."""
        if self.language.code == "en":
            return _(self.title)
        return _("{title} · {language}", title=_(self.title), language=self.language.spoken)

    def apply(self, action: Action) -> list[Notice]:
        """Apply one action (never raises on bad input): what every race variation does alike —
        nothing once the game is over, the start (or its refusal) on ``begin``, nothing before
        it — and, once it runs, the action (:meth:`_play`)."""
        out: list[Notice] = []
        if self.over:
            return out
        if action.kind == "begin":
            if not self.started and not self.refuse_start(action.now, out):
                self._begin(action.now, out)
        elif not self.started:
            return out
        else:
            self._play(action, out)
        self._applied(out)
        return out

    def _play(self, action: Action, out: list[Notice]) -> None:
        """An action of the running game. Answers are the variation's own (:meth:`_answers`);
        any other action first brings the game to its time (:meth:`_advance`), and while it still
        runs: a seat still playing leaves, and words said (:meth:`_say`) and votes
        (:meth:`_vote`) are the variation's."""
        if action.kind == "claims":
            self._answers(action, out)
            return
        if action.kind not in ("tick", "say", "vote", "leave"):
            return  # (a ``resume``: the session keeps the game's clock, no engine is given it)
        self._advance(action.now, out)
        if self.over:
            return
        sid = action.seat
        if action.kind == "leave":
            if sid is not None and sid in self.index and sid not in self.left:
                self._leave(sid, action.now, out)
        elif action.kind == "say":
            if sid and action.text:
                self._say(sid, action.text, action, out)
        elif action.kind == "vote":
            self._vote(action, out)

    def _answers(self, action: Action, out: list[Notice]) -> None:
        """A ``claims`` action: the settle window's answers, the game brought to its time."""
        raise NotImplementedError

    def _say(self, sid: str, text: str, action: Action, out: list[Notice]) -> None:
        """``text`` said by ``sid`` (in the channel, or privately when ``action.private``)."""
        raise NotImplementedError

    def _vote(self, action: Action, out: list[Notice]) -> None:
        """A vote (``action.text``: ``skip``, ``yes`` or ``no``) by ``action.seat``."""
        raise NotImplementedError

    def _advance(self, now: float, out: list[Notice]) -> None:
        """Bring the game to ``now``: whatever fell due by then (flips, turns, rounds, the end)."""
        raise NotImplementedError

    def _leave(self, sid: str, now: float, out: list[Notice]) -> None:
        """``sid``, still playing, leaves the game."""
        raise NotImplementedError

    def _applied(self, out: list[Notice]) -> None:
        """After an action was applied (the start included): the variation's own follow-up."""

    def _begin(self, now: float, out: list[Notice]) -> None:
        """Deal and start the game."""
        raise NotImplementedError

    def refuse_start(self, now: float, out: list[Notice]) -> bool:
        """End a game that can't start (see :attr:`refusal`) before anything is dealt."""
        if not self.refusal:
            return False
        self.over = True
        self.now = now
        out.append(Notice("end", _("This game can't start: {reason}", reason=self.refusal)))
        return True

    def quiet_vote(self, seat: str, choice: str) -> str:
        """Why a vote by ``seat`` (``skip``, ``yes``, ``no``) changed nothing that shows: the
        session tells the voter this, so no command goes unanswered."""
        if self.over:
            return _("This game is over.")
        if seat in self.left:
            return _("You've left this game, so your vote doesn't count.")
        if choice == "skip":
            return _("There's nothing to skip right now.")
        return _("There's no answer waiting for a vote right now.")

    # ----- names and teams -------------------------------------------------------------
    def name(self, sid: str) -> str:
        """A seat's display name."""
        seat = self.by_id.get(sid)
        return seat.name if seat else sid

    def humans(self) -> list[str]:
        """Seats of people still in the game."""
        return [s.id for s in self.seats if not s.bot and s.id not in self.left]

    def bots(self) -> list[Seat]:
        """Computer players still in the game."""
        return [s for s in self.seats if s.bot and s.id not in self.left]

    def team(self, sid: str) -> tuple[str, ...]:
        """The seat and its partner (teams), in seat order."""
        mate = self.partner.get(sid)
        if mate is None:
            return (sid,)
        return tuple(sorted((sid, mate), key=self.index.__getitem__))

    # ----- scores ----------------------------------------------------------------------
    def points(self, sid: str) -> int:
        """Points a seat earned on its own (overridden by each game shape)."""
        raise NotImplementedError

    def score(self, sid: str) -> int:
        """A seat's score: its team's combined points when partners play."""
        return sum(self.points(s) for s in self.team(sid))

    def word_verdict(self, word: str) -> Verdict:
        """The dictionary's verdict on ``word`` (folded) under this game's word rules (``define``)."""
        return self.referee.game_words.verdict(word)

    def meaning_of_bot_word(self, sid: str, word: str) -> str:
        """`` ZAX: a tool for cutting slate.`` after a computer player's word (its meaning, when
        known); ``""`` after a person's (they know what they meant)."""
        seat = self.by_id.get(sid)
        if seat is None or not seat.bot:
            return ""
        return meaning.sentence(word, self.gloss, self.language.code)

    def took_text(self, sid: str, letters: str, word: str, gained: int, extra: int = 0) -> str:
        """``Ana takes C T with CAT (+4 points, 9 in all)`` (no full stop: a note may follow)."""
        who = self.name(sid)
        params = {
            "letters": letters,
            "word": word.upper(),
            "points": points_text(gained),
            "score": self.score(sid),
        }
        if extra:
            cards = cards_text(extra)
            if is_you(who):
                return _(
                    "You take {letters} with {word} and {cards} underneath (+{points}, {score} in all)",
                    cards=cards,
                    **params,
                )
            return _(
                "{name} takes {letters} with {word} and {cards} underneath (+{points}, {score} in all)",
                name=who,
                cards=cards,
                **params,
            )
        if is_you(who):
            return _("You take {letters} with {word} (+{points}, {score} in all)", **params)
        return _("{name} takes {letters} with {word} (+{points}, {score} in all)", name=who, **params)

    def note_best(self, sid: str, word: str, value: int) -> None:
        """Remember a seat's best word."""
        if value > self.best.get(sid, (-1, ""))[0]:
            self.best[sid] = (value, word)

    def result(self) -> Result:
        """Scores and the moji Master(s)."""
        scores = {sid: self.score(sid) for sid in self.order}
        top = max(scores.values(), default=0)
        winners = tuple(sid for sid in self.order if top > 0 and scores[sid] == top)
        if not winners:
            summary = _("Nobody scored.")
        elif len(winners) > 1:
            summary = _n(
                "{names} are moji Masters with {count} point!",
                "{names} are moji Masters with {count} points!",
                top,
                names=listing(self.name(w) for w in winners),
            )
        elif is_you(self.name(winners[0])):
            summary = _n(
                "You are the moji Master with {count} point!",
                "You are the moji Master with {count} points!",
                top,
            )
        else:
            summary = _n(
                "{name} is the moji Master with {count} point!",
                "{name} is the moji Master with {count} points!",
                top,
                name=self.name(winners[0]),
            )
        # the headline only: the result view lists every player's score under it
        lines = [summary]
        if self.partner:
            lines.append(_("Partners combine their win piles."))
        if self.cfg.masters_choice and winners:
            master = self.name(winners[0])
            lines.append(
                _("Master's Choice: you pick the next game's challenges.")
                if is_you(master)
                else _("Master's Choice: {name} picks the next game's challenges.", name=master)
            )
        return Result(
            scores=scores,
            winners=winners,
            summary="\n".join(lines),
            best_words={sid: w for sid, (__, w) in self.best.items()},
            voided=not self.started,
            teams=tuple(dict.fromkeys(self.team(sid) for sid in self.order if sid in self.partner)),
        )

    # ----- computer players ------------------------------------------------------------
    def bot_claims(self, now: float) -> list[Claim]:
        """Computer players' answers due by ``now``."""
        due = sorted((t, sid, text) for sid, (t, text) in self.plans.items() if t <= now)
        for __, sid, ___ in due:
            del self.plans[sid]
        return [Claim(sid, text, t, ref=f"{sid}@{ms(t)}") for t, sid, text in due]

    def next_bot_time(self) -> float | None:
        """When a computer player next answers."""
        return min((t for t, _ in self.plans.values()), default=None)

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.over

    @staticmethod
    def sort_claims(claims: Sequence[Claim]) -> list[Claim]:
        """Claims in a canonical order (so arrival order never matters)."""
        return sorted(claims, key=lambda c: (c.sent_at, c.seat, c.text, c.ref or ""))
