"""Card and board pictures on Slack, at the least cost in API calls.

Three ways, by how moji is reachable and what a table shows:

- **Served by moji** (HTTP mode with ``PUBLIC_URL`` set): a table's picture is an
  image block whose ``image_url`` is ``PUBLIC_URL/pictures/<key>.png``. The key is a
  hash of what the picture shows (the public cards or board, never a hand or a rack),
  so the URL reveals nothing that is not on the table, and the same picture keeps
  the same URL (Slack fetches it once). moji draws it when Slack asks and keeps the
  recent ones. No upload, no extra Web API call: a table costs one call with or
  without its picture.
- **Card faces** (Socket Mode, or no public address; a table of cards): each card is an image
  element naming a file uploaded once per workspace (:mod:`adapters.slack.faces`): a new table
  costs only its own call, from the first table whose faces are all uploaded and processed.
- **Uploaded** (Socket Mode, or no public address; a board): the table is shown at once with
  its text rows, and its picture is uploaded
  (``files.getUploadURLExternal`` → upload → ``files.completeUploadExternal``) into the
  table's thread only once the table has stayed the same for :data:`STABLE` seconds (a
  turn-based board changes once a turn). The upload is completed *into the channel*: a file
  completed without one is private to the app and no message can show it, and Slack
  processes an upload asynchronously, so a file referenced (``slack_file``) right after its
  completion may not be shown yet either — both make the referencing message
  ``invalid_blocks``. A file shared into the table's thread is shown by Slack itself as soon
  as it is processed, with no message of moji's depending on it: two Web API calls and the
  upload, never a table refused. The uploads are paced like every other call (the
  ``picture`` kind of the Slack limits; a 429 holds those buckets for Retry-After, then the
  upload is tried again); one upload per picture and table message.

When Slack cannot download a served picture (a wrong ``PUBLIC_URL``, or Slack's own
intermittent download failures), it refuses the whole message (``invalid_blocks``,
"downloading image failed"): the delivery layer sends the table again at once without its
picture, by the sooner call (``PictureRefused``; see :meth:`Pictures.refused`), and served pictures
pause in that workspace — for
:data:`SERVED_PAUSE` seconds, doubling after each further failure up to
:data:`SERVED_PAUSE_MAX` — so a wrong address does not cost two calls per table.

A workspace that did not grant ``files:write`` keeps the emoji tables (its first
refusal turns uploads off for it, faces and boards alike).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.cardfiles import CardFileStore
from adapters.slack.face_uploads import NOT_ALLOWED, retry_after
from adapters.slack.face_uploads import Renderer as Renderer  # (the adapter's renderer, re-exported)
from adapters.slack.faces import Faces
from bot.core import metrics
from bot.core.clock import Clock
from bot.core.events import ChatKey
from bot.core.views import View, picture_key
from bot.delivery.pacing import Pacer
from games.common.protocol import CardFace
from games.common.speech import _, speaking
from games.common.text import plain

log = logging.getLogger(__name__)

#: Seconds a table must stay the same before its picture is uploaded.
STABLE = 4.0
#: Pictures kept for serving (each a few tens of kB).
KEEP = 512
#: Attempts at attaching one picture when Slack answers 429 (the pacer holds the buckets between them).
ATTEMPTS = 3
#: After Slack could not download a served picture: seconds without served pictures in that workspace…
SERVED_PAUSE = 60.0
#: …doubling after each further failure, up to this.
SERVED_PAUSE_MAX = 1800.0


def refused_picture(exc: BaseException) -> bool:
    """Whether Slack refused a message because of its image block (``invalid_blocks`` pointing at an
    ``image_url`` or a ``slack_file``), rather than anything else in it."""
    if not isinstance(exc, SlackApiError) or exc.response.get("error") != "invalid_blocks":
        return False
    errors = exc.response.get("errors") or []
    return any("/image_url" in str(e) or "/slack_file" in str(e) for e in errors)


def picture_id(view: View) -> str:
    """The content address of a view's picture."""
    return hashlib.sha256(repr(picture_key(view)).encode()).hexdigest()[:32]


def _alt(view: View) -> str:
    """The picture's alt text, in the view's language."""
    with speaking(view.locale):
        return _("Cards: {letters}", letters=view.card_line())


