"""A table's card pictures when Slack will not show a file: each refusal as Slack answers it (the
fake's strict file rules: ``invalid_blocks``, "invalid slack file", pointing at the element), and
the table always arrives — sent again at once as text — while the face is named again once
processed, or uploaded again when Slack no longer has it (deleted, another workspace's, private).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.cardfiles import CardFile, Shelf
from adapters.slack.faces import PROCESSING, YOUNG
from adapters.slack.store import MemorySlackStore
from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Post
from bot.core.views import View
from games.common.protocol import CardFace
from tests.adapters.slack.conftest import CHAT, Harness, running, tick_until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import Call, FakeFile, FakeSlack
from tests.adapters.slack.test_game import is_table, run_until
from tests.adapters.slack.test_pictures import begin, faces_of

QUIZ = CardFace("Q", "blue", 10)
PNG = b"\x89PNG\r\n\x1a\n"


def draw(view: View) -> bytes | None:
    """A picture of each set of cards of its own (a face is one card)."""
    return PNG + repr([(c.letter, c.colour, c.points) for c in view.cards]).encode() if view.cards else None


def picture(face: CardFace) -> str:
    """The name moji gives the face's picture: the SHA-256 of its PNG."""
    png = draw(View(kind="table", cards=(face,)))
    assert png is not None
    return hashlib.sha256(png).hexdigest()


