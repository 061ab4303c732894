"""Card faces on Slack: each card of a table as an image naming a file uploaded once per workspace.

Without a public address (Socket Mode, or HTTP without ``PUBLIC_URL``) Slack cannot fetch a
picture from moji, and a picture uploaded per table would cost two more Web API calls and a few
seconds of Slack's processing before any message may show it — longer than a lively race's table
lasts. But a race table is only ever a row of cards, and a deck has few faces (104 in English).
So each face is drawn once (by :mod:`adapters.pictures`, through the adapter's renderer) and
uploaded once per workspace, and a table shows its cards as a row of Block Kit image elements
naming those files (``slack_file: {"id": …}``): a new table costs only its ``chat.update``.

How the files are made, as Slack documents it:

- A file may be shown only by someone who has access to it ("the user posting these blocks must
  have access to this file", the Slack file object) and only once Slack has processed it (uploads
  complete asynchronously). A file completed without a channel "will be private"
  (files.completeUploadExternal). So the faces are completed *into a channel*: in the thread of one
  message of moji's per workspace, its *shelf* (posted once, in the channel of the first game that
  needed pictures, saying what the thread is for), up to :data:`BATCH` files per completion; and a
  file is named by a table only :data:`PROCESSING` seconds after its completion.
- Each face costs one ``files.getUploadURLExternal``, the upload and a share of one
  ``files.completeUploadExternal`` (both Tier 4: about 100 a minute per workspace), paced with the
  adapter's other calls. The faces a table needs now go first; the rest of the game's deck (the
  game declares it: :attr:`games.common.protocol.GameInfo.faces`) follows from the moment its
  lobby opens, so a workspace's first race gets its pictures within about a minute and every
  later one from its first table.
- A face is named by the SHA-256 of its PNG: a face drawn differently (a new design) is a new
  file; the same picture in two languages is one file. What was uploaded is kept in the
  database (:mod:`adapters.slack.cardfiles`), so a restart uploads nothing again.

A table is never held back for a picture: a card whose face is not ready yet is shown as its
emoji text in the row (a table with none ready, as the emoji line), and the missing faces are
uploaded first. When Slack refuses a message for one of them (``invalid_blocks``,
"invalid slack file" pointing at an element), the transport sends it again without pictures at
once and :meth:`Faces.refused` decides: a file completed less than :data:`YOUNG` seconds ago is
still being processed (named again a little later); an older one Slack has forgotten (deleted by
someone, or of another workspace): it is uploaded again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
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
#: Seconds after its completion before a file is named by a table: Slack processes uploads
#: asynchronously ("a few moments"; "this typically takes 1-2 seconds", Metabase's
#: src/metabase/channel/slack.clj).
PROCESSING = 3.0
#: A refused file completed less than this long ago is still being processed; an older one is gone.
YOUNG = 60.0
#: Seconds before a workspace's uploads are tried again after a failure.
RETRY = 30.0
#: The most cards one table shows as pictures (three context blocks of ten elements).
MOST = 30
#: A refusal's pointer at an image element: ``/blocks/3/elements/1/slack_file``.
_POINTER = re.compile(r"/blocks/(\d+)/elements/(\d+)/slack_file")
#: What Slack answers when the shelf's channel or thread can no longer be shared in.
SHELF_GONE = frozenset(
    {"channel_not_found", "is_archived", "not_in_channel", "invalid_thread_ts", "thread_not_found"}
)

Face = tuple[str, str, int]  # letter, colour, points: what a face picture shows


def face_of(card: CardFace) -> Face:
    """What the picture of ``card`` shows (its owner and the cards under it are not drawn)."""
    return (card.letter, card.colour, card.points)


@dataclass(frozen=True, slots=True)
class _Drawn:
    """A face's picture: its PNG and the SHA-256 naming it."""

    png: bytes
    digest: str


@dataclass
class _Upload:
    """A face uploaded, waiting for its completion."""

    face: CardFace
    drawn: _Drawn
    file_id: str


@dataclass
class _Workspace:
    """One workspace's faces: the files it has, the faces it waits for, the worker uploading them."""

    files: dict[str, CardFile] = field(default_factory=dict)
    #: picture → not named before then (Slack refused it while processing it).
    not_before: dict[str, float] = field(default_factory=dict)
    #: Faces to upload, the most wanted first; and those a table is waiting for.
    wanted: OrderedDict[Face, CardFace] = field(default_factory=OrderedDict)
    urgent: set[Face] = field(default_factory=set)
    #: Faces uploaded, waiting for their batch's completion.
    uploads: list[_Upload] = field(default_factory=list)
    #: The chat that wanted faces last: its channel gets the shelf, its language the shelf's words.
    chat: ChatKey | None = None
    locale: str = "en"
    decks: set[int] = field(default_factory=set)
    loaded: bool = False
    worker: asyncio.Task[None] | None = None
    idle_until: float = 0.0


