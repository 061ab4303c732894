"""Discord interactions crossing to another moji process (see :mod:`bot.core.wire`).

The process that received a slash command or a button press acknowledged it (deferred) in
time; the process running the chat's game answers it by the interaction's follow-up webhook,
which works from anywhere with the application id and the interaction's token (for 15 minutes).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, cast

import discord

from adapters.discord.transport import Reply


class _Answered:
    """The first response was made by the process the interaction reached."""

    def is_done(self) -> bool:
        return True


class ForwardedInteraction:
    """The parts of a :class:`discord.Interaction` a forwarded reply uses: its id and follow-up."""

    def __init__(self, client: discord.Client, interaction_id: int, application_id: int, token: str) -> None:
        self.id = interaction_id
        self.response = _Answered()
        payload: Any = {"id": application_id, "type": 3, "token": token}
        self.followup = discord.Webhook.from_state(data=payload, state=client._connection)


class ReplyWire:
    """:class:`~bot.core.wire.InteractionCodec` for :class:`~adapters.discord.transport.Reply`."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def dump(self, interaction: object) -> dict[str, Any] | None:
        """The interaction's id, application id and token."""
        if not isinstance(interaction, Reply):
            return None
        inner = interaction.interaction
        token = getattr(inner, "token", None)
        application = getattr(inner, "application_id", None)
        if not token or application is None:
            return None
        return {"id": str(inner.id), "application_id": str(application), "token": str(token)}

    def load(self, data: Mapping[str, Any]) -> object:
        """A :class:`Reply` answering by the interaction's follow-up webhook."""
        interaction_id = int(data["id"])
        inner = ForwardedInteraction(
            self.client, interaction_id, int(data["application_id"]), str(data["token"])
        )
        age = max(0.0, time.time() - discord.utils.snowflake_time(interaction_id).timestamp())
        return Reply(cast(discord.Interaction[Any], inner), created=time.monotonic() - age)

    def key(self, interaction: object) -> str | None:
        """The interaction id: one per command or button press."""
        return str(interaction.interaction.id) if isinstance(interaction, Reply) else None
