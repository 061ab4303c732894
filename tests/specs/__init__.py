"""The platforms' published API specs as the fakes' judge: every request the fakes serve is checked.

The fakes (tests/adapters/discord/fakediscord.py, tests/adapters/slack/fakeslack.py) hand each
request to :func:`judge_discord` or :func:`judge_slack` (a message sent to a ``response_url`` to
:func:`judge_slack_message`) and answer it as before; what the specs refuse is kept here, per
process, and the autouse fixture ``published_specs_kept`` (tests/conftest.py) fails the test that
made such a request. A test that sends a bad request on purpose takes its violations with
:func:`take`.

* Discord: the OpenAPI description (:mod:`tests.specs.discord`): route, method, path and query
  parameters, JSON body.
* Slack: the Web API spec (:mod:`tests.specs.slack`): the method and its arguments; and every
  ``blocks``, ``view`` and attachment's blocks by slack_sdk's Block Kit models.

The spec files are pinned by :mod:`tests.specs.pins` and found outside this repository
(tests/specs/README.md); without them only the Block Kit checks run, which need no file.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tests.specs import pins
from tests.specs.discord import DiscordSpec
from tests.specs.slack import SlackSpec, payload_problems


@dataclass(frozen=True)
class Violation:
    """One request a published spec refuses, and why."""

    platform: str
    #: the request: "POST /channels/1/messages", "chat.postMessage"
    request: str
    problem: str

    def __str__(self) -> str:
        return f"{self.platform} {self.request}: {self.problem}"


#: What the specs refused since the last :func:`take` (in this process).
_violations: list[Violation] = []


def take() -> list[Violation]:
    """The violations recorded so far, forgotten here."""
    taken = list(_violations)
    _violations.clear()
    return taken


def take_problems() -> list[str]:
    """What :func:`take` gives, as the problems alone."""
    return [violation.problem for violation in take()]


@functools.cache
def discord_spec() -> DiscordSpec | None:
    """Discord's spec, built once per process; None when no copy is found."""
    document = pins.load(pins.DISCORD)
    return None if document is None else DiscordSpec(document)


@functools.cache
def slack_spec() -> SlackSpec | None:
    """Slack's spec, built once per process; None when no copy is found."""
    document = pins.load(pins.SLACK)
    return None if document is None else SlackSpec(document)


def ready() -> None:
    """Load both specs now (once per process): a copy of another version fails here, plainly."""
    discord_spec()
    slack_spec()


def _record(platform: str, request: str, problems: list[str]) -> list[Violation]:
    found = [Violation(platform, request, problem) for problem in problems]
    _violations.extend(found)
    return found


def judge_discord(method: str, path: str, query: Mapping[str, str], body: Any) -> list[Violation]:
    """Check one REST request (``path`` after /api/v10; ``body`` the JSON or ``payload_json``)."""
    spec = discord_spec()
    if spec is None:
        return []
    return _record("discord", f"{method} {path}", spec.problems(method, path, query, body))


def judge_slack(method: str, args: Mapping[str, Any]) -> list[Violation]:
    """Check one Web API call: its method and arguments, and its Block Kit payloads."""
    spec = slack_spec()
    problems = [] if spec is None else spec.problems(method, args)
    return _record("slack", method, problems + payload_problems(args))


def judge_slack_message(body: Mapping[str, Any]) -> list[Violation]:
    """Check the Block Kit of a message sent to an interaction's ``response_url``."""
    return _record("slack", "response_url", payload_problems(body))


def status() -> str:
    """One line on what the fakes judge by (pytest's header shows it)."""
    parts = []
    for pin in pins.PINS:
        where = pins.locate(pin)
        parts.append(f"{pin.name}@{pin.commit[:7]} " + (f"from {where}" if where else "NOT FOUND"))
    return "published specs: " + "; ".join(parts)
