"""The core commands of a chat's game: start, join, leave, go, stop, why, hand, board, play —
and private words (a DM or a form), which hand in an Eagle Eyes list. (A game's own verbs, such
as a race's ``skip``, are :mod:`bot.hosting.handlers.verbs`.)"""

from __future__ import annotations

import uuid

from bot.core import views
from bot.core.commands import CommandError, option_names, parse_start
from bot.core.events import Command, PrivateText
from bot.hosting.handlers.common import reply, session_of
from bot.hosting.handlers.verbs import no_private_words
from bot.hosting.host import GameHost, chat_speech
from bot.sessions.state import Phase, SessionError
from games.common.speech import _


async def start(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``start [game] [option=value …]``: open a lobby (or give the host's own lobby new options)."""
    existing = host.sessions.get(cmd.chat)
    mine = existing is not None and existing.lobby.alone() and existing.host.seat_id == cmd.player.seat_id
    if existing is not None and not mine:
        title = _(existing.info.title)
        if existing.phase is Phase.LOBBY and existing.host.seat_id == cmd.player.seat_id:
            raise CommandError(
                _(
                    "Your {game} lobby is still open, with other players in it: `go` starts it, or "
                    "`stop` closes it so you can `start` again with other options — one game per channel.",
                    game=title,
                )
            )
        if existing.phase is Phase.LOBBY:
            raise CommandError(
                _(
                    "There's already a {game} game here (its lobby is open): `join` it, or wait until "
                    "it closes — one game per channel.",
                    game=title,
                )
            )
        raise CommandError(
            _(
                "There's already a {game} game here (it's running): wait until it ends (or its host "
                "can `stop` it) — one game per channel.",
                game=title,
            )
        )
    info, options = parse_start(args, host.registry)
    # the workspace's defaults (its language, its `config race.cards 5`…) for what was not given
    user_args = args[1:] if args and host.registry.find(args[0]) is info else args
    given = option_names(info, user_args)
    ours = await host.workspace.game_defaults(cmd.chat, info)
    defaults = [t for t in ours if not option_names(info, [t]) & given]
    if defaults:
        info, options = parse_start((info.name, *defaults, *user_args), host.registry)
    # what the chat's last game asks of this start (the race's Master's Choice)
    refused = host.start_rules.refusal(cmd.chat, info.name, cmd.player.seat_id, args)
    if refused is not None:
        raise CommandError(refused)
    await host.workspace.seen(cmd.chat, cmd.player)
    words = await host.workspace.word_lists(cmd.chat, str(options.get("language", "en")))
    if existing is not None and existing.info is info:
        # the host alone in their lobby starts the same game again: the lobby takes the options
        await existing.change_options(options, words)
        host.prepare(info, options)
        await reply(
            host,
            cmd,
            views.message(
                _("Your {game} lobby takes the new options: `go` starts it.", game=_(info.title)), "info"
            ),
        )
        return
    if existing is not None:  # … or another game: this lobby closes and the new one opens
        await existing.reopen_as_new(cmd.player)
    game_id, seed = uuid.uuid4().hex, host.rng.getrandbits(63)
    # one active game per chat is the database's rule, across every moji process
    if await host.claim(cmd.chat, game_id) is not None:
        raise CommandError(
            _(
                "There's already a game in this channel. Join it, or wait until it ends — "
                "one game per channel."
            )
        )
    if cmd.chat in host.sessions:  # (opened here meanwhile)
        raise CommandError(_("There's already a game here. Join it — one game per channel."))
    speech = await chat_speech(host, cmd.chat)
    session = host.new_session(cmd.chat, info, cmd.player, options, game_id, seed, words, speech)
    host.sessions[cmd.chat] = session
    host.keep_alive()
    await session.open_lobby()
    host.prepare(info, options)


async def join(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``join``."""
    await host.workspace.seen(cmd.chat, cmd.player)
    await reply(host, cmd, views.message(await session_of(host, cmd).join(cmd.player), "info"))


async def leave(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``leave``."""
    await reply(host, cmd, views.message(await session_of(host, cmd).leave(cmd.player), "info"))


async def go(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``go``: the host (or an admin) starts the game."""
    await session_of(host, cmd).go(cmd.player, admin=cmd.player.is_admin)


async def stop(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``stop``: the host or an admin ends the game."""
    session = session_of(host, cmd)
    if cmd.player.seat_id != session.host.seat_id and not cmd.player.is_admin:
        raise SessionError(
            _(
                "Only the host, {name}, or an admin can stop this game.",
                name=views.user(session.host.display_name),
            )
        )
    await session.stop(cmd.player)


async def why(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``why``: why the sender's last answer was refused."""
    session = host.sessions.get(cmd.chat)
    if session is None:
        text = _("There's no game in this channel, so nothing of yours was refused.")
    elif session.engine is None:
        text = _("The game hasn't started yet, so nothing of yours was refused.")
    else:
        text = await session.why_after_verdict(cmd.player)
    await reply(host, cmd, views.message(text, "info"))


async def hand(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``hand``: the sender's hand or rack, privately."""
    await reply(host, cmd, session_of(host, cmd).announcer.private_view(cmd.player))


async def board(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``board``: the game's board as text, privately."""
    session = session_of(host, cmd)
    if session.engine is None:
        raise SessionError(_("The game hasn't started yet."))
    await reply(host, cmd, views.board_text(session.snapshot(None), session.info.name))


async def play(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``play MOVE``."""
    if not args:
        raise CommandError(_("Say what to play, e.g. `play H8 across WORD`."))
    refused = await session_of(host, cmd).say(cmd.player, " ".join(args))
    if refused is not None:
        await reply(host, cmd, views.error(refused))


async def private_text(host: GameHost, event: PrivateText) -> None:
    """Words sent privately (a DM or a form), for a game whose engine takes them (an Eagle Eyes
    list); elsewhere the game's own words say what they are for."""
    session = host.sessions.get(event.chat)
    if session is None:
        raise SessionError(_("There's no game in this channel. Start one with `start`."))
    if session.phase is Phase.RUNNING and not session.takes_lists():
        raise SessionError(no_private_words(host, session.info))
    refused = await session.say(event.player, event.text, private=True)
    if refused is not None:
        await reply(host, event, views.error(refused))
