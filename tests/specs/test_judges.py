"""The judges of tests/specs: known-bad requests are refused, good ones taken, by a small spec of
our own (always) and by the pinned published specs (when their copies are found)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from slack_sdk.web.async_client import AsyncWebClient

from tests import specs
from tests.adapters.discord.fakediscord import FakeDiscord
from tests.adapters.slack.fakeslack import FakeSlack
from tests.specs import pins
from tests.specs.discord import AMENDMENTS, Amendment, DiscordSpec, Validator
from tests.specs.slack import (
    LIBRARY_ARGUMENTS,
    NEWER_METHODS,
    SlackSpec,
    block_problems,
    payload_problems,
    view_problems,
)

SNOWFLAKE = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}
#: A spec in Discord's shape: path parameters on the path, objects open, a union of two bodies.
TINY_OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "paths": {
        "/users/{user_id}": {
            "parameters": [{"name": "user_id", "in": "path", "schema": {"$ref": "#/components/schemas/Id"}}],
            "get": {},
        },
        "/users/@me": {"get": {}},
        "/channels/{channel_id}/messages": {
            "parameters": [
                {"name": "channel_id", "in": "path", "schema": {"$ref": "#/components/schemas/Id"}}
            ],
            "post": {
                "parameters": [{"name": "wait", "in": "query", "schema": {"type": "boolean"}}],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Message"}}},
                },
            },
        },
        "/interactions/{id}/callback": {
            "post": {
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "anyOf": [
                                    {"$ref": "#/components/schemas/Pong"},
                                    {"$ref": "#/components/schemas/Reply"},
                                ]
                            }
                        }
                    }
                }
            }
        },
    },
    "components": {
        "schemas": {
            "Id": SNOWFLAKE,
            "Message": {
                "type": "object",
                "properties": {
                    "content": {"type": ["string", "null"], "maxLength": 20},
                    "embeds": {"type": "array", "items": {"$ref": "#/components/schemas/Embed"}},
                },
            },
            "Embed": {"type": "object", "properties": {"title": {"type": "string"}}},
            "Pong": {"type": "object", "properties": {"type": {"type": "integer", "enum": [1]}}},
            "Reply": {
                "type": "object",
                "properties": {
                    "type": {"type": "integer", "enum": [4]},
                    "data": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Message"}]},
                },
                "required": ["type"],
            },
        }
    },
}

#: A Web API spec in Slack's shape (Swagger 2.0; the token a header parameter).
TINY_SWAGGER: dict[str, Any] = {
    "swagger": "2.0",
    "paths": {
        "/chat.postMessage": {
            "post": {
                "parameters": [
                    {"name": "token", "in": "header", "required": True},
                    {"name": "channel", "in": "formData", "required": True},
                    {"name": "text", "in": "formData"},
                    {"name": "blocks", "in": "formData"},
                ]
            }
        }
    },
}


@pytest.fixture(scope="module")
def tiny() -> DiscordSpec:
    return DiscordSpec(TINY_OPENAPI, amendments=())


def discord_spec() -> DiscordSpec:
    spec = specs.discord_spec()
    if spec is None:
        pytest.skip(f"no copy of {pins.DISCORD.source} (tests/specs/README.md)")
    return spec


def slack_spec() -> SlackSpec:
    spec = specs.slack_spec()
    if spec is None:
        pytest.skip(f"no copy of {pins.SLACK.source} (tests/specs/README.md)")
    return spec


# ------------------------------------------------------------ Discord, by a spec of our own


def test_a_route_the_spec_lacks_is_refused(tiny: DiscordSpec) -> None:
    assert tiny.problems("GET", "/guilds/1", {}, None) == ["no route /guilds/1 in the spec"]
    assert tiny.problems("DELETE", "/users/@me", {}, None) == ["/users/@me takes no DELETE (only GET)"]


def test_a_literal_segment_is_matched_before_a_parameter(tiny: DiscordSpec) -> None:
    assert tiny.problems("GET", "/users/@me", {}, None) == []
    assert tiny.problems("GET", "/users/123", {}, None) == []
    assert tiny.problems("GET", "/users/me", {}, None) == [
        "path parameter user_id='me': 'me' does not match '^(0|[1-9][0-9]*)$'"
    ]


def test_an_unknown_field_is_refused_at_any_depth(tiny: DiscordSpec) -> None:
    post = "/channels/1/messages"
    assert tiny.problems("POST", post, {}, {"content": "hi", "embeds": [{"title": "t"}]}) == []
    assert tiny.problems("POST", post, {}, {"content": "hi", "embed": {"title": "t"}}) == [
        "body: Additional properties are not allowed ('embed' was unexpected)"
    ]
    assert tiny.problems("POST", post, {}, {"embeds": [{"title": "t", "colour": 1}]}) == [
        "body/embeds/0: Additional properties are not allowed ('colour' was unexpected)"
    ]


def test_a_body_the_schema_refuses_is_refused(tiny: DiscordSpec) -> None:
    post = "/channels/1/messages"
    (too_long,) = tiny.problems("POST", post, {}, {"content": "x" * 21})
    assert too_long.startswith("body/content: ") and "is too long" in too_long
    assert tiny.problems("POST", post, {}, None) == ["POST /channels/{channel_id}/messages needs a body"]
    assert tiny.problems("GET", "/users/@me", {}, {"content": "x"}) == ["GET /users/@me takes no body"]


def test_query_parameters_are_those_the_operation_names(tiny: DiscordSpec) -> None:
    assert tiny.problems("POST", "/channels/1/messages", {"wait": "true"}, {}) == []
    assert tiny.problems("POST", "/channels/1/messages", {"wiat": "true"}, {}) == [
        "query parameter 'wiat' is not one of ['wait']"
    ]


def test_a_union_is_explained_by_the_branch_the_body_meant(tiny: DiscordSpec) -> None:
    callback = "/interactions/1/callback"
    assert tiny.problems("POST", callback, {}, {"type": 1}) == []
    assert tiny.problems("POST", callback, {}, {"type": 4, "data": {"content": "hi"}}) == []
    assert tiny.problems("POST", callback, {}, {"type": 4, "data": {"content": "hi", "flag": 64}}) == [
        "body/data: Additional properties are not allowed ('flag' was unexpected)"
    ]


def test_the_union_hint_never_changes_a_verdict() -> None:
    union = Validator({"anyOf": [{"type": "integer"}, {"type": "string"}]})
    assert union.is_valid(1.0)  # (an integer to JSON Schema, though the hint reads it a number)
    assert union.is_valid("x") and not union.is_valid(None)


def test_a_body_judged_again_is_judged_alike(tiny: DiscordSpec) -> None:
    body = {"content": "hi", "embed": {"title": "t"}}
    first = tiny.problems("POST", "/channels/1/messages", {}, body)
    assert first and tiny.problems("POST", "/channels/2/messages", {}, dict(reversed(body.items()))) == first


def test_an_amendment_takes_what_the_spec_left_out() -> None:
    title_colour = Amendment("/components/schemas/Embed/properties/colour", {"type": "integer"}, "a test")
    amended = DiscordSpec(TINY_OPENAPI, amendments=(title_colour,))
    assert amended.problems("POST", "/channels/1/messages", {}, {"embeds": [{"colour": 1}]}) == []
    assert amended.problems("POST", "/channels/1/messages", {}, {"embeds": [{"colour": "red"}]}) != []
    assert "colour" not in TINY_OPENAPI["components"]["schemas"]["Embed"]["properties"]  # a copy was amended


# ------------------------------------------------------------ Discord, by the published spec


def test_the_published_spec_refuses_known_bad_requests() -> None:
    spec = discord_spec()
    assert spec.problems("POST", "/channels/1/message", {}, {"content": "x"}) == [
        "no route /channels/1/message in the spec"
    ]
    assert spec.problems("PUT", "/channels/1/messages", {}, {"content": "x"}) == [
        "/channels/{channel_id}/messages takes no PUT (only GET, POST)"
    ]
    assert spec.problems("POST", "/channels/1/messages", {}, {"content": "x", "embeds": [{"colour": 5}]}) == [
        "body/embeds/0: Additional properties are not allowed ('colour' was unexpected)"
    ]
    (too_many,) = spec.problems("POST", "/channels/1/messages", {}, {"embeds": [{}] * 11})
    assert too_many.startswith("body/embeds: ") and "too long" in too_many
    (bad_flags,) = spec.problems(
        "POST", "/interactions/1/token/callback", {}, {"type": 4, "data": {"content": "x", "flags": "64"}}
    )
    assert bad_flags.startswith("body/data/flags: ")


def test_the_published_spec_takes_what_discord_py_sends() -> None:
    spec = discord_spec()
    message = {
        "content": "Cards: A B",
        "embeds": [
            {"flags": 0, "color": 5793266, "type": "rich", "description": "Bob joined.", "title": "moji"}
        ],
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Join", "custom_id": "j"}]}
        ],
        "tts": False,
        "allowed_mentions": {"parse": ["users"], "roles": [800000000000000009]},
        "nonce": "result-1",
        "enforce_nonce": True,
    }
    assert spec.problems("POST", "/channels/800000000000000002/messages", {}, message) == []
    edit = {k: v for k, v in message.items() if k not in ("nonce", "enforce_nonce")}
    assert spec.problems("PATCH", "/channels/1/messages/2", {}, edit) == []
    assert spec.problems("PATCH", "/channels/1/messages/2", {}, {**edit, "tts": True}) != []
    assert spec.problems("PUT", "/channels/1/messages/2/reactions/✅/@me", {}, None) == []
    assert spec.problems("POST", "/users/@me/channels", {}, {"recipient_id": 100000000000000001}) == []
    assert spec.problems("POST", "/users/@me/channels", {}, {"recipient_id": -1}) != []


@pytest.mark.parametrize("amendment", AMENDMENTS, ids=lambda a: a.at.rsplit("/", 2)[-2])
def test_each_amendment_is_still_needed(amendment: Amendment) -> None:
    """Where the published spec has caught up, its amendment goes."""
    discord_spec()
    document = pins.load(pins.DISCORD)
    assert document is not None
    node: Any = document
    *parents, last = amendment.at.split("/")[1:]
    for part in parents:
        node = node[part]
    if parents[-1] == "properties":
        assert last not in node, f"the spec has {amendment.at} now"
    else:
        assert node[last] == SNOWFLAKE | {"format": "snowflake"}, f"the spec changed {amendment.at}"


# ------------------------------------------------------------ Slack, by a spec of our own


def test_a_web_api_call_is_judged_by_its_method_and_arguments() -> None:
    spec = SlackSpec(TINY_SWAGGER, newer_methods={}, newer_arguments={}, library_arguments={})
    assert spec.problems("chat.postMessage", {"channel": "C1", "text": "hi"}) == []
    assert spec.problems("chat.postMessage", {"channel": "C1", "token": "xoxb"}) == []
    assert spec.problems("chat.postMesage", {"channel": "C1"}) == [
        "no Web API method chat.postMesage in the spec"
    ]
    assert spec.problems("chat.postMessage", {"channel": "C1", "txt": "hi"}) == [
        "chat.postMessage has no argument 'txt'"
    ]
    assert spec.problems("chat.postMessage", {"text": "hi"}) == [
        "chat.postMessage needs the argument 'channel'"
    ]


# ------------------------------------------------------------ Slack, by the published spec


def test_the_published_web_api_refuses_an_unknown_argument() -> None:
    spec = slack_spec()
    assert spec.problems("chat.postMessage", {"channel": "C1", "text": "x", "unfurl_links": "false"}) == []
    assert spec.problems(
        "chat.update", {"channel": "C1", "ts": "1.2", "text": "x", "unfurl_links": "false"}
    ) == ["chat.update has no argument 'unfurl_links'"]
    assert spec.problems("chat.postEphemeral", {"channel": "C1", "text": "x"}) == [
        "chat.postEphemeral needs the argument 'user'"
    ]
    assert spec.problems("files.upload.v2", {}) == ["no Web API method files.upload.v2 in the spec"]


def test_methods_and_arguments_added_to_the_spec_are_still_missing_from_it() -> None:
    slack_spec()
    document = pins.load(pins.SLACK)
    assert document is not None
    for method in NEWER_METHODS:
        assert f"/{method}" not in document["paths"], f"the spec has {method} now"
    for method, (arguments, _) in LIBRARY_ARGUMENTS.items():
        listed = {p["name"] for op in document["paths"][f"/{method}"].values() for p in op["parameters"]}
        assert not arguments & listed, f"the spec lists {sorted(arguments & listed)} for {method} now"


# ------------------------------------------------------------ Block Kit (slack_sdk's models)


def test_valid_blocks_pass() -> None:
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "moji", "emoji": True}},
        {"type": "section", "text": {"type": "mrkdwn", "text": "*Cards*", "verbatim": True}},
        {"type": "context", "elements": [{"type": "plain_text", "text": "Letters: A B"}]},
        {"type": "divider"},
        {
            "type": "actions",
            "block_id": "moji:actions",
            "elements": [
                {"type": "button", "action_id": "join", "text": {"type": "plain_text", "text": "Join"}}
            ],
        },
    ]
    assert block_problems(blocks) == []
    assert block_problems(json.dumps(blocks)) == []  # (form-encoded)


def test_an_invalid_block_is_refused() -> None:
    assert block_problems([{"type": "sectoin", "text": {"type": "mrkdwn", "text": "x"}}]) == [
        "blocks/0: unknown block type 'sectoin'"
    ]
    assert block_problems(
        [{"type": "section", "text": {"type": "mrkdwn", "text": "x"}, "colour": "red"}]
    ) == ["blocks/0/colour: not a field of a section object"]
    assert block_problems([{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}]) == [
        "blocks/0 (section): text attribute cannot exceed 3000 characters"
    ]
    button = {"type": "button", "action_id": "a" * 256, "text": {"type": "plain_text", "text": "x"}}
    assert block_problems([{"type": "actions", "elements": [button]}]) == [
        "blocks/0 (actions): action_id attribute cannot exceed 255 characters"
    ]
    assert block_problems({"type": "divider"}) == ["blocks: not an array of blocks (dict)"]


def test_views_and_attachments_are_judged_too() -> None:
    home = {"type": "home", "blocks": [{"type": "divider"}]}
    assert view_problems(home) == []
    assert view_problems({**home, "colour": 1}) == ["view/colour: not a field of a home object"]
    assert view_problems({"type": "home", "blocks": [{"type": "divider", "x": 1}]}) == [
        "view/blocks/0/x: not a field of a divider object"
    ]
    modal = {
        "type": "modal",
        "title": {"type": "plain_text", "text": "x" * 25},
        "blocks": [{"type": "divider"}],
    }
    assert view_problems(modal) != []  # a modal's title holds 24 characters
    attachments = [{"color": "#36a64f", "blocks": [{"type": "nope"}]}]
    assert payload_problems({"attachments": attachments}) == [
        "attachments/0/blocks/0: unknown block type 'nope'"
    ]


# ------------------------------------------------------------ the fakes hand every request over


async def test_the_fake_slack_records_what_block_kit_refuses() -> None:
    fake = FakeSlack(limits=None)
    await fake.start()
    try:
        client = AsyncWebClient(token="xoxb-test", base_url=fake.api_url)
        await client.chat_postMessage(channel="C1", text="x", blocks=[{"type": "divider", "colour": 1}])
    finally:
        await fake.stop()
    assert fake.calls[-1].violations == ["blocks/0/colour: not a field of a divider object"]
    assert specs.take_problems() == ["blocks/0/colour: not a field of a divider object"]


async def test_the_fake_discord_records_what_the_spec_refuses() -> None:
    discord_spec()
    fake = FakeDiscord(limits=None)
    await fake.start()
    try:
        async with aiohttp.ClientSession() as http:
            url = f"{fake.base}/api/v10/channels/800000000000000002/messages"
            async with http.post(url, json={"content": "x", "embeds": [{"colour": 1}]}) as answer:
                assert answer.status == 200  # (judged, and answered as before)
    finally:
        await fake.close()
    problem = "body/embeds/0: Additional properties are not allowed ('colour' was unexpected)"
    assert fake.requests[-1].violations == [problem]
    assert specs.take_problems() == [problem]


# ------------------------------------------------------------ the pins


def test_the_readme_names_each_pin() -> None:
    readme = (Path(__file__).parent / "README.md").read_text(encoding="utf-8")
    for pin in pins.PINS:
        for fact in (pin.repository, pin.path, pin.commit, pin.changed, pin.date, pin.sha256, pin.name):
            assert fact in readme, f"README.md does not name {fact}"


def test_a_copy_of_another_version_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / f"{pins.SLACK.name}.json.gz").write_bytes(gzip.compress(b'{"swagger": "2.0", "paths": {}}'))
    monkeypatch.setenv(pins.FOLDER_VARIABLE, str(tmp_path))
    assert pins.locate(pins.SLACK) == tmp_path / f"{pins.SLACK.name}.json.gz"
    with pytest.raises(pins.SpecMismatch, match="is not slackapi/slack-api-specs@"):
        pins.load.__wrapped__(pins.SLACK)
