"""``daily``: play the day's race (once a day), ``daily share`` its line, ``leaderboard daily``.

Where the daily is played and what its end does: :mod:`bot.features.daily`; the rules of the deal:
docs/DAILY.md.
"""

from __future__ import annotations

import uuid
from datetime import date

from bot.core import views
from bot.core.commands import CommandError
from bot.core.events import ChatKey, Command, Post
from bot.delivery.reach import PrivateRefused
from bot.features.daily import DMS_CLOSED, IN_DMS, NoDirectChat, result_of, result_text, share_line, today
from bot.hosting.handlers.common import reply
from bot.hosting.host import GameHost
from games.common.grammar import excerpt
from games.common.languages import language as language_named
from games.common.speech import N_, _, _n, current
from games.race.daily import daily_day, daily_deal, until_next, wait_text
from storage.daily import DAILY_GAME_PREFIX, DailyPlay, DailyStore

#: How many rows each part of ``leaderboard daily`` shows.
BOARD_SIZE = 10
#: Seconds a daily may take from its row to its recorded game (a DM opened, the game written).
STARTING = 60.0

USAGE = N_("`daily` plays today's daily; `daily share` posts your result here (no words).")


def _store(host: GameHost) -> DailyStore:
    store = host.dailies.store()
    if store is None:
        raise CommandError(_("The daily needs moji's database, and this moji runs without one."))
    return store


async def daily(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``daily [share]``."""
    verb = args[0].lower() if args else ""
    if verb in {"", "play", "start"}:
        await _play(host, cmd)
    elif verb in {"share", "post"}:
        await _share(host, cmd)
    elif verb in {"leaderboard", "board", "top", "lb"}:
        await reply(host, cmd, await board(host, cmd))
    else:
        raise CommandError(_("{word}: {usage}", word=excerpt(args[0]), usage=_(USAGE)))


async def _current(host: GameHost, store: DailyStore, cmd: Command, day: str) -> DailyPlay | None:
    """The sender's daily of ``day``; one whose game ended without telling it (a crash, a
    terminal closed mid-daily) ends now without a result: the attempt was used."""
    play = await store.daily_play(cmd.player.platform, cmd.player.user_id, day)
    now = host.clock.now()
    # (a daily begun a moment ago may not be recorded yet, here or by another process; the
    # terminal's one chat takes one command at a time, in one process)
    starting = not host.capabilities.own_chat and now - play.started_at < STARTING if play else False
    if play is None or not play.playing or starting:
        return play
    db = host.workspace.store
    if db is not None and not await db.unfinished_games([play.game_id]):
        if any(session.game_id == play.game_id for session in host.sessions.values()):
            return play
        return await store.void_daily(play.game_id, now) or play
    return play


def _played(play: DailyPlay, when: str, own_chat: bool = False) -> str:
    """The answer to a second attempt: when the next daily comes, with their result."""
    result = result_of(play)
    if play.playing:
        if own_chat:
            return _("Your daily is still running: type your words.")
        return _("Your daily is still running: it's in our direct messages, type your words there.")
    if result is None:
        return _(
            "You've played today's daily — the next one in {time}. Yours ended without a result "
            "(it was stopped or interrupted).",
            time=when,
        )
    return _(
        "You've played today's daily — the next one in {time}. Yours: {result}.",
        time=when,
        result=result_text(result),
    )


async def _play(host: GameHost, cmd: Command) -> None:
    store = _store(host)
    info = host.registry.find("race")
    if info is None:
        raise CommandError(_("The daily is a race, and this moji has no race."))
    now = today(host.clock)
    day = daily_day(now)
    play = await _current(host, store, cmd, day.isoformat())
    if play is not None:
        raise CommandError(_played(play, wait_text(until_next(now)), host.capabilities.own_chat))
    lang = str((await host.workspace.settings(cmd.chat))["language"])
    caps = host.capabilities
    if caps.own_chat:
        chat = cmd.chat
        if chat in host.sessions:
            raise CommandError(_("Finish or `stop` the game here first: the daily is played alone."))
    elif caps.direct_chats and host.dailies.direct is not None:
        greeting = views.message(
            _(
                "Today's daily ({day}, {language}): a grid of 25 cards "
                "and you against the 30-second hourglass. Type a word that uses at least two face-up "
                "cards to take them; the game ends when a turn goes by without a word. Only you see it.",
                day=day.isoformat(),
                language=language_named(lang).spoken,
            ),
            "info",
            title=_("moji daily"),
        )
        try:
            chat = await host.dailies.direct.open(cmd.chat, cmd.player, greeting)
        except PrivateRefused:
            raise CommandError(_(DMS_CLOSED)) from None
        except NoDirectChat:
            raise CommandError(
                _(
                    "I couldn't open our direct messages just now, where the daily is played: try "
                    "`daily` again in a moment."
                )
            ) from None
    else:
        raise CommandError(_("The daily is played in direct messages with moji, which can't be opened here."))
    await _begin(host, store, cmd, chat, day, lang)


async def _begin(
    host: GameHost, store: DailyStore, cmd: Command, chat: ChatKey, day: date, lang: str
) -> None:
    """Start the sender's daily in ``chat`` (theirs alone), once: the first writer wins."""
    info = host.registry.find("race")
    assert info is not None
    game_id = DAILY_GAME_PREFIX + uuid.uuid4().hex
    now = host.clock.now()
    play = await store.begin_daily(
        cmd.player.platform, cmd.chat.workspace_id, cmd.player.user_id, day.isoformat(), lang, game_id, now
    )
    if play.game_id != game_id:  # (another process, or a double press, started it first)
        raise CommandError(
            _played(play, wait_text(until_next(today(host.clock))), host.capabilities.own_chat)
        )
    if await host.claim(chat, game_id) is not None or chat in host.sessions:
        await store.void_daily(game_id, now)
        raise CommandError(_("A game is still running in our direct messages: finish it, then try again."))
    await host.workspace.seen(cmd.chat, cmd.player)
    deal = daily_deal(host.dailies.secret, day, lang)
    # no workspace word lists: the same deal is judged the same way for everyone
    # a daily is played alone: it speaks its player's language (the one answering them now)
    session = host.new_session(chat, info, cmd.player, deal.options, game_id, deal.seed, speech=current())
    host.sessions[chat] = session
    host.keep_alive()
    if chat != cmd.chat:
        await reply(host, cmd, views.message(_(IN_DMS), "info"))
    await session.go(cmd.player)


