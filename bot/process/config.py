"""Settings: the ONLY place that reads the environment or ``.env``.

Every setting is declared once in :data:`SETTINGS` (name, default, help); the
``.env.example`` file and ``python -m bot --help`` are checked against it by
the tests. A bad value raises :class:`ConfigError` with one clear sentence.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values


class ConfigError(ValueError):
    """A misconfigured setting, explained in one line."""


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One environment setting."""

    name: str
    default: str
    help: str
    secret: bool = False


SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec("DISCORD_TOKEN", "", "Discord bot token; setting it runs the bot on Discord.", secret=True),
    SettingSpec(
        "DISCORD_GUILD_ID", "", "Sync slash commands to this one server only (instant; for testing)."
    ),
    SettingSpec("SHARD_COUNT", "", "Discord: total shards across all processes (empty: let Discord decide)."),
    SettingSpec("SHARD_IDS", "", "Discord: comma-separated shard ids this process runs (needs SHARD_COUNT)."),
    SettingSpec(
        "DISCORD_GLOBAL_RATE",
        "50",
        "Discord: requests a second the bot token may make (Discord's global limit, 50; raise it only "
        "when Discord support has raised your bot's limit).",
    ),
    SettingSpec(
        "SLACK_BOT_TOKEN", "", "Slack bot token (xoxb-…); setting it runs the bot on Slack.", secret=True
    ),
    SettingSpec(
        "SLACK_SIGNING_SECRET",
        "",
        "Slack signing secret, for HTTP mode (events at /slack/events).",
        secret=True,
    ),
    SettingSpec(
        "SLACK_APP_TOKEN",
        "",
        "Slack app-level token (xapp-…); when set, Slack uses Socket Mode.",
        secret=True,
    ),
    SettingSpec(
        "SLACK_CLIENT_ID",
        "",
        "Slack app client id; with SLACK_CLIENT_SECRET any workspace can install moji (OAuth, HTTP mode).",
    ),
    SettingSpec(
        "SLACK_CLIENT_SECRET", "", "Slack app client secret, for the OAuth install flow.", secret=True
    ),
    SettingSpec(
        "SLACK_STATE_SECRET",
        "",
        "Key that signs OAuth state values (default: the signing secret).",
        secret=True,
    ),
    SettingSpec(
        "DAILY_SECRET",
        "",
        "Key of the daily's deal (HMAC of the date and language): the same on every process of a "
        "deployment (empty: derived from the Slack signing secret, else the Discord or Slack bot "
        "token, else the database URL; docs/DAILY.md).",
        secret=True,
    ),
    SettingSpec(
        "HOST",
        "0.0.0.0",
        "Address the HTTP server listens on (/healthz, /readyz, /metrics; Slack HTTP mode's events).",
    ),
    SettingSpec("PORT", "3000", "Port the HTTP server listens on (0: any free port, logged at start)."),
    SettingSpec(
        "PUBLIC_URL",
        "",
        "The public https:// address this server is reached at: the base of the web companion's links "
        "(board games in the browser, docs/WEB.md); in Slack HTTP mode (the Request URL's scheme and "
        "host) moji also serves table pictures itself at /pictures/ instead of uploading them.",
    ),
    SettingSpec(
        "WEB_INTERNAL_URL",
        "",
        "Several processes with web pages: the address the other processes reach this one's HTTP "
        "server at, to pass on page requests for the games it runs (empty: http://HOST:PORT, with "
        "this machine's address for HOST 0.0.0.0; docs/WEB.md).",
    ),
    SettingSpec(
        "HTTP_PER_ADDRESS",
        "64",
        "Connections one address may hold open on the HTTP server at once; behind TRUSTED_PROXIES it "
        "counts each client the proxy names (a page's live channel holds one).",
    ),
    SettingSpec(
        "TRUSTED_PROXIES",
        "",
        "Reverse proxies in front of the HTTP server (addresses or networks, comma-separated, e.g. "
        "127.0.0.1,10.0.0.0/8): their X-Forwarded-For is believed and HTTP_PER_ADDRESS counts their "
        "clients, not them (docs/WEB.md, Behind a proxy).",
    ),
    SettingSpec(
        "DATABASE_URL",
        "sqlite:///data/moji.db",
        "Where scores live: sqlite:///path.db (default, embedded) or postgresql://user:pass@host/db.",
    ),
    SettingSpec("LOG_LEVEL", "INFO", "Logging level: DEBUG, INFO, WARNING or ERROR."),
    SettingSpec(
        "LOG_FORMAT",
        "text",
        "Log lines: text (for people) or json (one JSON object per line, for log shippers).",
    ),
    SettingSpec(
        "SETTLE_MS",
        "150",
        "Race fairness: ms to wait after the first answer for earlier-sent answers still in flight.",
    ),
    SettingSpec("LOBBY_TIMEOUT", "600", "Seconds a lobby waits for its host to start before it closes."),
    SettingSpec(
        "PREPARE_AT_START",
        "all",
        "Games whose word tables are built at start-up, comma-separated: all (default), none, or "
        "names such as race,board. A game not built then is built as its first lobby opens (MOJO "
        "takes seconds of CPU; a process that plays only some games can skip the rest).",
    ),
    SettingSpec(
        "INSTANCE_ID",
        "",
        "Several processes on one database: this process's name, unique among them and kept across "
        "its restarts, so a restarted process takes its games back at once (empty: local with "
        "SQLite, HOSTNAME:PID with PostgreSQL).",
    ),
    SettingSpec(
        "LEASE_SECONDS",
        "15",
        "Several processes: seconds a dead process's games wait before another process adopts them "
        "(each process renews its games every third of that).",
    ),
    SettingSpec(
        "SHARD_TAKEOVER",
        "false",
        "Discord with SHARD_IDS: true lets this process adopt the games of other shards whose "
        "process died (they carry on, but answers reach it only once their shard is served again).",
    ),
)