class Faces:
    """Each workspace's card faces as Slack files, uploaded once (see the module docstring)."""

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
        self.workspaces: dict[str, _Workspace] = {}
        self._drawn: dict[Face, _Drawn] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        #: Faces being drawn now (in worker threads).
        self.drawing = 0
        #: Messages Slack refused for a face (each then sent again without pictures).
        self.refusals = 0

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else 0.0

    def _usable(self, chat: ChatKey) -> bool:
        return self.renderer is not None and chat.workspace_id not in self.disabled

    def files(self, chat: ChatKey, view: View) -> tuple[str | None, ...] | None:
        """The file of each card of ``view``, in order (None for a card whose picture is not ready
        yet: those are uploaded before any other); None when no card has one (the table goes as
        text)."""
        if not view.cards or view.board or len(view.cards) > MOST or not self._usable(chat):
            return None
        space = self._space(chat, view.locale)
        now = self._now()
        found: list[str | None] = []
        missing: list[CardFace] = []
        for card in view.cards:
            drawn = self._drawn.get(face_of(card))
            file = space.files.get(drawn.digest) if drawn is not None else None
            if drawn is None or file is None:
                missing.append(card)
                found.append(None)
                continue
            ready = max(file.uploaded_at + PROCESSING, space.not_before.get(drawn.digest, 0.0)) <= now
            found.append(file.file_id if ready else None)
        if missing:
            self._want(chat, missing, urgent=True)
        return tuple(found) if any(found) else None

    def expect(self, chat: ChatKey, locale: str) -> None:
        """A game opens or plays in ``chat``: upload the faces of its deck that are not there yet."""
        if not self._usable(chat):
            return
        deck = tuple(self.deck(chat))
        space = self._space(chat, locale)
        if deck and hash(deck) not in space.decks:
            space.decks.add(hash(deck))
            self._want(chat, deck, urgent=False)

    def refused(self, chat: ChatKey, exc: BaseException, blocks: Sequence[dict[str, Any]]) -> None:
        """Slack refused a message for a face's file (see the module docstring)."""
        self.refusals += 1
        space = self._space(chat, "")
        errors = exc.response.get("errors") if isinstance(exc, SlackApiError) else None
        now = self._now()
        for error in errors or []:
            match = _POINTER.search(str(error))
            if match is None:
                continue
            try:
                block, element = (int(n) for n in match.groups())
                file_id = str(blocks[block]["elements"][element]["slack_file"]["id"])
            except (IndexError, KeyError, TypeError):
                continue
            for digest, file in list(space.files.items()):
                if file.file_id != file_id:
                    continue
                if now - file.uploaded_at < YOUNG:  # not processed yet: name it again a little later
                    space.not_before[digest] = now + PROCESSING
                    log.info("slack workspace %s: a card picture is not shown yet", chat.workspace_id)
                    continue
                del space.files[digest]
                log.warning(
                    "slack workspace %s: Slack no longer shows card picture %s; uploading it again",
                    chat.workspace_id,
                    file_id,
                )
                self._spawn(self.store.drop_card_file(chat.workspace_id, digest, file_id))
                faces = [face for face, drawn in self._drawn.items() if drawn.digest == digest]
                self._want(chat, [CardFace(*face) for face in faces], urgent=True)

    async def close(self) -> None:
        """Stop the uploads."""
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------ the uploads

    def _space(self, chat: ChatKey, locale: str) -> _Workspace:
        space = self.workspaces.setdefault(chat.workspace_id, _Workspace())
        space.chat = space.chat or chat
        space.locale = locale or space.locale
        return space

    def _want(self, chat: ChatKey, cards: Iterable[CardFace], *, urgent: bool) -> None:
        space = self._space(chat, "")
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

    async def _work(self, team: str, space: _Workspace) -> None:
        try:
            if not space.loaded:
                space.files.update(await self.store.card_files(team))
                space.loaded = True
            while space.wanted or space.uploads:
                if space.idle_until > self._now() and self.clock is not None:
                    await self.clock.sleep_until(space.idle_until)
                upload = await self._next(team, space) if space.wanted else None
                if upload is not None:
                    space.uploads.append(upload)
                if space.uploads and self._complete_now(team, space):
                    await self._complete(team, space)
        except asyncio.CancelledError:
            raise
        except SlackApiError as exc:
            self._failed(team, space, str(exc.response.get("error")))
        except Exception as exc:
            log.exception("slack workspace %s: could not upload card pictures", team)
            self._failed(team, space, repr(exc))

    def _failed(self, team: str, space: _Workspace, error: str) -> None:
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
        log.warning("slack workspace %s: card pictures not uploaded (%s); trying again later", team, error)
        space.idle_until = self._now() + RETRY
        if space.wanted and self.clock is not None:
            space.worker = self._spawn(self._work(team, space))

    def _complete_now(self, team: str, space: _Workspace) -> bool:
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

    async def _next(self, team: str, space: _Workspace) -> _Upload | None:
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
        return _Upload(card, drawn, str(got["file_id"]))

    async def _draw(self, card: CardFace) -> _Drawn | None:
        assert self.renderer is not None
        self.drawing += 1
        try:
            png = await asyncio.to_thread(self.renderer, View(kind="table", cards=(card,)))
        finally:
            self.drawing -= 1
        if not png:
            return None
        drawn = self._drawn[face_of(card)] = _Drawn(png, hashlib.sha256(png).hexdigest())
        return drawn

    async def _complete(self, team: str, space: _Workspace) -> None:
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

    async def _shelf(self, team: str, space: _Workspace, client: AsyncWebClient) -> Shelf:
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
                    self.pacer.penalize(kind, chat, _retry_after(exc))
            finally:
                if ticket is not None and self.pacer is not None:
                    self.pacer.release(ticket)
        raise AssertionError("unreachable")


def _retry_after(exc: SlackApiError) -> float:
    try:
        return float(exc.response.headers.get("Retry-After", 1))
    except (TypeError, ValueError):
        return 1.0
