"""Hostile names and words through every view on every platform: no live markup.

Two properties, over hostile display names, typed words, command arguments and option values
(every kind of markup Discord and Slack know, ANSI sequences, zero-width characters, bidi
overrides — :mod:`tests.adapters.liveness`), each carrying the sentinel ``Zyx``:

1. **Typed where it enters.** In every view moji builds (lobby, table, turn pings, private
   racks and hands, refusals quoting input, results, leaderboards, stats, seasons, word lists,
   settings, help), the sentinel only ever appears inside a span marked as user text: nothing a
   person typed reaches a view unmarked.
2. **Escaped by every renderer.** Each view, rendered for Discord (content, embed, buttons),
   Slack (blocks and the ``text`` fallback) and the terminal (with and without colour, wrapped
   and not), has no more live constructs than the same view with harmless text of the same
   length in each user span; no output carries a marker or a bidi override; terminal output has
   no control character but moji's own colours.

The views come from real flows: the manager with a real SQLite store playing the toy game to the
leaderboard, and every installed game's engine fed hostile seat names and moves.
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.discord import render as discord_render
from adapters.slack import blocks as slack_blocks
from adapters.slack.home import home_view
from adapters.terminal import render as terminal_render
from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command, Edit, MessageRef, Outbound, Player, Post, Private, Text
from bot.core.registry import Registry, load_default
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.sessions.gamelog import StoreGameLog
from bot.sessions.state import marked
from games.common.options import parse_options
from games.common.protocol import Action, Claim, GameInfo, Seat, Setup
from games.common.text import spans, user
from storage import open_store
from storage.base import Schedule
from tests.adapters.liveness import (
    SENTINEL,
    discord_live,
    hostile,
    leaks,
    more,
    slack_live,
    slack_texts,
    terminal_live,
)
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox
from tests.hardening.hostile import fuzz

CHAT = ChatKey("test", "w1", "c1")


# ------------------------------------------------------------------ the two checks


def _fields(view: views.View) -> Iterable[str]:
    yield view.title
    yield from view.lines
    yield from view.grid
    for seat in view.seats:
        yield seat.detail
    for button in view.buttons:
        yield button.label


def assert_typed(view: views.View) -> None:
    """Property 1: the sentinel is only ever inside a user span (a seat's name is all user)."""
    for text in _fields(view):
        for part, mine in spans(text):
            assert mine or SENTINEL not in part.lower(), f"unmarked user text in {view.kind}: {text!r}"


def _harmless_text(text: str) -> str:
    return "".join(user("x" * len(part)) if mine else part for part, mine in spans(text))


def harmless(view: views.View) -> views.View:
    """The same view with harmless text of the same length in every user span."""
    return dataclasses.replace(
        view,
        title=_harmless_text(view.title),
        lines=tuple(map(_harmless_text, view.lines)),
        grid=tuple(map(_harmless_text, view.grid)),
        seats=tuple(
            dataclasses.replace(s, name="x" * len(s.name), detail=_harmless_text(s.detail))
            for s in view.seats
        ),
    )


def _discord_texts(view: views.View, **kw: bool) -> list[str]:
    rendered = discord_render.render(view, **kw)
    texts = [rendered.content]
    if rendered.embed is not None:
        texts += [rendered.embed.title or "", rendered.embed.description or ""]
    return texts


def assert_escaped(view: views.View) -> None:
    """Property 2, on every platform."""
    calm = harmless(view)
    for kw in ({}, {"mention_active": True}):
        bad, good = _discord_texts(view, **kw), _discord_texts(calm, **kw)
        added = more(sum(map(discord_live, bad), Counter()), sum(map(discord_live, good), Counter()))
        assert not added, f"Discord: {view.kind} gained {dict(added)}: {bad}"
        assert not [leak for text in bad for leak in leaks(text)], bad

    blocks, calm_blocks = slack_blocks.render(view), slack_blocks.render(calm)
    (mrkdwn, plain), (calm_mrkdwn, _) = slack_texts(blocks), slack_texts(calm_blocks)
    mrkdwn.append(slack_blocks.fallback_text(view))
    calm_mrkdwn.append(slack_blocks.fallback_text(calm))
    added = more(sum(map(slack_live, mrkdwn), Counter()), sum(map(slack_live, calm_mrkdwn), Counter()))
    assert not added, f"Slack: {view.kind} gained {dict(added)}: {mrkdwn}"
    assert not [leak for text in mrkdwn + plain for leak in leaks(text)], mrkdwn + plain
    assert not [ch for text in plain for ch in terminal_live(text)], plain  # plain_text: no controls
    for block in blocks:
        if block.get("type") == "section":
            assert block["text"].get("verbatim") is True, block  # no bare URL or @channel is linked

    for colour in (False, True):
        for width in (None, 30):
            shown = terminal_render.render(view, colour=colour, now=0.0, width=width)
            assert not terminal_live(shown), f"terminal: {view.kind}: {shown!r}"


def check(view: views.View) -> None:
    assert_typed(view)
    assert_escaped(view)


def _views(messages: Iterable[Outbound]) -> list[views.View]:
    out = []
    for message in messages:
        if isinstance(message, (Post, Edit, Private)):
            out.append(message.view)
    return out


# ------------------------------------------------------------------ flow 1: the manager, a store, the toy


async def _manager_flow(host_name: str, guest_name: str, word: str) -> list[views.View]:
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'moji.db'}")
        await store.open()
        clock, outbox = FakeClock(), FakeOutbox()
        registry = Registry([TOY])
        manager = GameManager(
            registry,
            outbox,
            StoreGameLog(store),
            clock,
            workspace=Workspace(store, registry),
            rng=random.Random(5),
            settle=0.15,
        )
        host = Player("test", "u1", host_name, is_admin=True)
        guest = Player("test", "u2", guest_name)
        ids = iter(range(1, 1000))

        async def say(who: Player, *words: str) -> None:
            await manager.handle(Command(words[0], tuple(words[1:]), CHAT, who))

        async def typed(who: Player, text: str) -> None:
            ref = MessageRef(CHAT, f"m{next(ids)}")
            await manager.handle(Text(CHAT, who, text, clock.now(), ref))
            await clock.advance(0.2)

        try:
            for name_or_arg in (word, f"{word}=1"):
                await say(host, "start", "toy", name_or_arg)  # neither a game nor an option
            await say(host, word)  # no such command
            await say(host, "rules", word)
            await say(host, "leaderboard", word)
            await say(host, "config", "timezone", word)
            await say(host, "config", word, "1")
            await say(host, "words", "add", word)
            await say(host, "words")
            await say(host, "start", "toy", "target=1")
            await say(guest, "go")  # only the host (named) starts
            await manager.handle(Button(CHAT, guest, views.JOIN))
            await say(host, "go")
            session = manager.sessions[CHAT]
            await typed(guest, word)  # refused: quoted back
            letter = session.engine.letter  # type: ignore[union-attr]
            await typed(guest, letter + "zz")  # the guest wins
            await clock.advance(1)
            for command in ("leaderboard", "stats", "season", "config"):
                await say(host, command)
            await say(guest, "stats")
            await say(host, "start", "toy")
            await say(guest, "join")
            await say(guest, "stop")  # only the host (named) stops
            await say(host, "stop")
            await say(host, "help")
            return _views(outbox.sent)
        finally:
            await manager.shutdown()
            await store.close()