_BY_NAME = {spec.name: spec for spec in SETTINGS}


@dataclass(frozen=True, slots=True)
class Config:
    """Validated settings."""

    discord_token: str
    discord_guild_id: int | None
    shard_count: int | None
    shard_ids: tuple[int, ...] | None
    slack_bot_token: str
    slack_signing_secret: str
    slack_app_token: str
    slack_client_id: str
    slack_client_secret: str
    slack_state_secret: str
    host: str
    port: int
    database_url: str
    log_level: str
    settle: float  # seconds
    lobby_timeout: float  # seconds
    public_url: str = ""  # the web companion's links; Slack HTTP mode: where Slack can fetch pictures
    log_format: str = "text"  # text or json
    instance_id: str = ""  # empty: see :func:`instance_name`
    lease: float = 15.0  # seconds
    shard_takeover: bool = False
    discord_global_rate: int = 50
    daily_secret_setting: str = ""  # DAILY_SECRET as set; see :attr:`daily_secret`
    web_internal_url: str = ""  # empty: http://HOST:PORT (see adapters.web.proxy.internal_url)
    http_per_address: int = 64
    trusted_proxies: tuple[str, ...] = ()  # addresses or networks (ipaddress notation)
    prepare_at_start: tuple[str, ...] | None = None  # game names; None: every game

    @property
    def daily_secret(self) -> bytes:
        """The key of the daily's deal: ``DAILY_SECRET``, or one derived from a secret the
        deployment already has (the Slack signing secret, else the Discord token, else the Slack
        bot token, else the database URL: public, for a terminal-only setup). Every process of a
        deployment reads the same settings, so they all deal the same daily."""
        if self.daily_secret_setting:
            return self.daily_secret_setting.encode()
        source = next(
            (
                value
                for value in (
                    self.slack_signing_secret,
                    self.discord_token,
                    self.slack_bot_token,
                    self.database_url,
                )
                if value
            ),
            "",
        )
        # a derived key, so the daily never hands out anything that signs or logs in
        return hashlib.sha256(b"moji daily|" + source.encode()).digest()

    @property
    def platforms(self) -> tuple[str, ...]:
        """The chat platforms this configuration enables, in start order."""
        found: list[str] = []
        if self.discord_token:
            found.append("discord")
        if self.slack_bot_token or self.slack_oauth:
            found.append("slack")
        return tuple(found)

    @property
    def slack_oauth(self) -> bool:
        """True when any workspace may install moji through Slack's OAuth flow."""
        return bool(self.slack_client_id and self.slack_client_secret)

    @property
    def slack_mode(self) -> str | None:
        """``socket`` or ``http`` when Slack is enabled."""
        if not self.slack_bot_token and not self.slack_oauth:
            return None
        return "socket" if self.slack_app_token else "http"

    def __repr__(self) -> str:
        # a Config that reaches a log line or a traceback never shows a token or password
        shown = {k: v for k, v in self.redacted().items() if v}
        return f"Config({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def redacted(self) -> dict[str, str]:
        """Settings for logs, with secrets masked."""
        raw = {
            "DISCORD_TOKEN": self.discord_token,
            "DAILY_SECRET": self.daily_secret_setting,
            "SLACK_BOT_TOKEN": self.slack_bot_token,
            "SLACK_SIGNING_SECRET": self.slack_signing_secret,
            "SLACK_APP_TOKEN": self.slack_app_token,
            "SLACK_CLIENT_ID": self.slack_client_id,
            "SLACK_CLIENT_SECRET": self.slack_client_secret,
            "SLACK_STATE_SECRET": self.slack_state_secret,
            "DATABASE_URL": redact_url(self.database_url),
            "HOST": self.host,
            "PORT": str(self.port),
            "PUBLIC_URL": self.public_url,
            "WEB_INTERNAL_URL": self.web_internal_url,
        }
        return {k: ("***" if _BY_NAME[k].secret and v else v) for k, v in raw.items()}


