"""A server's scheduled game on Discord: `/moji schedule`, the role mention, the lobby, Start."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.features.schedule import JOIN_WINDOW
from tests.adapters.discord.conftest import ANN, CHAT, Harness, is_lobby

MESSAGES = r"^/channels/\d+/messages$"
ROLE = "600000000000000009"


async def test_a_scheduled_game_night_pings_its_role_and_starts(h: Harness) -> None:
    iid = await h.fake.slash(*ANN, "schedule", {"when": "daily 20:00 toy"})
    [refused] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert refused.ephemeral and "Only admins" in refused.text

    at = datetime.fromtimestamp(h.clock.now(), UTC).replace(second=0, microsecond=0) + timedelta(minutes=2)
    when = f"daily {at:%H:%M} toy <@&{ROLE}>"
    iid = await h.fake.slash(*ANN, "schedule", {"when": when}, admin=True)
    [saved] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert saved.ephemeral and "#1 scheduled" in saved.text and "<t:" in saved.text
    assert not h.fake.channel_posts()

    await h.advance(at.timestamp() - h.clock.now() + 0.5)
    await h.drain()
    [notice] = await h.fake.wait_for("POST", MESSAGES, lambda r: "Game time" in r.text)
    assert str(notice.json["content"]).startswith(f"<@&{ROLE}>")
    assert [str(r) for r in notice.json["allowed_mentions"]["roles"]] == [ROLE], (
        "the role it names is notified"
    )
    [lobby] = await h.fake.wait_for("POST", MESSAGES, is_lobby)
    assert h.fake.requests.index(notice) < h.fake.requests.index(lobby)
    session = h.manager.sessions[CHAT]
    assert session.host.user_id == ANN[0]

    await h.advance(JOIN_WINDOW)  # nobody pressed Start: the game starts by itself
    await h.fake.until(lambda: session.engine is not None)

    iid = await h.fake.slash(*ANN, "schedule", {"when": "list"})
    [listing] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert f"#1 — daily at {at:%H:%M}: toy in <#{CHAT.channel_id}>" in listing.text
    iid = await h.fake.slash(*ANN, "schedule", {"when": "remove 1"}, admin=True)
    await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$", lambda r: "removed" in r.text)
    assert h.bot.scheduler.next == {}
    assert h.fake.rate_limited() == []


async def test_season_works_on_discord(h: Harness) -> None:
    iid = await h.fake.slash(*ANN, "season")
    [listing] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert listing.ephemeral and "season" in listing.text.lower()
    iid = await h.fake.slash(*ANN, "season", {"which": "reset"})
    [refused] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "Only workspace admins" in refused.text
    iid = await h.fake.slash(*ANN, "season", {"which": "reset"}, admin=True)
    [done] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert done.ephemeral and "2" in done.text, done.text
