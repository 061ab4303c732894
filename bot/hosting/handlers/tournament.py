"""``tournament``: open an arena, a Swiss or a round-robin in this channel, and everything after.

``tournament`` says what runs here and how to join; ``tournament arena race 30m``,
``tournament swiss board rounds=4 round=24h`` and ``tournament roundrobin dice`` open one
(:mod:`bot.features.tournaments.spec`); ``join``, ``leave``, ``standings`` and ``pairings`` are
everyone's; ``start`` (close registration now) and ``cancel`` are its creator's or an admin's.
What happens next is the director's (:mod:`bot.features.tournaments.director`). A command in a
pairing's thread means the tournament of the thread's channel.
"""

from __future__ import annotations

import uuid

from bot.core import views
from bot.core.commands import CommandError
from bot.core.events import Command
from bot.core.ratings import COMPUTERS, NEWCOMER
from bot.features.tournaments import texts
from bot.features.tournaments.director import channel_of
from bot.features.tournaments.spec import parse_tournament, unknown_verb
from bot.hosting.handlers.common import reply
from bot.hosting.host import GameHost, chat_speech
from bot.sessions.lobby import BOT_NAMES
from games.common.speech import N_, _, _n, duration, speaking
from storage.tournament_records import (
    ARENA,
    CANCELLED,
    REGISTERING,
    RUNNING,
    SWISS,
    Tournament,
    TournamentStore,
)

NONE_HERE = (
    "There's no tournament in this channel. Open one: `tournament arena race 30m` (back-to-back "
    "races for half an hour), `tournament swiss board rounds=4 round=24h` or `tournament "
    "roundrobin dice`."
)


def _store(host: GameHost) -> TournamentStore:
    store = host.tournaments.store()
    if store is None:
        raise CommandError(_("Tournaments need moji's database, which this moji has none of."))
    return store


async def _live(host: GameHost, cmd: Command, store: TournamentStore) -> Tournament:
    chat = cmd.chat
    t = await store.live_tournament(chat.platform, chat.workspace_id, chat.channel_id)
    if t is None:
        raise CommandError(_(NONE_HERE))
    return t


