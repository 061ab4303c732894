"""The workspace's answers (leaderboard, stats, ratings, season, config, words, privacy, schedule,
the daily's reminder) speak through the catalogue: in the pseudo-language nothing a player or an
admin reads is left unmarked, and they speak the workspace's language."""

from __future__ import annotations

import re

import pytest

from bot.core import views
from bot.core.clock import FakeClock
from bot.core.commands import CommandError
from bot.core.events import Command, Player
from bot.features.daily import reminder
from bot.features.privacy import privacy_view
from bot.features.schedule import schedule_command, start_scheduled
from bot.features.schedule_spec import describe_days
from bot.features.scheduler import Scheduler
from bot.features.workspace_settings import setting_values
from bot.hosting.manager import GameManager
from games.common.speech import PSEUDO, speaking
from storage.base import Schedule
from storage.sqlstore import SQLStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_workspace_store import ADMIN, play_toy
from tests.bot.test_workspace_store import setup as setup_fixture
from tests.bot.test_workspace_store import store as store_fixture
from tests.doubles import FakeOutbox
from tests.speech.pseudo import unmarked

#: What is no sentence of moji's: the players' names, the workspace's words, commands and values
#: typed (shown as typed), the doc's path and the mention syntax.
ALLOWED = {"Ann", "Bob", "Ada", "Admin", "selfie", "UTC", "docs", "PRIVACY", "md", "general", "team"}


store = store_fixture
setup = setup_fixture


def seen(view: views.View) -> str:
    """All a reader sees of ``view``: its text (user parts still marked) and its buttons."""
    return "\n".join([view.text(), *(button.label for button in view.buttons)])


def assert_marked(view: views.View) -> None:
    text = seen(view)
    assert unmarked(text, allowed=ALLOWED) == [], text


def command(line: str, player: Player = ANN) -> Command:
    name, *args = line.split()
    return Command(name, tuple(args), CHAT, player)


async def test_every_workspace_answer_is_marked_in_the_pseudo_language(
    setup: tuple[GameManager, FakeOutbox, FakeClock], store: SQLStore
) -> None:
    manager, _outbox, clock = setup
    await play_toy(manager, clock)
    workspace, registry = manager.workspace, manager.registry
    with speaking(PSEUDO):
        assert_marked(await workspace.leaderboard(command("leaderboard toy all"), ["toy", "all"], registry))
        assert_marked(
            await workspace.leaderboard(
                command("leaderboard toy week"), ["toy", "week", "language=fr"], registry
            )
        )
        assert_marked(await workspace.leaderboard(command("leaderboard rating"), ["toy", "rating"], registry))
        assert_marked(await workspace.stats(command("stats"), []))
        assert_marked(await workspace.stats(command("stats toy"), ["toy"]))
        assert_marked(await workspace.stats(command("stats", BOB), []))
        assert_marked(await workspace.season(command("season"), []))
        assert_marked(await workspace.season(command("season reset", ADMIN), ["reset"]))
        assert_marked(await workspace.season(command("season 1"), ["1"]))
        assert_marked(await workspace.season(command("season rebuild", ADMIN), ["rebuild"]))
        assert_marked(await workspace.config(command("config"), []))
        for setting in ("timezone Europe/Paris", "language de", "quiet on", "admin-role none", "web on"):
            assert_marked(await workspace.config(command("config " + setting, ADMIN), setting.split()))
        assert_marked(await workspace.config(command("config"), []))
        assert_marked(await workspace.words(command("words add selfie", ADMIN), ["add", "selfie"]))
        assert_marked(await workspace.words(command("words"), []))
        for refused in (["nonsense", "x"], ["timezone", "Mars/Olympus"], ["retention", "0"]):
            with pytest.raises(CommandError) as caught:
                await workspace.config(command("config", ADMIN), refused)
            assert unmarked(str(caught.value), allowed={"Mars", "Olympus", "nonsense"}) == []
        settings = setting_values({})
        assert_marked(privacy_view(settings))
        assert_marked(privacy_view(settings, stored=False))
        assert_marked(reminder("<!here>"))
        assert unmarked(describe_days((0, 2, 4))) == []


async def test_the_schedule_command_is_marked_in_the_pseudo_language(
    setup: tuple[GameManager, FakeOutbox, FakeClock], store: SQLStore
) -> None:
    manager, _outbox, clock = setup

    async def fire(schedule: object, when: float) -> None:
        return None

    async def utc(_workspace: str) -> str:
        return "UTC"

    scheduler = Scheduler(store, clock, utc, fire, platform="test")  # type: ignore[arg-type]
    mention = re.compile(r"^@team$")

    async def schedule(*words: str, what: str = "scheduled game") -> views.View:
        return await schedule_command(
            scheduler, manager.registry, CHAT, ADMIN, words, "UTC", mention=mention, time_text=str, what=what
        )

    with speaking(PSEUDO):
        assert_marked(await schedule("list"))
        assert_marked(await schedule("mon,wed", "15:00", "toy", "@team"))
        assert_marked(await schedule("daily", "09:00", "daily", what="word break"))
        assert_marked(await schedule("list", what="word break"))
        assert_marked(await schedule("remove", "1"))


async def test_a_dutch_workspace_is_answered_in_dutch(
    setup: tuple[GameManager, FakeOutbox, FakeClock], store: SQLStore
) -> None:
    manager, _outbox, clock = setup
    await play_toy(manager, clock)
    workspace, registry = manager.workspace, manager.registry
    with speaking("nl"):
        board = (await workspace.leaderboard(command("leaderboard"), ["toy", "all"], registry)).plain()
        assert "Ranglijst" in board and "1 punt" not in board and "1 pt · 1 spel · 1 overwinning" in board
        stats = (await workspace.stats(command("stats", BOB), [])).plain()
        assert "1 spel · 0 overwinningen · 0 punten" in stats
        config = (await workspace.config(command("config"), [])).plain()
        assert "de taal die moji in deze werkruimte spreekt" in config and "nl (Nederlands)" in config
        assert "en (Engels)" in config
    with speaking("fr"):
        said = (await workspace.config(command("config language de", ADMIN), ["language", "de"])).plain()
        assert "moji parle allemand ici" in said


async def test_the_dailys_reminder_speaks_the_workspaces_language(
    setup: tuple[GameManager, FakeOutbox, FakeClock], store: SQLStore
) -> None:
    manager, outbox, clock = setup
    await store.set_setting(CHAT.platform, CHAT.workspace_id, "language", "nl", ADMIN.user_id)
    due = Schedule(
        id=1,
        workspace_id=CHAT.workspace_id,
        channel_id=CHAT.channel_id,
        days=(0,),
        at="09:00",
        args=("daily",),
        mention="",
        created_by=ADMIN.user_id,
        created_by_name=ADMIN.display_name,
        platform=CHAT.platform,
    )
    await start_scheduled(manager, due, clock.now(), "")
    assert "De dagelijkse puzzel van vandaag staat klaar" in outbox.posts(CHAT)[-1].view.plain()
