"""Pictures on Slack: served by moji's own URL (HTTP mode with a public address); without one
(Socket Mode, no public address), a board's uploaded into its thread once the table has stayed
the same for a while, and a card table's cards as faces uploaded once (tests/adapters/slack/
test_faces.py); off where uploads are refused."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack import card_pictures
from adapters.slack.faces import PROCESSING
from adapters.slack.pictures import SERVED_PAUSE, STABLE, picture_id
from adapters.slack.store import MemorySlackStore
from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import Post
from bot.core.registry import Registry
from bot.core.views import View
from games.common.protocol import Cell
from tests.adapters.slack.conftest import CHAT, Harness, running, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import Call, FakeSlack
from tests.adapters.slack.test_game import claim, is_table, letters, lists, run_until, wrong_word

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
PUBLIC_URL = "https://moji.example.com"
UPLOADS = ("files.getUploadURLExternal", "files.completeUploadExternal")


def draw(view: View) -> bytes | None:
    return PNG if view.cards else None


def image_of(call: Call) -> dict[str, Any] | None:
    """The image block a table message carries (None: emoji cards only)."""
    return next((b for b in call.args.get("blocks") or [] if b.get("type") == "image"), None)


def faces_of(call: Call) -> list[str]:
    """The files a table message names for its cards (empty: emoji cards)."""
    return [
        str(e["slack_file"]["id"])
        for b in call.args.get("blocks") or []
        if b.get("type") == "context"
        for e in b["elements"]
        if e.get("type") == "image"
    ]


def table_messages(h: Harness) -> list[Call]:
    """Every accepted post or edit of a table, in order."""
    return [
        c for c in h.slack.calls if c.method in ("chat.postMessage", "chat.update") and c.ok and is_table(c)
    ]


async def status_edit(h: Harness, line: str) -> Call:
    """The game changes what its table says but not its cards: the delivery layer edits it."""
    session = h.adapter.runtime.manager.sessions[CHAT]
    assert session.engine is not None
    view = replace(views.table(session.engine.snapshot(None), "toy", realtime=True), lines=(line,))
    await h.adapter.outbox.send(Post(CHAT, view))
    return await run_until(h, "chat.update", lambda c: is_table(c) and line in c.text(), within=1)


async def begin(h: Harness) -> Call:
    """Start a toy game; returns its table's post."""
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage")
    await h.clock.advance(1.0)  # the channel's next chat.postMessage slot: the table goes at once
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    # The hourglass runs out 10 s after the cards show (and the table waits for that, from 2.5 s
    # before): the timings below stay clear of it.
    session = h.adapter.runtime.manager.sessions[CHAT]
    assert session.engine is not None and session.engine.next_deadline() == table.at + 10
    return table


