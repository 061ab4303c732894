"""The Discord outbox: neutral outbound messages → Discord REST calls.

- ``Post`` → a channel (or thread) message: content with the face-up letters,
  an embed, the cards' picture and the view's buttons. When nobody has written
  since the previous table (at most a few short bot notices came after it), a
  new table edits that message instead, so an idle channel is not flooded.
- ``Edit`` → edits the message; ``React`` → ✅ / ❌ on the player's message;
  with the workspace's ``reasons`` setting, a refusal's reason is posted as a
  quiet reply to it.
- ``Private`` → an ephemeral reply when an interaction is at hand, else a
  direct message. Hidden information never takes any other path.

:meth:`DiscordOutbox.send` never raises: a game must not die because Discord
was slow. Rate limits (429) and server errors are retried by discord.py; each
call also has a time limit, and an idempotent call that timed out is tried
again. A refusal (403) gets one clear log line and, when possible, a friendly
private note to whoever started the game.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import discord

from adapters.discord.permissions import log_forbidden
from adapters.discord.render import PICTURE_NAME, Rendered, buttons, render
from adapters.pictures import render_view
from bot.events import ChatKey, Edit, MessageRef, Outbound, Post, Private, React
from bot.views import View
from games.common.options import OptionValue

log = logging.getLogger(__name__)

T = TypeVar("T")

MARKS = {"accepted": "✅", "rejected": "❌"}
#: A new table edits the last one if at most this many bot notices came after it.
MAX_NOTICES_OVER_TABLE = 2
#: Discord lets the bot answer an interaction for 15 minutes; keep a margin.
INTERACTION_LIFETIME = 14 * 60.0

SettingsFor = Callable[[ChatKey], Awaitable[Mapping[str, OptionValue]]]
Renderer = Callable[[View], bytes | None]

CANT_POST = (
    "I couldn't post the game in this channel: Discord refused ({what}). Please give moji the "
    "View Channel, Send Messages, Embed Links, Attach Files, Add Reactions and Read Message History "
    "permissions here (or in a thread), then start again."
)
CANT_REACT = "I can't add reactions here, so I can't mark answers ✅ / ❌. Please give moji Add Reactions."


@dataclass
class Reply:
    """An interaction the bot may answer privately (ephemeral), as carried by neutral events."""

    interaction: discord.Interaction[Any]
    created: float = field(default_factory=time.monotonic)
    used: bool = False

    @property
    def fresh(self) -> bool:
        """Still within Discord's 15-minute window."""
        return time.monotonic() - self.created < INTERACTION_LIFETIME


