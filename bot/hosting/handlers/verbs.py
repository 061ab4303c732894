"""The games' own verbs (:attr:`games.common.protocol.GameInfo.verbs`): one handler per kind of
verb, none per game. The chat's game decides what a verb means (a race's ``skip`` is a vote,
shed's ``skip NAME`` a move); a game without that verb gets the declaring game's words for
what it is, and what to do instead."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core import views
from bot.core.commands import CommandError, grammar
from bot.core.events import Command
from bot.hosting.handlers.common import MOVE_HINT, reply, session_of
from bot.hosting.host import GameHost
from bot.sessions.session import Session
from bot.sessions.state import Phase, SessionError
from games.common.protocol import GameInfo, GameVerb, VerbKind
from games.common.speech import _, listing

#: A verb handler: (the host, the command as sent, the chat's session, the game's verb, its words).
VerbHandler = Callable[[GameHost, Command, Session, GameVerb, tuple[str, ...]], Awaitable[None]]


async def run(host: GameHost, cmd: Command, name: str, args: tuple[str, ...]) -> None:
    """The verb ``name`` (its own name, not an alias) as the chat's game declares it."""
    session = session_of(host, cmd)
    verb = session.info.verb(name)
    if verb is None:
        raise SessionError(lacking(host, session.info, name))
    await BY_KIND[verb.kind](host, cmd, session, verb, args)


async def vote(host: GameHost, cmd: Command, session: Session, verb: GameVerb, args: tuple[str, ...]) -> None:
    """A vote the engine counts (``skip``, ``vote yes``). The voter always hears something: a
    vote the engine counted in silence is confirmed, one it ignored is explained."""
    choice = verb.choice(args)
    if choice is None:
        raise CommandError(_missing(verb))
    notices = await session.vote(cmd.player, choice)
    mine = [n for n in notices if n.seat == cmd.player.seat_id and n.kind in {"rejected", "private"}]
    refused = next((n.text for n in mine if n.kind == "rejected" and n.text), None)
    if refused is not None:
        await reply(host, cmd, views.error(refused))
    elif not mine and not any(n.kind in {"announce", "end"} for n in notices):
        await reply(host, cmd, views.message(session.quiet_vote(cmd.player, choice), "info"))


async def move(host: GameHost, cmd: Command, session: Session, verb: GameVerb, args: tuple[str, ...]) -> None:
    """The verb and its words, as typed, played as a move (shed's ``skip Bob``)."""
    if not args and verb.argument is not None and verb.argument.required:
        raise SessionError(f"{_missing(verb)} {instead(session.info)}")
    refused = await session.say(cmd.player, " ".join((verb.name, *args)))
    if refused is not None:
        await reply(host, cmd, views.error(refused))


async def private(
    host: GameHost, cmd: Command, session: Session, verb: GameVerb, args: tuple[str, ...]
) -> None:
    """Words handed in privately (an Eagle Eyes list), where the game takes them."""
    if session.phase is Phase.RUNNING and not session.takes_lists():
        raise SessionError(no_private_words(host, session.info, verb))
    if not args and (verb.argument is None or verb.argument.required):
        raise CommandError(_missing(verb))
    refused = await session.say(cmd.player, " ".join(args), private=True)
    if refused is not None:
        await reply(host, cmd, views.error(refused))


#: What each kind of verb does.
BY_KIND: dict[VerbKind, VerbHandler] = {"vote": vote, "move": move, "private": private}


def lacking(host: GameHost, info: GameInfo, name: str) -> str:
    """Why the verb ``name`` does nothing in a game of ``info``'s, which lacks it: what it is in the
    games that declare it (the first one's words), and what to do here instead."""
    declared = grammar(host.registry).declared(name)
    said = next((_absent(verb, info) for _game, verb in declared if verb.absent), "")
    if not said:
        titles = [_(game.title) for game, _verb in declared]
        if titles:
            said = _(
                "`{command}` is a command of {games}; {title} has none.",
                command=name,
                games=", ".join(titles),
                title=_(info.title),
            )
        else:
            said = _(
                "`{command}` is a command of other games; {title} has none.",
                command=name,
                title=_(info.title),
            )
    return f"{said} {instead(info)}"


def no_private_words(host: GameHost, info: GameInfo, verb: GameVerb | None = None) -> str:
    """Why a running game of ``info``'s takes no words sent privately (with ``verb``, a DM or a
    form otherwise): the words of its own ``private`` verb, else of the first game that has one."""
    if verb is None:
        verb = next((v for v in info.verbs if v.kind == "private"), None)
    found = (
        [verb]
        if verb is not None
        else [v for game in host.registry for v in game.verbs if v.kind == "private"]
    )
    said = next(
        (_absent(v, info) for v in found if v.absent),
        _("This {title} game takes no words sent privately.", title=_(info.title)),
    )
    return f"{said} " + (_("Type your words in the channel.") if info.realtime else _(MOVE_HINT))


def instead(info: GameInfo) -> str:
    """What a player of ``info``'s game does instead of a verb that does nothing there."""
    if info.realtime:
        return _("Type your words in the channel; `rules {game}` explains the game.", game=info.name)
    moves = listing(
        (_("`{move}` ({label})", move=move, label=_lowered(_(label))) for label, move in info.turn_moves),
        style="or",
    )
    if moves:
        return _(
            "On your turn you can type {moves}, or your move. `rules {game}` explains the moves.",
            moves=moves,
            game=info.name,
        )
    return _("{hint} `rules {game}` explains the moves.", hint=_(MOVE_HINT), game=info.name)


def _absent(verb: GameVerb, info: GameInfo) -> str:
    return _(verb.absent).replace("{title}", _(info.title))


def _missing(verb: GameVerb) -> str:
    """Why ``verb`` does nothing without its argument."""
    return _(verb.missing) if verb.missing else _("Say `{usage}`.", usage=verb.usage)


def _lowered(label: str) -> str:
    """A move's button label inside a sentence: its first letter in lower case."""
    return label[:1].lower() + label[1:]
