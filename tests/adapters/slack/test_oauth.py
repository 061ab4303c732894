"""Multi-workspace distribution: the OAuth install flow and the installation store."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest

pytest.importorskip("slack_bolt")

from slack_sdk.oauth.installation_store.models.installation import Installation

from adapters.slack.installations import DatabaseInstallationStore, SignedStateStore
from adapters.slack.store import MemorySlackStore
from bot.clock import FakeClock
from tests.adapters.slack.conftest import running, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import FakeSlack

# slack-sdk's OAuth exchange still uses aiohttp.BasicAuth (deprecated in aiohttp 3.13+).
pytestmark = pytest.mark.filterwarnings("ignore:BasicAuth is deprecated:DeprecationWarning")

OAUTH = {"bot_token": "", "client_id": "111.222", "client_secret": "shh", "state_secret": "state-key"}


async def test_install_then_play_in_the_new_workspace(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(slack, clock, svc, slack_store, **OAUTH) as h:
        async with h.http.get(h.url + "/slack/install", allow_redirects=False) as resp:
            page = await resp.text()
            cookie = resp.headers.get("Set-Cookie", "")
        assert resp.status in {200, 302}
        link = page + resp.headers.get("Location", "")
        assert "client_id=111.222" in link
        found = re.search(r"state=([^&\"']+)", link)
        assert found is not None
        state = unquote(found.group(1))
        cookie_value = cookie.split(";", 1)[0]
        async with h.http.get(
            h.url + "/slack/oauth_redirect",
            params={"code": "the-code", "state": state},
            headers={"Cookie": cookie_value},
        ) as resp:
            assert resp.status == 200, await resp.text()
        [exchange] = slack.of("oauth.v2.access")
        assert exchange.args["code"] == "the-code"
        bot = await h.adapter.installations.async_find_bot(enterprise_id=None, team_id="T2")
        assert bot is not None and bot.bot_token == "xoxb-team-two"

        assert await h.command("U21", "start toy", channel="C2", team="T2") == 200
        [lobby] = await slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")))
        assert lobby.token == "xoxb-team-two" and lobby.args["channel"] == "C2"

        # Uninstalling forgets the workspace's tokens.
        await h.event({"type": "app_uninstalled"}, team="T2")
        await until(lambda: not slack_store.installations)
        assert "T2" not in h.adapter._clients
        # ...and schedules the deletion of its data after the grace period (docs/PRIVACY.md);
        # installing again cancels it
        await until(lambda: ("slack", "T2") in svc.store.deletions)
        await h.adapter.installations.on_install("T2")  # type: ignore[misc]
        assert ("slack", "T2") not in svc.store.deletions


async def test_a_forged_state_is_refused(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(slack, clock, svc, slack_store, **OAUTH) as h:
        async with h.http.get(
            h.url + "/slack/oauth_redirect",
            params={"code": "c", "state": "x.1.forged"},
            headers={"Cookie": "slack-app-oauth-state=x.1.forged"},
        ) as resp:
            assert resp.status >= 400
        assert slack.of("oauth.v2.access") == []


async def test_signed_state_expires() -> None:
    clock = FakeClock(1000.0)
    store = SignedStateStore("key", clock, expires_in=60)
    state = await store.async_issue()
    assert await store.async_consume(state)
    assert not await store.async_consume(state.replace(".", "x", 1))
    assert not await SignedStateStore("other", clock).async_consume(state)
    await clock.advance(61)
    assert not await store.async_consume(state)


async def test_installation_round_trip() -> None:
    store = DatabaseInstallationStore(MemorySlackStore())
    installation = Installation(
        app_id="A1",
        enterprise_id=None,
        team_id="T5",
        team_name="Five",
        bot_token="xoxb-5",
        bot_id="B5",
        bot_user_id="U5",
        bot_scopes="chat:write,commands",
        user_id="U1",
        installed_at=1_700_000_000.0,
    )
    await store.async_save(installation)
    found = await store.async_find_installation(enterprise_id=None, team_id="T5")
    assert found is not None and found.bot_token == "xoxb-5" and found.user_id == "U1"
    assert (await store.async_find_installation(enterprise_id=None, team_id="T5", user_id="U1")) is not None
    bot = await store.async_find_bot(enterprise_id=None, team_id="T5")
    assert bot is not None and bot.bot_scopes == ["chat:write", "commands"]
    await store.async_delete_installation(enterprise_id=None, team_id="T5")
    assert await store.async_find_bot(enterprise_id=None, team_id="T5") is None
