"""Every Web API call the adapter makes outside the delivery layer, paced like the rest.

:class:`PacedWebClient` is slack-sdk's ``AsyncWebClient`` whose ``api_call`` first takes a slot
of the method's bucket in the delivery layer's :class:`~bot.delivery.pacing.Pacer` (the kind named after
the method, :data:`adapters.slack.limits.SLACK_LIMITS`): ``users.info`` for every player looked
up at the start of a game, ``conversations.join``, the App Home, DMs, user groups, ``auth.test``.
They share their buckets with the delivery layer's calls of the same method (``chat.postEphemeral``,
``chat.postMessage`` in a channel), so the two never add up to more than Slack allows. A client
without a pacer (before the adapter wires one) calls straight through.

The delivery layer's own client is a plain ``AsyncWebClient``: it takes its slots itself.
"""

from __future__ import annotations

from typing import Any

from aiohttp import FormData
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.core.events import ChatKey
from bot.delivery.pacing import Pacer


class PacedWebClient(AsyncWebClient):
    """An ``AsyncWebClient`` that waits for its method's rate-limit slot before each call."""

    def __init__(self, *args: Any, team: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Set by the adapter: the delivery layer's pacer (shared buckets).
        self.pacer: Pacer | None = None
        #: The workspace whose budget the calls draw from ("" until known: single-token mode).
        self.team = team

    async def api_call(
        self,
        api_method: str,
        *,
        http_verb: str = "POST",
        files: dict[str, Any] | None = None,
        data: dict[str, Any] | FormData | None = None,
        params: dict[str, Any] | None = None,
        json: dict[str, Any] | None = None,
        headers: dict[str, Any] | None = None,
        auth: dict[str, Any] | None = None,
    ) -> AsyncSlackResponse:
        """The call, once its method's bucket has room (the slot counts from its answer)."""

        async def call() -> AsyncSlackResponse:
            return await super(PacedWebClient, self).api_call(
                api_method,
                http_verb=http_verb,
                files=files,
                data=data,
                params=params,
                json=json,
                headers=headers,
                auth=auth,
            )

        pacer = self.pacer
        if pacer is None or not pacer.paced(api_method):
            return await call()
        channel = ""
        for source in (json, data, params):
            if isinstance(source, dict) and source.get("channel"):
                channel = str(source["channel"])
                break
        ticket = await pacer.acquire(api_method, ChatKey("slack", self.team, channel))
        try:
            return await call()
        finally:
            pacer.release(ticket)
