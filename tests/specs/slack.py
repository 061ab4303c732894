"""Slack's Web API description (slackapi/slack-api-specs) and Block Kit models as a judge of calls.

:class:`SlackSpec` checks that a method exists and that a call's arguments are ones the spec lists,
with the required ones present. The published spec stopped in October 2020: methods and arguments
Slack documented later are added by :data:`NEWER_METHODS` and :data:`NEWER_ARGUMENTS`, each citing
Slack's reference page; :data:`LIBRARY_ARGUMENTS` are what slack_sdk and Bolt send besides.

:func:`block_problems` and :func:`view_problems` judge Block Kit by slack_sdk's models (the
library's own reading of Slack's reference): each block is parsed (``Block.parse``), validated
(``validate_json``, and ``to_dict``, which validates every element inside), and must come back with
every key it was sent with: a key the model dropped is one Block Kit does not have.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

#: What slack_sdk's models raise at a payload they refuse (or cannot even build).
REFUSED = (SlackObjectFormationError, TypeError, ValueError, AttributeError, KeyError)
#: The token is authentication (an HTTP header, or an argument): never judged.
AUTHENTICATION = frozenset({"token"})


@dataclass(frozen=True)
class Method:
    """A Web API method's arguments (token aside) and which of them it requires."""

    arguments: frozenset[str]
    required: frozenset[str] = frozenset()
    #: where a method or argument the spec lacks is documented
    source: str = ""


def _method(required: str, optional: str, source: str) -> Method:
    need = frozenset(required.split())
    return Method(need | frozenset(optional.split()), need, source)


#: Methods Slack documented after the pinned spec (October 2020), from each one's reference page.
NEWER_METHODS: dict[str, Method] = {
    # Socket Mode (2021): "apps.connections.open … Generate a temporary Socket Mode WebSocket URL",
    # no argument but the app-level token.
    "apps.connections.open": _method(
        "", "", "https://docs.slack.dev/reference/methods/apps.connections.open"
    ),
    # The upload flow that replaced files.upload (2024): "Required arguments: token, length,
    # filename. Optional arguments: snippet_type, alt_txt".
    "files.getUploadURLExternal": _method(
        "filename length",
        "alt_txt snippet_type",
        "https://docs.slack.dev/reference/methods/files.getUploadURLExternal",
    ),
    # "Required arguments: token, files. Optional arguments: channel_id, thread_ts, channels,
    # initial_comment, blocks".
    "files.completeUploadExternal": _method(
        "files",
        "channel_id thread_ts channels initial_comment blocks",
        "https://docs.slack.dev/reference/methods/files.completeUploadExternal",
    ),
}

#: Arguments of the spec's methods that Slack documented after it: method → (arguments, source).
NEWER_ARGUMENTS: dict[str, tuple[frozenset[str], str]] = {}

#: Arguments the libraries send that neither the spec nor Slack's reference list for the method:
#: method → (arguments, where they come from).
LIBRARY_ARGUMENTS: dict[str, tuple[frozenset[str], str]] = {
    # Bolt answers each request with a client of its own made with the request's team_id
    # (slack_bolt/app/async_app.py: AsyncWebClient(..., team_id=req.context.team_id)), and
    # slack_sdk adds that client's team_id to every call it makes (web/async_base_client.py,
    # default_params); its authorizer calls auth.test with it. Slack documents team_id for methods
    # an org-wide token needs it for; auth.test's reference has none (it names the token's team).
    "auth.test": (
        frozenset({"team_id"}),
        "slack_bolt AsyncApp's per-request client; https://docs.slack.dev/reference/methods/auth.test",
    ),
}