def redact_url(url: str) -> str:
    """Hide the password in a database URL."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    creds, _, host = rest.rpartition("@")
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"


def load_config(environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env") -> Config:
    """Read settings from ``environ`` (default: the process environment) over ``env_file``.

    Real environment variables win over the file. Raises :class:`ConfigError`.
    """
    values: dict[str, str] = {spec.name: spec.default for spec in SETTINGS}
    if env_file is not None and Path(env_file).is_file():
        for key, value in dotenv_values(env_file).items():
            if key in values and value is not None:
                values[key] = value
    source = os.environ if environ is None else environ
    for spec in SETTINGS:
        if spec.name in source:
            values[spec.name] = source[spec.name]
    values = {k: v.strip() for k, v in values.items()}
    return _validate(values)


def _int(values: Mapping[str, str], name: str, low: int, high: int) -> int:
    raw = values[name]
    try:
        number = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if not low <= number <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {number}")
    return number


def _validate(values: Mapping[str, str]) -> Config:
    slack_bot = values["SLACK_BOT_TOKEN"]
    slack_app = values["SLACK_APP_TOKEN"]
    slack_secret = values["SLACK_SIGNING_SECRET"]
    if slack_bot and not slack_bot.startswith("xoxb-"):
        raise ConfigError("SLACK_BOT_TOKEN must be a bot token starting with xoxb-")
    if slack_app and not slack_app.startswith("xapp-"):
        raise ConfigError("SLACK_APP_TOKEN must be an app-level token starting with xapp-")
    if slack_bot and not (slack_app or slack_secret):
        raise ConfigError(
            "SLACK_BOT_TOKEN is set but neither SLACK_APP_TOKEN (Socket Mode) "
            "nor SLACK_SIGNING_SECRET (HTTP mode) is"
        )
    client_id, client_secret = values["SLACK_CLIENT_ID"], values["SLACK_CLIENT_SECRET"]
    oauth = bool(client_id and client_secret)
    if bool(client_id) != bool(client_secret):
        raise ConfigError("SLACK_CLIENT_ID and SLACK_CLIENT_SECRET go together (both for OAuth, or neither)")
    if oauth and not slack_secret:
        raise ConfigError("Slack OAuth (SLACK_CLIENT_ID) needs SLACK_SIGNING_SECRET: it runs in HTTP mode")
    if oauth and slack_app:
        raise ConfigError(
            "Slack OAuth (SLACK_CLIENT_ID) can't be combined with SLACK_APP_TOKEN: "
            "apps installed by many workspaces can't use Socket Mode"
        )
    if (slack_app or slack_secret) and not slack_bot and not oauth:
        raise ConfigError("Slack app token or signing secret is set without SLACK_BOT_TOKEN")
    token = values["DISCORD_TOKEN"]
    if token and (len(token) < 20 or any(ch.isspace() for ch in token)):
        raise ConfigError("DISCORD_TOKEN does not look like a Discord bot token")
    guild_raw = values["DISCORD_GUILD_ID"]
    guild_id: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError(f"DISCORD_GUILD_ID must be a server id (digits), not {guild_raw!r}")
        guild_id = int(guild_raw)
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    if values["SHARD_COUNT"]:
        shard_count = _int(values, "SHARD_COUNT", 1, 100_000)
    if values["SHARD_IDS"]:
        if shard_count is None:
            raise ConfigError("SHARD_IDS is set without SHARD_COUNT")
        try:
            shard_ids = tuple(sorted({int(part) for part in values["SHARD_IDS"].split(",") if part.strip()}))
        except ValueError:
            raise ConfigError(
                f"SHARD_IDS must be comma-separated numbers, not {values['SHARD_IDS']!r}"
            ) from None
        if not shard_ids or any(not 0 <= i < shard_count for i in shard_ids):
            raise ConfigError(f"SHARD_IDS must be between 0 and {shard_count - 1}")
    url = values["DATABASE_URL"]
    scheme = url.partition("://")[0].lower()
    if scheme not in {"sqlite", "postgres", "postgresql"} or "://" not in url:
        raise ConfigError(
            f"DATABASE_URL must start with sqlite:/// or postgresql://, not {redact_url(url)!r}"
        )
    public_url = values["PUBLIC_URL"].rstrip("/")
    if public_url and not public_url.startswith(("https://", "http://")):
        raise ConfigError(f"PUBLIC_URL must be an https:// address, not {public_url!r}")
    instance = values["INSTANCE_ID"].strip()
    if instance and (len(instance) > 100 or any(ch.isspace() for ch in instance)):
        raise ConfigError(f"INSTANCE_ID must be a short name without spaces, not {instance!r}")
    internal = values["WEB_INTERNAL_URL"].rstrip("/")
    if internal and not internal.startswith(("https://", "http://")):
        raise ConfigError(f"WEB_INTERNAL_URL must be an http:// or https:// address, not {internal!r}")
    proxies = tuple(part.strip() for part in values["TRUSTED_PROXIES"].split(",") if part.strip())
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ConfigError(
                f"TRUSTED_PROXIES must be IP addresses or networks (10.0.0.0/8), not {proxy!r}"
            ) from None
    level = values["LOG_LEVEL"].upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {values['LOG_LEVEL']!r}")
    log_format = values["LOG_FORMAT"].lower()
    if log_format not in {"text", "json"}:
        raise ConfigError(f"LOG_FORMAT must be text or json, not {values['LOG_FORMAT']!r}")
    return Config(
        discord_token=token,
        discord_guild_id=guild_id,
        shard_count=shard_count,
        shard_ids=shard_ids,
        slack_bot_token=slack_bot,
        slack_signing_secret=slack_secret,
        slack_app_token=slack_app,
        slack_client_id=client_id,
        slack_client_secret=client_secret,
        slack_state_secret=values["SLACK_STATE_SECRET"],
        host=values["HOST"] or "0.0.0.0",
        port=_int(values, "PORT", 0, 65535),
        database_url=url,
        log_level=level,
        log_format=log_format,
        public_url=public_url,
        settle=_int(values, "SETTLE_MS", 0, 2000) / 1000,
        lobby_timeout=float(_int(values, "LOBBY_TIMEOUT", 10, 86400)),
        instance_id=instance,
        lease=float(_int(values, "LEASE_SECONDS", 3, 600)),
        shard_takeover=_bool(values, "SHARD_TAKEOVER"),
        discord_global_rate=_int(values, "DISCORD_GLOBAL_RATE", 1, 100_000),
        daily_secret_setting=values["DAILY_SECRET"],
        web_internal_url=internal,
        http_per_address=_int(values, "HTTP_PER_ADDRESS", 1, 1_000_000),
        trusted_proxies=proxies,
        prepare_at_start=_games(values["PREPARE_AT_START"]),
    )


def _games(raw: str) -> tuple[str, ...] | None:
    """PREPARE_AT_START: None for all, else the names (checked against the installed games at
    start: :func:`bot.process.app.services`)."""
    names = tuple(dict.fromkeys(part.strip().lower() for part in raw.split(",") if part.strip()))
    if names in {(), ("all",)}:  # (empty, as a blank line in .env: the default)
        return None
    if names == ("none",):
        return ()
    if "all" in names or "none" in names:
        raise ConfigError(f"PREPARE_AT_START is all, none or game names, not {raw!r}")
    return names


def _bool(values: Mapping[str, str], name: str) -> bool:
    raw = values[name].strip().lower()
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"", "0", "false", "no", "off"}:
        return False
    raise ConfigError(f"{name} must be true or false, not {values[name]!r}")


def instance_name(config: Config) -> str:
    """This process's name among those sharing the database.

    ``INSTANCE_ID`` when set. Otherwise ``local`` with SQLite (one process per file: a restart
    takes its games back at once) and ``HOSTNAME:PID`` with PostgreSQL (a container keeps its
    name across restarts; elsewhere a restarted process waits for its old leases to lapse).
    """
    if config.instance_id:
        return config.instance_id
    if config.database_url.lower().startswith("sqlite"):
        return "local"
    import socket

    return f"{socket.gethostname()}:{os.getpid()}"
