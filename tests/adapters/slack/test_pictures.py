"""Card pictures on Slack: served by moji's own URL (HTTP mode with a public address), or
uploaded once a table has stayed the same for a while (Socket Mode, no public address);
off where uploads are refused."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack import card_pictures
from adapters.slack.pictures import STABLE, picture_id
from adapters.slack.store import MemorySlackStore
from bot import views
from bot.clock import FakeClock
from bot.events import Post
from bot.registry import Registry
from bot.views import View
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


def has_file(call: Call) -> bool:
    image = image_of(call)
    return image is not None and "slack_file" in image


def table_messages(h: Harness) -> list[Call]:
    """Every accepted post or edit of a table, in order."""
    return [
        c for c in h.slack.calls if c.method in ("chat.postMessage", "chat.update") and c.ok and is_table(c)
    ]


async def status_edit(h: Harness, line: str) -> Call:
    """The game changes what its table says but not its cards: the delivery layer edits it."""
    session = h.adapter.manager.sessions[CHAT]
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
    session = h.adapter.manager.sessions[CHAT]
    assert session.engine is not None and session.engine.next_deadline() == table.at + 10
    return table


@pytest.fixture
async def hp(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> AsyncIterator[Harness]:
    """No public address: pictures are uploaded."""
    async with running(slack, clock, svc, slack_store, renderer=draw) as harness:
        yield harness


async def test_table_picture_is_uploaded_once_the_table_is_stable(hp: Harness) -> None:
    table = await begin(hp)
    assert image_of(table) is None and "🟥" in str(table.args["blocks"])  # shown at once, emoji cards
    await hp.clock.advance_to(table.at + STABLE - 0.1)
    assert [c for c in hp.slack.calls if c.method in UPLOADS] == []  # not stable long enough yet

    await hp.clock.advance_to(table.at + STABLE + 0.25)
    [update] = await hp.slack.wait_for("chat.update", has_file)
    [url] = hp.slack.of("files.getUploadURLExternal")
    assert url.at - table.at >= STABLE
    image = image_of(update)
    assert image is not None and image["alt_text"].startswith("Cards: ")
    assert hp.slack.uploads[image["slack_file"]["id"]] == PNG
    [complete] = hp.slack.of("files.completeUploadExternal")
    assert not complete.args.get("channel_id") and not complete.args.get("channels")  # not shared anywhere
    assert is_table(update) and update.args["text"] == table.args["text"]

    # An edit that does not change the picture (a refusal listed in the table) keeps it.
    wrong = wrong_word(table)
    await claim(hp, "UANN", wrong)
    listed = await run_until(hp, "chat.update", lists("Ann", wrong))
    assert listed.args["ts"] == update.args["ts"] == table.answer["ts"]  # type: ignore[index]
    assert letters(listed) == letters(table) and image_of(listed) == image
    assert hp.adapter.transport.pictures.tasks == set()  # and nothing more to upload
    assert len(hp.slack.of("files.getUploadURLExternal")) == 1
    assert [c for c in hp.slack.of("chat.postMessage") if is_table(c)] == [table]  # edited, never reposted
    assert hp.slack.rate_limited() == []


async def test_a_status_edit_before_the_upload_is_kept_when_the_picture_comes(hp: Harness) -> None:
    table = await begin(hp)
    await hp.clock.advance(1.0)
    edited = await status_edit(hp, "Ann is thinking")
    assert image_of(edited) is None and edited.at - table.at < STABLE
    await hp.clock.advance_to(table.at + STABLE + 0.5)  # stable since the post: the edit kept the cards
    [update] = await hp.slack.wait_for("chat.update", has_file)
    # The picture joins the table as it is now, not as it was when it was posted.
    assert "Ann is thinking" in update.text() and update.args["text"] == edited.args["text"]
    assert update.args["ts"] == edited.args["ts"]
    await hp.clock.advance(STABLE)
    assert len(hp.slack.of("files.getUploadURLExternal")) == 1  # one upload, not one per edit
    assert table_messages(hp)[-1] is update


async def test_new_cards_drop_the_old_picture_until_theirs_is_stable(hp: Harness) -> None:
    table = await begin(hp)
    await hp.clock.advance(STABLE + 0.5)
    [first] = await hp.slack.wait_for("chat.update", has_file)
    old = image_of(first)
    session = hp.adapter.manager.sessions[CHAT]
    engine: Any = session.engine
    before = letters(table)[0]
    for _ in range(20):  # skip until the letter (and so the picture) changes
        await hp.command("UANN", "skip")
        await hp.drain()
        if engine.letter.upper() != before:
            break
    changed = await run_until(hp, "chat.update", lambda c: is_table(c) and letters(c)[0] != before, within=2)
    assert changed.args["ts"] == first.args["ts"]  # the same table message, edited
    assert image_of(changed) is None, "the old picture shows the old cards: it goes"

    await hp.clock.advance(1.0)
    edited = await status_edit(hp, "Ann is thinking")
    assert image_of(edited) is None, "a status edit never brings back a stale picture"
    await hp.clock.advance(STABLE)
    [update] = await hp.slack.wait_for("chat.update", lambda c: has_file(c) and image_of(c) != old)
    new = image_of(update)
    assert new is not None and new["alt_text"] == f"Cards: {letters(changed)[0]}"
    assert letters(update) == letters(changed)
    assert "Ann is thinking" in update.text()
    assert len(hp.slack.of("files.getUploadURLExternal")) == 2


async def test_a_rate_limited_upload_waits_as_slack_says_then_attaches(hp: Harness) -> None:
    limited = (429, {"Retry-After": "2"}, {"ok": False, "error": "ratelimited"})
    hp.slack.fail["files.getUploadURLExternal"] = [limited]
    table = await begin(hp)
    await hp.clock.advance_to(table.at + STABLE)
    update = await run_until(hp, "chat.update", has_file, within=5)
    refused, accepted = hp.slack.of("files.getUploadURLExternal")
    assert refused.status == 429 and accepted.ok
    assert accepted.at - refused.at >= 2  # the pacer held the upload budget for Retry-After
    assert update.args["text"] == table.args["text"]
    assert hp.adapter.transport.pictures.disabled == set() and hp.adapter.manager.errors == []


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
    assert hp.adapter.manager.errors == []


async def test_the_shared_pillow_renderer_draws_slack_tables(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    pytest.importorskip("adapters.pictures")
    renderer = card_pictures()
    assert renderer is not None
    async with running(slack, clock, svc, slack_store, renderer=renderer) as h:
        await begin(h)
        await h.clock.advance(STABLE)
        [update] = await h.slack.wait_for("chat.update", has_file)
        image = image_of(update)
        assert image is not None
        assert h.slack.uploads[image["slack_file"]["id"]].startswith(b"\x89PNG")


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
        session = h.adapter.manager.sessions[CHAT]
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
        assert image_of(table) is None
        await h.clock.advance(STABLE)
        [update] = await h.slack.wait_for("chat.update", has_file)
        assert update.args["text"] == table.args["text"]
