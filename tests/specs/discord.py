"""Discord's OpenAPI description (discord/discord-api-spec) as a judge of REST requests.

:class:`DiscordSpec` matches a request's method and path (after ``/api/v10``) to the spec's path
templates, checks its path parameters, the names of its query parameters and its JSON body (or a
multipart request's ``payload_json``) against the operation's request schema: OpenAPI 3.1 schemas
are JSON Schema 2020-12, checked with ``jsonschema``. The spec leaves its objects open; the judge
reads them closed (a key the spec does not name is refused), so a misspelt or retired field shows.
Validators are built once per operation and kept.

:data:`AMENDMENTS` change the published schema where it is narrower than what Discord documents
(or takes from discord.py): each cites both.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match

METHODS = ("get", "put", "post", "patch", "delete", "head", "options")
#: How many judged bodies are remembered (see :meth:`DiscordSpec._body_problems`).
JUDGED_KEPT = 512


@dataclass(frozen=True)
class Amendment:
    """A change to the published schema, where it is narrower than what Discord documents or takes."""

    #: JSON pointer into the document of the schema put there (a new property, or in place)
    at: str
    schema: dict[str, Any]
    #: why, citing both the spec and Discord's documentation (or the library that sends it)
    why: str


#: The spec wants a snowflake as a string; discord.py sends some as JSON numbers (the ids of
#: ``allowed_mentions.roles``/``users``, Create DM's ``recipient_id``).
SNOWFLAKE = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}
#: Where the published spec says less than Discord's documentation (each ``why`` cites both).
AMENDMENTS: tuple[Amendment, ...] = (
    Amendment(
        "/components/schemas/SnowflakeType",
        {"anyOf": [SNOWFLAKE, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]},
        "The spec types every snowflake a string. Discord's docs (docs/reference.md, Snowflakes) make "
        "it a uint64 that responses carry as a string, and 'ID Serialization' there: sending 'a value "
        "in an id field' as a number is taken (as in discord-api-docs#2089); discord.py sends ids as "
        "numbers in allowed_mentions and Create DM's recipient_id.",
    ),
    Amendment(
        "/components/schemas/RichEmbed/properties/flags",
        {"type": ["integer", "null"]},
        "The spec's RichEmbed has no flags; Discord's Embed Object (docs/resources/Message.md) has "
        "'flags?: integer, embed flags combined as a bitfield'. discord.py's Embed.to_dict() always "
        "sends it (0).",
    ),
    Amendment(
        "/components/schemas/ApplicationCommandUpdateRequest/properties/nsfw",
        {"type": ["boolean", "null"]},
        "The spec's ApplicationCommandUpdateRequest (Bulk Overwrite) has no nsfw; Discord's Create "
        "Global Application Command JSON params (docs/interactions/Application_Commands.md) have "
        "'nsfw?: boolean, indicates whether the command is age-restricted', as its response "
        "(ApplicationCommandResponse) does. discord.py sends it with every command.",
    ),
    Amendment(
        "/components/schemas/MessageEditRequestPartial/properties/tts",
        {"const": False},
        "Neither the spec nor Discord's Edit Message params (docs/resources/Message.md) have tts: "
        "discord.py puts 'tts' in every message body it builds, an edit's too "
        "(discord/http.py, handle_message_parameters). Taken only as false, asking for nothing.",
    ),
)


@dataclass
class _Route:
    template: str
    pattern: re.Pattern[str]
    #: one entry per segment, 0 for a literal and 1 for a parameter: literals match first
    rank: tuple[int, ...]
    operations: dict[str, dict[str, Any]]
    #: the route's own parameters, each with the JSON pointer of its schema in the document
    parameters: list[tuple[dict[str, Any], str]] = field(default_factory=list)


def _closed(schema: Any) -> Any:
    """``schema`` with every object that names its properties closed to any others (and each
    ``oneOf`` read as ``anyOf``).

    (additionalProperties, not unevaluatedProperties: the spec composes no request objects with
    allOf, so each object's own properties are all it may have.)
    """
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _closed(value) for key, value in schema.items()}
    if "oneOf" in out and "anyOf" not in out:
        # The spec's unions are told apart by a null or a type constant, so the first branch that
        # takes the body is its one: as anyOf, the others are not tried (see _any_of).
        out["anyOf"] = out.pop("oneOf")
    if "properties" in out and not {"additionalProperties", "patternProperties"} & out.keys():
        out["additionalProperties"] = False
    return out


def _inline(node: Any, doc: dict[str, Any]) -> Any:
    """``node`` with each ``{"$ref": "#/…"}`` in it replaced by the very object it names (in place,
    so recursive schemas become cycles): a validator then looks nothing up, which is most of its
    time on a large body. The spec's $refs have no siblings but a description."""
    if isinstance(node, list):
        return [_inline(item, doc) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/") and set(node) <= {"$ref", "description"}:
        return _resolve(doc, ref[1:])
    for key, value in node.items():
        node[key] = _inline(value, doc)
    return node


def _resolve(doc: Any, pointer: str) -> Any:
    """What the JSON pointer ``pointer`` names in ``doc``."""
    for token in pointer.split("/")[1:]:
        part = token.replace("~1", "/").replace("~0", "~")
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def _may_take(branch: Any, instance: Any) -> bool:
    """Whether a union's ``branch`` might take ``instance``: not if the instance's JSON type is not
    the branch's, nor if one of its keys misses the branch's ``enum``/``const`` for it."""
    if not isinstance(branch, dict):
        return True
    kind = branch.get("type")
    if kind is not None and _json_type(instance) not in ((kind,) if isinstance(kind, str) else kind):
        return False
    if isinstance(instance, dict):
        for key, rule in branch.get("properties", {}).items():
            if key not in instance or not isinstance(rule, dict):
                continue
            if "const" in rule and instance[key] != rule["const"]:
                return False
            if "enum" in rule and instance[key] not in rule["enum"]:
                return False
    return True


def _json_type(instance: Any) -> str:
    if instance is None:
        return "null"
    if isinstance(instance, bool):
        return "boolean"
    if isinstance(instance, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}.get(type(instance), "?")


_ANY_OF = Draft202012Validator.VALIDATORS["anyOf"]


def _any_of(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``anyOf`` trying first only the branches that might take the instance (:func:`_may_take`):
    a command tree's options are unions of a dozen kinds. Every branch is tried, and every error
    given, only when none of those took it (so the hint never changes a verdict)."""
    for index, branch in enumerate(branches):
        if (
            _may_take(branch, instance)
            and next(validator.descend(instance, branch, schema_path=index), None) is None
        ):
            return
    yield from _ANY_OF(validator, branches, instance, schema)


#: JSON Schema 2020-12, with :func:`_any_of`.
Validator = validators.extend(Draft202012Validator, {"anyOf": _any_of})


def _pointer(parts: Any) -> str:
    return "/" + "/".join(str(part) for part in parts)


def _explain(error: ValidationError) -> ValidationError:
    """The error inside a union (anyOf/oneOf) that says what is wrong in the branch the body meant:
    one whose discriminators it matches (an ``enum``/``const`` of a direct key, the instance's own
    ``type``), with the fewest complaints. The union's own error when no branch fits."""
    while error.context:
        depth = len(error.absolute_path)
        branches: dict[Any, list[ValidationError]] = {}
        for inner in error.context:
            branches.setdefault(inner.relative_schema_path[0], []).append(inner)
        fitting = [
            errors
            for errors in branches.values()
            if not any(
                (e.validator in ("enum", "const") and len(e.absolute_path) == depth + 1)
                or (e.validator == "type" and len(e.absolute_path) == depth)
                for e in errors
            )
        ]
        if not fitting:
            return error
        # of several, the branch with the fewest complaints is the one the body meant
        errors = min(fitting, key=len)
        error = max(errors, key=lambda e: len(e.absolute_path))
    return error


def _describe(error: ValidationError) -> str:
    """One line for a schema error: where in the body, and what (a long instance cut short)."""
    error = _explain(error)
    message = error.message
    if len(message) > 300:
        message = message[:300] + "…"
    return f"body{_pointer(error.absolute_path) if error.absolute_path else ''}: {message}"


class DiscordSpec:
    """The REST routes of one OpenAPI document and a judge of requests against them."""

    def __init__(self, document: Mapping[str, Any], amendments: tuple[Amendment, ...] = AMENDMENTS) -> None:
        doc: dict[str, Any] = _closed(document)  # (a copy)
        for amendment in amendments:
            parent, _, last = amendment.at.rpartition("/")
            _resolve(doc, parent)[last.replace("~1", "/").replace("~0", "~")] = amendment.schema
        for schema in doc["components"].get("schemas", {}).values():
            _inline(schema, doc)
        for item in doc.get("paths", {}).values():
            _inline(item, doc)
        self._doc = doc
        self._routes: dict[int, list[_Route]] = {}
        for template, item in doc.get("paths", {}).items():
            segments = template.strip("/").split("/")
            regex = "/".join(
                f"(?P<{s[1:-1]}>[^/]+)" if s.startswith("{") and s.endswith("}") else re.escape(s)
                for s in segments
            )
            route = _Route(
                template,
                re.compile(f"^/{regex}$"),
                tuple(1 if s.startswith("{") else 0 for s in segments),
                {m.upper(): op for m, op in item.items() if m in METHODS},
                [
                    (parameter, f"/paths/{_escape(template)}/parameters/{i}/schema")
                    for i, parameter in enumerate(item.get("parameters", []))
                ],
            )
            self._routes.setdefault(len(segments), []).append(route)
        for routes in self._routes.values():
            routes.sort(key=lambda r: r.rank)
        self._validators: dict[str, Any] = {}
        #: (schema pointer, body as canonical JSON) → its problems; the oldest is dropped first
        self._judged: dict[tuple[str, str], tuple[str, ...]] = {}

    def route(self, path: str) -> tuple[_Route, dict[str, str]] | None:
        """The template ``path`` falls under (literal segments before parameters), and its values."""
        for route in self._routes.get(len(path.strip("/").split("/")), []):
            found = route.pattern.match(path)
            if found is not None:
                return route, found.groupdict()
        return None

    def _validator(self, pointer: str) -> Any:
        """The validator of the schema at ``pointer`` in the document (built once)."""
        validator = self._validators.get(pointer)
        if validator is None:
            validator = Validator(_resolve(self._doc, pointer))
            self._validators[pointer] = validator
        return validator

    def problems(self, method: str, path: str, query: Mapping[str, str], body: Any) -> list[str]:
        """What the spec (with its :data:`AMENDMENTS`) refuses in one request ([] when it takes it)."""
        found = self.route(path)
        if found is None:
            return [f"no route {path} in the spec"]
        route, values = found
        operation = route.operations.get(method)
        if operation is None:
            return [f"{route.template} takes no {method} (only {', '.join(sorted(route.operations))})"]
        return list(self._check(route, method, operation, values, query, body))

    def _check(
        self,
        route: _Route,
        method: str,
        operation: dict[str, Any],
        values: dict[str, str],
        query: Mapping[str, str],
        body: Any,
    ) -> Iterator[str]:
        at = f"/paths/{_escape(route.template)}/{method.lower()}"
        parameters = [
            *route.parameters,
            *((p, f"{at}/parameters/{i}/schema") for i, p in enumerate(operation.get("parameters", []))),
        ]
        for parameter, pointer in parameters:
            if parameter.get("in") != "path" or "schema" not in parameter:
                continue
            name = parameter["name"]
            error = best_match(self._validator(pointer).iter_errors(values.get(name, "")))
            if error is not None:
                yield f"path parameter {name}={values.get(name)!r}: {error.message}"
        known = {p["name"] for p, _ in parameters if p.get("in") == "query"}
        for name in sorted(set(query) - known):
            yield f"query parameter {name!r} is not one of {sorted(known)}"
        request_body = operation.get("requestBody")
        if request_body is None:
            if body is not None:
                yield f"{method} {route.template} takes no body"
            return
        if body is None:
            if request_body.get("required"):
                yield f"{method} {route.template} needs a body"
            return
        content = request_body.get("content", {})
        media = "application/json" if "application/json" in content else next(iter(content), "")
        schema = content.get(media, {}).get("schema")
        if schema is None:
            return
        yield from self._body_problems(f"{at}/requestBody/content/{_escape(media)}/schema", body)

    def _body_problems(self, pointer: str, body: Any) -> tuple[str, ...]:
        """What the schema at ``pointer`` refuses in ``body``, remembered for the same body: the
        application commands' bulk overwrite (tens of ms to check) is sent alike at every start."""
        key = (pointer, json.dumps(body, sort_keys=True, separators=(",", ":")))
        known = self._judged.get(key)
        if known is None:
            error = best_match(self._validator(pointer).iter_errors(body))
            known = () if error is None else (_describe(error),)
            if len(self._judged) >= JUDGED_KEPT:
                self._judged.pop(next(iter(self._judged)))
            self._judged[key] = known
        return known


def _escape(token: str) -> str:
    """A JSON pointer token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")
