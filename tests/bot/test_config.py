"""Settings: defaults, validation with one-line reasons, .env.example in sync."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.process.config import SETTINGS, ConfigError, load_config, redact_url

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_with_nothing_configured() -> None:
    config = load_config({}, env_file=None)
    assert config.platforms == ()
    assert config.database_url == "sqlite:///data/moji.db"
    assert config.settle == 0.15
    assert config.discord_global_rate == 50


def test_platforms_and_slack_modes() -> None:
    config = load_config(
        {"DISCORD_TOKEN": "x" * 40, "SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}, env_file=None
    )
    assert config.platforms == ("discord", "slack")
    assert config.slack_mode == "socket"
    http = load_config({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}, env_file=None)
    assert http.slack_mode == "http"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SLACK_BOT_TOKEN": "xoxb-1"}, "neither SLACK_APP_TOKEN"),
        ({"SLACK_BOT_TOKEN": "nope"}, "starting with xoxb-"),
        ({"PORT": "eighty"}, "PORT must be a whole number"),
        ({"PORT": "70000"}, "PORT must be between 0 and 65535"),
        ({"DATABASE_URL": "mysql://x"}, "DATABASE_URL must start with"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL must be"),
        ({"DISCORD_GUILD_ID": "abc"}, "DISCORD_GUILD_ID must be"),
        ({"SETTLE_MS": "-1"}, "SETTLE_MS must be between"),
        ({"SHARD_IDS": "0"}, "without SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "between 0 and 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a"}, "comma-separated numbers"),
        ({"DISCORD_GLOBAL_RATE": "0"}, "DISCORD_GLOBAL_RATE must be between 1 and"),
        ({"DISCORD_GLOBAL_RATE": "fast"}, "DISCORD_GLOBAL_RATE must be a whole number"),
    ],
)
def test_bad_settings_are_explained(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(env, env_file=None)


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("PORT=4000\nLOG_LEVEL=DEBUG\n")
    config = load_config({"LOG_LEVEL": "ERROR"}, env_file=env_file)
    assert (config.port, config.log_level) == (4000, "ERROR")


def test_passwords_are_redacted() -> None:
    assert redact_url("postgresql://moji:s3cret@db/moji") == "postgresql://moji:***@db/moji"
    config = load_config({"DISCORD_TOKEN": "t" * 40}, env_file=None)
    assert "t" * 40 not in str(config.redacted())


def test_env_example_lists_every_setting_with_a_comment() -> None:
    text = (ROOT / ".env.example").read_text()
    names = re.findall(r"^([A-Z_]+)=", text, flags=re.M)
    assert sorted(names) == sorted(spec.name for spec in SETTINGS)
    lines = text.splitlines()
    for name in names:
        index = next(i for i, line in enumerate(lines) if line.startswith(name + "="))
        assert lines[index - 1].startswith("#"), f"{name} needs a comment"


def run_bot(
    *args: str, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **(env or {})},
    )


def test_help_explains_every_mode_and_setting() -> None:
    out = run_bot("--help").stdout
    for word in ("run", "terminal", "migrate", *(spec.name for spec in SETTINGS)):
        assert word in out


def test_misconfiguration_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot("run", env={"SLACK_BOT_TOKEN": "xoxb-1"}, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "configuration error" in result.stderr and "Traceback" not in result.stderr


def test_slack_oauth_settings() -> None:
    oauth = {"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "s", "SLACK_SIGNING_SECRET": "x"}
    config = load_config(oauth, env_file=None)
    assert config.platforms == ("slack",) and config.slack_oauth and config.slack_mode == "http"
    assert "s" not in config.redacted()["SLACK_CLIENT_SECRET"].replace("*", "")
    with pytest.raises(ConfigError, match="go together"):
        load_config({"SLACK_CLIENT_ID": "1.2"}, env_file=None)
    with pytest.raises(ConfigError, match="needs SLACK_SIGNING_SECRET"):
        load_config({"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "s"}, env_file=None)
    with pytest.raises(ConfigError, match="Socket Mode"):
        load_config({**oauth, "SLACK_APP_TOKEN": "xapp-1"}, env_file=None)


def test_an_unknown_mode_is_one_line(tmp_path: Path) -> None:
    result = run_bot("bogus", cwd=tmp_path)
    assert result.returncode == 2
    assert "unknown mode 'bogus' (choose from run, terminal, web, migrate, purge)" in result.stderr
    assert "Traceback" not in result.stderr


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import build_parser

    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("moji ")


def test_readme_lists_every_workspace_setting_with_its_default() -> None:
    from bot.features.workspace_settings import WORKSPACE_SETTINGS
    from games.common.options import format_value

    text = (ROOT / "README.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (`[^`]*`|—) \|", text, flags=re.M))
    for spec in WORKSPACE_SETTINGS:
        assert spec.name in rows, f"README's settings table misses {spec.name}"
        shown = format_value(spec.default)
        assert rows[spec.name] == (f"`{shown}`" if shown else "—"), spec.name


@pytest.mark.parametrize(
    ("raw", "games"),
    [("all", None), ("", None), ("none", ()), ("NONE", ()), ("race, Board,race", ("race", "board"))],
)
def test_prepare_at_start_is_all_none_or_games(raw: str, games: tuple[str, ...] | None) -> None:
    assert load_config({"PREPARE_AT_START": raw}, env_file=None).prepare_at_start == games


def test_prepare_at_start_names_only_installed_games() -> None:
    from bot.core.registry import load_default
    from bot.process.app import StartupError, prepared_later

    registry = load_default()
    assert prepared_later(registry, None) == ()
    assert [info.name for info in prepared_later(registry, ("race", "board"))] == ["dice", "paths", "shed"]
    assert [info.name for info in prepared_later(registry, ())] == registry.names()
    with pytest.raises(StartupError, match=r"PREPARE_AT_START names 'chess', which is not a game here"):
        prepared_later(registry, ("race", "chess"))
    with pytest.raises(ConfigError, match="PREPARE_AT_START is all, none or game names"):
        load_config({"PREPARE_AT_START": "race,none"}, env_file=None)
