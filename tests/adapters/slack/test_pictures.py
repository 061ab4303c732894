"""Card pictures: uploaded and shown in the table message; off where uploads are refused."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack import card_pictures
from adapters.slack.store import MemorySlackStore
from bot.clock import FakeClock
from bot.views import View
from tests.adapters.slack.conftest import Harness, running, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import FakeSlack
from tests.adapters.slack.test_game import is_table

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


def draw(view: View) -> bytes | None:
    return PNG if view.cards else None


@pytest.fixture
async def hp(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> AsyncIterator[Harness]:
    async with running(slack, clock, svc, slack_store, renderer=draw) as harness:
        yield harness


async def test_table_picture_is_uploaded_and_shown(hp: Harness) -> None:
    await hp.command("UANN", "start toy")
    await hp.slack.wait_for("chat.postMessage")
    await hp.command("UANN", "go")
    await hp.drain()
    [table] = await hp.slack.wait_for("chat.postMessage", is_table)
    [update] = await hp.slack.wait_for("chat.update", lambda c: "slack_file" in str(c.args.get("blocks")))
    image = update.args["blocks"][-1]
    assert image["type"] == "image" and image["alt_text"].startswith("Cards: ")
    assert hp.slack.uploads[image["slack_file"]["id"]] == PNG
    [complete] = hp.slack.of("files.completeUploadExternal")
    assert not complete.args.get("channel_id") and not complete.args.get("channels")  # not shared anywhere
    assert any(b["type"] == "context" and "Letters:" in str(b) for b in update.args["blocks"])
    assert update.args["text"] == table.args["text"]


async def test_no_files_write_means_emoji_tables_only(hp: Harness) -> None:
    hp.slack.fail["files.getUploadURLExternal"] = [(200, {}, {"ok": False, "error": "missing_scope"})]
    await hp.command("UANN", "start toy")
    await hp.slack.wait_for("chat.postMessage")
    await hp.command("UANN", "go")
    await hp.drain()
    await hp.slack.wait_for("chat.postMessage", is_table)
    await hp.slack.wait_for("files.getUploadURLExternal")
    await until(lambda: bool(hp.adapter.outbox.pictures.disabled))
    assert hp.adapter.outbox.pictures.disabled == {"T1"}
    await hp.command("UANN", "skip")
    await hp.slack.wait_for("chat.postMessage", is_table, count=2)
    assert len(hp.slack.of("files.getUploadURLExternal")) == 1
    assert hp.adapter.manager.errors == []


async def test_the_shared_pillow_renderer_draws_slack_tables(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    pytest.importorskip("adapters.pictures")
    renderer = card_pictures()
    assert renderer is not None
    async with running(slack, clock, svc, slack_store, renderer=renderer) as h:
        await h.command("UANN", "start toy")
        await h.slack.wait_for("chat.postMessage")
        await h.command("UANN", "go")
        await h.drain()
        [update] = await h.slack.wait_for("chat.update", lambda c: "slack_file" in str(c.args.get("blocks")))
        png = h.slack.uploads[update.args["blocks"][-1]["slack_file"]["id"]]
        assert png.startswith(b"\x89PNG")
