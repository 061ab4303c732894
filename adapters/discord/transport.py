"""The Discord transport: the REST calls behind :class:`~bot.delivery.delivery.Delivery`.

The delivery layer decides *which* calls a game makes (one live table edited in
place, marks, announcements) and paces them inside :data:`DISCORD_LIMITS`; this
module makes each call:

- ``post`` → a channel (or thread) message: content with the face-up letters, an
  embed, the cards' picture and the view's buttons;
- ``edit`` → edits a message; without ``picture`` the picture already attached
  stays as it is (no upload);
- ``react`` → ✅ / ❌ / ⏱️ on a player's message;
- ``private`` → an ephemeral reply when an interaction is at hand, else a direct
  message. Hidden information never takes any other path.

No method raises: a game must not die because Discord was slow. Server errors and
429s are retried by discord.py; each call also has a time limit, and an idempotent
call that timed out is tried again. A 429 that discord.py gave up on is raised as
:class:`~bot.delivery.pacing.RateLimited` for the pacer (a *shared* resource's 429 is not: it is not
moji's pace). A refusal (403) gets one clear log line and, when possible, a friendly
private note to whoever started the game — except the refusals no permission would fix:

- a direct message refused by the member's own setting (50007) raises
  :class:`~bot.delivery.reach.PrivateRefused` for the delivery layer, which remembers it;
- a channel or thread deleted (404, 10003) or out of the bot's sight (403, 50001) ends its
  game (:attr:`DiscordTransport.on_gone`), and nothing more is sent there;
- an edit or reaction in an archived thread (400, 50083) unarchives it and goes again.

Texts longer than a message holds are split (:mod:`adapters.discord.render`), and a game's
thread is kept active for its whole turn (:meth:`DiscordTransport.keep_open`).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import aiohttp
import discord

from adapters.discord.limits import DISCORD_LIMITS, is_shared
from adapters.discord.permissions import log_forbidden
from adapters.discord.render import PICTURE_NAME, Rendered, buttons, render, role_ids
from adapters.discord.translator import locale_of
from adapters.pictures import render_view
from bot.core.events import ChatKey, Mark, MessageRef, Private
from bot.core.views import View, picture_key
from bot.delivery.pacing import PlatformLimits, RateLimited
from bot.delivery.reach import PrivateRefused
from bot.delivery.transport import EditResult
from games.common.options import OptionValue
from games.common.speech import N_, _, speaking, spoken_from
from games.common.text import plain

log = logging.getLogger(__name__)

T = TypeVar("T")

MARKS: dict[Mark, str] = {"accepted": "✅", "rejected": "❌", "late": "⏱️"}
#: Discord lets the bot answer an interaction for 15 minutes; keep a margin.
INTERACTION_LIFETIME = 14 * 60.0
#: "Maximum number of edits to messages older than 1 hour reached."
TOO_OLD_TO_EDIT = 30046
#: "Tried to perform an operation on an archived thread, such as editing a message" (400).
ARCHIVED_THREAD = 50083
#: The auto-archive durations Discord accepts, in minutes (docs/resources/Channel.md).
ARCHIVE_MINUTES = (60, 1440, 4320, 10080)
#: "Unknown channel" (404): the channel or thread was deleted.
UNKNOWN_CHANNEL = 10003
#: "Missing access" (403): the bot may no longer see the channel (removed, or View Channel denied).
MISSING_ACCESS = 50001
#: "Cannot send messages to this user" (docs/topics/Opcodes_and_Status_Codes.md): the member
#: closed their direct messages from this server's members, or blocked the bot.
CANNOT_DM = 50007

SettingsFor = Callable[[ChatKey], Awaitable[Mapping[str, OptionValue]]]
Renderer = Callable[[View], bytes | None]

#: What the person who started a game is told when Discord refuses a post (``{what}``: Discord's
#: words) or a reaction, in their language (see :meth:`DiscordTransport._tell_refused`).
CANT_POST = N_(
    "I couldn't post the game in this channel: Discord refused ({what}). Please give moji the "
    "View Channel, Send Messages, Embed Links, Attach Files, Add Reactions and Read Message History "
    "permissions here (or in a thread), then start again."
)
CANT_REACT = N_("I can't add reactions here, so I can't mark answers ✅. Please give moji Add Reactions.")


@dataclass
class Reply:
    """An interaction the bot may answer privately (ephemeral), as carried by neutral events."""

    interaction: discord.Interaction[Any]
    created: float = field(default_factory=time.monotonic)
    used: bool = False
    #: One more private line for the person, sent after the answer (an admin role kept by a
    #: name that no longer counts: see :meth:`DiscordPlatform.is_admin
    #: <adapters.discord.platform.DiscordPlatform.is_admin>`).
    note: str = ""

    @property
    def fresh(self) -> bool:
        """Still within Discord's 15-minute window."""
        return time.monotonic() - self.created < INTERACTION_LIFETIME


