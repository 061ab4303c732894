"""The Slack outbox: neutral outbound messages → Slack Web API calls.

- ``Post`` → ``chat.postMessage`` (Block Kit plus a plain-text fallback; a table
  gets its card picture added once uploaded, see :mod:`adapters.slack.pictures`). In a
  workspace with the ``quiet`` setting, a game's first message (its lobby) goes
  to the channel and everything after it goes to that message's thread.
- ``Edit`` → ``chat.update``; ``React`` → ``reactions.add`` (✅ / ❌); with the
  ``reasons`` setting, a refusal's reason is also posted (in the game's thread
  when quiet).
- ``Private`` → ``chat.postEphemeral`` (only that person sees it); when the bot
  cannot post in the channel, the interaction's ``response_url`` (still
  ephemeral) or else a direct message. Hidden information never takes any
  other path.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from adapters.slack.blocks import fallback_text, render
from adapters.slack.pictures import Pictures, Renderer
from bot import views
from bot.events import ChatKey, Edit, MessageRef, Outbound, Post, Private, React

log = logging.getLogger(__name__)

REACTIONS = {"accepted": "white_check_mark", "rejected": "x"}
#: Errors meaning "the bot can't post an ephemeral message in that channel".
NO_EPHEMERAL = {"channel_not_found", "not_in_channel", "user_not_in_channel", "is_archived"}
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


@dataclass(frozen=True, slots=True)
class Style:
    """How a workspace wants its games shown (from its settings)."""

    quiet: bool = False
    reasons: bool = False


ClientFor = Callable[[str], Awaitable[AsyncWebClient]]
StyleFor = Callable[[ChatKey], Awaitable[Style]]


class SlackOutbox:
    """Delivers outbound messages with one Web API client per workspace."""

    def __init__(self, client_for: ClientFor, style_for: StyleFor, renderer: Renderer | None = None) -> None:
        self.client_for = client_for
        self.style_for = style_for
        #: Card pictures (when a renderer is given and the workspace allows uploads).
        self.pictures = Pictures(renderer, client_for)
        #: chat → the thread a quiet game posts in ("" when the game is not quiet).
        self.threads: dict[ChatKey, str] = {}
        #: chat → the settings read when its game's first message was posted.
        self.styles: dict[ChatKey, Style] = {}

    def closed(self, chat: ChatKey) -> None:
        """A game ended in ``chat``: its next game starts a new thread."""
        self.threads.pop(chat, None)
        self.styles.pop(chat, None)
        self.pictures.forget(chat)

    async def send(self, message: Outbound) -> MessageRef | None:
        """Deliver one message; a post returns its reference (channel + ts), None if it failed.

        A post Slack could not take for a passing reason (a 5xx or rate limit after the
        client's own retries, a dropped connection, a time-out) is logged and the game goes
        on without it; a permanent refusal (not in the channel, archived, bad token) is
        raised, for the caller to explain.
        """
        if isinstance(message, Post):
            try:
                return await self._post(message)
            except DELIVERY_ERRORS as exc:
                if not _passing(exc):
                    raise
                log.warning("slack post in %s failed: %s", message.chat.label(), _why(exc))
                return None
        if isinstance(message, Edit):
            await self._quietly(self._edit(message), "edit", message.ref.chat)
        elif isinstance(message, React):
            await self._quietly(self._react(message), "react", message.ref.chat)
            chat = message.ref.chat
            if message.mark == "rejected" and message.reason and self.styles.get(chat, Style()).reasons:
                await self._post(Post(chat, views.message(f"❌ {message.reason}", "info")))
        elif isinstance(message, Private):
            await self._quietly(self._private(message), "private message", message.chat)
        return None

    async def _quietly(self, work: Awaitable[None], what: str, chat: ChatKey) -> None:
        """A failed edit, reaction or private note is logged; it must not stop a game."""
        try:
            await work
        except DELIVERY_ERRORS as exc:
            log.warning("slack %s in %s failed: %s", what, chat.label(), _why(exc))

    async def _post(self, message: Post) -> MessageRef:
        chat, view = message.chat, message.view
        client = await self.client_for(chat.workspace_id)
        thread = chat.thread_id
        anchor = self.threads.get(chat)
        if thread is None and view.kind != "lobby" and anchor:
            thread = anchor
        response = await client.chat_postMessage(
            channel=chat.channel_id,
            text=fallback_text(view),
            blocks=render(view),
            thread_ts=thread,
            unfurl_links=False,
            unfurl_media=False,
        )
        ts = str(response["ts"])
        if chat.thread_id is None and (view.kind == "lobby" or chat not in self.threads):
            style = await self.style_for(chat)
            self.styles[chat] = style
            self.threads[chat] = ts if style.quiet else ""
        self.pictures.table_posted(chat, ts, view)
        return MessageRef(chat, ts)

    async def _edit(self, message: Edit) -> None:
        chat = message.ref.chat
        client = await self.client_for(chat.workspace_id)
        await client.chat_update(
            channel=chat.channel_id,
            ts=message.ref.message_id,
            text=fallback_text(message.view),
            blocks=render(message.view),
        )

    async def _react(self, message: React) -> None:
        chat = message.ref.chat
        client = await self.client_for(chat.workspace_id)
        try:
            await client.reactions_add(
                channel=chat.channel_id, timestamp=message.ref.message_id, name=REACTIONS[message.mark]
            )
        except SlackApiError as exc:
            if exc.response.get("error") != "already_reacted":
                raise

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
