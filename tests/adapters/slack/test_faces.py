"""Race tables on Slack without a public address: every card a picture, each face uploaded once
per workspace and named by the table's image elements (``slack_file``), checked against the fake's
strict file rules (a private or unprocessed file is refused, as Slack refuses it).

A lively race — six people, each typing a word every 2–4 s, about half of them wrong — in HTTP
mode without ``PUBLIC_URL`` and in Socket Mode: from the first race on, nearly every table state
carries its cards' pictures; the next race in the workspace carries them on every table, at no
upload and within the call budget; and never a 429.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack import card_pictures
from adapters.slack.face_uploads import BATCH
from adapters.slack.faces import PROCESSING
from adapters.slack.store import MemorySlackStore
from bot.core.clock import FakeClock
from bot.core.registry import Registry
from tests.adapters.slack.conftest import CHAT, Harness, running
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import Call, FakeSlack
from tests.adapters.slack.test_game import is_table
from tests.adapters.slack.test_pictures import faces_of
from tests.waiting import eventually

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

PUBLIC_URL = "https://moji.example.com"
PEOPLE = ("UANN", "UBOB", "UCAT", "UDAN", "UEVE", "UADA")
UPLOADS = ("files.getUploadURLExternal", "upload", "files.completeUploadExternal")
#: How moji is reachable: HTTP without a public address, and Socket Mode (its PUBLIC_URL, for the
#: web companion, is no address Slack can fetch pictures from).
SETTINGS: dict[str, dict[str, Any]] = {
    "http": {},
    "socket-mode": {"app_token": "xapp-1-test", "public_url": PUBLIC_URL},
}


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


def cards_of(call: Call) -> list[str]:
    """The cards a table message shows (its plain-text ``Cards: A B C`` line)."""
    text = str(call.args.get("text"))
    return text.split("Cards: ", 1)[1].split("\n", 1)[0].split() if "Cards: " in text else []


def tables(h: Harness, since: int = 0) -> list[Call]:
    """Every table message with cards on it that Slack took (posted or edited), in order."""
    return [
        c
        for c in h.slack.calls[since:]
        if c.method in ("chat.postMessage", "chat.update")
        and c.ok
        and c.answer
        and c.answer["ok"]
        and is_table(c)
        and "Cards: " in str(c.args.get("text"))
    ]


def refused(h: Harness) -> list[Call]:
    return [c for c in h.slack.calls if c.answer and c.answer.get("error") == "invalid_blocks"]


@dataclass
class Played:
    """What one race cost and showed."""

    tables: list[Call]
    calls: list[Call]
    accepted: int

    @property
    def coverage(self) -> float:
        """The share of table states every card of which is a picture."""
        return sum(1 for c in self.tables if len(faces_of(c)) == len(cards_of(c))) / len(self.tables)

    @property
    def cards_pictured(self) -> float:
        """The share of cards shown (over every table state) that were pictures."""
        return sum(len(faces_of(c)) for c in self.tables) / sum(len(cards_of(c)) for c in self.tables)

    @property
    def per_answer(self) -> float:
        return len(self.calls) / self.accepted

    def uploads(self) -> int:
        return len([c for c in self.calls if c.method in UPLOADS])


async def step(h: Harness, seconds: float) -> None:
    """Move the clock on; then let what it set off (calls, pictures drawn) finish."""
    await h.clock.advance(seconds)
    faces = h.adapter.transport.pictures.faces
    session = h.adapter.runtime.manager.sessions.get(CHAT)
    await eventually(
        lambda: (
            h.slack.inflight == 0 and faces.drawing == 0 and (session is None or not session._lock.locked())
        ),
        "the game idle",
    )
    await h.clock.settle()


async def lively_race(h: Harness, seed: int, *, lobby: float = 0.0) -> Played:
    """Six people race (``lobby``: seconds between the lobby and the start); returns what it cost
    from its first table to its result."""
    rng = random.Random(seed)
    h.adapter.runtime.manager.rng = random.Random(seed)
    for uid in PEOPLE:
        h.slack.names.setdefault(uid, uid[1:].title())
    await h.command("UANN", "start race cards=6")
    await h.slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")), count=1)
    for uid in PEOPLE[1:]:
        await h.command(uid, "join")
    waited = 0.0
    while waited < lobby:
        await step(h, 0.25)
        waited += 0.25
    await step(h, 1.0)
    await h.command("UANN", "go")
    session = h.adapter.runtime.manager.sessions[CHAT]
    while session.engine is None:
        await step(h, 0.1)
    first = len(h.slack.calls)
    start = h.clock.now()
    due = {uid: start + rng.uniform(2, 4) for uid in PEOPLE}
    typed: list[str] = []
    while CHAT in h.adapter.runtime.manager.sessions and h.clock.now() - start < 600:
        for uid, at in due.items():
            if at <= h.clock.now():
                word = session.engine._example() if rng.random() < 0.5 else None  # type: ignore[union-attr]
                typed.append(
                    await h.say(uid, word or "".join(rng.choice(string.ascii_lowercase) for _ in range(5)))
                )
                due[uid] = h.clock.now() + rng.uniform(2, 4)
        await step(h, 0.1)
    assert CHAT not in h.adapter.runtime.manager.sessions, "the race should end well within ten minutes"
    await h.drain()
    await step(h, 1.0)
    shown = tables(h, first)
    first = h.slack.calls.index(shown[0])
    marks = {
        c.args["timestamp"]
        for c in h.slack.of("reactions.add")
        if c.ok and c.args["name"] == "white_check_mark"
    }
    accepted = len(marks & set(typed))
    assert accepted >= 5, accepted
    return Played(shown, h.slack.calls[first:], accepted)


@pytest.fixture(params=sorted(SETTINGS))
async def hf(
    request: pytest.FixtureRequest,
    slack: FakeSlack,
    clock: FakeClock,
    svc: FakeServices,
    slack_store: MemorySlackStore,
) -> AsyncIterator[Harness]:
    """The adapter with the shared Pillow renderer, no address Slack can fetch pictures from."""
    renderer = card_pictures()
    assert renderer is not None
    async with running(slack, clock, svc, slack_store, renderer=renderer, **SETTINGS[request.param]) as h:
        assert h.adapter.transport.pictures.base_url == ""
        yield h


async def test_a_lively_race_shows_its_cards_as_pictures_uploaded_once(hf: Harness) -> None:
    h = hf
    assert h.slack.strict_files, "Slack's rules: a private or unprocessed file is refused"
    lobby = h.clock.now()
    cold = await lively_race(h, seed=11)
    # The workspace's first race, started at once: the faces on the table are uploaded first, the
    # rest of the deck after them; a card waiting for its face is shown as emoji meanwhile.
    assert cold.cards_pictured >= 0.4, cold.cards_pictured
    faces = h.adapter.transport.pictures.faces
    space = faces.workspaces[CHAT.workspace_id]
    while space.wanted or space.uploads:  # the rest of the deck
        await step(h, 1.0)
    assert h.clock.now() - lobby <= 90, "the deck within a minute and a half of the first lobby"
    await step(h, PROCESSING)
    deck = len(race.faces({}))
    assert len(h.slack.of("files.getUploadURLExternal")) == deck  # each face once
    completions = h.slack.of("files.completeUploadExternal")
    assert all(c.args["thread_ts"] == completions[0].args["thread_ts"] for c in completions)
    assert all(len(json.loads(c.args["files"])) <= BATCH for c in completions)
    assert len([c for c in h.slack.of("chat.postMessage") if "pictures of its cards" in c.text()]) == 1

    warm = await lively_race(h, seed=12)
    # The next race: every table has all its pictures, at no upload and within the call budget.
    assert warm.coverage == 1.0, warm.coverage
    assert warm.uploads() == 0
    assert warm.per_answer <= 3.0, (len(warm.calls), warm.accepted)
    assert h.slack.rate_limited() == []
    assert refused(h) == []
    assert h.adapter.runtime.manager.errors == []
