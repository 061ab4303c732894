"""The uploads behind :mod:`adapters.slack.faces`: each workspace's card faces drawn, uploaded and
shared in the thread of its shelf message, one worker task per workspace, paced on Slack's buckets.

The faces a table waits for go first (the front of the queue), the rest of a deck after them. A
batch is completed (shared) once it holds :data:`BATCH` faces, nothing else is wanted, or a table
waits for one of its faces and none is next (or the next would wait for Slack's budget). A failure
keeps what was not completed to upload anew, after :data:`RETRY` seconds (doubling); a workspace
that refuses uploads (no ``files:write``) is left with emoji cards.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.blocks import face_alt
from adapters.slack.cardfiles import CardFile, CardFileStore, MemoryCardFiles, Shelf
from bot.core import metrics
from bot.core.clock import Clock
from bot.core.events import ChatKey
from bot.core.views import View
from bot.delivery.pacing import Pacer
from games.common.protocol import CardFace
from games.common.speech import _, speaking

log = logging.getLogger(__name__)

#: A view → PNG bytes (None: no picture). Called in a worker thread.
Renderer = Callable[[View], bytes | None]
#: Errors meaning "this workspace does not let the bot upload files".
NOT_ALLOWED = frozenset({"missing_scope", "not_allowed_token_type", "no_permission", "restricted_action"})
#: Files completed by one files.completeUploadExternal (one reply in the shelf's thread; the method
#: documents no maximum: ten is what Slack's own clients attach to one message).
BATCH = 10
#: Seconds before a workspace's uploads are tried again after a failure, doubling up to the second.
RETRY = (30.0, 1800.0)
#: What Slack answers when the shelf's channel or thread can no longer be shared in.
SHELF_GONE = frozenset(
    {"channel_not_found", "is_archived", "not_in_channel", "invalid_thread_ts", "thread_not_found"}
)

Face = tuple[str, str, int]  # letter, colour, points: what a face picture shows


def face_of(card: CardFace) -> Face:
    """What the picture of ``card`` shows (its owner and the cards under it are not drawn)."""
    return (card.letter, card.colour, card.points)


@dataclass(frozen=True, slots=True)
class Drawn:
    """A face's picture: its PNG and the SHA-256 naming it."""

    png: bytes
    digest: str


@dataclass
class Upload:
    """A face uploaded, waiting for its completion."""

    face: CardFace
    drawn: Drawn
    file_id: str


@dataclass
class Workspace:
    """One workspace's faces: the files it has, the faces it waits for, the worker uploading them."""

    files: dict[str, CardFile] = field(default_factory=dict)
    #: picture → not named before then (Slack refused it while processing it).
    not_before: dict[str, float] = field(default_factory=dict)
    #: Faces to upload, the most wanted first; and those a table is waiting for.
    wanted: OrderedDict[Face, CardFace] = field(default_factory=OrderedDict)
    urgent: set[Face] = field(default_factory=set)
    #: Faces uploaded, waiting for their batch's completion.
    uploads: list[Upload] = field(default_factory=list)
    #: The chat that wanted faces last: its channel gets the shelf, its language the shelf's words.
    chat: ChatKey | None = None
    locale: str = "en"
    decks: set[int] = field(default_factory=set)
    loaded: bool = False
    worker: asyncio.Task[None] | None = None
    idle_until: float = 0.0
    retry: float = 0.0


