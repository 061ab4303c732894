"""Card pictures on Slack: the table's PNG, added to the table message once uploaded.

The table is posted at once with emoji cards and the letter line; the picture
(rendered off the event loop by a ``Renderer`` such as the shared Pillow one)
is uploaded with ``files_upload_v2`` and then shown in the same message with an
image block. A workspace that did not grant ``files:write`` simply keeps the
emoji tables (its first refusal turns pictures off for it). A picture that
arrives after a newer table was posted is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.blocks import MAX_BLOCKS, fallback_text, render
from bot.events import ChatKey
from bot.views import View

log = logging.getLogger(__name__)

#: A view → PNG bytes (None: no picture for this view). Called in a worker thread.
Renderer = Callable[[View], bytes | None]
#: Errors meaning "this workspace does not let the bot upload files".
NOT_ALLOWED = frozenset({"missing_scope", "not_allowed_token_type", "no_permission", "restricted_action"})


class Pictures:
    """Attaches card pictures to table messages, in the background."""

    def __init__(
        self, renderer: Renderer | None, client_for: Callable[[str], Awaitable[AsyncWebClient]]
    ) -> None:
        self.renderer = renderer
        self.client_for = client_for
        #: Workspaces that refused an upload (no files:write).
        self.disabled: set[str] = set()
        #: chat → ts of its newest table message.
        self.latest: dict[ChatKey, str] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def table_posted(self, chat: ChatKey, ts: str, view: View) -> None:
        """A table message was posted: start attaching its picture (if pictures are on)."""
        if (
            self.renderer is None
            or view.kind != "table"
            or not (view.cards or view.board)
            or chat.workspace_id in self.disabled
        ):
            return
        self.latest[chat] = ts
        task = asyncio.get_running_loop().create_task(self._attach(chat, ts, view), name=f"picture {ts}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def forget(self, chat: ChatKey) -> None:
        """The chat's game ended."""
        self.latest.pop(chat, None)

    async def close(self) -> None:
        """Cancel pending uploads."""
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _attach(self, chat: ChatKey, ts: str, view: View) -> None:
        assert self.renderer is not None
        try:
            png = await asyncio.to_thread(self.renderer, view)
            if not png or self.latest.get(chat) != ts:
                return
            client = await self.client_for(chat.workspace_id)
            upload: Any = await client.files_upload_v2(
                file=png, filename="moji-table.png", title=view.title or "moji", alt_txt=_alt(view)
            )
            file_id = str(upload["file"]["id"])
            if self.latest.get(chat) != ts:
                return
            image = {"type": "image", "slack_file": {"id": file_id}, "alt_text": _alt(view)}
            await client.chat_update(
                channel=chat.channel_id,
                ts=ts,
                text=fallback_text(view),
                blocks=[*render(view)[: MAX_BLOCKS - 1], image],
            )
        except SlackApiError as exc:
            error = exc.response.get("error")
            if error in NOT_ALLOWED:
                self.disabled.add(chat.workspace_id)
                log.info(
                    "slack workspace %s: no file uploads (%s); emoji tables only", chat.workspace_id, error
                )
            else:
                log.warning("could not attach the table picture in %s: %s", chat.label(), error)
        except Exception:
            log.exception("could not draw or attach the table picture in %s", chat.label())


def _alt(view: View) -> str:
    return "Cards: " + view.card_line()