class SlackSpec:
    """The Web API methods of the published spec (plus :data:`NEWER_METHODS`) and a judge of calls."""

    def __init__(
        self,
        document: Mapping[str, Any],
        newer_methods: Mapping[str, Method] = NEWER_METHODS,
        newer_arguments: Mapping[str, tuple[frozenset[str], str]] = NEWER_ARGUMENTS,
        library_arguments: Mapping[str, tuple[frozenset[str], str]] = LIBRARY_ARGUMENTS,
    ) -> None:
        methods: dict[str, Method] = {}
        for path, item in document.get("paths", {}).items():
            arguments: set[str] = set()
            required: set[str] = set()
            for operation in item.values():
                for parameter in operation.get("parameters", []):
                    name = parameter["name"]
                    if name in AUTHENTICATION:
                        continue
                    arguments.add(name)
                    if parameter.get("required"):
                        required.add(name)
            methods[path.strip("/")] = Method(frozenset(arguments), frozenset(required))
        for name, (more, source) in [*newer_arguments.items(), *library_arguments.items()]:
            known = methods[name]
            methods[name] = Method(known.arguments | more, known.required, source)
        methods.update(newer_methods)
        self.methods = methods

    def problems(self, method: str, args: Mapping[str, Any]) -> list[str]:
        """What the spec refuses in one call ([] when it takes it)."""
        known = self.methods.get(method)
        if known is None:
            return [f"no Web API method {method} in the spec"]
        problems = [
            f"{method} has no argument {name!r}"
            for name in sorted(set(args) - known.arguments - AUTHENTICATION)
        ]
        problems += [f"{method} needs the argument {name!r}" for name in sorted(known.required - set(args))]
        return problems


def _decoded(value: Any) -> Any:
    """A JSON argument as sent: form-encoded calls carry it as a string."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _dropped(sent: Any, kept: Any, at: str) -> Iterator[str]:
    """Keys of ``sent`` that slack_sdk's model did not keep (``kept`` is its ``to_dict()``)."""
    if isinstance(sent, Mapping) and isinstance(kept, Mapping):
        for key, value in sent.items():
            if value is None:
                continue
            if key not in kept:
                yield f"{at}/{key}: not a field of a {sent.get('type', 'Block Kit')} object"
            else:
                yield from _dropped(value, kept[key], f"{at}/{key}")
    elif isinstance(sent, list) and isinstance(kept, list) and len(sent) == len(kept):
        for i, (one, other) in enumerate(zip(sent, kept, strict=True)):
            yield from _dropped(one, other, f"{at}/{i}")


def block_problems(blocks: Any, at: str = "blocks") -> list[str]:
    """What slack_sdk's Block Kit models refuse in a ``blocks`` argument ([] when all is well)."""
    blocks = _decoded(blocks)
    if not isinstance(blocks, list):
        return [f"{at}: not an array of blocks ({type(blocks).__name__})"]
    problems: list[str] = []
    for i, block in enumerate(blocks):
        where = f"{at}/{i}"
        if not isinstance(block, dict):
            problems.append(f"{where}: not a block object")
            continue
        try:
            parsed = Block.parse(block)
            if parsed is None:
                problems.append(f"{where}: unknown block type {block.get('type')!r}")
                continue
            parsed.validate_json()
            kept = parsed.to_dict()
        except REFUSED as exc:
            problems.append(f"{where} ({block.get('type')}): {exc}")
            continue
        problems += _dropped(block, kept, where)
    return problems


def view_problems(view: Any, at: str = "view") -> list[str]:
    """What slack_sdk's ``View`` refuses in a ``view`` argument (a modal or a Home tab)."""
    view = _decoded(view)
    if not isinstance(view, dict):
        return [f"{at}: not a view object"]
    problems = block_problems(view.get("blocks", []), f"{at}/blocks")
    try:
        parsed = View(**view)
        parsed.validate_json()
        kept = parsed.to_dict()
    except REFUSED as exc:
        return [*problems, f"{at}: {exc}"]
    if problems:
        return problems
    return list(_dropped(view, kept, at))


def attachment_problems(attachments: Any, at: str = "attachments") -> list[str]:
    """The blocks inside a message's (secondary) attachments, judged as :func:`block_problems`."""
    attachments = _decoded(attachments)
    if not isinstance(attachments, list):
        return [f"{at}: not an array of attachments"]
    problems: list[str] = []
    for i, attachment in enumerate(attachments):
        if isinstance(attachment, dict) and "blocks" in attachment:
            problems += block_problems(attachment["blocks"], f"{at}/{i}/blocks")
    return problems


def payload_problems(args: Mapping[str, Any]) -> list[str]:
    """Every Block Kit payload among a call's arguments (or a message sent to a response_url)."""
    problems: list[str] = []
    if args.get("blocks") is not None:
        problems += block_problems(args["blocks"])
    if args.get("view") is not None:
        problems += view_problems(args["view"])
    if args.get("attachments") is not None:
        problems += attachment_problems(args["attachments"])
    return problems
