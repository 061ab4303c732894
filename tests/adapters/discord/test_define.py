"""``/moji define``: the meaning as an ephemeral reply, never in the channel."""

from __future__ import annotations

from tests.adapters.discord.conftest import ANN, BOB, Harness
from tests.adapters.discord.test_privacy import public


async def test_define_answers_only_the_asker(h: Harness) -> None:
    iid = await h.fake.slash(*ANN, "define", {"word": "zebra"})
    [reply] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert reply.ephemeral
    assert (
        "ZEBRA" in reply.text and "any of several fleet black-and-white striped African equines" in reply.text
    )
    assert not [text for text in public(h) if "equines" in text]


async def test_define_takes_a_language_and_refuses_two_words(h: Harness) -> None:
    iid = await h.fake.slash(*BOB, "define", {"word": "Zucker", "language": "de"})
    [reply] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert reply.ephemeral and "ZUCKER (German)" in reply.text and "sugar" in reply.text
    iid = await h.fake.slash(*BOB, "define", {"word": "big cat"})
    [refused] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert refused.ephemeral and "one word at a time" in refused.text
    assert not [text for text in public(h) if "sugar" in text or "one word" in text]
