"""The Slack transport: the Web API calls behind :class:`~bot.delivery.delivery.Delivery`.

The delivery layer decides which calls a game makes and paces them inside
:data:`~adapters.slack.limits.SLACK_LIMITS`; this module makes each call:

- ``post`` → ``chat.postMessage`` (Block Kit plus a plain-text fallback; a table
  gets its picture or its cards' pictures, see :mod:`adapters.slack.pictures`; a message
  Slack refuses for one of them raises ``PictureRefused``, and the delivery layer sends it
  again at once, without). In a workspace with
  the ``quiet`` setting, a game's first message (its lobby) goes to the channel and
  everything after it goes to that message's thread.
- ``edit`` → ``chat.update`` (the picture a message has is kept unless it changed);
  ``react`` → ``reactions.add`` (✅ / ❌ / ⏱).
- ``private`` → ``chat.postEphemeral`` (only that person sees it); when the bot
  cannot post in the channel, the interaction's ``response_url`` (still
  ephemeral) or else a direct message. Hidden information never takes any
  other path.

A call Slack refused for its rate limit (after the client's own retries) raises
:class:`~bot.delivery.pacing.RateLimited` with Slack's ``Retry-After``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from adapters.slack.blocks import MAX_BLOCKS, fallback_text, render
from adapters.slack.limits import SLACK_LIMITS
from adapters.slack.pictures import Pictures, Renderer, refused_picture
from bot.core.events import ChatKey, Mark, MessageRef, Private
from bot.core.views import View
from bot.delivery.pacing import PlatformLimits, RateLimited
from bot.delivery.transport import EditResult, PictureRefused

log = logging.getLogger(__name__)

REACTIONS: dict[Mark, str] = {"accepted": "white_check_mark", "rejected": "x", "late": "stopwatch"}
#: chat.update errors meaning "that message can't be edited any more".
CANT_EDIT = frozenset({"cant_update_message", "edit_window_closed", "msg_too_long", "is_archived"})
#: Errors meaning "the bot can't post an ephemeral message in that channel".
NO_EPHEMERAL = {"channel_not_found", "not_in_channel", "user_not_in_channel", "is_archived"}
#: Errors meaning the channel itself is gone for the bot: deleted ("Value passed for channel was
#: invalid"), archived ("Channel has been archived"), or the bot no longer in it (chat.postMessage's
#: errors, https://api.slack.com/methods/chat.postMessage). A game there ends (see ``lost``).
LOST = frozenset({"channel_not_found", "is_archived", "not_in_channel"})
#: What a Web API call can fail with once the client's retries are spent.
DELIVERY_ERRORS = (SlackApiError, aiohttp.ClientError, TimeoutError, OSError)


#: Slack errors that pass: trying again later may work.
PASSING = frozenset(
    {"ratelimited", "internal_error", "service_unavailable", "fatal_error", "request_timeout"}
)


def _passing(exc: BaseException) -> bool:
    if not isinstance(exc, SlackApiError):
        return True  # connection errors and time-outs
    status = getattr(exc.response, "status_code", 0) or 0
    return status >= 500 or exc.response.get("error") in PASSING


def _why(exc: BaseException) -> str:
    if isinstance(exc, SlackApiError):
        return str(exc.response.get("error") or exc.response.status_code)
    return repr(exc)


@dataclass(frozen=True, slots=True)
class Interaction:
    """What a slash command or button gives for answering privately."""

    response_url: str = ""
    trigger_id: str = ""


class InteractionWire:
    """Slack interactions crossing to another moji process (:class:`~bot.core.wire.InteractionCodec`):
    a ``response_url`` works from anywhere for 30 minutes."""

    def dump(self, interaction: object) -> dict[str, Any] | None:
        """The interaction's URL and trigger id."""
        if not isinstance(interaction, Interaction):
            return None
        return {"response_url": interaction.response_url, "trigger_id": interaction.trigger_id}

    def load(self, data: Mapping[str, Any]) -> object:
        """Inverse of :meth:`dump`."""
        return Interaction(str(data.get("response_url") or ""), str(data.get("trigger_id") or ""))

    def key(self, interaction: object) -> str | None:
        """The trigger id: one per slash command or button press."""
        return interaction.trigger_id or None if isinstance(interaction, Interaction) else None


@dataclass(frozen=True, slots=True)
class Shown:
    """A message's blocks, and the pictures they carry."""

    view: View
    blocks: list[dict[str, Any]]
    image: bool = False  # a picture as an image block (served by URL)
    faces: bool = False  # its cards' pictures as image elements (uploaded files)

    @property
    def pictured(self) -> bool:
        """Whether Slack may refuse the message for a picture."""
        return self.image or self.faces


@dataclass(frozen=True, slots=True)
class Style:
    """How a workspace wants its games shown (from its settings)."""

    quiet: bool = False
    reasons: bool = False