class FaceUploads:
    """Each workspace's faces as Slack files: the queue and the worker uploading them."""

    def __init__(
        self, renderer: Renderer | None, client_for: Callable[[str], Awaitable[AsyncWebClient]]
    ) -> None:
        self.renderer = renderer
        self.client_for = client_for
        #: Set by the adapter: the database's record of uploads, the clock, the pacer, the decks.
        self.store: CardFileStore = MemoryCardFiles()
        self.clock: Clock | None = None
        self.pacer: Pacer | None = None
        self.deck: Callable[[ChatKey], Sequence[CardFace]] = lambda chat: ()
        #: Workspaces that refused an upload (no files:write): shared with the other pictures.
        self.disabled: set[str] = set()
        self.workspaces: dict[str, Workspace] = {}
        self._drawn: dict[Face, Drawn] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        #: Faces being drawn now (in worker threads).
        self.drawing = 0

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else 0.0

    async def close(self) -> None:
        """Stop the uploads."""
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _space(self, chat: ChatKey, locale: str) -> Workspace:
        space = self.workspaces.setdefault(chat.workspace_id, Workspace())
        space.locale = locale or space.locale
        return space

    def _want(self, chat: ChatKey, cards: Iterable[CardFace], *, urgent: bool) -> None:
        space = self._space(chat, "")
        if not chat.channel_id.startswith("D"):  # (a direct message is no place for the shelf)
            space.chat = chat
        for card in cards:
            face = face_of(card)
            if face not in space.wanted:
                space.wanted[face] = CardFace(*face)
            if urgent:
                space.wanted.move_to_end(face, last=False)
                space.urgent.add(face)
        if space.wanted and (space.worker is None or space.worker.done()):
            space.worker = self._spawn(self._work(chat.workspace_id, space))

    def _spawn(self, work: Awaitable[None]) -> asyncio.Task[None]:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("slack: card pictures")

        task = asyncio.get_running_loop().create_task(run(), name="slack card faces")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def _work(self, team: str, space: Workspace) -> None:
        try:
            if not space.loaded:
                space.files.update(await self.store.card_files(team))
                space.loaded = True
            if space.chat is None and await self.store.card_shelf(team) is None:
                return  # no channel to share them in yet (direct messages only): the next one's game
            while space.wanted or space.uploads:
                if space.idle_until > self._now() and self.clock is not None:
                    await self.clock.sleep_until(space.idle_until)
                upload = await self._next(team, space) if space.wanted else None
                if upload is not None:
                    space.uploads.append(upload)
                if space.uploads and self._complete_now(team, space):
                    await self._complete(team, space)
                    space.retry = 0.0
        except asyncio.CancelledError:
            raise
        except SlackApiError as exc:
            self._failed(team, space, str(exc.response.get("error")))
        except Exception as exc:
            log.exception("slack workspace %s: could not upload card pictures", team)
            self._failed(team, space, repr(exc))

    def _failed(self, team: str, space: Workspace, error: str) -> None:
        for upload in space.uploads:  # never completed: Slack drops them; upload them anew
            face = face_of(upload.face)
            space.wanted[face] = upload.face
            space.wanted.move_to_end(face, last=False)
        space.uploads = []
        if error in NOT_ALLOWED:
            self.disabled.add(team)
            space.wanted.clear()
            log.info("slack workspace %s: no file uploads (%s); tables show emoji cards only", team, error)
            return
        space.retry = min(RETRY[1], space.retry * 2) if space.retry else RETRY[0]
        log.warning(
            "slack workspace %s: card pictures not uploaded (%s); trying again in %.0f s",
            team,
            error,
            space.retry,
        )
        space.idle_until = self._now() + space.retry
        if space.wanted and self.clock is not None:
            space.worker = self._spawn(self._work(team, space))

    def _complete_now(self, team: str, space: Workspace) -> bool:
        """Complete a batch once it is full, nothing else is wanted, or a table waits for one of
        its faces and no other face a table waits for is next."""
        if len(space.uploads) >= BATCH or not space.wanted:
            return True
        waiting = any(face_of(u.face) in space.urgent for u in space.uploads)
        return waiting and (next(iter(space.wanted)) not in space.urgent or self._must_wait(team))

    def _must_wait(self, team: str) -> bool:
        """Whether the next upload would wait for Slack's budget."""
        chat = ChatKey("slack", team, "")
        return self.pacer is not None and self.pacer.wait_time("files.getUploadURLExternal", chat) > 0

    async def _next(self, team: str, space: Workspace) -> Upload | None:
        """Draw the most wanted face and upload it (its completion comes with its batch's)."""
        face, card = next(iter(space.wanted.items()))
        drawn = self._drawn.get(face) or await self._draw(card)
        pending = {u.drawn.digest for u in space.uploads}
        if drawn is None or drawn.digest in space.files or drawn.digest in pending:
            space.wanted.pop(face, None)
            space.urgent.discard(face)
            return None
        with speaking(space.locale):
            alt = face_alt(card)
        client = await self.client_for(team)
        got = await self._paced(
            "files.getUploadURLExternal",
            team,
            lambda: client.files_getUploadURLExternal(
                filename="moji-card.png", length=len(drawn.png), alt_txt=alt
            ),
        )
        timeout = aiohttp.ClientTimeout(total=30)
        async with (
            aiohttp.ClientSession(timeout=timeout) as http,
            http.post(str(got["upload_url"]), data=drawn.png) as answer,
        ):
            answer.raise_for_status()
        space.wanted.pop(face, None)
        return Upload(card, drawn, str(got["file_id"]))

    async def _draw(self, card: CardFace) -> Drawn | None:
        assert self.renderer is not None
        self.drawing += 1
        try:
            png = await asyncio.to_thread(self.renderer, View(kind="table", cards=(card,)))
        finally:
            self.drawing -= 1
        if not png:
            return None
        drawn = self._drawn[face_of(card)] = Drawn(png, hashlib.sha256(png).hexdigest())
        return drawn

    async def _complete(self, team: str, space: Workspace) -> None:
        """Share a batch of uploads in the shelf's thread (a new shelf if the old one is gone)."""
        uploads = space.uploads
        client = await self.client_for(team)
        with speaking(space.locale):
            files: list[dict[str, str | None]] = [
                {"id": u.file_id, "title": face_alt(u.face)} for u in uploads
            ]
        for attempt in (1, 2):
            shelf = await self._shelf(team, space, client)
            try:
                await self._paced(
                    "files.completeUploadExternal",
                    team,
                    partial(
                        client.files_completeUploadExternal,
                        files=files,
                        channel_id=shelf.channel_id,
                        thread_ts=shelf.thread_ts,
                    ),
                )
                break
            except SlackApiError as exc:
                if exc.response.get("error") not in SHELF_GONE or attempt == 2:
                    raise
                log.info("slack workspace %s: the card pictures' shelf is gone; making a new one", team)
                await self.store.drop_card_shelf(team)
        done = {u.drawn.digest: CardFile(u.file_id, self._now()) for u in uploads}
        space.files.update(done)
        space.uploads = []
        for upload in uploads:
            space.urgent.discard(face_of(upload.face))
        await self.store.save_card_files(team, done)

    async def _shelf(self, team: str, space: Workspace, client: AsyncWebClient) -> Shelf:
        shelf = await self.store.card_shelf(team)
        if shelf is not None:
            return shelf
        assert space.chat is not None
        channel = space.chat.channel_id
        with speaking(space.locale):
            text = _(
                "🃏 moji keeps the pictures of its cards in this thread: the game tables show them. "
                "Deleting them only makes moji upload them again."
            )
        posted = await self._paced(
            "post", team, lambda: client.chat_postMessage(channel=channel, text=text), channel=channel
        )
        shelf = Shelf(channel, str(posted["ts"]))
        await self.store.save_card_shelf(team, shelf, self._now())
        return shelf

    async def _paced(
        self, kind: str, team: str, call: Callable[[], Awaitable[Any]], *, channel: str = ""
    ) -> Any:
        """``call`` in its method's slot; a 429 holds the method for Slack's Retry-After, then it is
        tried again (three tries)."""
        chat = ChatKey("slack", team, channel)
        for attempt in (1, 2, 3):
            ticket = await self.pacer.acquire(kind, chat) if self.pacer is not None else None
            try:
                metrics.platform_call("slack", "picture")
                return await call()
            except SlackApiError as exc:
                if exc.response.get("error") != "ratelimited" or attempt == 3:
                    raise
                if self.pacer is not None:
                    self.pacer.penalize(kind, chat, retry_after(exc))
            finally:
                if ticket is not None and self.pacer is not None:
                    self.pacer.release(ticket)
        raise AssertionError("unreachable")


def retry_after(exc: SlackApiError) -> float:
    """The seconds Slack's 429 says to wait (1 when it does not say)."""
    try:
        return float(exc.response.headers.get("Retry-After", 1))
    except (TypeError, ValueError):
        return 1.0