@given(hostile(), hostile(), hostile())
@fuzz(8, 80)
async def test_manager_views_with_hostile_names_and_words(host: str, guest: str, word: str) -> None:
    shown = await _manager_flow(host, guest, word)
    kinds = {view.kind for view in shown}
    assert {"lobby", "table", "result", "leaderboard", "info", "error", "help"} <= kinds, kinds
    for view in shown:
        check(view)


# ------------------------------------------------------------------ flow 2: every game's own texts


REGISTRY = load_default()


def moves(word: str) -> list[str]:
    """``word`` in every place of the games' move notations (each parser's every refusal)."""
    short = "Zyx" + "".join(word.split()[1:])  # one token, still with the sentinel
    return [
        word,
        f"H8 across {word}",
        f"H8 {short} cat",
        f"{short} across cat",
        f"swap {word}",
        f"{short} {short} {short}",
        f"A1 {short}",
        f"{short} A1",
        f"C3 {short}",
        f"cat {short}",
        f"#1+{short} -> cat",
        f"cat+{short}",
        f"cat-{short}",
        f"{short} -> cat",
        f"cat -> {short}",
        f"@{short} cat",
        f"trade {short}",
        f"skip {short}",
        f"{short}!",
        f"challenge {short}",
        f"vote {short}",
        f"letter {short}",
        f"{short}?",
    ]