ClientFor = Callable[[str], Awaitable[AsyncWebClient]]
StyleFor = Callable[[ChatKey], Awaitable[Style]]


class SlackTransport:
    """Makes Slack Web API calls with one client per workspace
    (a :class:`~bot.delivery.transport.Transport`)."""

    def __init__(
        self,
        client_for: ClientFor,
        style_for: StyleFor,
        renderer: Renderer | None = None,
        *,
        limits: PlatformLimits = SLACK_LIMITS,
        picture_url: str = "",
    ) -> None:
        self.client_for = client_for
        self.style_for = style_for
        self.limits = limits
        #: Card pictures (when a renderer is given and the workspace allows them).
        self.pictures = Pictures(renderer, client_for, base_url=picture_url)
        #: chat → the thread a quiet game posts in ("" when the game is not quiet).
        self.threads: dict[ChatKey, str] = {}
        #: chat → the settings read when its game's first message was posted.
        self.styles: dict[ChatKey, Style] = {}
        #: Chats whose next table goes without pictures: Slack refused the last for one.
        self.bare: set[ChatKey] = set()
        #: Told when Slack refuses a post, edit or reaction because the channel is gone for the
        #: bot (:data:`LOST`): the adapter ends the channel's games.
        self.lost: Callable[[ChatKey, str], None] | None = None

    def _check_lost(self, chat: ChatKey, exc: BaseException) -> None:
        error = exc.response.get("error") if isinstance(exc, SlackApiError) else None
        if error in LOST and self.lost is not None:
            self.lost(chat, str(error))

    def forget(self, chat: ChatKey) -> None:
        """A game ended in ``chat``: its next game starts a new thread."""
        self.threads.pop(chat, None)
        self.styles.pop(chat, None)
        self.bare.discard(chat)
        self.pictures.forget(chat)

    closed = forget

    async def refusal_marks(self, chat: ChatKey) -> bool:
        """The workspace's ``reasons`` setting: refused answers get a reaction too."""
        return (await self.style_for(chat)).reasons

    async def post(self, chat: ChatKey, view: View, *, picture: bool) -> MessageRef | None:
        """Post ``view``; its reference (channel + ts), None if it failed for a passing reason.

        A post Slack could not take for a passing reason (a 5xx after the client's own
        retries, a dropped connection, a time-out) is logged and the game goes on without
        it; a permanent refusal (not in the channel, archived, bad token) is raised, for
        the caller to explain.
        """
        try:
            return await self._post(chat, view, picture=picture)
        except DELIVERY_ERRORS as exc:
            _raise_rate_limit(exc)
            self._check_lost(chat, exc)
            if not _passing(exc):
                raise
            log.warning("slack post in %s failed: %s", chat.label(), _why(exc))
            return None

    async def edit(self, ref: MessageRef, view: View, *, picture: bool) -> EditResult:
        """``chat.update``; the message keeps its picture unless ``picture`` brings a new one."""
        chat = ref.chat
        try:
            client = await self.client_for(chat.workspace_id)
            shown = await self._pictures(chat, ref.message_id, view, fresh=picture)

            async def update(shown: Shown) -> None:
                await client.chat_update(
                    channel=chat.channel_id, ts=ref.message_id, text=fallback_text(view), blocks=shown.blocks
                )

            await self._with_pictures(chat, shown, update)
        except DELIVERY_ERRORS as exc:
            _raise_rate_limit(exc)
            self._check_lost(chat, exc)
            error = exc.response.get("error") if isinstance(exc, SlackApiError) else None
            if error == "message_not_found":
                return EditResult.GONE
            if error in CANT_EDIT:
                return EditResult.STALE
            log.warning("slack edit in %s failed: %s", chat.label(), _why(exc))
            return EditResult.FAILED
        self.pictures.table_shown(chat, ref.message_id, view)
        return EditResult.OK

    async def react(self, ref: MessageRef, mark: Mark) -> None:
        """``reactions.add`` on a player's message."""
        chat = ref.chat
        try:
            client = await self.client_for(chat.workspace_id)
            await client.reactions_add(
                channel=chat.channel_id, timestamp=ref.message_id, name=REACTIONS[mark]
            )
        except DELIVERY_ERRORS as exc:
            _raise_rate_limit(exc)
            self._check_lost(chat, exc)
            if isinstance(exc, SlackApiError) and exc.response.get("error") == "already_reacted":
                return
            log.warning("slack react in %s failed: %s", chat.label(), _why(exc))

    async def private(self, message: Private) -> None:
        """Show a view to one person only."""
        try:
            await self._private(message)
        except DELIVERY_ERRORS as exc:
            _raise_rate_limit(exc)
            log.warning("slack private message in %s failed: %s", message.chat.label(), _why(exc))

    async def _post(self, chat: ChatKey, view: View, *, picture: bool) -> MessageRef:
        client = await self.client_for(chat.workspace_id)
        thread = chat.thread_id
        anchor = self.threads.get(chat)
        if thread is None and view.kind != "lobby" and anchor:
            thread = anchor
        self.pictures.expect(chat, view)
        shown = await self._pictures(chat, None, view, fresh=picture)

        async def send(shown: Shown) -> Any:
            return await client.chat_postMessage(
                channel=chat.channel_id,
                text=fallback_text(view),
                blocks=shown.blocks,
                thread_ts=thread,
                unfurl_links=False,
                unfurl_media=False,
            )

        response = await self._with_pictures(chat, shown, send)
        ts = str(response["ts"])
        if chat.thread_id is None and (view.kind == "lobby" or chat not in self.threads):
            style = await self.style_for(chat)
            self.styles[chat] = style
            # a quiet workspace's games, and every turn-based game, play in the lobby's thread
            self.threads[chat] = ts if style.quiet or view.threaded else ""
        if view.kind == "table":
            self.pictures.table_posted(chat, ts, view, shown=shown.pictured, thread=thread)
        return MessageRef(chat, ts)

    async def _pictures(self, chat: ChatKey, ts: str | None, view: View, *, fresh: bool) -> Shown:
        """The message's blocks with the pictures it can have now: a served picture (an image
        block), or its cards' uploaded faces (image elements), or none (a table right after one
        Slack refused for a picture goes without any)."""
        if view.kind != "table":
            return Shown(view, render(view))
        if chat in self.bare:
            self.bare.discard(chat)
            return Shown(view, render(view))
        image = await self.pictures.block(chat, ts, view, fresh=fresh)
        files = self.pictures.card_files(chat, view) if image is None else None
        if files is not None:
            return Shown(view, render(view, card_files=files), faces=True)
        return Shown(view, _with_picture(view, image), image=image is not None)

    async def _with_pictures(
        self, chat: ChatKey, shown: Shown, call: Callable[[Shown], Awaitable[Any]]
    ) -> Any:
        """Make ``call`` with the message's pictures. If Slack refuses the message for one
        (``invalid_blocks``: it could not download a served picture, or a face's file is not there
        or not processed yet), nothing was sent: the picture is dealt with apart (served pictures
        pause in the workspace, a face is named again later or uploaded again), the chat's next
        message goes without pictures, and :class:`~bot.delivery.transport.PictureRefused` tells
        the delivery layer, which sends it again at once by the sooner call, paced like any other
        (never an extra call behind the pacer's back, nor a wait for the channel's next post
        slot inside this one's)."""
        try:
            answer = await call(shown)
        except SlackApiError as exc:
            if not shown.pictured or not refused_picture(exc):
                raise
            if shown.faces:
                self.pictures.faces.refused(chat, exc, shown.blocks)
            else:
                self.pictures.refused(chat, exc)
            self.bare.add(chat)
            raise PictureRefused(_why(exc)) from None
        if shown.image:
            self.pictures.shown(chat)
        return answer

    async def _private(self, message: Private) -> None:
        chat, view = message.chat, message.view
        client = await self.client_for(chat.workspace_id)
        text, blocks = fallback_text(view), render(view)
        try:
            await client.chat_postEphemeral(
                channel=chat.channel_id, user=message.player.user_id, text=text, blocks=blocks
            )
            return
        except SlackApiError as exc:
            if exc.response.get("error") not in NO_EPHEMERAL:
                raise
        interaction = message.interaction
        if isinstance(interaction, Interaction) and interaction.response_url:
            webhook = AsyncWebhookClient(
                interaction.response_url, retry_handlers=[AsyncRateLimitErrorRetryHandler(max_retry_count=2)]
            )
            await webhook.send(text=text, blocks=blocks, response_type="ephemeral")
            return
        await client.chat_postMessage(channel=message.player.user_id, text=text, blocks=blocks)


def _raise_rate_limit(exc: BaseException) -> None:
    """A 429 the client's retries could not get past goes to the pacer."""
    if isinstance(exc, SlackApiError) and exc.response.get("error") == "ratelimited":
        try:
            retry = float(exc.response.headers.get("Retry-After", 1))
        except (TypeError, ValueError):
            retry = 1.0
        raise RateLimited(retry) from None


def _with_picture(view: View, image: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The view's blocks, with its picture last; a board's text rows (which wrap badly on
    phones) then become the picture's alt text instead (``board`` shows them on request)."""
    if image is None:
        return render(view)
    if view.board and view.grid:
        image = {**image, "alt_text": "\n".join(view.grid)[:2000]}
        view = replace(view, grid=())
    return [*render(view)[: MAX_BLOCKS - 1], image]