class DiscordTransport:
    """Makes Discord REST calls through a discord.py client (a :class:`~bot.delivery.transport.Transport`)."""

    def __init__(
        self,
        client: discord.Client,
        settings: SettingsFor,
        *,
        timeout: float = 15.0,
        renderer: Renderer | None = render_view,
        limits: PlatformLimits = DISCORD_LIMITS,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.now = now
        #: thread id → its auto-archive duration in minutes, for the threads moji opened
        self.archive_minutes: dict[int, int] = {}
        #: Told when Discord says a chat is gone for the bot (10003 Unknown Channel, 50001
        #: Missing Access): the client ends its game (see MojiBot.chat_gone).
        self.on_gone: Callable[[ChatKey, str], None] | None = None
        #: channels and threads gone for the bot: nothing more is sent to them (a game task that
        #: was already at work when its game ended may still try)
        self.gone: set[int] = set()
        self.settings = settings
        self.timeout = timeout
        self.renderer = renderer
        self.limits = limits
        #: chat → the latest command there (to explain refusals privately).
        self._recent: dict[ChatKey, Reply] = {}
        #: chats whose last commander was already told about a refusal (one note per game).
        self._told: set[ChatKey] = set()
        #: channel or thread id → its chat (to read rate-limit headers by chat).
        self.chats: dict[int, ChatKey] = {}
        #: chat → its table's picture drawn ahead of the call (see :meth:`draw`), by picture key.
        self._drawn: dict[ChatKey, tuple[tuple[object, ...], bytes | None]] = {}

    # ------------------------------------------------------------ bookkeeping

    def remember(self, chat: ChatKey, reply: Reply) -> None:
        """The latest command in ``chat``: refusals are explained to its author."""
        self._recent[chat] = reply
        self.gone.discard(int(chat.thread_id or chat.channel_id))  # (a command came from there)

    def forget(self, chat: ChatKey) -> None:
        """The chat's game ended."""
        self._recent.pop(chat, None)
        self._told.discard(chat)
        self._drawn.pop(chat, None)
        self.chats.pop(int(chat.thread_id or chat.channel_id), None)
        if chat.thread_id and chat.thread_id.isdigit():
            self.archive_minutes.pop(int(chat.thread_id), None)

    # ------------------------------------------------------------ threads

    async def keep_open(self, chat: ChatKey, deadline: float | None) -> None:
        """Let a game's thread stay active until ``deadline`` (a turn's end) without a message.

        Discord archives a thread after ``auto_archive_duration`` minutes without activity,
        and nobody may use a command in an archived thread. A thread moji opened gets the
        shortest duration that covers the time left in the turn (one change, when a turn is
        longer than the thread's duration; it is never shortened)."""
        if deadline is None or not chat.thread_id or not chat.thread_id.isdigit():
            return
        thread = int(chat.thread_id)
        current = self.archive_minutes.get(thread)
        if current is None:
            return  # not a thread moji opened: its duration is its owner's choice
        left = deadline - self.now()
        wanted = next((m for m in ARCHIVE_MINUTES if m * 60 >= left), ARCHIVE_MINUTES[-1])
        if wanted <= current:
            return
        self.archive_minutes[thread] = wanted
        try:
            await asyncio.wait_for(
                self.client.http.edit_channel(thread, auto_archive_duration=wanted), self.timeout
            )
            log.info(
                "thread %s of %s now stays active %d minutes without a message", thread, chat.label(), wanted
            )
        except (discord.HTTPException, TimeoutError, aiohttp.ClientError, OSError) as exc:
            self.archive_minutes[thread] = current
            log.warning("could not lengthen the auto-archive of %s: %r", chat.label(), exc)

    async def unarchive(self, chat: ChatKey) -> bool:
        """Unarchive a game's thread (archived by Discord, or by a member); True when done."""
        if not chat.thread_id or not chat.thread_id.isdigit():
            return False
        try:
            data = await asyncio.wait_for(
                self.client.http.edit_channel(int(chat.thread_id), archived=False), self.timeout
            )
        except (discord.HTTPException, TimeoutError, aiohttp.ClientError, OSError) as exc:
            log.warning("could not unarchive the thread of %s: %r", chat.label(), exc)
            return False
        log.info("unarchived the thread of the game in %s", chat.label())
        meta = data.get("thread_metadata") if isinstance(data, dict) else None
        mine = self.client.user is not None and str(data.get("owner_id")) == str(self.client.user.id)
        if mine and isinstance(meta, dict) and isinstance(meta.get("auto_archive_duration"), int):
            self.archive_minutes[int(chat.thread_id)] = meta["auto_archive_duration"]
        return True

    async def refusal_marks(self, chat: ChatKey) -> bool:
        """The workspace's ``reasons`` setting: refused answers get a reaction too."""
        return bool((await self.settings(chat)).get("reasons"))

    # ------------------------------------------------------------ calls

    def _channel(self, chat: ChatKey) -> discord.PartialMessageable:
        target = int(chat.thread_id or chat.channel_id)
        self.chats[target] = chat
        return self.client.get_partial_messageable(target, guild_id=int(chat.workspace_id))

    async def draw(self, chat: ChatKey, view: View) -> None:
        """Draw ``view``'s picture now, for the post or edit of it that follows.

        The delivery layer calls this before it takes the call's rate-limit slot: a slot is
        held until the call's answer comes back, and drawing a picture in a busy process
        takes long enough to matter. The chat's latest picture is kept (by picture key)."""
        if self.renderer is None or not render(view).picture:
            return
        key = picture_key(view)
        drawn = self._drawn.get(chat)
        if drawn is not None and drawn[0] == key:
            return
        png = await self._draw(view)
        self._drawn[chat] = (key, png)

    async def _picture(self, view: View, rendered: Rendered, chat: ChatKey | None = None) -> bytes | None:
        if not rendered.picture or self.renderer is None:
            return None
        drawn = self._drawn.get(chat) if chat is not None else None
        if drawn is not None and drawn[0] == picture_key(view):
            return drawn[1]
        return await self._draw(view)

    async def _draw(self, view: View) -> bytes | None:
        assert self.renderer is not None
        try:
            return await asyncio.to_thread(self.renderer, view)
        except Exception:
            log.exception("could not draw the table picture")
            return None

    @staticmethod
    def _file(png: bytes | None, view: View) -> discord.File | None:
        if png is None:
            return None
        with speaking(view.locale):  # the picture's description for screen readers
            alt = (
                plain("\n".join(view.grid)) if view.grid else _("Cards: {letters}", letters=view.card_line())
            )
        return discord.File(io.BytesIO(png), filename=PICTURE_NAME, description=alt[:1000])

    @staticmethod
    def _parts(rendered: Rendered, png: bytes | None) -> Rendered:
        if png is None and rendered.embed is not None and rendered.picture:
            rendered.embed.set_image(url=None)
        return rendered

    async def post(self, chat: ChatKey, view: View, *, picture: bool) -> MessageRef | None:
        """Post ``view`` in ``chat``; its reference, or None if Discord would not take it."""
        # a mention added to a board posted or edited earlier would never notify: turns are
        # announced by a small message of their own (a "turn" view), which does
        rendered = render(view)
        png = await self._picture(view, rendered, chat) if picture else None
        self._parts(rendered, png)
        channel = self._channel(chat)
        await self.keep_open(chat, view.deadline)

        # one nonce for the logical post: a try after a time-out that did reach Discord is then
        # recognised (enforce_nonce) instead of appearing twice; a message named for good (a
        # game's result) gets a nonce of its name, so a restarted process's repeat is recognised too
        nonce = stable_nonce(view.once) if view.once else secrets.randbits(63)
        roles = role_ids(view)
        # a scheduled game's notice may notify the role it names; nothing else ever pings a role
        extra: dict[str, Any] = (
            {
                "allowed_mentions": discord.AllowedMentions(
                    users=True, roles=[discord.Object(r) for r in roles]
                )
            }
            if roles
            else {}
        )

        async def post() -> discord.Message:
            file = self._file(png, view)
            return await channel.send(
                content=rendered.content or None,
                embeds=rendered.embeds,
                view=buttons(rendered.buttons),  # type: ignore[arg-type]
                file=file,  # type: ignore[arg-type]
                nonce=nonce,
                **extra,
            )

        sent = await self._call("post a message", chat, post, attempts=2)
        if sent is None:
            return None
        for number, more in enumerate(rendered.then, start=1):
            # the rest of a text one message cannot hold, in order (each with a nonce of its own)
            part_nonce = stable_nonce(f"{nonce}/{number}")

            async def post_more(more: Rendered = more, part_nonce: int = part_nonce) -> discord.Message:
                return await channel.send(
                    content=more.content or None, embeds=more.embeds, nonce=part_nonce, **extra
                )

            if await self._call("post a message", chat, post_more, attempts=2) is None:
                break
        return MessageRef(chat, str(sent.id))

    async def edit(self, ref: MessageRef, view: View, *, picture: bool) -> EditResult:
        """Edit a message; without ``picture`` its attachment (the picture) is kept as it is."""
        chat = ref.chat
        rendered = render(view)
        png = await self._picture(view, rendered, chat) if picture else None
        if picture:
            self._parts(rendered, png)
        if rendered.then:
            # more than one message holds: an edit cannot show all of it, a fresh post can
            return EditResult.STALE
        await self.keep_open(chat, view.deadline)
        message = self._channel(chat).get_partial_message(int(ref.message_id))
        outcome = EditResult.FAILED

        async def edit() -> bool:
            nonlocal outcome
            extra: dict[str, Any] = {}
            if picture or not rendered.picture:
                file = self._file(png, view)
                extra["attachments"] = [file] if file is not None else []
            try:
                await message.edit(
                    content=rendered.content or None,
                    embeds=rendered.embeds,
                    view=buttons(rendered.buttons),
                    **extra,
                )
            except discord.NotFound:
                outcome = EditResult.GONE
                return False
            except discord.HTTPException as exc:
                if exc.code == TOO_OLD_TO_EDIT:
                    outcome = EditResult.STALE
                    return False
                raise
            outcome = EditResult.OK
            return True

        await self._call("edit a message", chat, edit, attempts=2)
        return outcome

    async def react(self, ref: MessageRef, mark: Mark) -> None:
        """Mark a player's message."""
        chat = ref.chat
        message = self._channel(chat).get_partial_message(int(ref.message_id))
        emoji = MARKS[mark]

        async def add() -> bool:
            await message.add_reaction(emoji)
            return True

        await self._call("add a reaction", chat, add, attempts=3, on_forbidden=CANT_REACT)

    async def private(self, private: Private) -> None:
        """Answer one player privately (ephemeral reply, else a direct message)."""
        await self._private(private)

    async def _private(self, private: Private) -> None:
        view = private.view
        rendered = render(view)
        png = await self._picture(view, rendered)
        self._parts(rendered, png)
        reply = private.interaction if isinstance(private.interaction, Reply) else None
        if reply is not None and reply.fresh:
            interaction = reply.interaction

            async def answer(part: Rendered, first: bool) -> bool:
                file = self._file(png, view) if first else None
                extra: dict[str, Any] = {"file": file} if file is not None else {}
                if part.embeds:
                    extra["embeds"] = part.embeds
                if part.buttons:  # (a confirmation: forget-me, purge)
                    extra["view"] = buttons(part.buttons)
                if not interaction.response.is_done():
                    await interaction.response.send_message(
                        content=part.content or None, ephemeral=True, **extra
                    )
                else:
                    await interaction.followup.send(content=part.content or "", ephemeral=True, **extra)
                return True

            if await self._call("answer privately", private.chat, lambda: answer(rendered, True), attempts=1):
                reply.used = True
                for more in rendered.then:  # the rest of a long text (rules, help), in order
                    if not await self._call(
                        "answer privately", private.chat, partial(answer, more, False), attempts=1
                    ):
                        break
                return
        await self._dm(private, rendered, png)

    async def _dm(self, private: Private, rendered: Rendered, png: bytes | None) -> None:
        """A direct message; :class:`~bot.delivery.reach.PrivateRefused` when the player's settings refuse
        it (Discord's 50007: their choice, never a missing permission)."""
        user = discord.Object(int(private.player.user_id))
        channel: discord.DMChannel | None = None

        async def send(part: Rendered, first: bool) -> discord.Message:
            nonlocal channel
            if channel is None:
                channel = await self.client.create_dm(user)
            file = self._file(png, private.view) if first else None
            try:
                return await channel.send(
                    content=part.content or None,
                    embeds=part.embeds,
                    file=file,  # type: ignore[arg-type]
                )
            except discord.Forbidden as exc:
                if exc.code == CANNOT_DM:
                    raise PrivateRefused(private.player) from None
                raise

        if await self._call("send a direct message", private.chat, lambda: send(rendered, True), attempts=2):
            for more in rendered.then:  # the rest of a long text, in order
                if not await self._call(
                    "send a direct message", private.chat, partial(send, more, False), attempts=2
                ):
                    break
            return
        log.warning(
            "could not show %s their private view in %s", private.player.display_name, private.chat.label()
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
        if int(chat.thread_id or chat.channel_id) in self.gone:
            return None  # the chat is gone for the bot: its game has ended
        for attempt in range(1, attempts + 1):
            try:
                result = await asyncio.wait_for(make(), self.timeout)
            except discord.Forbidden as exc:
                if exc.code == MISSING_ACCESS and self._gone(chat, f"missing access ({what})"):
                    return None
                if exc.code == CANNOT_DM:  # a member's own setting: no permission would help
                    log.info(
                        "could not %s in %s: the member's direct messages are closed", what, chat.label()
                    )
                    return None
                log_forbidden(what, chat.label(), exc)
                await self._tell_refused(chat, on_forbidden or CANT_POST, what=exc.text or "403")
                return None
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_CHANNEL and self._gone(chat, f"channel deleted ({what})"):
                    return None
                log.info("could not %s in %s: not found (deleted?)", what, chat.label())
                return None
            except discord.RateLimited as exc:
                raise RateLimited(exc.retry_after) from None
            except (TimeoutError, aiohttp.ClientError, OSError, discord.DiscordServerError) as exc:
                log.warning("could not %s in %s (try %d/%d): %r", what, chat.label(), attempt, attempts, exc)
                continue
            except discord.HTTPException as exc:
                if exc.status == 429 and is_shared(exc.response.headers):
                    # the resource's own limit, shared by everyone: not moji's pace (nothing to
                    # slow down); discord.py already waited and tried again: this call is dropped
                    log.info("could not %s in %s: a shared resource limit", what, chat.label())
                    return None
                if exc.status == 429:
                    raise RateLimited(_retry_after(exc)) from None
                if exc.code == ARCHIVED_THREAD and attempt < attempts and await self.unarchive(chat):
                    continue  # the thread was archived before moji heard of it: try again in it
                log.warning("could not %s in %s: %s %s", what, chat.label(), exc.status, exc.text)
                return None
            return result
        return None

    def mark_gone(self, chat: ChatKey) -> None:
        """Send nothing more to ``chat``: it was deleted, or the bot may no longer see it."""
        self.gone.add(int(chat.thread_id or chat.channel_id))

    def _gone(self, chat: ChatKey, why: str) -> bool:
        """Discord says the chat is gone for the bot: its game ends (told once); True if told."""
        if self.on_gone is None:
            return False
        self.mark_gone(chat)
        log.warning("discord: %s is gone for moji: %s", chat.label(), why)
        self.on_gone(chat, why)
        return True

    async def _tell_refused(self, chat: ChatKey, message: str, what: str = "") -> None:
        """Tell the person behind the chat's latest command (once a game) why Discord refused: in
        their client's language, else the server's."""
        reply = self._recent.get(chat)
        if reply is None or not reply.fresh or chat in self._told:
            return
        self._told.add(chat)
        try:
            server = (await self.settings(chat)).get("language")
        except Exception:
            server = None
        with speaking(spoken_from(locale_of(reply.interaction), str(server or ""))):
            text = _(message, what=what) if what else _(message)
        try:
            interaction = reply.interaction
            if not interaction.response.is_done():
                await interaction.response.send_message(text, ephemeral=True)
            else:
                await interaction.followup.send(text, ephemeral=True)
            reply.used = True
        except discord.HTTPException:
            log.warning("could not tell anyone in %s about the missing permission", chat.label())


def _retry_after(exc: discord.HTTPException) -> float:
    """The wait a 429 asked for (Retry-After), 1 s when it said nothing readable."""
    try:
        return float(exc.response.headers.get("Retry-After", 1.0))
    except (TypeError, ValueError):
        return 1.0


def stable_nonce(name: str) -> int:
    """A Discord nonce (a positive integer below 2**63) that is the same for the same ``name``."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") >> 1
