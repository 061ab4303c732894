"""Inbound events as JSON, to hand one to another moji process (see :mod:`bot.inbound.routing`).

An adapter's interaction object (what answers a slash command privately) crosses too when
the adapter gives an :class:`InteractionCodec`; without one the event crosses without it and
a private answer goes the platform's other way (an ephemeral message, a direct message).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, Protocol

from bot.core.events import Button, ChatKey, Command, Inbound, MessageRef, Player, PrivateText, Reaction, Text


class InteractionCodec(Protocol):
    """How an adapter's interaction objects cross between processes."""

    def dump(self, interaction: object) -> dict[str, Any] | None:
        """The interaction as JSON values (None: it cannot cross)."""
        ...

    def load(self, data: Mapping[str, Any]) -> object:
        """Inverse of :meth:`dump`."""
        ...

    def key(self, interaction: object) -> str | None:
        """A platform id naming this one delivery (a redelivery has the same), if any."""
        ...


def _chat(chat: ChatKey) -> list[str | None]:
    return [chat.platform, chat.workspace_id, chat.channel_id, chat.thread_id]


def _player(player: Player) -> list[Any]:
    return [player.platform, player.user_id, player.display_name, player.is_admin]


def encode(event: Inbound, codec: InteractionCodec | None = None) -> dict[str, Any]:
    """``event`` as JSON values."""
    data: dict[str, Any] = {"chat": _chat(event.chat), "player": _player(event.player)}
    if isinstance(event, Command):
        data |= {"kind": "command", "name": event.name, "args": list(event.args)}
    elif isinstance(event, Button):
        data |= {"kind": "button", "action": event.action}
    elif isinstance(event, Text):
        ref = event.message_ref.message_id if event.message_ref else None
        data |= {
            "kind": "text",
            "text": event.text,
            "sent_at": event.sent_at,
            "ref": ref,
            "edited": event.edited,
            "read": event.read,
        }
    elif isinstance(event, Reaction):
        data |= {"kind": "reaction", "emoji": event.emoji, "ref": event.message_ref.message_id}
    else:
        data |= {"kind": "private", "text": event.text, "sent_at": event.sent_at}
    interaction = getattr(event, "interaction", None)
    if interaction is not None and codec is not None:
        data["interaction"] = codec.dump(interaction)
    return data


def decode(data: Mapping[str, Any], codec: InteractionCodec | None = None) -> Inbound:
    """Inverse of :func:`encode` (``KeyError``/``ValueError`` on a malformed payload)."""
    platform, workspace, channel, thread = data["chat"]
    chat = ChatKey(str(platform), str(workspace), str(channel), None if thread is None else str(thread))
    p_platform, user, name, admin = data["player"]
    player = Player(str(p_platform), str(user), str(name), bool(admin))
    raw = data.get("interaction")
    interaction = codec.load(raw) if raw is not None and codec is not None else None
    kind = data["kind"]
    if kind == "command":
        return Command(str(data["name"]), tuple(str(a) for a in data["args"]), chat, player, interaction)
    if kind == "button":
        return Button(chat, player, str(data["action"]), interaction)
    if kind == "text":
        ref = MessageRef(chat, str(data["ref"])) if data.get("ref") is not None else None
        return Text(
            chat,
            player,
            str(data["text"]),
            float(data["sent_at"]),
            ref,
            bool(data.get("edited")),
            bool(data.get("read")),
        )
    if kind == "reaction":
        return Reaction(chat, player, str(data["emoji"]), MessageRef(chat, str(data["ref"])))
    if kind == "private":
        return PrivateText(chat, player, str(data["text"]), float(data["sent_at"]))
    raise ValueError(f"unknown event kind {kind!r}")


def event_key(event: Inbound, codec: InteractionCodec | None = None) -> str:
    """A name for this delivery of ``event``: a platform's redelivery of it gets the same one."""
    where = event.chat.label()
    if isinstance(event, Text) and event.message_ref is not None:
        return f"text:{where}:{event.message_ref.message_id}:{int(event.edited)}"
    if isinstance(event, Reaction):
        return f"reaction:{where}:{event.message_ref.message_id}:{event.player.user_id}:{event.emoji}"
    interaction = getattr(event, "interaction", None)
    key = codec.key(interaction) if interaction is not None and codec is not None else None
    return f"{type(event).__name__.lower()}:{where}:{key}" if key else f"once:{uuid.uuid4().hex}"
