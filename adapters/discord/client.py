"""The Discord bot: gateway events and interactions → neutral events → the game manager.

One :class:`MojiBot` (a ``discord.AutoShardedClient``) runs the shards this
process owns. It translates:

- ``/moji …`` slash commands → :class:`~bot.core.events.Command` (answered within
  Discord's 3 seconds: every command is deferred ephemerally first, and its
  private replies are ephemeral follow-ups);
- button presses (stable custom ids, so they keep working after a restart)
  → :class:`~bot.core.events.Button`;
- a player's single-word message in a channel with a game →
  :class:`~bot.core.events.Text`, stamped with the message's snowflake time
  (edited messages never count);
- 👍 / 👎 reactions → :class:`~bot.core.events.Reaction`;
- the Eagle Eyes list modal → :class:`~bot.core.events.PrivateText`.

It also follows what Discord says about the places games live in: a game's
archived thread is unarchived (THREAD_UPDATE), a deleted channel or thread or a server moji
was removed from ends its games voided (CHANNEL_DELETE, THREAD_DELETE, GUILD_DELETE), and
while a shard's gateway is away its races hold their settle windows, reading their channels
back after an invalid session (the events a RESUME replays need no reading).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any, Literal

import discord
from discord import app_commands

from adapters.discord.commands import build_group
from adapters.discord.direct import DiscordDirect
from adapters.discord.limits import discord_limits, header_trace, process_share
from adapters.discord.permissions import THREADS, GuildRoles, missing, missing_message
from adapters.discord.platform import DiscordPlatform
from adapters.discord.threads import DiscordPairingThreads
from adapters.discord.translator import MojiTranslator, locale_of
from adapters.discord.transport import DiscordTransport, Reply
from adapters.discord.wire import ReplyWire
from bot.core.clock import Clock
from bot.core.events import Button, ChatKey, Command, MessageRef, Player, PrivateText, Reaction, Text
from bot.core.ordering import Turn
from bot.core.registry import Registry
from bot.delivery.delivery import Delivery
from bot.delivery.pacing import Pacer
from bot.features.housekeeping import workspace_back, workspace_removed
from bot.features.schedule import JOIN_WINDOW, Schedules
from bot.features.schedule_spec import DISCORD_MENTION
from bot.features.scheduler import Scheduler
from bot.features.workspace import Workspace
from bot.hosting.handlers.buttons import button_command
from bot.inbound.builder import build
from bot.inbound.runtime import turn_done
from bot.inbound.wiring import FrontDoor
from bot.process.app import Services
from bot.process.config import Config
from bot.sessions.session import Session
from games.common.speech import _, _n, listing, speaking, spoken_from
from storage.base import Schedule

log = logging.getLogger(__name__)

#: Custom id of the Eagle Eyes list modal.
LIST_MODAL = "moji:list"
DISCORD_EPOCH_MS = 1420070400000
#: Discord's error code for a second initial response to one interaction.
ALREADY_ANSWERED = 40060
#: After an invalid session, a race's channel is read back from this long (s) before the
#: connection dropped: an answer on its way then was typed at most a moment before.
READ_BACK = 5.0
#: At most this many messages are read back per channel (one page of message history).
READ_BACK_MOST = 100
#: A game's thread stays active this long without a message until its first turn sets it from
#: the turn's length (:meth:`DiscordTransport.keep_open`).
LOBBY_ARCHIVE_MINUTES: Literal[1440] = 1440


def no_thread(names: list[str]) -> str:
    """Why a turn-based game plays in the channel instead of a thread of its own."""
    return _(
        "I couldn't open a thread for this game (missing {names}), so it runs here in the channel. "
        "Give moji that permission to keep turn-based games in their own threads.",
        names=listing(names),
    )


def discord_time(when: float) -> str:
    """A time as Discord shows it in each reader's own time zone (date, time and how soon)."""
    return f"<t:{int(when)}:F> (<t:{int(when)}:R>)"


def snowflake_seconds(snowflake: int) -> float:
    """A snowflake's creation time in epoch seconds, with millisecond precision."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def intents() -> discord.Intents:
    """Guilds, guild messages with their content (privileged), reactions, and direct messages (a
    daily is played in the player's DMs with moji; a DM's content comes without the privilege)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    wanted.dm_messages = True
    wanted.message_content = True
    wanted.guild_reactions = True
    return wanted


