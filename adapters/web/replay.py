"""A finished game, move by move, from its log: the public table after each move.

A game is a pure engine fed its logged actions (games/common/protocol.py): a fresh engine built
from the recorded :class:`~games.common.protocol.Setup` and given the same actions, on the game's
clock, arrives at the same states, exactly as a restart's recovery does
(:meth:`bot.sessions.session.Session.restore`).
After each action that changed the table or said something in the channel, the replay keeps the
**public** snapshot (``snapshot(None)``: the board, the face-up cards, the scores; never a rack or
a hand) and what the channel read (accepted moves, announcements, the end). Private notices
(racks, hands, refusals) are never kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from adapters.web.models import CellModel, cells
from adapters.web.pages import page_of
from games.common.protocol import Action, GameInfo, Seat, Setup, Snapshot
from games.common.speech import _
from games.common.text import plain, user
from storage.records import StoredGame

#: Notices the channel reads (a step's caption); private ones and refusals never appear.
PUBLIC_NOTICES = frozenset({"accepted", "announce", "end"})


#: Each platform's finest send-time difference (its adapter's ``timestamp_precision``): a replay
#: of a real-time game orders claims as the game did.
PRECISION = {"slack": 0.000_001}
#: The most steps a replay keeps (a long race: every flip and take).
MAX_STEPS = 2000


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    """One line of a step's scoreboard."""

    name: str
    score: int
    detail: str
    active: bool


@dataclass(frozen=True, slots=True)
class Step:
    """The table after one move (step 0: as the game began)."""

    said: tuple[str, ...]
    title: str
    board: tuple[tuple[CellModel, ...], ...]
    cards: tuple[str, ...]
    seats: tuple[ReplaySeat, ...]
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """Every step of one finished game."""

    game_id: str
    game: str
    title: str
    language: str
    steps: tuple[Step, ...]


def _step(snapshot: Snapshot, said: list[str], hides: Callable[[str], bool]) -> Step:
    return Step(
        said=tuple(said),
        title=plain(snapshot.title),
        board=cells(snapshot),
        cards=tuple(
            (card.letter or _("blank"))
            + (f" ({card.points})" if card.points else "")
            + (f" ×{card.under + 1}" if card.under else "")
            for card in snapshot.cards
        ),
        seats=tuple(ReplaySeat(plain(s.name), s.score, plain(s.detail), s.active) for s in snapshot.seats),
        lines=tuple(line for line in snapshot.lines if not hides(line)),
    )


def _same(a: Step, b: Step) -> bool:
    return (a.board, a.cards, a.seats, a.lines) == (b.board, b.cards, b.seats, b.lines)


def replay(info: GameInfo, stored: StoredGame) -> Replay:
    """Every public step of ``stored`` (a finished game of ``info``), from its log."""
    record = stored.record
    seats = tuple(
        Seat(s.id, s.name if s.bot is not None else user(s.name), s.bot) for s in record.seats
    )  # (names marked as people's text, as the session gives them to the engine)
    options: Mapping[str, Any] = dict(record.options)
    engine = info.create(
        Setup(
            options,
            seats,
            record.seed,
            added_words=record.added_words,
            banned_words=record.banned_words,
            timestamp_precision=PRECISION.get(record.platform, 0.001),
        )
    )
    page = page_of(info)
    hides = page.replay_hides if page is not None and page.replay_hides is not None else _shows_all
    paused = 0.0
    steps = [_step(engine.snapshot(None), [_("The game begins.")], hides)]
    for raw in stored.actions:
        action = Action.from_dict(raw)
        if action.kind == "resume":
            paused += action.paused or 0.0
            continue
        if paused:
            claims = tuple(replace(c, sent_at=c.sent_at - paused) for c in action.claims)
            action = replace(action, now=action.now - paused, claims=claims)
        notices = engine.apply(action)
        said = [n.text for n in notices if n.kind in PUBLIC_NOTICES and n.text.strip()]
        step = _step(engine.snapshot(None), said, hides)
        if action.kind == "begin" and len(steps) == 1:
            steps[0] = replace(step, said=tuple(said) or steps[0].said)
        elif said or not _same(step, steps[-1]):
            steps.append(step)
        if len(steps) >= MAX_STEPS:
            break
    return Replay(record.game_id, record.game, info.title, record.language, tuple(steps))


def _shows_all(line: str) -> bool:
    return False
