"""The ``daily`` command in the core, on SQLite and (when configured) PostgreSQL:
dealt in the player's own direct-message chat, the same deal in every workspace on a date, once
a day, its result kept with the streak and told privately, shared without a word, on its own
board and never on the points leaderboards or the ratings.

(Each front door plays it end to end in tests/contract/test_daily.py; Discord's closed direct
messages in tests/adapters/discord/test_daily_dms.py; a kill -9 mid-daily in
tests/hardening/test_kill9_daily.py.)
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from bot.core import views
from bot.core.clock import FakeClock
from bot.core.commands import CommandError
from bot.core.events import ChatKey, Command, Player, Post, Private
from bot.core.platform import Capabilities
from bot.core.registry import load_default
from bot.delivery.reach import PrivateRefused
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.sessions.gamelog import StoreGameLog
from games.race.daily import daily_deal
from storage.daily import is_daily_game
from storage.sqlstore import SQLStore
from tests.doubles import FakeOutbox
from tests.waiting import eventually, eventually_true

#: 2026-11-27 09:00 UTC
NOON = datetime(2026, 11, 27, 9, 0, tzinfo=UTC).timestamp()
SECRET = b"test secret"
DMS = Capabilities(ephemeral=True, threads=True, buttons=True, timestamp_precision=0.001, direct_chats=True)
W1 = ChatKey("discord", "W1", "general")
W2 = ChatKey("discord", "W2", "lobby")
ANN = Player("discord", "100", "Ann")
BOB = Player("discord", "200", "Bob")


@dataclass
class Direct:
    """Direct-message chats as a platform opens them; ``closed``: people whose settings refuse them."""

    outbox: FakeOutbox
    closed: set[str] = field(default_factory=set)
    opened: list[ChatKey] = field(default_factory=list)

    async def open(self, chat: ChatKey, player: Player, greeting: views.View) -> ChatKey:
        if player.user_id in self.closed:
            raise PrivateRefused(player)
        direct = ChatKey(chat.platform, chat.workspace_id, f"dm-{player.user_id}")
        self.opened.append(direct)
        await self.outbox.send(Post(direct, greeting))
        return direct


@dataclass
class Bot:
    manager: GameManager
    outbox: FakeOutbox
    clock: FakeClock
    direct: Direct
    store: SQLStore

    async def command(self, chat: ChatKey, player: Player, *words: str) -> None:
        await self.manager.handle(Command(words[0], words[1:], chat, player))

    def told(self, player: Player) -> str:
        """Everything ``player`` alone sees: private answers, and their own direct messages."""
        private = [m.view.plain() for m in self.outbox.privates() if m.player == player]
        dms = [p.view.plain() for p in self.outbox.posts() if p.chat.channel_id == f"dm-{player.user_id}"]
        return "\n".join(private + dms)

    def session(self, player: Player) -> object:
        return next(
            (
                s
                for c, s in self.manager.sessions.items()
                if c.channel_id == f"dm-{player.user_id}" and is_daily_game(s.game_id)
            ),
            None,
        )


@pytest.fixture
async def bot(store: SQLStore) -> AsyncIterator[Bot]:
    clock, outbox = FakeClock(NOON), FakeOutbox()
    registry = load_default()
    manager = GameManager(
        registry,
        outbox,
        StoreGameLog(store),
        clock,
        workspace=Workspace(store, registry),
        rng=random.Random(5),
        capabilities=DMS,
    )
    manager.dailies.secret = SECRET
    direct = Direct(outbox)
    manager.dailies.direct = direct
    yield Bot(manager, outbox, clock, direct, store)
    await manager.shutdown()


async def run_out(bot: Bot, player: Player) -> None:
    """Let the hourglass run out with no word: the daily ends, and its end is told."""
    await bot.clock.advance(31.0)  # (the turn's 30 s: the tick that ends it is written, then)
    await eventually(lambda: bot.session(player) is None, "the daily's end")
    await eventually(lambda: "Your daily —" in bot.told(player), "the daily's result, told")


async def test_two_workspaces_get_the_same_deal_and_nobody_else_sees_it(bot: Bot) -> None:
    await bot.command(W1, ANN, "daily")
    await bot.command(W2, BOB, "daily")
    ann, bob = bot.session(ANN), bot.session(BOB)
    assert ann is not None and bob is not None
    deal = daily_deal(SECRET, datetime.fromtimestamp(NOON, UTC).date(), "en")
    assert ann.seed == bob.seed == deal.seed  # type: ignore[attr-defined]
    assert ann.options == bob.options == deal.options  # type: ignore[attr-defined]
    grid = [c.letter for c in ann.engine.grid if c is not None]  # type: ignore[attr-defined]
    assert grid == [c.letter for c in deal.cards()]
    # each in their own direct messages; the channels were told nothing (the answers are private)
    assert [c.channel_id for c in bot.direct.opened] == ["dm-100", "dm-200"]
    assert not bot.outbox.posts(W1) and not bot.outbox.posts(W2)
    assert "Your daily is in our direct messages" in bot.told(ANN)


async def test_a_second_attempt_the_same_day_is_refused_in_every_workspace(bot: Bot) -> None:
    await bot.command(W1, ANN, "daily")
    await bot.command(W1, ANN, "daily")
    assert "Your daily is still running" in bot.told(ANN)
    await run_out(bot, ANN)
    await bot.command(W2, ANN, "daily")  # the same deal everywhere: once per person, not per workspace
    told = bot.told(ANN)
    assert "You've played today's daily — the next one in 15 h" in told
    assert "0/25 cards" in told and "streak 1" in told
    assert len(bot.direct.opened) == 1
    [row] = [await bot.store.daily.daily_play("discord", "100", "2026-11-27")]
    assert row is not None and row.finished and row.workspace_id == "W1"


async def test_the_result_is_private_kept_with_the_streak_and_counts_on_its_own_board(bot: Bot) -> None:
    await bot.command(W1, ANN, "daily")
    session = bot.session(ANN)
    engine = session.engine  # type: ignore[attr-defined]
    _at, word = engine.planner.plan("hard", engine.groups(), engine.used, bot.clock.now())
    await session.text(ANN, word, bot.clock.now(), None)  # type: ignore[attr-defined]
    await bot.clock.advance(0.5)  # (the settle window)
    await eventually(lambda: bool(engine.won[ANN.seat_id]), "the word judged")
    await run_out(bot, ANN)
    told = bot.told(ANN)
    assert f"Your words (only you see them): {word.upper()}" in told
    row = await bot.store.daily.daily_play("discord", "100", "2026-11-27")
    assert row is not None and row.cards == len(engine.won[ANN.seat_id]) and row.streak == 1
    # never on the points leaderboards, nor rated
    assert not await bot.store.leaderboard("discord", "W1", None, "all", datetime.now(UTC), 10)
    assert not await bot.store.player_ratings("discord", "W1", "100")
    # the day's board and the streaks
    await bot.command(W1, BOB, "leaderboard", "daily")
    board = "\n".join(m.view.plain() for m in bot.outbox.privates() if m.player == BOB)
    assert "1. Ann —" in board and f"{row.cards}/25 cards" in board and "Ann — 1 day" in board
    # shared where typed: the numbers, no word
    await bot.command(W1, ANN, "daily", "share")
    [line] = bot.outbox.texts(W1)
    assert line.startswith("Ann: moji daily 2026-11-27 (English):") and word.upper() not in line.upper()
    assert (await bot.store.daily.daily_play("discord", "100", "2026-11-27")).shared_at is not None  # type: ignore[union-attr]


async def test_closed_direct_messages_are_explained_and_cost_no_attempt(bot: Bot) -> None:
    bot.direct.closed.add(ANN.user_id)
    await bot.command(W1, ANN, "daily")
    assert "I can't send you direct messages" in bot.told(ANN)
    assert bot.session(ANN) is None
    assert await bot.store.daily.daily_play("discord", "100", "2026-11-27") is None
    bot.direct.closed.clear()  # opened: the daily is still theirs to play
    await bot.command(W1, ANN, "daily")
    assert bot.session(ANN) is not None


async def test_a_daily_stopped_or_lost_in_a_crash_counts_as_played(bot: Bot) -> None:
    await bot.command(W1, ANN, "daily")
    session = bot.session(ANN)
    await bot.command(session.chat, ANN, "stop")  # type: ignore[attr-defined]

    async def ended() -> bool:
        row = await bot.store.daily.daily_play("discord", "100", "2026-11-27")
        return row is not None and not row.playing and not row.finished

    await eventually_true(ended, "the stopped daily ended without a result")
    await bot.command(W1, ANN, "daily")
    assert "Yours ended without a result" in bot.told(ANN)
    # a game that ended without telling its daily (voided at a restart): the attempt is used
    await bot.command(W1, BOB, "daily")
    lost = bot.session(BOB)
    lost.abandon()  # type: ignore[attr-defined]
    bot.manager.sessions.clear()
    await bot.store.void_game(lost.game_id, "the terminal was closed mid-game", None, None)  # type: ignore[attr-defined]
    await bot.command(W1, BOB, "daily")  # (a moment after its start: it may be starting still)
    assert "Your daily is still running" in bot.told(BOB)
    await bot.clock.advance(61.0)
    await bot.command(W1, BOB, "daily")
    assert "Yours ended without a result" in bot.told(BOB)


async def test_share_and_the_board_before_playing_say_what_to_do(bot: Bot) -> None:
    await bot.command(W1, ANN, "daily", "share")
    assert "You haven't played today's daily yet" in bot.told(ANN)
    await bot.command(W1, ANN, "daily", "nonsense")
    assert "`daily share` posts your result here" in bot.told(ANN)
    await bot.command(W1, ANN, "leaderboard", "daily")
    assert "Nobody here has finished today's daily yet" in bot.told(ANN)
    assert not bot.outbox.posts(W1)
    assert not [m for m in bot.outbox.sent if isinstance(m, Private) and m.player != ANN]


async def test_the_daily_reminder_is_a_schedule_that_posts_one_message(bot: Bot) -> None:
    import re

    from bot.features.schedule import schedule_command, start_scheduled
    from bot.features.scheduler import Scheduler

    fired: list[object] = []

    async def fire(schedule: object, when: float) -> None:
        fired.append(schedule)

    async def utc(_: str) -> str:
        return "UTC"

    scheduler = Scheduler(bot.store, bot.clock, utc, fire, platform="discord")  # type: ignore[arg-type]
    admin = Player("discord", "900", "Ada", is_admin=True)
    mention = re.compile(r"^<@&\d+>$")

    async def schedule(*words: str) -> str:
        answer = await schedule_command(
            scheduler, bot.manager.registry, W1, admin, words, "UTC", mention=mention, time_text=str
        )
        return answer.plain()

    added = await schedule("daily", "09:00", "daily", "<@&77>")
    assert "scheduled: daily at 09:00: the daily's reminder in <#general> for <@&77>" in added
    assert "The reminder is posted here on time" in added
    with pytest.raises(CommandError, match="takes no options"):
        await schedule("daily", "09:00", "daily", "cards=5")
    [kept] = await bot.store.list_schedules("discord", "W1")
    assert kept.args == ("daily",)
    # due: one message in the channel, mentioning the group; no game is opened
    await start_scheduled(bot.manager, kept, bot.clock.now(), "📅 Game time!")
    [post] = bot.outbox.posts(W1)
    assert "Today's daily is out" in post.view.plain() and post.view.mentions == ("<@&77>",)
    assert not bot.manager.sessions