class ListModal(discord.ui.Modal, title="Your word list"):
    """Eagle Eyes: the player writes their list privately (the form speaks the language spoken
    where it is made: the player's own).

    The form is stateless: its submission is routed by its custom id in
    :meth:`MojiBot.on_interaction`, so a form opened before a restart still
    counts after it.
    """

    def __init__(self) -> None:
        super().__init__(title=_("Your word list"), custom_id=LIST_MODAL, timeout=None)
        self.words: discord.ui.TextInput[ListModal] = discord.ui.TextInput(
            label=_("Words (spaces or new lines between them)"),
            style=discord.TextStyle.paragraph,
            max_length=2000,
        )
        self.add_item(self.words)
        self.stop()  # never kept by discord.py: the submission is routed by custom id


def modal_text(data: object) -> str:
    """The text typed into a submitted modal (every text input, in order)."""
    values: list[str] = []
    rows = data.get("components", []) if isinstance(data, dict) else []
    for row in rows:
        children = row.get("components", []) if isinstance(row, dict) else []
        inner = row.get("component") if isinstance(row, dict) else None  # a Label wraps one input
        for item in [*children, *([inner] if isinstance(inner, dict) else [])]:
            if isinstance(item, dict) and isinstance(item.get("value"), str):
                values.append(item["value"])
    return "\n".join(values)


class OrderedTree(app_commands.CommandTree["MojiBot"]):
    """The slash command tree, taking each command's place in its chat's line on arrival.

    discord.py runs each command in a task of its own and awaits checks and option
    conversion before the callback; an answer typed right after ``/moji go`` could
    otherwise be looked at first. The ticket is taken while the gateway event is
    parsed, and let go when the command's task ends, whatever happened in it.
    """

    def _from_interaction(self, interaction: discord.Interaction[MojiBot]) -> None:
        self.client.take_turn(interaction)
        super()._from_interaction(interaction)

    async def _call(self, interaction: discord.Interaction[MojiBot]) -> None:
        try:
            await super()._call(interaction)
        finally:
            turn = self.client.turns_taken.pop(interaction.id, None)
            if turn is not None:
                turn.done()