class DiscordOutbox:
    """Delivers outbound messages through a discord.py client."""

    def __init__(
        self,
        client: discord.Client,
        settings: SettingsFor,
        *,
        timeout: float = 15.0,
        renderer: Renderer | None = render_view,
    ) -> None:
        self.client = client
        self.settings = settings
        self.timeout = timeout
        self.renderer = renderer
        #: chat → (id of our last table, bot messages after it) while nobody else wrote.
        self._tail: dict[ChatKey, tuple[int, int]] = {}
        #: chat → how many messages others wrote there (a table sent meanwhile is not the tail).
        self._writes: dict[ChatKey, int] = {}
        #: chat → the latest command there (to explain refusals privately).
        self._recent: dict[ChatKey, Reply] = {}
        #: chats whose last commander was already told about a refusal (one note per game).
        self._told: set[ChatKey] = set()

    # ------------------------------------------------------------ bookkeeping

    def remember(self, chat: ChatKey, reply: Reply) -> None:
        """The latest command in ``chat``: refusals are explained to its author."""
        self._recent[chat] = reply

    def saw_message(self, chat: ChatKey) -> None:
        """Someone wrote in ``chat``: the next table is a new message."""
        self._tail.pop(chat, None)
        self._writes[chat] = self._writes.get(chat, 0) + 1

    def forget(self, chat: ChatKey) -> None:
        """The chat's game ended."""
        self._tail.pop(chat, None)
        self._writes.pop(chat, None)
        self._recent.pop(chat, None)
        self._told.discard(chat)

    # ------------------------------------------------------------ sending

    async def send(self, message: Outbound) -> MessageRef | None:
        """Deliver one message; never raises."""
        try:
            if isinstance(message, Post):
                return await self._post(message.chat, message.view)
            if isinstance(message, Edit):
                await self._edit(message.ref, message.view)
            elif isinstance(message, React):
                await self._react(message)
            elif isinstance(message, Private):
                await self._private(message)
        except Exception:
            log.exception("could not deliver %s", type(message).__name__)
        return None

    def _channel(self, chat: ChatKey) -> discord.PartialMessageable:
        target = chat.thread_id or chat.channel_id
        return self.client.get_partial_messageable(int(target), guild_id=int(chat.workspace_id))

    async def _picture(self, view: View, rendered: Rendered) -> bytes | None:
        if not rendered.picture or self.renderer is None:
            return None
        try:
            return await asyncio.to_thread(self.renderer, view)
        except Exception:
            log.exception("could not draw the table picture")
            return None

    @staticmethod
    def _file(png: bytes | None, view: View) -> discord.File | None:
        if png is None:
            return None
        return discord.File(
            io.BytesIO(png), filename=PICTURE_NAME, description=("Cards: " + view.card_line())[:1000]
        )

    @staticmethod
    def _parts(rendered: Rendered, png: bytes | None) -> Rendered:
        if png is None and rendered.embed is not None and rendered.picture:
            rendered.embed.set_image(url=None)
        return rendered

    async def _post(self, chat: ChatKey, view: View) -> MessageRef | None:
        rendered = render(view, mention_active=chat.thread_id is not None)
        png = await self._picture(view, rendered)
        self._parts(rendered, png)
        channel = self._channel(chat)
        tail = self._tail.get(chat)
        writes = self._writes.get(chat, 0)
        if view.kind == "table" and tail is not None and tail[1] <= MAX_NOTICES_OVER_TABLE:
            edited = await self._edit_message(chat, tail[0], view, rendered, png)
            if edited:
                if self._writes.get(chat, 0) == writes:
                    self._tail[chat] = (tail[0], 0)
                return MessageRef(chat, str(tail[0]))
        if tail is not None:
            self._tail[chat] = (tail[0], tail[1] + 1)

        async def post() -> discord.Message:
            file = self._file(png, view)
            return await channel.send(
                content=rendered.content or None,
                embed=rendered.embed,  # type: ignore[arg-type]
                view=buttons(rendered.buttons),  # type: ignore[arg-type]
                file=file,  # type: ignore[arg-type]
            )

        sent = await self._call("post a message", chat, post, attempts=2)
        if sent is None:
            return None
        if view.kind == "table" and self._writes.get(chat, 0) == writes:
            self._tail[chat] = (sent.id, 0)
        return MessageRef(chat, str(sent.id))

    async def _edit_message(
        self, chat: ChatKey, message_id: int, view: View, rendered: Rendered, png: bytes | None
    ) -> bool:
        message = self._channel(chat).get_partial_message(message_id)

        async def edit() -> bool:
            file = self._file(png, view)
            await message.edit(
                content=rendered.content or None,
                embed=rendered.embed,
                view=buttons(rendered.buttons),
                attachments=[file] if file is not None else [],
            )
            return True

        done = await self._call("edit a message", chat, edit, attempts=2)
        return done is not None

    async def _edit(self, ref: MessageRef, view: View) -> None:
        rendered = render(view, mention_active=ref.chat.thread_id is not None)
        png = await self._picture(view, rendered)
        self._parts(rendered, png)
        await self._edit_message(ref.chat, int(ref.message_id), view, rendered, png)

    async def _react(self, react: React) -> None:
        chat = react.ref.chat
        message = self._channel(chat).get_partial_message(int(react.ref.message_id))
        emoji = MARKS[react.mark]

        async def add() -> bool:
            await message.add_reaction(emoji)
            return True

        await self._call("add a reaction", chat, add, attempts=3, on_forbidden=CANT_REACT)
        if react.mark == "rejected" and react.reason:
            settings = await self.settings(chat)
            if settings.get("reasons"):

                async def explain() -> discord.Message:
                    return await message.reply(
                        content=f"❌ {react.reason}"[:2000],
                        mention_author=False,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )

                await self._call("explain a refusal", chat, explain, attempts=1)
                self._tail.pop(chat, None)

    async def _private(self, private: Private) -> None:
        view = private.view
        rendered = render(view)
        png = await self._picture(view, rendered)
        self._parts(rendered, png)
        reply = private.interaction if isinstance(private.interaction, Reply) else None
        if reply is not None and reply.fresh:
            interaction = reply.interaction

            async def answer() -> bool:
                file = self._file(png, view)
                extra: dict[str, Any] = {"file": file} if file is not None else {}
                if rendered.embed is not None:
                    extra["embed"] = rendered.embed
                if not interaction.response.is_done():
                    await interaction.response.send_message(
                        content=rendered.content or None, ephemeral=True, **extra
                    )
                else:
                    await interaction.followup.send(content=rendered.content or "", ephemeral=True, **extra)
                return True

            if await self._call("answer privately", private.chat, answer, attempts=1) is not None:
                reply.used = True
                return
        await self._dm(private, rendered, png)

    async def _dm(self, private: Private, rendered: Rendered, png: bytes | None) -> None:
        user = discord.Object(int(private.player.user_id))

        async def dm() -> discord.Message:
            channel = await self.client.create_dm(user)
            file = self._file(png, private.view)
            return await channel.send(
                content=rendered.content or None,
                embed=rendered.embed,  # type: ignore[arg-type]
                file=file,  # type: ignore[arg-type]
            )

        if await self._call("send a direct message", private.chat, dm, attempts=2) is None:
            log.warning(
                "could not show %s their private view in %s (DMs closed?)",
                private.player.display_name,
                private.chat.label(),
            )

    # ------------------------------------------------------------ one call

    async def _call(
        self,
        what: str,
        chat: ChatKey,
        make: Callable[[], Awaitable[T]],
        *,
        attempts: int,
        on_forbidden: str | None = None,
    ) -> T | None:
        """Run one REST call with a time limit; None on failure (logged), never raises."""
        for attempt in range(1, attempts + 1):
            try:
                result = await asyncio.wait_for(make(), self.timeout)
            except discord.Forbidden as exc:
                log_forbidden(what, chat.label(), exc)
                await self._tell_refused(chat, on_forbidden or CANT_POST.format(what=exc.text or "403"))
                return None
            except discord.NotFound:
                log.info("could not %s in %s: not found (deleted?)", what, chat.label())
                return None
            except (TimeoutError, aiohttp.ClientError, OSError, discord.DiscordServerError) as exc:
                log.warning("could not %s in %s (try %d/%d): %r", what, chat.label(), attempt, attempts, exc)
                continue
            except discord.HTTPException as exc:
                log.warning("could not %s in %s: %s %s", what, chat.label(), exc.status, exc.text)
                return None
            return result
        return None

    async def _tell_refused(self, chat: ChatKey, text: str) -> None:
        reply = self._recent.get(chat)
        if reply is None or not reply.fresh or chat in self._told:
            return
        self._told.add(chat)
        try:
            interaction = reply.interaction
            if not interaction.response.is_done():
                await interaction.response.send_message(text, ephemeral=True)
            else:
                await interaction.followup.send(text, ephemeral=True)
            reply.used = True
        except discord.HTTPException:
            log.warning("could not tell anyone in %s about the missing permission", chat.label())
