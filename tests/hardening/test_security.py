"""Security checks: parameterised SQL, secrets kept out of logs, only hosts and admins in charge.

(Hidden information is checked over every message in the soak, bench/soak.py, and over every
engine's notices in test_fuzz_engines.py.)
"""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path

import pytest

from bot.process.config import load_config
from storage import StorageError, open_store
from storage.sqlite import SQLiteStore
from tests.adapters.discord.conftest import ANN, BOB, CHAT, TOKEN, Harness
from tests.adapters.discord.fakediscord import Fault
from tests.adapters.discord.test_resilience import MESSAGES, start_game

ROOT = Path(__file__).resolve().parents[2]
SQL_WORDS = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|WHERE|PRAGMA|CREATE|DROP|VALUES|ALTER)\b", re.I)


# ------------------------------------------------------------------ SQL


def _safe_interpolation(node: ast.expr) -> bool:
    """Values an f-string may put into SQL text: numbers forced by int(), UPPER_CASE constants,
    and the SQLite store's validated ``synchronous`` level."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int":
        return True
    if isinstance(node, ast.Name) and node.id.isupper():
        return True
    return ast.unparse(node) == "self.synchronous.upper()"


def scan(tree: ast.AST, where: str) -> list[str]:
    """Places in ``tree`` that build SQL text from values (f-strings, %, +, .format)."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
            values = [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
            if SQL_WORDS.search(text) and not all(_safe_interpolation(v) for v in values):
                found.append(f"{where}:{node.lineno}: f-string {ast.unparse(node)[:80]}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
            sides = (node.left, node.right)
            texts = [str(x.value) for x in sides if isinstance(x, ast.Constant) and isinstance(x.value, str)]
            constant = all(isinstance(x, ast.Constant) for x in sides)
            if any(SQL_WORDS.search(t) for t in texts) and not constant:
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)[:80]}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant)
            and SQL_WORDS.search(str(node.func.value.value))
        ):
            found.append(f"{where}:{node.lineno}: .format() on SQL")
    return found


def sql_built_from_values() -> list[str]:
    """Every place under storage/, adapters/ and bot/ that builds SQL text from values."""
    found: list[str] = []
    for folder in ("storage", "adapters", "bot"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += scan(ast.parse(path.read_text(encoding="utf-8")), str(path.relative_to(ROOT)))
    return found


def test_no_sql_is_built_from_values() -> None:
    """Values go to the driver as parameters; SQL text is never formatted with them."""
    assert sql_built_from_values() == []


@pytest.mark.parametrize(
    "source",
    [
        'f"SELECT * FROM games WHERE id = {game_id}"',
        "\"DELETE FROM words WHERE word = '%s'\" % word",
        '"UPDATE players SET name = \'" + name + "\'"',
        '"INSERT INTO x VALUES ({})".format(value)',
        'f"PRAGMA user_version = {version}"',
    ],
)
def test_the_scanner_finds_sql_built_from_values(source: str) -> None:
    assert scan(ast.parse(source), "example")


def test_the_scanner_lets_parameters_and_checked_pragmas_through() -> None:
    ok = 'db.execute("SELECT * FROM games WHERE id = ?", (game_id,)); f"PRAGMA busy_timeout = {int(ms)}"'
    assert scan(ast.parse(ok), "example") == []


def test_the_sqlite_synchronous_level_is_checked_before_it_reaches_a_pragma(tmp_path: Path) -> None:
    with pytest.raises(StorageError):
        SQLiteStore(tmp_path / "x.db", synchronous="OFF; DROP TABLE games")


async def test_injection_shaped_text_is_stored_as_data(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        evil = "Robert'); DROP TABLE games; --"
        await store.upsert_player("discord", "u1", evil)
        await store.set_setting("discord", "w1", "admin-role", evil, "u1")
        await store.add_word("discord", "w1", "x' OR '1'='1", "u1", datetime.now(UTC))
        assert (await store.get_settings("discord", "w1"))["admin-role"] == evil
        added, _ = await store.word_lists("discord", "w1")
        assert added == {"x' OR '1'='1"}
        assert await store.unfinished_games() == []  # the games table is still there
        assert await store.leaderboard("discord", "w1", None, "all", datetime.now(UTC), 10) == []
    finally:
        await store.close()


# ------------------------------------------------------------------ secrets


def test_a_config_never_shows_its_secrets() -> None:
    env = {
        "DISCORD_TOKEN": TOKEN,
        "SLACK_BOT_TOKEN": "xoxb-very-secret-token",
        "SLACK_SIGNING_SECRET": "signing-secret-value",
        "SLACK_APP_TOKEN": "xapp-very-secret-app-token",
        "DATABASE_URL": "postgresql://moji:hunter2pass@db.example/moji",
    }
    config = load_config(env, env_file=None)
    for shown in (repr(config), str(config), f"{config}", repr([config])):
        for secret in (TOKEN, "xoxb-very-secret-token", "signing-secret-value", "xapp-very", "hunter2pass"):
            assert secret not in shown


def every_log_line(caplog: pytest.LogCaptureFixture) -> str:
    lines = []
    for record in caplog.records:
        lines.append(record.getMessage())
        if record.exc_info:
            lines.append(logging.Formatter().formatException(record.exc_info))
    return "\n".join(lines)


async def test_the_discord_token_never_reaches_the_log(
    discord_bot: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = discord_bot
    caplog.set_level(logging.DEBUG)
    h.bot.transport.timeout = 2.0  # (no hangs here: only a busy machine is slow)
    h.fake.faults += [Fault("POST", MESSAGES, "500"), Fault("PUT", r"/reactions/", "429", retry_after=0.01)]
    await start_game(h, target=1)
    letter = h.manager.sessions[CHAT].engine.letter
    await h.fake.say(*ANN, letter + "ab")
    await h.advance(0.2)
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    await h.fake.drop_connection()
    await h.fake.connected(within=60)
    logged = every_log_line(caplog)
    assert len(caplog.records) > 20
    assert TOKEN not in logged
    assert TOKEN[:24] not in logged  # not even a prefix


# ------------------------------------------------------------------ who may stop or configure


async def test_only_the_host_or_an_admin_stops_a_discord_game(discord_bot: Harness) -> None:
    h = discord_bot
    await start_game(h)
    iid = await h.fake.slash(*BOB, "stop")
    await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert CHAT in h.manager.sessions, "a player who is not the host stopped the game"
    assert "host" in " ".join(r.text for r in h.fake.replies_to(iid)).lower()

    cat = ("100000000000000003", "Cat")
    iid = await h.fake.slash(*cat, "stop", admin=True)  # Manage Server
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    await h.drain()
    assert any("stopped the game" in r.text for r in h.fake.channel_posts())


async def test_only_admins_configure_on_discord(discord_bot: Harness) -> None:
    h = discord_bot
    iid = await h.fake.slash(*BOB, "config", {"key": "timezone", "value": "Europe/Paris"})
    await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "admin" in " ".join(r.text for r in h.fake.replies_to(iid)).lower()
    assert await h.svc.store.get_settings("discord", CHAT.workspace_id) == {}

    iid = await h.fake.slash(*ANN, "config", {"key": "timezone", "value": "Europe/Paris"}, admin=True)
    await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert (await h.svc.store.get_settings("discord", CHAT.workspace_id)).get("timezone") == "Europe/Paris"