class MojiBot(discord.AutoShardedClient):
    """moji on Discord: this process's shards, one game manager."""

    def __init__(self, config: Config, services: Services, clock: Clock, **options: Any) -> None:
        if config.shard_ids:
            options["shard_ids"] = list(config.shard_ids)
        # what Discord's rate-limit headers say reaches the pacer (set up below)
        options.setdefault("http_trace", header_trace(self._pacer, self._chat_of_channel))
        super().__init__(
            intents=intents(),
            shard_count=config.shard_count,
            # no message cache: an edit can never rewrite an answer before it is read
            max_messages=None,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            **options,
        )
        self.config = config
        self.services = services
        self.registry: Registry = services.registry
        self.workspace: Workspace = services.workspace
        #: `config admin-role` keeps a role's id (resolved from this process's guild cache)
        self.workspace.admin_roles["discord"] = GuildRoles(self.get_guild)
        #: The REST calls; :attr:`outbox` decides which to make and paces them.
        self.transport = DiscordTransport(
            self,
            services.workspace.settings,
            limits=discord_limits(
                process_share(config.discord_global_rate, config.shard_ids, config.shard_count)
            ),
            now=clock.now,
        )
        #: The core: delivery, manager, fair share, router and metrics, wired once (bot/inbound/runtime.py).
        #: Several processes on one database: events go to the process that runs their chat; a
        #: dead process's games are adopted only in this process's shards (unless SHARD_TAKEOVER).
        self.platform = DiscordPlatform(self, ReplyWire(self), takeover=config.shard_takeover)
        #: Scheduled games (a server's game night), run by the process that owns the server.
        self.scheduler = Scheduler(
            services.store,
            clock,
            self._timezone,
            self.start_scheduled_game,
            platform="discord",
            mine=self._owns,
        )
        self.runtime = build(
            self.platform,
            self.transport,
            services,
            clock,
            settle=config.settle,
            lobby_timeout=config.lobby_timeout,
            refusal_marks=self.transport.refusal_marks,
            door=FrontDoor(
                # a daily is played in the player's direct messages with moji (bot/features/daily.py)
                direct=lambda delivery: DiscordDirect(self),
                # a tournament's pairings play in threads of its channel (bot/features/tournaments/)
                threads=lambda delivery: DiscordPairingThreads(self, LOBBY_ARCHIVE_MINUTES),
                on_closed=(self._forget_thread,),
                scheduler=self.scheduler,
                schedules=Schedules(
                    self.scheduler, self._timezone, DISCORD_MENTION, discord_time, what="scheduled game"
                ),
            ),
        )
        self.outbox = self.runtime.outbox
        self.router = self.runtime.router
        self.transport.on_gone = self._chat_gone_soon
        #: interaction id → its place in its chat's line, taken on arrival (see OrderedTree).
        self.turns_taken: dict[int, Turn] = {}
        self.tree = OrderedTree(self)
        self.tree.on_error = self._tree_error  # type: ignore[method-assign]
        self.guild_object = discord.Object(config.discord_guild_id) if config.discord_guild_id else None
        self.tree.add_command(build_group(self), guild=self.guild_object)
        #: thread id → parent channel id, for games in their own thread.
        self.threads: dict[int, int] = {}
        #: shard → when its gateway connection dropped, and the games whose settle windows are
        #: held since (see :meth:`on_shard_disconnect`).
        self._down: dict[int, tuple[float, list[tuple[ChatKey, Session]]]] = {}
        self.recovered = False
        #: Set once this process's unfinished games are rebuilt (after the first READY).
        self.games_ready = asyncio.Event()

    def connected(self) -> bool:
        """True while the gateway is ready and every shard's connection is open (``/readyz``)."""
        if not self.is_ready() or self.is_closed():
            return False
        return all(not shard.is_closed() for shard in self.shards.values())

    def _pacer(self) -> Pacer | None:
        delivery: Delivery | None = getattr(self, "outbox", None)
        return delivery.pacer if delivery is not None else None

    def _chat_of_channel(self, channel_id: int) -> ChatKey | None:
        transport: DiscordTransport | None = getattr(self, "transport", None)
        return transport.chats.get(channel_id) if transport is not None else None

    # ------------------------------------------------------------ lifecycle

    async def setup_hook(self) -> None:
        """Sync the slash commands (to DISCORD_GUILD_ID when set: instant; else globally)."""
        if not self.recovered:
            # before the gateway connects: events for a chat with a game to restore wait for it
            await self.runtime.expect_recovery()
        # /moji's names and descriptions in the client's language (nl, fr, de, es-ES, es-419)
        await self.tree.set_translator(MojiTranslator())
        try:
            synced = await self.tree.sync(guild=self.guild_object)
            where = f"server {self.guild_object.id}" if self.guild_object else "every server (global)"
            log.info("discord: %d slash command group(s) synced to %s", len(synced), where)
        except discord.HTTPException as exc:
            log.error(
                "discord: could not sync the slash commands (%s %s); was the bot invited with the "
                "applications.commands scope?",
                exc.status,
                exc.text,
            )

    async def on_ready(self) -> None:
        """Once connected: rebuild this process's unfinished games (once per process)."""
        log.info("discord: connected as %s on shard(s) %s", self.user, sorted(self.shards))
        if self.recovered:
            return
        self.recovered = True
        try:
            await self.recover()
            await self._back_in_guilds()
            self.runtime.spawn(
                self.runtime.housekeeping(present=self._present, mine=self._mine_guild),
                "discord housekeeping",
            )
        finally:
            self.games_ready.set()

    # ------------------------------------------------------------ servers joined and left

    def _mine_guild(self, guild_id: str) -> bool:
        return self.mine(ChatKey("discord", guild_id, ""))

    async def _present(self, guild_id: str) -> bool:
        """Whether moji is in the server now (a deletion due for it is then cancelled)."""
        return guild_id.isdigit() and self.get_guild(int(guild_id)) is not None

    async def _back_in_guilds(self) -> None:
        """At start-up: a server that added moji back while this process was down keeps its data."""
        store = self.services.store
        try:
            pending = await store.due_deletions(float("inf"))
        except Exception:
            log.exception("discord: could not read the pending deletions")
            return
        for platform, guild_id in pending:
            if platform == "discord" and await self._present(guild_id):
                await workspace_back(store, platform, guild_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """moji was removed from a server: its games there end, voided (nothing can be sent there
        any more), and its data goes after the grace period (see bot.features.privacy)."""
        await self.chat_gone(self.runtime.chats(str(guild.id)), "moji was removed from the server")
        try:
            await workspace_removed(
                self.services.store, "discord", str(guild.id), self.runtime.clock.now(), "guild_remove"
            )
        except Exception:
            log.exception("discord: could not schedule the deletion of server %s", guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """moji was added to a server: a deletion pending since it was removed is cancelled."""
        try:
            await workspace_back(self.services.store, "discord", str(guild.id))
        except Exception:
            log.exception("discord: could not cancel the deletion of server %s", guild.id)

    async def recover(self) -> None:
        """Resume (or void) the unfinished games of the guilds on this process's shards."""
        await self.runtime.recover(mine=self.mine)  # (then the scheduled games)
        for chat in self.runtime.chats():
            if chat.thread_id:
                self.threads[int(chat.thread_id)] = int(chat.channel_id)
                await self._adopt_thread(chat)

    async def _adopt_thread(self, chat: ChatKey) -> None:
        """A game resumed in its thread: keep the thread's auto-archive in hand (an active thread
        is in the guild's cache, from GUILD_CREATE); one missing from it is archived: unarchived."""
        assert chat.thread_id is not None
        guild = self.get_guild(int(chat.workspace_id)) if chat.workspace_id.isdigit() else None
        thread = guild.get_thread(int(chat.thread_id)) if guild is not None else None
        if thread is not None and not thread.archived:
            if self.user is not None and thread.owner_id == self.user.id:
                self.transport.archive_minutes[thread.id] = thread.auto_archive_duration
            return
        await self.transport.unarchive(chat)  # (remembers its duration)

    def _owns(self, schedule: Schedule) -> bool:
        return self.mine(ChatKey("discord", schedule.workspace_id, schedule.channel_id))

    async def _timezone(self, guild: str) -> str:
        settings = await self.workspace.settings(ChatKey("discord", guild, ""))
        return str(settings.get("timezone") or "UTC")

    async def start_scheduled_game(self, schedule: Schedule, when: float) -> None:
        """A server's scheduled game is due: a notice mentioning its role, the lobby, Start later."""
        minutes = max(1, round(JOIN_WINDOW / 60))
        chat = ChatKey("discord", schedule.workspace_id, schedule.channel_id)
        with speaking(await self._chat_language(chat)):  # (the whole channel reads it)
            notice = _n(
                "📅 Game time! Press **Join** below; the game starts in {count} minute.",
                "📅 Game time! Press **Join** below; the game starts in {count} minutes.",
                minutes,
            )
            await self.runtime.start_scheduled(schedule, when, notice)

    def mine(self, chat: ChatKey) -> bool:
        """True when ``chat``'s guild is on one of this process's shards."""
        if not chat.workspace_id.isdigit():
            return False
        count = self.shard_count or 1
        shard = (int(chat.workspace_id) >> 22) % count
        return self.shard_ids is None or shard in self.shard_ids

    def _shard_of(self, chat: ChatKey) -> int | None:
        if chat.platform != "discord" or not chat.workspace_id.isdigit():
            return None
        return (int(chat.workspace_id) >> 22) % (self.shard_count or 1)

    # ------------------------------------------------------------ gateway connection

    async def on_shard_disconnect(self, shard_id: int) -> None:
        """The shard's gateway connection dropped: answers typed meanwhile reach moji late (a
        RESUME replays them) or never (an invalid session). The settle windows of the shard's
        games stay open until it is back, so an answer is judged with those typed after it,
        by its snowflake time, whatever its arrival (bot/sessions/session.py, ``hold``)."""
        if shard_id in self._down:
            return
        held = []
        for chat, session in self.runtime.sessions():
            if self._shard_of(chat) == shard_id:
                session.hold()
                held.append((chat, session))
        self._down[shard_id] = (self.runtime.clock.now(), held)
        log.info("discord: shard %s disconnected; %d game(s) wait for what it missed", shard_id, len(held))

    async def on_shard_resumed(self, shard_id: int) -> None:
        """RESUMED: Discord replayed the missed events (dispatched before this one)."""
        await self._back(shard_id, replayed=True)

    async def on_shard_ready(self, shard_id: int) -> None:
        """READY after a new IDENTIFY (the session was invalidated): nothing was replayed, so the
        running races' channels are read back (message history) for the answers missed."""
        await self._back(shard_id, replayed=False)

    async def _back(self, shard_id: int, *, replayed: bool) -> None:
        down = self._down.pop(shard_id, None)
        if down is None:
            return  # (the first connection)
        since, held = down
        for chat, session in held:
            try:
                if not replayed and self.runtime.session(chat) is session and session.info.realtime:
                    await self._read_back(chat, since - READ_BACK)
            except Exception:
                log.exception("discord: could not read back the messages missed in %s", chat.label())
            finally:
                # in the chat's line: after every replayed or read-back event of the chat
                turn = self.runtime.ticket(chat)
                try:
                    await turn.wait()
                    session.release()
                finally:
                    turn.done()

    async def _read_back(self, chat: ChatKey, since: float) -> None:
        """Hand the core the messages of ``chat`` sent since ``since`` (an answer already handled
        is recognised by its message id and ignored)."""
        channel = self.get_partial_messageable(
            int(chat.thread_id or chat.channel_id), guild_id=int(chat.workspace_id)
        )
        after = discord.Object(discord.utils.time_snowflake(datetime.fromtimestamp(since, UTC)))
        count = 0
        async for message in channel.history(limit=READ_BACK_MOST, after=after, oldest_first=True):
            count += 1
            await self.on_message(message)
        log.info("discord: read back %d message(s) in %s after an invalid session", count, chat.label())

    async def wind_down(self) -> None:
        """The process is stopping: judge what is settling, tell the races, send what is queued."""
        await self.runtime.wind_down()

    async def close(self) -> None:
        """Stop the games' timers, then disconnect."""
        await self.runtime.close()
        await super().close()

    def _forget_thread(self, chat: ChatKey) -> None:
        if chat.thread_id and chat.thread_id.isdigit():
            self.threads.pop(int(chat.thread_id), None)

    # ------------------------------------------------------------ translation

    def chat_of(self, guild_id: int, channel: object, channel_id: int) -> ChatKey:
        """The chat of a channel, or of a thread (which keeps its parent channel)."""
        parent = channel.parent_id if isinstance(channel, discord.Thread) else None
        parent = parent or self.threads.get(channel_id)
        if parent:
            self.threads[channel_id] = parent
            return ChatKey("discord", str(guild_id), str(parent), str(channel_id))
        return ChatKey("discord", str(guild_id), str(channel_id))

    @staticmethod
    def player_of(user: discord.abc.User, admin: bool = False, locale: str | None = None) -> Player:
        """A neutral player (``locale``: their client's, where an interaction tells it)."""
        return Player("discord", str(user.id), user.display_name, is_admin=admin, locale=locale)

    def asker(self, interaction: discord.Interaction[Any]) -> Player:
        """The person behind an interaction, with their client's locale (``de``, ``es-ES``)."""
        return self.player_of(interaction.user, locale=locale_of(interaction))

    async def _chat_language(self, chat: ChatKey) -> str | None:
        """The language the server's games speak to the whole channel (its ``config language``)."""
        try:
            settings = await self.workspace.settings(ChatKey("discord", chat.workspace_id, ""))
        except Exception:
            log.exception("discord: could not read the settings of server %s", chat.workspace_id)
            return None
        value = settings.get("language")
        return str(value) if value else None

    async def _speech(self, interaction: discord.Interaction[Any]) -> str:
        """The language of what one person alone reads: their client's where moji speaks it,
        else their server's (docs/LANGUAGES.md)."""
        guild = interaction.guild_id
        server = await self._chat_language(ChatKey("discord", str(guild), "")) if guild else None
        return spoken_from(locale_of(interaction), server)

    async def _note(self, reply: Reply, text: str) -> None:
        """One more private line for the person who asked (after the answer)."""
        try:
            await reply.interaction.followup.send(text, ephemeral=True)
            reply.used = True
        except discord.HTTPException as exc:
            log.info("discord: could not send a note: %s", exc)

    @staticmethod
    async def _acknowledge(interaction: discord.Interaction[Any], **defer: Any) -> bool:
        """Defer ``interaction`` (Discord's 3 s); False when Discord says it was answered already:
        this is a delivery of it again, and its first delivery answers it."""
        try:
            await interaction.response.defer(**defer)
        except discord.HTTPException as exc:
            if exc.code != ALREADY_ANSWERED:
                raise
            log.info(
                "discord: interaction %s was delivered again; its first delivery answers it", interaction.id
            )
            return False
        return True

    # ------------------------------------------------------------ commands

    async def run_command(
        self, interaction: discord.Interaction[Any], name: str, args: tuple[str, ...]
    ) -> None:
        """Answer a slash command: defer (ephemeral), then handle it in its chat's arrival order."""
        reply = Reply(interaction)
        turn = self._turn(interaction)  # before anything is awaited: the arrival order
        try:
            if await self._over_allowance(interaction):
                return
            if not await self._acknowledge(interaction, ephemeral=True, thinking=True):
                return
            if interaction.guild_id is None or interaction.channel_id is None:
                with speaking(locale_of(interaction)):
                    await self.finish_reply(reply, _("moji games run in servers, not in direct messages."))
                return
            await self._command(reply, name, args, turn)
        finally:
            turn_done(turn)

    async def _over_allowance(self, interaction: discord.Interaction[Any]) -> bool:
        """A slash command whose sender is over their allowance (:mod:`bot.core.fairshare`, the rule
        the runtime applies to every event) is refused on arrival: never deferred nor put in
        the chat's line, so a flood costs one call (the notice) instead of two each."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return False
        chat = self.chat_of(interaction.guild_id, interaction.channel, interaction.channel_id)
        event = Command("", (), chat, self.asker(interaction), Reply(interaction))
        if not self.runtime.refused_on_arrival(event):
            return False
        await self.runtime.refuse(event)  # the first of an episode is told, as the interaction's answer
        return True

    def take_turn(self, interaction: discord.Interaction[Any]) -> None:
        """Take a slash command's place in its chat's line (while its gateway event is parsed)."""
        if interaction.type is discord.InteractionType.application_command:
            turn = self._turn(interaction)
            if turn is not None:
                self.turns_taken[interaction.id] = turn

    def _turn(self, interaction: discord.Interaction[Any]) -> Turn | None:
        """The interaction's place in its chat's line: the one taken on arrival, else a new one."""
        taken = self.turns_taken.pop(interaction.id, None)
        if taken is not None:
            return taken
        if interaction.guild_id is None or interaction.channel_id is None:
            return None
        chat = self.chat_of(interaction.guild_id, interaction.channel, interaction.channel_id)
        return self.runtime.ticket(chat)

    async def _command(
        self, reply: Reply, name: str, args: tuple[str, ...], turn: Turn | None = None
    ) -> None:
        interaction = reply.interaction
        assert interaction.guild_id is not None and interaction.channel_id is not None
        chat = self.chat_of(interaction.guild_id, interaction.channel, interaction.channel_id)
        if name == "start":
            if turn is not None:
                await turn.wait()  # (whether the chat has a game decides where this one goes)
            lacking = missing(interaction.app_permissions)
            if lacking:
                log.warning(
                    "discord: cannot start a game in %s: missing %s", chat.label(), ", ".join(lacking)
                )
                with speaking(await self._speech(interaction)):
                    await self.finish_reply(reply, missing_message(lacking))
                return
            chat = await self._game_chat(reply, chat, args)
        self.transport.remember(chat, reply)
        event = Command(name, args, chat, self.asker(interaction), reply)
        if not await self.runtime.ingest(event, turn=turn):
            return  # a repeat of an interaction handled already: its first delivery answered it
        if reply.note:
            await self._note(reply, reply.note)
        await self.finish_reply(reply)

    async def _game_chat(self, reply: Reply, chat: ChatKey, args: tuple[str, ...]) -> ChatKey:
        """Turn-based games get their own thread (when started outside one): the core's rule,
        :meth:`bot.core.platform.Capabilities.plays_in_thread`."""
        interaction = reply.interaction
        info = self.registry.find(args[0]) if args and "=" not in args[0] else None
        plays_in_thread = info is not None and self.runtime.platform.capabilities.plays_in_thread(info)
        if info is None or not plays_in_thread or chat.thread_id or self.runtime.runs(chat):
            return chat
        lacking = missing(interaction.app_permissions, THREADS)
        if lacking:
            log.warning("discord: no thread for %s in %s (missing %s)", info.name, chat.label(), lacking)
            with speaking(await self._speech(interaction)):
                await self.finish_reply(reply, no_thread([_(label) for label in lacking]))
            return chat
        with speaking(await self._chat_language(chat)):  # (the thread's name: the channel reads it)
            title = _(info.title)
        try:
            data = await self.http.start_thread_without_message(
                int(chat.channel_id),
                name=f"{title} — {interaction.user.display_name}"[:100],
                auto_archive_duration=LOBBY_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread.value,
            )
        except discord.HTTPException as exc:
            log.warning("discord: could not open a thread for %s in %s: %s", info.name, chat.label(), exc)
            with speaking(await self._speech(interaction)):
                await self.finish_reply(reply, no_thread([_(THREADS["create_public_threads"])]))
            return chat
        thread_id = int(data["id"])
        self.threads[thread_id] = int(chat.channel_id)
        # a day for the lobby; the first turn lengthens it to cover the game's turn limit
        self.transport.archive_minutes[thread_id] = LOBBY_ARCHIVE_MINUTES
        return ChatKey(chat.platform, chat.workspace_id, chat.channel_id, str(thread_id))

    def game_thread_opened(self, chat: ChatKey, thread_id: int) -> None:
        """A game's thread (a tournament's pairing) was opened in ``chat``'s channel."""
        self.threads[thread_id] = int(chat.channel_id)
        self.transport.archive_minutes[thread_id] = LOBBY_ARCHIVE_MINUTES

    async def finish_reply(self, reply: Reply, text: str | None = None) -> None:
        """End a deferred interaction: say ``text``, or remove the 'thinking…' note."""
        interaction = reply.interaction
        try:
            if text is not None and not reply.used:
                await interaction.followup.send(text, ephemeral=True)
                reply.used = True
            elif not reply.used:
                await interaction.delete_original_response()
        except discord.HTTPException as exc:
            log.info("discord: could not finish an interaction: %s", exc)

    async def open_list_modal(self, interaction: discord.Interaction[Any]) -> None:
        """``/moji list``: open the Eagle Eyes list modal (a modal can't wait, so no defer)."""
        # (a modal must answer at once: the person's own language, read from the interaction)
        with speaking(locale_of(interaction)):
            if interaction.guild_id is None or interaction.channel_id is None:
                await interaction.response.send_message(_("moji games run in servers."), ephemeral=True)
                return
            chat = self.chat_of(interaction.guild_id, interaction.channel, interaction.channel_id)
            if not self.runtime.plays_here(chat, self.asker(interaction)):
                await interaction.response.send_message(_("You're not playing a game here."), ephemeral=True)
                return
            await interaction.response.send_modal(ListModal())

    async def _list_submitted(self, interaction: discord.Interaction[Any], text: str) -> None:
        reply = Reply(interaction)
        turn = self._turn(interaction)
        try:
            if not await self._acknowledge(interaction, ephemeral=True, thinking=True):
                return
            if turn is None or interaction.guild_id is None or interaction.channel_id is None:
                return
            chat = self.chat_of(interaction.guild_id, interaction.channel, interaction.channel_id)
            player = self.asker(interaction)
            event = PrivateText(chat, player, text, snowflake_seconds(interaction.id))
            await self.runtime.ingest(event, turn=turn)
            with speaking(await self._speech(interaction)):
                await self.finish_reply(reply, _("📝 Got your list."))
        finally:
            turn_done(turn)

    async def _tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        log.error("discord: slash command failed", exc_info=error)
        with speaking(locale_of(interaction)):
            text = _("Sorry — that didn't work. Try again in a moment.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    # ------------------------------------------------------------ gateway events

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Button presses and list forms, routed by their stable custom id (no per-message state)."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if interaction.type is discord.InteractionType.modal_submit and custom_id == LIST_MODAL:
            await self._list_submitted(interaction, modal_text(data))
            return
        if interaction.type is not discord.InteractionType.component or button_command(custom_id) is None:
            return
        reply = Reply(interaction)
        turn = self._turn(interaction)
        try:
            if not await self._acknowledge(interaction):
                return
            if turn is None or interaction.guild_id is None or interaction.channel_id is None:
                return
            chat = self.chat_of(interaction.guild_id, interaction.channel, interaction.channel_id)
            await self.runtime.ingest(Button(chat, self.asker(interaction), custom_id, reply), turn=turn)
            if reply.note:
                await self._note(reply, reply.note)
        finally:
            turn_done(turn)

    async def on_message(self, message: discord.Message) -> None:
        """A message in a channel with a game: its text goes to the core as typed, which takes
        answers and moves only (everything else is chatter, dropped unstored: bot.sessions.moves)."""
        if message.author.bot or message.webhook_id is not None:
            return
        if message.guild is None:
            if isinstance(message.channel, discord.DMChannel) and message.edited_at is None:
                await self._direct_message(message)
            return
        if message.edited_at is not None:
            return  # edited messages never count
        chat = self.chat_of(message.guild.id, message.channel, message.channel.id)
        if not self.runtime.listening(chat):
            return  # chatter in a channel without a game (nor a command on its way to open one)
        self.outbox.saw_message(chat)
        event = Text(
            chat,
            self.player_of(message.author),
            message.content,
            snowflake_seconds(message.id),
            MessageRef(chat, str(message.id)),
        )
        # (a message read back after an invalid session that was handled live is dropped by its id)
        await self.runtime.ingest(event, ids=(f"message:{message.id}",))

    async def _direct_message(self, message: discord.Message) -> None:
        """A message in someone's direct messages with moji: a word of the daily they play there
        (anything else there is chatter, dropped unread like a channel's)."""
        player = self.player_of(message.author)
        chat = await self.runtime.chat_of_direct(player.user_id, str(message.channel.id))
        if chat is None or not self.runtime.listening(chat):
            return
        event = Text(
            chat, player, message.content, snowflake_seconds(message.id), MessageRef(chat, str(message.id))
        )
        await self.runtime.ingest(event, ids=(f"message:{message.id}",))

    # ------------------------------------------------------------ chats that are gone

    def _chat_gone_soon(self, chat: ChatKey, why: str) -> None:
        """A REST call met a chat that is gone (from the outbox, maybe inside the chat's own
        delivery lane, which ending the game cancels: so it ends in a task of its own)."""
        self.runtime.spawn(self.chat_gone([chat], why), f"discord chat gone {chat.label()}")

    async def chat_gone(self, chats: list[ChatKey], why: str) -> None:
        """End the games of ``chats`` here, voided; nothing more is sent to them."""
        for chat in chats:
            self.transport.mark_gone(chat)
            if await self.runtime.chat_gone(chat, why) is not None:
                self.transport.forget(chat)

    def _chats_in(self, guild_id: int, channel_id: int) -> list[ChatKey]:
        """This process's games in a channel and in its threads (or in that thread)."""
        wanted = str(channel_id)
        return self.runtime.chats(str(guild_id), wanted)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """CHANNEL_DELETE: the games in the channel and its threads end, voided."""
        await self.chat_gone(self._chats_in(channel.guild.id, channel.id), "channel deleted")

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """THREAD_DELETE: the game in the thread ends, voided."""
        await self.chat_gone(self._chats_in(payload.guild_id, payload.thread_id), "thread deleted")

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A game's thread archived (idle, a busy server, a member): unarchived while its game runs.

        Discord lets no one use a command or a button, nor moji edit the board or add a
        reaction, in an archived thread. A thread a moderator *locked* stays as they left it."""
        meta = payload.data.get("thread_metadata") or {}
        if not meta.get("archived"):
            return
        chat = ChatKey("discord", str(payload.guild_id), str(payload.parent_id), str(payload.thread_id))
        if not self.runtime.runs(chat):
            return  # no game of this process's there (or it ended): archiving is welcome
        if meta.get("locked"):
            log.warning("discord: the thread of the game in %s was locked by a moderator", chat.label())
            return
        await self.transport.unarchive(chat)

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        """👍 / 👎 on a disputed answer are votes."""
        if payload.guild_id is None or (self.user is not None and payload.user_id == self.user.id):
            return
        channel = self.get_channel(payload.channel_id)
        chat = self.chat_of(payload.guild_id, channel, payload.channel_id)
        if not self.runtime.listening(chat):
            return
        member = payload.member
        if member is not None and member.bot:
            return
        name = member.display_name if member is not None else str(payload.user_id)
        player = Player("discord", str(payload.user_id), name)
        ref = MessageRef(chat, str(payload.message_id))
        await self.runtime.ingest(Reaction(chat, player, str(payload.emoji), ref))