@pytest.fixture
async def h(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> AsyncIterator[Harness]:
    async with running(slack, clock, svc, slack_store, renderer=draw) as harness:
        yield harness


async def show(h: Harness, line: str, *cards: CardFace) -> Call:
    """The game shows ``cards`` on its table (and ``line``): the table's edit Slack took."""
    session = h.adapter.runtime.manager.sessions[CHAT]
    assert session.engine is not None
    view = views.table(session.engine.snapshot(None), "toy", realtime=True)
    await h.adapter.outbox.send(Post(CHAT, replace(view, cards=cards or (QUIZ,), lines=(line,))))
    return await run_until(h, "chat.update", lambda c: line in c.text() and bool(c.answer and c.answer["ok"]))


async def completion(h: Harness, count: int = 1) -> Call:
    """Let the clock run until the ``count``-th upload of the face is completed: that completion."""

    def of_quiz(call: Call) -> bool:
        return any(f["title"] == "Blue card Q, 10 points" for f in json.loads(call.args["files"]))

    await run_until(h, "files.completeUploadExternal", lambda c: len(uploaded(h, QUIZ)) >= count)
    return [c for c in h.slack.of("files.completeUploadExternal") if c.ok and of_quiz(c)][count - 1]


async def second_table(h: Harness) -> None:
    """Start a toy game where a table was posted before (``begin`` wants the first)."""
    await h.command("UANN", "start toy")
    await h.clock.advance(1.0)
    await h.command("UANN", "go")
    await h.drain()
    await h.slack.wait_for("chat.postMessage", is_table, count=2)


async def idle(h: Harness) -> None:
    """Let the clock run until no face is being drawn or uploaded."""
    faces = h.adapter.transport.pictures.faces
    await tick_until(h.clock, lambda: not faces.tasks, busy=lambda: h.slack.inflight > 0 or faces.drawing > 0)


def refusals(h: Harness) -> list[Call]:
    return [c for c in h.slack.calls if c.answer and c.answer.get("error") == "invalid_blocks"]


def uploaded(h: Harness, face: CardFace) -> list[str]:
    """The files completed for ``face`` (by the title moji gives it), in order."""
    title = "Blue card Q, 10 points" if face == QUIZ else ""
    return [
        f["id"]
        for c in h.slack.of("files.completeUploadExternal")
        if c.ok
        for f in json.loads(c.args["files"])
        if f["title"] == title
    ]


async def test_a_face_is_named_once_slack_has_processed_its_file(h: Harness) -> None:
    table = await begin(h)
    assert faces_of(table) == [] and "🟥" in str(table.args["blocks"])  # at once, as emoji
    first = await show(h, "one")
    assert faces_of(first) == []
    complete = await completion(h)
    # Shared in the thread of moji's shelf message, in the channel: never private to the app.
    [shelf] = [c for c in h.slack.of("chat.postMessage") if "pictures of its cards" in c.text()]
    assert complete.args["channel_id"] == "C1" and complete.args["thread_ts"] == shelf.answer["ts"]  # type: ignore[index]
    [file_id] = uploaded(h, QUIZ)
    assert h.slack.files[file_id].channel == "C1" and h.slack.uploads[file_id].startswith(PNG)
    # Named only once Slack has had the time to process it.
    await h.clock.advance_to(complete.at + PROCESSING)
    second = await show(h, "two")
    assert faces_of(second) == [file_id]
    [image] = [
        e for b in second.args["blocks"] if b["type"] == "context" for e in b["elements"] if "slack_file" in e
    ]
    assert image["alt_text"] == "Blue card Q, 10 points"
    assert "Letters: Q" in str(second.args["blocks"]) and "Cards: Q" in second.args["text"]
    assert refusals(h) == [] and h.slack.rate_limited() == []


async def test_a_file_slack_is_still_processing_is_refused_and_the_table_goes_as_text(h: Harness) -> None:
    h.slack.file_processing = PROCESSING + 5  # Slack slower than moji assumes
    await begin(h)
    await show(h, "one")
    complete = await completion(h)
    [file_id] = uploaded(h, QUIZ)
    await h.clock.advance_to(complete.at + PROCESSING)
    mark = len(h.slack.calls)
    second = await show(h, "two")
    [refused] = refusals(h)
    assert refused.method == "chat.update" and faces_of(refused) == [file_id]
    assert refused.answer["errors"] == ["invalid slack file [json-pointer:/blocks/1/elements/0/slack_file]"]  # type: ignore[index]
    # The same table again at once, as text: it arrives, and nothing waits for Slack.
    assert faces_of(second) == [] and second.at == refused.at and h.slack.calls.index(second) > mark
    assert "🟦 *Q* 10" in str(second.args["blocks"])
    # Still being processed: named again a little later, not uploaded again.
    await h.clock.advance_to(complete.at + h.slack.file_processing)
    third = await show(h, "three")
    assert faces_of(third) == [file_id] and uploaded(h, QUIZ) == [file_id]
    assert len(refusals(h)) == 1 and h.slack.rate_limited() == []
    assert h.adapter.runtime.manager.errors == []


async def test_a_file_slack_forgot_is_uploaded_again(h: Harness) -> None:
    await begin(h)
    await show(h, "one")
    complete = await completion(h)
    await h.clock.advance_to(complete.at + PROCESSING)
    [file_id] = uploaded(h, QUIZ)
    assert faces_of(await show(h, "two")) == [file_id]

    del h.slack.files[file_id]  # someone deleted it from the shelf's thread
    await h.clock.advance(YOUNG)
    table = await show(h, "three")
    [refused] = refusals(h)
    assert faces_of(refused) == [file_id] and faces_of(table) == []  # sent again as text at once
    again = await completion(h, 2)
    new = uploaded(h, QUIZ)[1]
    assert new != file_id
    await h.clock.advance_to(again.at + PROCESSING)
    assert faces_of(await show(h, "four")) == [new]
    assert len(refusals(h)) == 1 and h.slack.rate_limited() == []
    assert h.adapter.runtime.manager.errors == []


@pytest.mark.parametrize(
    ("whose", "shared"),
    [("T2", "C1"), ("T1", "")],
    ids=["another-workspaces", "private-to-the-app"],
)
async def test_a_file_moji_cannot_show_here_is_refused_then_uploaded(
    h: Harness, slack_store: MemorySlackStore, whose: str, shared: str
) -> None:
    """A file on record that Slack will not show in this workspace — another workspace's (a copied
    database), or one completed without a channel (private to the app) — is refused like Slack
    refuses it; the table goes as text and the face is uploaded into the shelf's thread."""
    h.slack.files["FOLD"] = FakeFile("FOLD", shared, "", ready_at=0.0, team=whose)
    await slack_store.card_files.save_card_files(
        "T1", {picture(QUIZ): CardFile("FOLD", h.clock.now() - 3600)}
    )
    await begin(h)
    await show(h, "one")
    await idle(h)  # its face drawn, found on record
    table = await show(h, "two")
    [refused] = refusals(h)
    assert faces_of(refused) == ["FOLD"] and faces_of(table) == []
    assert refused.answer["errors"][0].startswith("invalid slack file")  # type: ignore[index]
    complete = await completion(h)
    [new] = uploaded(h, QUIZ)
    assert h.slack.files[new].team == "T1" and h.slack.files[new].channel == "C1"
    await h.clock.advance_to(complete.at + PROCESSING)
    assert faces_of(await show(h, "three")) == [new]
    assert "FOLD" not in {f.file_id for f in (await slack_store.card_files.card_files("T1")).values()}
    assert len(refusals(h)) == 1 and h.slack.rate_limited() == []


async def test_a_gone_shelf_is_replaced(h: Harness, slack_store: MemorySlackStore) -> None:
    """The shelf's channel was archived: its thread takes no more files; a new shelf is posted in the
    channel of the game that needs pictures now."""
    await slack_store.card_files.save_card_shelf("T1", Shelf("COLD", "1700000000.000001"), 0.0)
    h.slack.lose_channel("COLD", "archived")
    await begin(h)
    await show(h, "one")
    complete = await completion(h)
    refused = [c for c in h.slack.of("files.completeUploadExternal") if c.args.get("channel_id") == "COLD"]
    assert refused and refused[0].answer == {"ok": False, "error": "is_archived"}
    [shelf] = [c for c in h.slack.of("chat.postMessage") if "pictures of its cards" in c.text()]
    assert shelf.args["channel"] == "C1" and complete.args["thread_ts"] == shelf.answer["ts"]  # type: ignore[index]
    assert await slack_store.card_files.card_shelf("T1") == Shelf("C1", shelf.answer["ts"])  # type: ignore[index]


async def test_a_restarted_process_names_the_files_it_uploaded_before(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(slack, clock, svc, slack_store, renderer=draw) as h:
        await begin(h)
        await show(h, "one")
        await completion(h)
        await h.command("UADMIN", "stop")
        await h.drain()
    await clock.advance(PROCESSING)
    async with running(slack, clock, svc, slack_store, renderer=draw) as h:
        await second_table(h)
        await show(h, "one again")
        await idle(h)  # found on record
        shown = await show(h, "two")
        assert faces_of(shown) == uploaded(h, QUIZ) and len(uploaded(h, QUIZ)) == 1
    assert refusals(h) == []


def test_is_table_still_reads_a_pictured_table() -> None:
    assert is_table(
        Call(
            "chat.update",
            {"blocks": [{"type": "context", "elements": [{"type": "plain_text", "text": "Letters: Q"}]}]},
        )
    )


async def test_the_shelf_is_never_a_direct_message(h: Harness) -> None:
    """A table in someone's direct messages with moji (their daily) waits, as emoji cards, for a
    game in a channel: the shelf goes there, never into a person's direct messages."""
    im = ChatKey("slack", "T1", "DUANN")
    await h.adapter.outbox.send(Post(im, View(kind="table", title="daily", cards=(QUIZ,))))
    await run_until(h, "chat.postMessage", lambda c: c.args.get("channel") == "DUANN")
    await idle(h)
    assert [c for c in h.slack.calls if c.method.startswith("files.")] == []
    await second_table(h)
    await show(h, "one")
    complete = await completion(h)
    [shelf] = [c for c in h.slack.of("chat.postMessage") if "pictures of its cards" in c.text()]
    assert shelf.args["channel"] == "C1" and complete.args["channel_id"] == "C1"
