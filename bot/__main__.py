"""``python -m bot``: run moji.

With a Discord or Slack token configured the bot connects to those
platforms; with none it starts a local terminal game against computer
players, when there is a terminal to play in (a service started without
its token says what to configure and exits instead). Settings come from the environment or ``.env`` (see
``.env.example``); a bad setting stops the bot with one clear line.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from bot.process.config import SETTINGS, ConfigError, load_config

DESCRIPTION = """\
moji: fast word games for Discord, Slack and the terminal.

modes:
  run        (default) connect to every configured platform: Discord when
             DISCORD_TOKEN is set, Slack when SLACK_BOT_TOKEN is set (Socket
             Mode with SLACK_APP_TOKEN, HTTP mode with SLACK_SIGNING_SECRET).
             With no platform configured, play in the terminal instead (when
             standard input is a terminal; else say what to configure and exit).
  terminal   play a local game in this terminal against computer players
             (--daily: today's daily, once a day).
  web        play MOJO (or --game paths|shed|dice) against computer players in
             your browser: serves the game's page on http://127.0.0.1:PORT and
             prints its link.
  migrate    apply the database migrations (DATABASE_URL) and exit.
  purge      delete everything moji keeps about one workspace and exit:
             purge --platform discord|slack --workspace ID --yes
             (refused while a game or lobby is open there; see docs/PRIVACY.md).
"""


def _epilog() -> str:
    lines = ["settings (environment variables or a .env file):"]
    for spec in SETTINGS:
        default = f" [default: {spec.default}]" if spec.default else ""
        lines.append(f"  {spec.name:<22}{spec.help}{default}")
    return "\n".join(lines)


MODES = ("run", "terminal", "web", "migrate", "purge")


def _version() -> str:
    """The installed package's version (or "unknown" when run from a bare source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("moji")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=DESCRIPTION,
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "mode",
        nargs="?",
        default="run",
        metavar="{run,terminal,web,migrate,purge}",
        help="what to do (default: run)",
    )
    parser.add_argument(
        "options",
        nargs="*",
        metavar="OPTION=VALUE",
        help="terminal mode: game options, e.g. cards=5 min=4 (see /rules in the game)",
    )
    parser.add_argument("--env-file", default=".env", help="settings file to read (default: .env)")
    parser.add_argument("--version", action="version", version=f"moji {_version()}")
    purge = parser.add_argument_group("purge mode")
    purge.add_argument("--platform", choices=("discord", "slack"), help="the workspace's platform")
    purge.add_argument("--workspace", help="the Discord server id or Slack team id")
    purge.add_argument("--yes", action="store_true", help="really delete (nothing is deleted without it)")
    local = parser.add_argument_group("terminal mode")
    local.add_argument(
        "--game", default=None, help="which game to play (default: race; in the browser, board)"
    )
    local.add_argument(
        "--daily",
        action="store_true",
        help="play today's daily (once a day, alone against the hourglass: docs/DAILY.md)",
    )
    local.add_argument("--bots", type=int, default=2, help="computer opponents (default: 2)")
    local.add_argument(
        "--level",
        default="normal",
        choices=("easy", "normal", "hard"),
        help="computer opponents' level (default: normal)",
    )
    local.add_argument(
        "--no-colour",
        "--no-color",
        dest="colour",
        action="store_false",
        default=None,
        help="plain text, no ANSI colours",
    )
    local.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="run game time this many times faster than real time (demos, tests)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_intermixed_args(argv)
    if args.mode not in MODES:
        if "=" not in args.mode:
            parser.error(f"unknown mode {args.mode!r} (choose from {', '.join(MODES)})")
        # `python -m bot cards=5` (`make run ARGS="cards=5"`): game options for the default mode
        args.options.insert(0, args.mode)
        args.mode = "run"
    try:
        config = load_config(env_file=args.env_file)
    except ConfigError as exc:
        print(f"moji: configuration error: {exc}", file=sys.stderr)
        return 2
    from bot.process import app, local, logs

    logs.setup(config.log_level, config.log_format)

    try:
        if args.mode == "migrate":
            return asyncio.run(app.migrate(config))
        if args.mode == "purge":
            if not args.platform or not args.workspace:
                parser.error("purge needs --platform and --workspace")
            return asyncio.run(app.purge(config, args.platform, args.workspace, confirmed=args.yes))
        if args.mode == "web":
            return asyncio.run(local.play_in_browser(config, args))
        if args.mode == "terminal" or not config.platforms:
            return asyncio.run(local.play_in_terminal(config, args))
        return asyncio.run(app.serve(config))
    except app.StartupError as exc:
        print(f"moji: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nBye!")
        return 130


if __name__ == "__main__":
    sys.exit(main())
