"""A table Slack refuses for its picture never holds the race back: it goes again at once without
the picture, by whichever call is sooner, and inside the limits moji paces to (the refused call
counts: Slack answered it). Slack's refusal, as the fake gives it: ``invalid_blocks``,
``"downloading image failed [json-pointer:/blocks/N/image_url]"`` (FakeSlack.image_failures)."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.slack.limits import TIER_3
from adapters.slack.store import MemorySlackStore
from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import Post
from bot.core.registry import Registry
from bot.delivery.tables import SCROLLED_AWAY
from tests.adapters.slack.conftest import CHAT, Harness, running
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import Call, FakeSlack
from tests.adapters.slack.test_game import is_table, letters
from tests.adapters.slack.test_pictures import PUBLIC_URL, begin, draw, image_of, status_edit


@pytest.fixture
def registry() -> Registry:
    from tests.bot.toygame import TOY

    return Registry([TOY])


def refusals(h: Harness, since: int = 0) -> list[Call]:
    return [c for c in h.slack.calls[since:] if c.answer and c.answer.get("error") == "invalid_blocks"]


async def new_cards(h: Harness) -> None:
    """The game's next table, with new cards (and so a new picture)."""
    session = h.adapter.runtime.manager.sessions[CHAT]
    assert session.engine is not None
    engine: Any = session.engine
    before = engine.letter
    while engine.letter == before:
        engine._flip(h.clock.now())
    await h.adapter.outbox.send(Post(CHAT, views.table(engine.snapshot(None), "toy", realtime=True)))


async def test_a_post_refused_for_its_picture_goes_at_once_as_an_edit(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(slack, clock, svc, slack_store, renderer=draw, public_url=PUBLIC_URL) as h:
        slack.image_hosts[PUBLIC_URL] = h.url
        table = await begin(h)
        await clock.advance(1.0)
        for _ in range(SCROLLED_AWAY):  # the table scrolls away: the next cards are posted anew
            await h.say("UBOB", "so what's everyone having for lunch")
        slack.image_failures = 1  # …and Slack cannot download their picture
        mark = len(slack.calls)
        await new_cards(h)
        await h.drain()
        [refused] = refusals(h, mark)
        assert refused.method == "chat.postMessage" and image_of(refused) is not None
        shown = next(c for c in slack.calls[mark:] if c.ok and is_table(c) and c.answer and c.answer["ok"])
        # the channel's post slot for this second was the refused post's: the live table, edited,
        # shows the new cards at once (as emoji), rather than a second later
        assert shown.method == "chat.update" and shown.args["ts"] == table.answer["ts"]  # type: ignore[index]
        assert shown.at == refused.at and letters(shown) == letters(refused) and image_of(shown) is None
        assert slack.rate_limited() == []


async def test_a_table_sent_again_without_its_picture_is_paced_like_any_call(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(slack, clock, svc, slack_store, renderer=draw, public_url=PUBLIC_URL) as h:
        slack.image_hosts[PUBLIC_URL] = h.url
        await begin(h)
        await clock.advance(1.0)
        # the workspace's chat.update budget as moji paces it (TIER_3: 10 calls in 13.3 s), all but
        # one call spent by the table's status changes
        [window] = h.adapter.outbox.pacer._windows_for("edit", CHAT)
        for n in range(window.limit - len(window.stamps) - 1):
            await status_edit(h, f"status {n}")
        slack.image_failures = 1
        mark = len(slack.calls)
        await new_cards(h)  # an edit, its picture refused: the budget's last call
        await h.drain()
        [refused] = refusals(h, mark)
        assert refused.method == "chat.update"
        shown = next(c for c in slack.calls[mark:] if c.ok and is_table(c) and c.answer and c.answer["ok"])
        assert letters(shown) == letters(refused) and image_of(shown) is None
        assert shown.at == refused.at, "at once: a fresh post, the chat.update budget being spent"
        # every chat.update Slack answered, the refused one too, inside moji's pacing: never an
        # extra call behind the pacer's back (Slack would answer 429, and moji's budget shrink)
        updates = [c.at for c in slack.of("chat.update")]
        for i, at in enumerate(updates):
            assert len([u for u in updates[i:] if u < at + TIER_3.window]) <= TIER_3.limit, updates
        assert slack.rate_limited() == []