async def _share(host: GameHost, cmd: Command) -> None:
    """``daily share``: the sender's line of today's daily, posted in the chat they typed it in."""
    store = _store(host)
    now = today(host.clock)
    day = daily_day(now).isoformat()
    play = await _current(host, store, cmd, day)
    result = None if play is None else result_of(play)
    if result is None:
        if play is not None and play.playing:
            raise CommandError(_("Finish your daily first: then `daily share` posts your line."))
        if play is not None:
            raise CommandError(_("Your daily today ended without a result, so there is no line to share."))
        raise CommandError(_("You haven't played today's daily yet: `daily` deals it (only you see it)."))
    await store.mark_daily_shared(cmd.player.platform, cmd.player.user_id, day, host.clock.now())
    line = _("{name}: {line}", name=views.user(cmd.player.display_name), line=share_line(result))
    await host.outbox.send(Post(cmd.chat, views.message(line, "announce")))


async def board(host: GameHost, cmd: Command) -> views.View:
    """``leaderboard daily``: today's dailies of this workspace (most points, then cards, then the
    quickest) and its longest current streaks."""
    store = _store(host)
    day = daily_day(today(host.clock)).isoformat()
    chat = cmd.chat
    rows = await store.daily_board(chat.platform, chat.workspace_id, day, BOARD_SIZE)
    streaks = await store.daily_streaks(chat.platform, chat.workspace_id, day, BOARD_SIZE)
    names = await store.daily_names(chat.platform, chat.workspace_id, day)

    def name(user: str) -> str:
        return views.user(names[user]) if user in names else _("someone")

    lines = [_("Today ({day}):", day=day)]
    for rank, play in enumerate(rows, start=1):
        result = result_of(play)
        if result is not None:
            lines.append(
                _("{rank}. {name} — {result}", rank=rank, name=name(play.user_id), result=result_text(result))
            )
    if not rows:
        lines.append(_("Nobody here has finished today's daily yet: `daily` deals it."))
    if streaks:
        lines.append("")
        lines.append(_("Longest current streaks:"))
        lines += [
            _n("{name} — {count} day", "{name} — {count} days", streak, name=name(user))
            for user, streak in streaks
        ]
    return views.View(kind="leaderboard", title=_("🗓️ Leaderboard — the daily"), lines=tuple(lines))