@pytest.fixture
async def hp(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> AsyncIterator[Harness]:
    """No public address: pictures are uploaded."""
    async with running(slack, clock, svc, slack_store, renderer=draw) as harness:
        yield harness


def draw_boards(view: View) -> bytes | None:
    """Pictures of boards only (no card faces: the board's own uploads are all there is)."""
    return PNG if view.board else None


@pytest.fixture
async def hb(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> AsyncIterator[Harness]:
    """No public address, and a board on the table: its picture is uploaded into its thread."""
    async with running(slack, clock, svc, slack_store, renderer=draw_boards) as harness:
        yield harness


BOARD = ((Cell("C", 3), Cell("A", 1), Cell("T", 1)),)
OTHER_BOARD = ((Cell("D", 2), Cell("O", 1), Cell("G", 2)),)


async def board_edit(h: Harness, line: str, board: tuple[tuple[Cell, ...], ...] = BOARD) -> Call:
    """The game shows a board on its table (as a turn-based game does): the table's edit."""
    session = h.adapter.runtime.manager.sessions[CHAT]
    assert session.engine is not None
    view = views.table(session.engine.snapshot(None), "toy", realtime=True)
    view = replace(view, board=board, grid=("C A T",), lines=(line,))
    await h.adapter.outbox.send(Post(CHAT, view))
    return await run_until(h, "chat.update", lambda c: is_table(c) and line in c.text(), within=1)


def completed(h: Harness) -> list[Call]:
    """The uploads completed (files.completeUploadExternal calls that got through)."""
    return [c for c in h.slack.of("files.completeUploadExternal") if c.ok]


def file_of(call: Call) -> str:
    files = call.args["files"]
    files = json.loads(files) if isinstance(files, str) else files
    return str(files[0]["id"])


async def test_a_boards_picture_is_uploaded_into_its_thread_once_the_table_is_stable(hb: Harness) -> None:
    await begin(hb)
    table = await board_edit(hb, "the board")
    assert image_of(table) is None and "```" in str(table.args["blocks"])  # shown at once, text rows
    await hb.clock.advance_to(table.at + STABLE - 0.1)
    assert [c for c in hb.slack.calls if c.method in UPLOADS] == []  # not stable long enough yet

    await hb.clock.advance_to(table.at + STABLE + 0.25)
    [complete] = await hb.slack.wait_for("files.completeUploadExternal")
    [url] = hb.slack.of("files.getUploadURLExternal")
    assert url.at - table.at >= STABLE
    # Completed into the channel, in the table's thread: shared (a file completed without a channel
    # is private to the app, and no message could show it), shown by Slack once processed.
    ts = table.args["ts"]
    assert complete.args["channel_id"] == "C1" and complete.args["thread_ts"] == ts
    file = hb.slack.files[file_of(complete)]
    assert file.channel == "C1" and hb.slack.uploads[file.id] == PNG
    assert json.loads(complete.args["files"])[0]["title"]
    # No message of moji's refers to the file: nothing can be refused while Slack processes it.
    assert not [c for c in table_messages(hb) if image_of(c) is not None]
    assert [c for c in hb.slack.calls if c.answer and c.answer.get("error") == "invalid_blocks"] == []

    # An edit that does not change the board uploads nothing more.
    await board_edit(hb, "the same board")
    await hb.clock.advance(STABLE + 0.5)
    assert hb.adapter.transport.pictures.tasks == set()
    assert len(hb.slack.of("files.getUploadURLExternal")) == 1
    assert hb.slack.rate_limited() == []


async def test_a_quiet_games_board_pictures_go_to_the_lobbys_thread(hb: Harness) -> None:
    await hb.command("UADMIN", "config quiet on")
    await hb.slack.wait_for("chat.postEphemeral")
    first = await begin(hb)
    lobby = hb.slack.of("chat.postMessage")[0]
    assert first.args["thread_ts"] == lobby.answer["ts"]  # type: ignore[index]
    table = await board_edit(hb, "the board")
    await hb.clock.advance_to(table.at + STABLE + 0.25)
    [complete] = await hb.slack.wait_for("files.completeUploadExternal")
    # "Never use a reply's ts value; use its parent instead" (files.completeUploadExternal)
    assert complete.args["thread_ts"] == lobby.answer["ts"]  # type: ignore[index]


async def test_a_changed_board_gets_its_own_picture_once_stable(hb: Harness) -> None:
    await begin(hb)
    table = await board_edit(hb, "one")
    await hb.clock.advance(1.0)
    await board_edit(hb, "still one")  # the board stays: still one picture, once stable
    await hb.clock.advance_to(table.at + STABLE + 0.5)
    [first] = await hb.slack.wait_for("files.completeUploadExternal")
    changed = await board_edit(hb, "two", board=OTHER_BOARD)
    assert changed.args["ts"] == table.args["ts"]
    await hb.clock.advance(STABLE + 0.5)
    first_again, second = await hb.slack.wait_for("files.completeUploadExternal", count=2)
    assert first_again is first and second.args["thread_ts"] == first.args["thread_ts"]
    assert len(hb.slack.of("files.getUploadURLExternal")) == 2


async def test_a_rate_limited_upload_waits_as_slack_says_then_attaches(hp: Harness) -> None:
    limited = (429, {"Retry-After": "2"}, {"ok": False, "error": "ratelimited"})
    hp.slack.fail["files.getUploadURLExternal"] = [limited]
    table = await begin(hp)
    await hp.clock.advance_to(table.at + STABLE)
    await run_until(hp, "files.completeUploadExternal", lambda c: c.ok, within=5)
    refused, accepted = hp.slack.of("files.getUploadURLExternal")
    assert refused.status == 429 and accepted.ok
    assert accepted.at - refused.at >= 2  # the pacer held the upload budget for Retry-After
    assert hp.adapter.transport.pictures.disabled == set() and hp.adapter.runtime.manager.errors == []


async def test_no_files_write_means_emoji_tables_only(hp: Harness) -> None:
    hp.slack.fail["files.getUploadURLExternal"] = [(200, {}, {"ok": False, "error": "missing_scope"})]
    table = await begin(hp)
    await hp.clock.advance(STABLE)
    await hp.slack.wait_for("files.getUploadURLExternal")
    await until(lambda: bool(hp.adapter.transport.pictures.disabled))
    assert hp.adapter.transport.pictures.disabled == {"T1"}
    await hp.command("UANN", "skip")  # new cards (most likely): a new picture, had uploads been allowed
    await hp.drain()
    await hp.clock.advance(STABLE + 1)
    assert [c for c in hp.slack.of("chat.postMessage") if is_table(c)] == [table]
    assert len(hp.slack.of("files.getUploadURLExternal")) == 1  # refused once, never asked again
    assert not [c for c in table_messages(hp) if image_of(c) is not None]
    assert hp.adapter.runtime.manager.errors == []


async def test_the_shared_pillow_renderer_draws_slack_tables(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    pytest.importorskip("adapters.pictures")
    renderer = card_pictures()
    assert renderer is not None
    async with running(slack, clock, svc, slack_store, renderer=renderer) as h:
        await begin(h)
        await h.clock.advance(STABLE)
        [complete] = await h.slack.wait_for("files.completeUploadExternal")
        assert h.slack.uploads[file_of(complete)].startswith(b"\x89PNG")


# ------------------------------------------------------------ served by URL

SECRET_WORD = "QZXJV"


class Drawn:
    """A renderer that remembers every view it was asked to draw."""

    def __init__(self, inner: Any = draw) -> None:
        self.inner = inner
        self.views: list[View] = []

    def __call__(self, view: View) -> bytes | None:
        self.views.append(view)
        return self.inner(view)  # type: ignore[no-any-return]


@pytest.fixture
def registry() -> Registry:
    from tests.adapters.slack.test_privacy import SECRET
    from tests.bot.toygame import TOY

    return Registry([TOY, SECRET])


async def test_served_pictures_are_an_image_url_on_the_table_itself(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    drawn = Drawn()
    async with running(slack, clock, svc, slack_store, renderer=drawn, public_url=PUBLIC_URL + "/") as h:
        slack.image_hosts[PUBLIC_URL] = h.url  # Slack reaches moji at its public address
        await h.command("UANN", "start secret")
        await h.slack.wait_for("chat.postMessage")
        await h.command("UANN", "go")
        await h.drain()
        [table] = await h.slack.wait_for("chat.postMessage", is_table)
        await h.slack.wait_for("chat.postEphemeral", lambda c: SECRET_WORD in c.text())

        # The table carries its picture from its first post: no upload, no extra call.
        image = image_of(table)
        assert image is not None and "slack_file" not in image
        match = re.fullmatch(re.escape(PUBLIC_URL) + r"/pictures/([0-9a-f]{32})\.png", image["image_url"])
        assert match, image["image_url"]
        assert image["alt_text"] == "Cards: " + " ".join(letters(table))
        key = match.group(1)

        # The URL is the content address of what every player sees on the table, nothing more:
        # no rack, no name, no channel, no query string.
        session = h.adapter.runtime.manager.sessions[CHAT]
        assert session.engine is not None
        public = views.table(session.engine.snapshot(None), "secret", realtime=True)
        assert key == picture_id(public)
        assert key == picture_id(views.View(kind="table", title=public.title, cards=public.cards))
        for hidden in (SECRET_WORD, SECRET_WORD.lower(), "UANN", "Ann", "C1", "T1", "?"):
            assert hidden not in image["image_url"]

        # Slack fetches it from moji: a PNG, cacheable (the same cards keep the same address).
        async with h.http.get(f"{h.url}/pictures/{key}.png") as resp:
            assert resp.status == 200 and resp.content_type == "image/png"
            assert "immutable" in resp.headers["Cache-Control"]
            assert await resp.read() == PNG
        assert len(drawn.views) == 1 and all(SECRET_WORD not in v.plain() for v in drawn.views)
        async with h.http.get(f"{h.url}/pictures/{key}.png") as resp:
            assert resp.status == 200 and await resp.read() == PNG
        assert len(drawn.views) == 1, "drawn once, then kept"
        async with h.http.get(f"{h.url}/pictures/{'0' * 32}.png") as resp:
            assert resp.status == 404  # only pictures of tables moji showed

        # Later edits keep the same image block while the cards stay; nothing is ever uploaded.
        wrong = wrong_word(table)
        await claim(h, "UANN", wrong)
        listed = await run_until(h, "chat.update", lists("Ann", wrong))
        assert letters(listed) == letters(table) and image_of(listed) == image
        # New cards: the same message, edited, with the new picture's address.
        engine: Any = session.engine
        before = letters(table)[0]
        for _ in range(20):  # skip until the letter (and so the picture) changes
            await h.command("UANN", "skip")
            await h.drain()
            if engine.letter.upper() != before:
                break
        changed = await run_until(h, "chat.update", lambda c: is_table(c) and letters(c)[0] != before)
        moved = image_of(changed)
        assert moved is not None and moved["image_url"] != image["image_url"]
        assert changed.args["ts"] == listed.args["ts"]
        async with h.http.get(moved["image_url"].replace(PUBLIC_URL, h.url)) as resp:
            assert resp.status == 200 and await resp.read() == PNG
        drawn_cards = [v.card_line().split() for v in drawn.views]
        assert drawn_cards == [letters(table), letters(changed)]  # each picture drawn once

        await h.clock.advance(STABLE)
        assert h.adapter.transport.pictures.tasks == set()
        assert [c for c in h.slack.calls if c.method in UPLOADS] == []
        shared = [c for c in h.slack.calls if c.method not in ("chat.postEphemeral", "response_url")]
        assert not [c for c in shared if SECRET_WORD in json.dumps(c.args, ensure_ascii=False)]


async def test_socket_mode_uploads_even_with_a_public_url(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(
        slack, clock, svc, slack_store, renderer=draw, public_url=PUBLIC_URL, app_token="xapp-1-test"
    ) as h:
        assert h.adapter.transport.pictures.base_url == ""  # Slack never reaches a Socket Mode app
        table = await begin(h)
        assert image_of(table) is None and faces_of(table) == []  # the face is not uploaded yet
        complete = await run_until(h, "files.completeUploadExternal", lambda c: True)
        [shelf] = [c for c in h.slack.of("chat.postMessage") if "pictures of its cards" in c.text()]
        assert complete.args["thread_ts"] == shelf.answer["ts"]  # type: ignore[index]
        await h.clock.advance(PROCESSING)
        edit = await status_edit(h, "Ann is thinking")
        assert faces_of(edit) == [file_of(complete)] and image_of(edit) is None


async def new_cards(h: Harness, before: str) -> Call:
    """Skip until the letter (and so the picture) changes; the table's edit."""
    engine: Any = h.adapter.runtime.manager.sessions[CHAT].engine
    for _ in range(20):
        await h.command("UANN", "skip")
        await h.drain()
        if engine.letter.upper() != before:
            break
    return await run_until(h, "chat.update", lambda c: is_table(c) and letters(c)[0] != before)


async def test_a_public_url_slack_cannot_reach_still_gets_every_table_through(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    # PUBLIC_URL names a host Slack cannot download from (no image_hosts entry): every image block
    # makes the message invalid_blocks, "downloading image failed".
    async with running(slack, clock, svc, slack_store, renderer=draw, public_url=PUBLIC_URL) as h:
        await h.command("UANN", "start toy")
        await h.slack.wait_for("chat.postMessage")
        await h.clock.advance(1.0)
        await h.command("UANN", "go")
        await h.drain()
        refused, table = await h.slack.wait_for("chat.postMessage", is_table, count=2)
        assert refused.answer is not None and refused.answer["error"] == "invalid_blocks"
        assert "downloading image failed" in refused.answer["errors"][0] and image_of(refused)
        # Sent again without the picture, in the channel's next post slot (no 429): it arrives.
        assert table.ok and table.answer is not None and table.answer["ok"] and image_of(table) is None
        assert table.at - refused.at >= 1.0 and h.slack.rate_limited() == []
        assert table.args["text"] == refused.args["text"]
        assert h.adapter.runtime.manager.errors == []

        # Served pictures pause in the workspace: the next tables cost one call each, not two.
        changed = await new_cards(h, letters(table)[0])
        assert image_of(changed) is None and changed.answer is not None and changed.answer["ok"]
        refusals = [c for c in h.slack.calls if c.answer and c.answer.get("error") == "invalid_blocks"]
        assert refusals == [refused]
        assert h.adapter.transport.pictures.refusals == 1


async def test_slacks_passing_download_failure_costs_one_table_its_picture_for_a_while(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(slack, clock, svc, slack_store, renderer=draw, public_url=PUBLIC_URL) as h:
        slack.image_hosts[PUBLIC_URL] = h.url
        table = await begin(h)
        assert image_of(table) is not None
        slack.image_failures = 1  # Slack's own intermittent "downloading image failed"
        mark = len(h.slack.calls)
        await new_cards(h, letters(table)[0])
        # The failure lands on whichever table edit first carries a picture: a skip may flip a card
        # with the same letter, so it need not be the edit that new_cards waited for.
        [refused] = [
            c for c in h.slack.calls[mark:] if c.answer and c.answer.get("error") == "invalid_blocks"
        ]
        assert is_table(refused) and image_of(refused) is not None
        later = h.slack.calls[h.slack.calls.index(refused) + 1 :]
        edit = next(c for c in later if c.method == "chat.update" and is_table(c) and c.ok)
        assert image_of(edit) is None and letters(edit) == letters(refused)  # the new cards, arrived
        # After the pause, pictures come back (the next change of cards shows one again).
        resumed = refused.at + SERVED_PAUSE
        await h.clock.advance_to(resumed + 1)
        mark = len(h.slack.calls)
        await new_cards(h, letters(edit)[0])
        after = [c for c in h.slack.calls[mark:] if is_table(c) and c.ok and c.at >= resumed]
        assert after and all(image_of(c) is not None and c.answer and c.answer["ok"] for c in after)
        paused = [c for c in table_messages(h) if refused.at < c.at < resumed]
        assert all(image_of(c) is None for c in paused)
        assert h.adapter.runtime.manager.errors == [] and h.slack.rate_limited() == []