async def tournament(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``tournament [arena|swiss|roundrobin …|join|leave|standings|pairings|start|cancel]``."""
    store = _store(host)
    verb = args[0].lower() if args else ""
    if not verb:
        await reply(host, cmd, await _status(host, cmd, store))
    elif verb in {"arena", "swiss", "roundrobin", "round-robin", "rr", "league"}:
        await _open(host, cmd, store, args)
    elif verb in {"join", "enter"}:
        await _join(host, cmd, store)
    elif verb in {"leave", "withdraw"}:
        t = await _live(host, cmd, store)
        if not await store.leave_tournament(t.tournament_id, cmd.player.user_id, host.clock.now()):
            raise CommandError(_("You're not in this tournament."))
        await reply(
            host,
            cmd,
            views.message(_("You left the tournament; your games and points stay in its standings."), "info"),
        )
        with speaking(t.speech):
            await host.tournaments.say(
                t,
                views.message(
                    _("{name} left the tournament.", name=views.user(cmd.player.display_name)), "info"
                ),
            )
    elif verb in {"standings", "table"}:
        t = await _live_or_last(host, cmd, store)
        await reply(
            host, cmd, await _on_the_web(host, cmd, t, await host.tournaments.standings_view(store, t))
        )
    elif verb in {"pairings", "round"}:
        t = await _live_or_last(host, cmd, store)
        entries = await store.entries(t.tournament_id)
        games = await store.tournament_games(t.tournament_id)
        if not games:
            raise CommandError(_("No round has been paired yet."))
        await reply(
            host, cmd, await _on_the_web(host, cmd, t, host.tournaments.pairings_view(t, entries, games))
        )
    elif verb in {"rules", "help", "how"}:
        await reply(host, cmd, rules_view())
    elif verb in {"start", "cancel", "stop"}:
        await _run_by_creator(host, cmd, store, verb)
    else:
        raise unknown_verb(verb)


async def _on_the_web(host: GameHost, cmd: Command, t: Tournament, view: views.View) -> views.View:
    """``view`` with a link to the tournament's page, where the workspace's web is on."""
    return await host.workspace.web_link(cmd.chat, view, f"tournaments/{t.tournament_id}")


async def _live_or_last(host: GameHost, cmd: Command, store: TournamentStore) -> Tournament:
    chat = cmd.chat
    t = await store.live_tournament(chat.platform, chat.workspace_id, chat.channel_id)
    if t is None:
        recent = [
            r
            for r in await store.recent_tournaments(chat.platform, chat.workspace_id, 20)
            if r.channel_id == chat.channel_id
        ]
        if not recent:
            raise CommandError(_(NONE_HERE))
        t = recent[0]
    return t


async def _status(host: GameHost, cmd: Command, store: TournamentStore) -> views.View:
    chat = cmd.chat
    t = await store.live_tournament(chat.platform, chat.workspace_id, chat.channel_id)
    if t is None:
        return views.message(_(NONE_HERE), "info")
    entries = [e for e in await store.entries(t.tournament_id) if e.active]
    info = host.registry.find(t.game)
    lines = [texts.rounds_text(t), _n("{count} player", "{count} players", len(entries))]
    now = host.clock.now()
    if t.state == REGISTERING and t.starts_at is not None:
        lines.append(
            _(
                "Registration is open: `tournament join` to enter. It starts in {time}.",
                time=duration(max(60, int(t.starts_at - now))),
            )
        )
    elif t.format == ARENA:
        lines.append(
            _(
                "`tournament join` to play in the next game (late is fine); it closes in {time}.",
                time=duration(max(60, int((t.round_ends_at or now) - now))),
            )
        )
    else:
        lines.append(
            _(
                "Round {round} is being played; `tournament pairings` and `tournament standings` show "
                "where it stands.",
                round=t.round,
            )
        )
    title = texts.title(t, _(info.title) if info else t.game)
    return await _on_the_web(host, cmd, t, views.View(kind="info", title=title, lines=tuple(lines)))


#: How tournaments score, as ``tournament rules`` says it (docs/TOURNAMENTS.md in full).
RULES = (
    N_(
        "Arena: whoever has joined plays back-to-back games until the window closes. Each game "
        "scores by place: the winner 2 points, 4 on a streak (after winning their two previous "
        "games); the rest of the top half 1 point; the others 0."
    ),
    N_(
        "Swiss: each round pairs players with equal points where it can, never the same two twice "
        "while avoidable, and alternates who plays first. A win is 1 point, a draw ½, a bye 1."
    ),
    N_("Round-robin: everyone meets everyone once; a win is 1 point, a draw ½, a bye 1."),
    N_(
        "Ties are broken by Buchholz (the points of the opponents met), then Sonneborn-Berger (the "
        "points of the opponents beaten, and half those drawn with), then the points scored in the "
        "games, then rating."
    ),
    N_(
        "A round ends when its games have ended, or when its time is up: a game still running then "
        "ends on its scores so far."
    ),
)


def rules_view() -> views.View:
    """``tournament rules``: how each format scores."""
    return views.View(kind="help", title=_("🏆 Tournaments"), lines=tuple(_(line) for line in RULES))


def _option(options: tuple[str, ...], name: str, default: str) -> str:
    """An option as typed (``language=fr`` → ``fr``), or ``default``."""
    return next((o.split("=", 1)[1].lower() for o in options if o.lower().startswith(name + "=")), default)


async def _rating(host: GameHost, cmd: Command, game: str, language: str) -> float:
    try:
        found = await host.game_log.skills(cmd.chat, game, language, [cmd.player.seat_id])
    except Exception:  # (no rating readable: a newcomer's)
        found = {}
    return float(found.get(cmd.player.seat_id, NEWCOMER.mu))


async def _open(host: GameHost, cmd: Command, store: TournamentStore, args: tuple[str, ...]) -> None:
    spec = parse_tournament(args, host.registry)
    chat = cmd.chat
    if chat.thread_id:
        raise CommandError(
            _("Open a tournament in a channel, not in a thread: its games get threads of their own.")
        )
    now = host.clock.now()
    arena = spec.format == ARENA
    t = Tournament(
        uuid.uuid4().hex[:10],
        chat.platform,
        chat.workspace_id,
        chat.channel_id,
        spec.format,
        spec.game.name,
        spec.options,
        spec.rounds,
        spec.round_seconds,
        await chat_speech(host, chat),
        cmd.player.user_id,
        cmd.player.display_name,
        now,
        now if arena else now + spec.register_seconds,
        RUNNING if arena else REGISTERING,
        0,
        now + spec.round_seconds if arena else None,
    )
    saved = await store.create_tournament(t)
    if saved.tournament_id != t.tournament_id:
        raise CommandError(
            _("A tournament is already open in this channel: `tournament` says how to join it.")
        )
    await host.workspace.seen(chat, cmd.player)
    language = _option(spec.options, "language", "en")
    await store.join_tournament(
        t.tournament_id,
        cmd.player.user_id,
        cmd.player.display_name,
        await _rating(host, cmd, t.game, language),
        now,
    )
    level = _option(spec.options, "level", "normal")
    skill = COMPUTERS.get(level, COMPUTERS["normal"]).mu
    for n in range(1, spec.bots + 1):
        name = _("{name} (bot)", name=BOT_NAMES[(n - 1) % len(BOT_NAMES)])
        if n > len(BOT_NAMES):
            name = f"{name} {n}"
        await store.join_tournament(t.tournament_id, f"bot:{n}", name, skill, now)
    with speaking(t.speech):
        who = views.user(cmd.player.display_name)
        game = _(spec.game.title)
        if arena:
            text = _(
                "{name} opened an arena of {game} for {time}: whoever joins plays back-to-back games here "
                "until it closes, each scoring arena points by place (a win is worth double on a streak). "
                "`tournament join` to play (late is fine); `tournament leave` to stop, keeping your points.",
                name=who,
                game=game,
                time=duration(int(spec.round_seconds)),
            )
        else:
            text = (_swiss_opened if spec.format == SWISS else _league_opened)(
                who, game, texts.rounds_text(t), duration(max(60, int(spec.register_seconds)))
            )
        await host.tournaments.say(t, views.View(kind="info", title=texts.title(t, game), lines=(text,)))
    host.tournaments.wake()


def _swiss_opened(who: str, game: str, rounds: str, wait: str) -> str:
    return _(
        "{name} opened a Swiss tournament of {game}: {rounds}. `tournament join` to enter; it starts "
        "in {time}, or when {name} types `tournament start`. Each pairing plays in a thread of its "
        "own, and moji pings its players.",
        name=who,
        game=game,
        rounds=rounds,
        time=wait,
    )


def _league_opened(who: str, game: str, rounds: str, wait: str) -> str:
    return _(
        "{name} opened a round-robin tournament of {game}: {rounds}. `tournament join` to enter; it "
        "starts in {time}, or when {name} types `tournament start`. Each pairing plays in a thread of "
        "its own, and moji pings its players.",
        name=who,
        game=game,
        rounds=rounds,
        time=wait,
    )


async def _join(host: GameHost, cmd: Command, store: TournamentStore) -> None:
    t = await _live(host, cmd, store)
    if t.format != ARENA and t.state != REGISTERING:
        raise CommandError(_("This tournament's registration has closed; join the next one!"))
    rating = await _rating(host, cmd, t.game, _option(t.options, "language", "en"))
    await host.workspace.seen(cmd.chat, cmd.player)
    if not await store.join_tournament(
        t.tournament_id, cmd.player.user_id, cmd.player.display_name, rating, host.clock.now()
    ):
        raise CommandError(_("You're already in this tournament."))
    count = len([e for e in await store.entries(t.tournament_id) if e.active])
    await reply(host, cmd, views.message(_("You're in the tournament."), "info"))
    with speaking(t.speech):
        line = _n(
            "{name} joined the tournament ({count} player).",
            "{name} joined the tournament ({count} players).",
            count,
            name=views.user(cmd.player.display_name),
        )
        await host.tournaments.say(t, views.message(line, "info"))
    host.tournaments.wake()


async def _run_by_creator(host: GameHost, cmd: Command, store: TournamentStore, verb: str) -> None:
    t = await _live(host, cmd, store)
    if cmd.player.user_id != t.created_by and not cmd.player.is_admin:
        raise CommandError(
            _(
                "Only the tournament's creator, {name}, or an admin can do that.",
                name=views.user(t.created_by_name),
            )
        )
    now = host.clock.now()
    if verb == "start":
        if t.state != REGISTERING:
            raise CommandError(_("This tournament has started already."))
        with speaking(t.speech):
            await host.tournaments.begin(store, t)
        await reply(host, cmd, views.message(_("The tournament starts."), "info"))
        host.tournaments.wake()
        return
    if not await store.end_tournament(t.tournament_id, CANCELLED, now):
        raise CommandError(_("This tournament has ended already."))
    with speaking(t.speech):
        await host.tournaments.say(
            t,
            views.message(
                _(
                    "{name} cancelled the tournament; games still running finish as ordinary games.",
                    name=views.user(cmd.player.display_name),
                ),
                "info",
            ),
        )
    await reply(host, cmd, views.message(_("Tournament cancelled."), "info"))


__all__ = ["channel_of", "tournament"]
