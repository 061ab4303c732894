"""A replay of every shipped game rebuilds the public table from the log alone: computer players
play each game (as a session drives them: their moves, the game's ticks), the actions are
logged, and the replay's steps end on the live game's public table, with nothing a player was
told privately on any step."""

from __future__ import annotations

import re

import pytest

from adapters.web.replay import replay
from bot.core.registry import load_default
from games.common.options import parse_options
from games.common.protocol import Action, GameInfo, Seat, Setup
from games.common.text import plain
from storage.records import GameRecord, SeatRecord, StoredGame

GAMES = list(load_default())


def played(info: GameInfo, actions: int = 40) -> tuple[StoredGame, list[str], object]:
    """``info``'s game between two computer players, its first ``actions`` actions logged."""
    seats = (Seat("bot:1", "Robo", "easy"), Seat("bot:2", "Tron", "easy"))
    options = parse_options(info.options, [])
    engine = info.create(Setup(options, seats, 7))
    log: list[Action] = [Action("begin", 0.0)]
    private: list[str] = []

    def apply(action: Action) -> None:
        for notice in engine.apply(action):
            if notice.kind in ("private", "rejected") and len(notice.text) > 12:
                private.extend(p for p in plain(notice.text).splitlines() if len(p) > 12)

    apply(log[0])
    now = 0.0
    while not engine.finished and len(log) < actions:
        bot, deadline = engine.next_bot_time(), engine.next_deadline()
        due = min(t for t in (bot, deadline, now + 1.0) if t is not None)
        now = max(now, due)
        claims = engine.bot_claims(now) if bot is not None and bot <= now else []
        if claims and info.realtime:
            action = Action("claims", now, claims=tuple(claims))
        elif claims:
            action = Action("say", now, seat=claims[0].seat, text=claims[0].text)
        else:
            action = Action("tick", now)
        log.append(action)
        apply(action)
    record = GameRecord(
        game_id=f"g-{info.name}",
        game=info.name,
        platform="test",
        workspace_id="w1",
        channel_id="c1",
        thread_id=None,
        options=options,
        seed=7,
        seats=tuple(SeatRecord(s.id, s.name, s.bot) for s in seats),
        started_at=0.0,
    )
    return StoredGame(record, tuple(a.to_dict() for a in log)), private, engine


@pytest.mark.parametrize("info", GAMES, ids=[g.name for g in GAMES])
def test_a_replay_ends_on_the_live_public_table_and_keeps_nothing_private(info: GameInfo) -> None:
    stored, private, engine = played(info)
    shown = replay(info, stored)
    live = engine.snapshot(None)  # type: ignore[attr-defined]
    last = shown.steps[-1]
    assert len(shown.steps) >= 2, info.name
    assert [(s.name, s.score) for s in last.seats] == [(plain(s.name), s.score) for s in live.seats]
    assert [[c.letter for c in row] for row in last.board] == [[c.letter for c in row] for row in live.board]
    for step in shown.steps:
        text = "\n".join((*step.said, *step.lines))
        assert not any(plain(line) in plain(text) for line in private), (info.name, step)


@pytest.mark.parametrize("info", GAMES, ids=[g.name for g in GAMES])
def test_a_replay_page_shows_what_the_chat_read_as_the_chat_shows_it(info: GameInfo) -> None:
    """Each step's page (the template browsing serves): moji's `code` as code, never raw
    backticks (Shed's start says "`hand` shows yours"; its table, "`draw`")."""
    from adapters.web.server import TEMPLATES

    stored, _, _ = played(info)
    shown = replay(info, stored)
    last = len(shown.steps) - 1
    for n, step in enumerate(shown.steps):
        page = TEMPLATES.get_template("browse/replay.html").render(
            {"base": "/w/x/", "r": shown, "n": n, "last": last, "s": step}
        )
        text = "".join(re.findall(r'<section id="said".*?</section>|<p class="line">.*?</p>', page, re.S))
        assert "`" not in text, (info.name, n, text)