def _engine_views(info: GameInfo, names: tuple[str, str], word: str) -> list[views.View]:
    seats = marked((Seat("test:u1", names[0]), Seat("test:u2", names[1])))
    options = parse_options(info.options, [])
    engine = info.create(Setup(options, seats, seed=3))
    notices = engine.apply(Action("begin", 0.0))
    for seat in ("test:u1", "test:u2"):
        if info.realtime:
            claims = (Claim(seat, word, 1.0, f"r-{seat}"),)
            notices += engine.apply(Action("claims", 1.0, claims=claims))
        else:
            for move in moves(word):
                notices += engine.apply(Action("say", 1.0, seat=seat, text=move))
    notices += engine.apply(Action("leave", 2.0, seat="test:u2"))
    out = [views.message(n.text, "private" if n.kind == "private" else "announce") for n in notices if n.text]
    out.append(views.table(engine.snapshot(None), info.name, realtime=info.realtime))
    out.append(views.private(engine.snapshot("test:u1"), info.name))
    out.append(views.board_text(engine.snapshot(None), info.name))
    named = {seat.id: names[i] for i, seat in enumerate(seats)}
    out.append(
        views.result(info, engine.result(), named, ending=[n.text for n in notices if n.kind == "end"])
    )
    out.append(views.lobby(info, names[0], names, 1, {**options, **{s.name: word for s in info.options[:1]}}))
    out.append(views.turn("test:u1", f"{user(names[0])}, it's your turn in {info.title}.", 5.0, info.name))
    out.append(views.rules(info))
    return out


@pytest.mark.parametrize("game", REGISTRY.names())
@given(hostile(), hostile(), hostile())
@fuzz(6, 60)
def test_every_game_view_with_hostile_names_and_moves(game: str, first: str, second: str, word: str) -> None:
    for view in _engine_views(REGISTRY.get(game), (first, second), word):
        check(view)


# ------------------------------------------------------------------ the Slack Home tab


@given(hostile(), hostile())
@fuzz(20, 200)
def test_slack_home_tab_escapes_a_schedule_and_the_leaderboard(name: str, args: str) -> None:
    board = views.View(kind="leaderboard", title="🏆 Leaderboard", lines=(f"1. {user(name)} — 3 pts",))
    schedule = Schedule(1, "T1", "C1", (0, 1, 2, 3, 4), "15:00", args=tuple(args.split(" ")))
    page = home_view(board, (schedule, 1_700_000_000.0))
    mrkdwn, plain = slack_texts(page["blocks"])
    assert not [leak for text in mrkdwn + plain for leak in leaks(text)]
    tokens = [key for text in mrkdwn for key in slack_live(text) if key.startswith("token:")]
    assert tokens == ["token:<!date^1700000000^{date_short_pretty} at {time}|1700000000>", "token:<#C1>"]
    assert not [key for text in mrkdwn for key in slack_live(text) if key in ("raw-ampersand", "url")]


# ------------------------------------------------------------------ the escapers themselves


def test_the_issue_s_examples_are_shown_as_typed() -> None:
    nitro = user("[Free Nitro](https://evil.example)")
    assert discord_render.text(f"Players: {nitro}") == (
        "Players: \\[Free Nitro\\]\\(https\\:\\/\\/evil\\.example\\)"
    )
    assert not discord_live(discord_render.text(f"{user('@everyone <@123> <#1> <@&1>')} joined."))
    assert slack_blocks.escape(f"{user('<!channel> <@U1> <https://x|login>')} joined.") == (
        "&lt;!channel&gt; &lt;@U1&gt; &lt;https:\u200b//x|login&gt; joined."
    )
    view = views.message(f"{user('<!channel>')} joined.")
    assert slack_blocks.fallback_text(view) == "&lt;!channel&gt; joined."
    assert terminal_render.text(user("\x1b[2Jhi\u202e")) == " [2Jhi"
    # moji's own tokens stay live
    assert slack_blocks.escape("in <#C1> for <!subteam^S1>") == "in <#C1> for <!subteam^S1>"


@given(st.text())
def test_any_user_text_renders_without_markers_or_controls(text: str) -> None:
    marked = f"a {user(text)} b"
    for shown in (discord_render.text(marked), slack_blocks.escape(marked), terminal_render.text(marked)):
        assert not leaks(shown)
    assert not terminal_live(terminal_render.text(marked))
    assert not discord_live(discord_render.text(user(text)))
    assert not slack_live(slack_blocks.escape(user(text)))