@dataclass
class _Table:
    """A chat's newest table message, as the uploads see it."""

    ts: str
    key: str  # the picture it shows (or is being edited to show)
    view: View  # what it shows (or is being edited to show)
    parent: str = ""  # the thread its pictures go to (its own ts, or the thread it is in)
    image_key: str = ""  # the picture uploaded into that thread for it
    task: asyncio.Task[None] | None = None  # an upload waiting for the table to be stable…
    task_key: str = ""  # …and for which picture

    def waiting(self, key: str) -> bool:
        return self.task is not None and not self.task.done() and self.task_key == key

    def cancel(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None


class Pictures:
    """Puts pictures on table messages: served by URL, or uploaded once a table is stable."""

    def __init__(
        self,
        renderer: Renderer | None,
        client_for: Callable[[str], Awaitable[AsyncWebClient]],
        *,
        base_url: str = "",
    ) -> None:
        self.renderer = renderer
        self.client_for = client_for
        self.base_url = base_url.rstrip("/")
        #: Set by the adapter: uploads wait on this clock and this pacer.
        self.clock: Clock | None = None
        self.pacer: Pacer | None = None
        #: Workspaces that refused an upload (no files:write).
        self.disabled: set[str] = set()
        #: chat → its newest table message (uploaded pictures).
        self.tables: dict[ChatKey, _Table] = {}
        #: chat → its newest table message posted, and the thread its pictures go to.
        self.threads: dict[ChatKey, tuple[str, str]] = {}
        #: picture id → the view to draw, then its PNG (served pictures).
        self._views: OrderedDict[str, View] = OrderedDict()
        self._png: OrderedDict[str, bytes] = OrderedDict()
        self.tasks: set[asyncio.Task[None]] = set()
        #: workspace → (until when served pictures are paused, the current pause) after Slack
        #: could not download one.
        self.paused: dict[str, tuple[float, float]] = {}
        #: Messages Slack refused for their picture (each then sent without it).
        self.refusals = 0
        #: Card tables' faces, uploaded once per workspace (when not served).
        self.faces = Faces(renderer, client_for)
        self.faces.disabled = self.disabled

    def wire(
        self,
        clock: Clock,
        pacer: Pacer,
        store: CardFileStore,
        deck: Callable[[ChatKey], Sequence[CardFace]],
    ) -> None:
        """What the adapter gives: its clock and pacer, where uploads are remembered, and the faces
        of the deck a chat's game plays with."""
        self.clock = self.faces.clock = clock
        self.pacer = self.faces.pacer = pacer
        self.faces.store, self.faces.deck = store, deck

    def card_files(self, chat: ChatKey, view: View) -> tuple[str | None, ...] | None:
        """The file of each card of a table not served by URL (None: not ready yet), or None."""
        if self.base_url or view.kind != "table":
            return None
        return self.faces.files(chat, view)

    def expect(self, chat: ChatKey, view: View) -> None:
        """A lobby or table is posted in ``chat``: have the faces of its game's deck uploaded."""
        if not self.base_url and self.renderer is not None and view.kind in ("lobby", "table"):
            self.faces.expect(chat, view.locale)

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else 0.0

    def refused(self, chat: ChatKey, exc: BaseException) -> None:
        """Slack refused a message for its picture: served pictures pause in the workspace."""
        self.refusals += 1
        workspace = chat.workspace_id
        __, pause = self.paused.get(workspace, (0.0, SERVED_PAUSE / 2))
        pause = min(SERVED_PAUSE_MAX, pause * 2)
        self.paused[workspace] = (self._now() + pause, pause)
        errors = exc.response.get("errors") if isinstance(exc, SlackApiError) else None
        log.warning(
            "slack workspace %s: Slack could not show a table picture (%s); tables go without "
            "pictures for %.0f s — check that PUBLIC_URL (%s) reaches this server from the internet",
            workspace,
            "; ".join(map(str, errors or [])) or "invalid_blocks",
            pause,
            self.base_url,
        )

    def shown(self, chat: ChatKey) -> None:
        """Slack took a message with a served picture: the next failure pauses briefly again."""
        until, __ = self.paused.get(chat.workspace_id, (0.0, 0.0))
        if until and until <= self._now():
            del self.paused[chat.workspace_id]

    def _wanted(self, chat: ChatKey, view: View, *, uploaded: bool = False) -> bool:
        return (
            self.renderer is not None
            and view.kind == "table"
            and bool(view.board if uploaded else view.cards or view.board)
            and chat.workspace_id not in self.disabled
        )

    async def block(self, chat: ChatKey, ts: str | None, view: View, *, fresh: bool) -> dict[str, Any] | None:
        """The image block to send with ``view`` now (None: none yet).

        Served: the picture's URL, always. Otherwise none: a board's picture goes to the table's
        thread once stable (:meth:`table_shown`), a card table's faces are :meth:`card_files`.
        ``fresh`` (the delivery layer's "the picture changed") is implied by comparing the
        pictures themselves.
        """
        if not self._wanted(chat, view):
            return None
        key = picture_id(view)
        if self.base_url:
            if self.paused.get(chat.workspace_id, (0.0, 0.0))[0] > self._now():
                return None  # Slack could not download the last one: tables go without for a while
            self._views[key] = view
            self._views.move_to_end(key)
            while len(self._views) > KEEP:
                self._views.popitem(last=False)
            url = f"{self.base_url}/pictures/{key}.png"
            return {"type": "image", "image_url": url, "alt_text": _alt(view)}
        return None

    async def serve(self, key: str) -> bytes | None:
        """The PNG of a served picture (drawn on first request), or None if unknown."""
        png = self._png.get(key)
        if png is not None:
            return png
        view = self._views.get(key)
        if view is None or self.renderer is None:
            return None
        png = await asyncio.to_thread(self.renderer, view)
        if png:
            self._png[key] = png
            while len(self._png) > KEEP:
                self._png.popitem(last=False)
        return png

    def table_posted(
        self, chat: ChatKey, ts: str, view: View, *, shown: bool, thread: str | None = None
    ) -> None:
        """A table message was posted (``shown``: with its picture; ``thread``: the thread it was
        posted in, if any — its pictures go there, else into its own thread)."""
        self.threads[chat] = (ts, thread or ts)
        self.table_shown(chat, ts, view)

    def table_shown(self, chat: ChatKey, ts: str, view: View) -> None:
        """A table message now shows ``view``: upload its picture if it stays like this (a board:
        cards are faces)."""
        if self.base_url or not self._wanted(chat, view, uploaded=True):
            return
        key = picture_id(view)
        table = self.tables.get(chat)
        if table is None or table.ts != ts:  # a new table message: the old one keeps what it has
            if table is not None:
                table.cancel()
            # Slack: "Never use a reply's ts value; use its parent instead" (files.completeUploadExternal)
            posted, parent = self.threads.get(chat, ("", ""))
            table = self.tables[chat] = _Table(ts, key, view, parent=parent if posted == ts else ts)
        if key != table.key:
            table.cancel()
        table.key, table.view = key, view
        if table.image_key == key or table.waiting(key):
            return  # it has this picture already, or will once the table is stable
        table.task = asyncio.get_running_loop().create_task(
            self._attach(chat, table, key), name=f"picture {ts}"
        )
        table.task_key = key
        self.tasks.add(table.task)
        table.task.add_done_callback(self.tasks.discard)

    def forget(self, chat: ChatKey) -> None:
        """The chat's game ended."""
        self.threads.pop(chat, None)
        table = self.tables.pop(chat, None)
        if table is not None:
            table.cancel()

    async def close(self) -> None:
        """Cancel pending uploads."""
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.faces.close()

    def _current(self, chat: ChatKey, table: _Table, key: str) -> bool:
        return self.tables.get(chat) is table and table.key == key

    async def _attach(self, chat: ChatKey, table: _Table, key: str) -> None:
        assert self.renderer is not None
        try:
            if self.clock is not None:
                await self.clock.sleep_until(self.clock.now() + STABLE)
            if not self._current(chat, table, key):
                return  # the table changed meanwhile: its successor gets the picture, if it lasts
            png = await asyncio.to_thread(self.renderer, table.view)
            for attempt in range(1, ATTEMPTS + 1):
                if not png or not self._current(chat, table, key):
                    return
                try:
                    await self._upload(chat, table, key, png)
                    return
                except SlackApiError as exc:
                    if exc.response.get("error") != "ratelimited" or attempt == ATTEMPTS:
                        raise
                    retry = retry_after(exc)
                    log.info("table picture in %s: rate limited for %.2f s", chat.label(), retry)
                    if self.pacer is not None:
                        self.pacer.penalize("picture", chat, retry)
        except SlackApiError as exc:
            error = exc.response.get("error")
            if error in NOT_ALLOWED:
                self.disabled.add(chat.workspace_id)
                log.info(
                    "slack workspace %s: no file uploads (%s); emoji tables only", chat.workspace_id, error
                )
            else:
                log.warning("could not attach the table picture in %s: %s", chat.label(), error)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not draw or attach the table picture in %s", chat.label())

    async def _upload(self, chat: ChatKey, table: _Table, key: str, png: bytes) -> None:
        """Upload the picture (paced) into the table's thread, shared in the channel."""
        ticket = await self.pacer.acquire("picture", chat) if self.pacer is not None else None
        try:
            client = await self.client_for(chat.workspace_id)
            title, alt = plain(table.view.title) or "moji", _alt(table.view)
            metrics.platform_call("slack", "picture")
            await client.files_upload_v2(
                file=png,
                filename="moji-table.png",
                title=title,
                alt_txt=alt,
                channel=chat.channel_id,
                thread_ts=table.parent,
            )
            table.image_key = key
        finally:
            if ticket is not None and self.pacer is not None:
                self.pacer.release(ticket)
