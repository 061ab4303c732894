"""Multi-workspace distribution: the OAuth install flow and the installation store."""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote

import pytest

pytest.importorskip("slack_bolt")

from slack_sdk.oauth.installation_store.models.installation import Installation

from adapters.slack.installations import DatabaseInstallationStore, SignedStateStore
from adapters.slack.store import MemorySlackStore
from bot.core.clock import FakeClock
from tests.adapters.slack.conftest import Harness, running, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import FakeSlack
from tests.adapters.slack.test_security import through_the_server

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
    store = SignedStateStore("key", clock, MemorySlackStore(), expires_in=60)
    state = await store.async_issue()
    assert not await store.async_consume(state.replace(".", "x", 1))
    assert not await SignedStateStore("other", clock, MemorySlackStore()).async_consume(state)
    assert not await store.async_consume(state + "\u00e9")  # (not even an exception)
    await clock.advance(61)
    assert not await store.async_consume(state)


async def test_a_state_is_accepted_once_by_every_process_sharing_the_database() -> None:
    clock = FakeClock(1000.0)
    shared = MemorySlackStore()
    one, other = SignedStateStore("key", clock, shared), SignedStateStore("key", clock, shared)
    state = await one.async_issue()
    assert await other.async_consume(state)
    assert not await one.async_consume(state)
    assert not await other.async_consume(state)
    assert await one.async_consume(await other.async_issue())


async def install(h: Harness) -> tuple[str, str]:
    """Open the install page: the state in Slack's authorize link and the browser's cookie."""
    async with h.http.get(h.url + "/slack/install", allow_redirects=False) as resp:
        page = await resp.text()
        cookie = resp.headers.get("Set-Cookie", "")
    found = re.search(r"state=([^&\"']+)", page + resp.headers.get("Location", ""))
    assert found is not None
    return unquote(found.group(1)), cookie.split(";", 1)[0]


async def redirect(h: Harness, code: str, state: str, cookie: str) -> int:
    """Slack sends the browser back with the one-time ``code`` and the ``state``."""
    async with h.http.get(
        h.url + "/slack/oauth_redirect", params={"code": code, "state": state}, headers={"Cookie": cookie}
    ) as resp:
        await resp.read()
        return resp.status


async def test_a_used_state_is_refused_and_the_log_never_shows_code_or_state(
    slack: FakeSlack,
    clock: FakeClock,
    svc: FakeServices,
    slack_store: MemorySlackStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    async with running(slack, clock, svc, slack_store, **OAUTH) as h, through_the_server(h):
        state, cookie = await install(h)
        assert await redirect(h, "secret-code-1", state, cookie) == 200
        # the same redirect again (a replay, or a second tab): refused before Slack is asked
        assert await redirect(h, "secret-code-2", state, cookie) == 401
        assert [c.args["code"] for c in slack.of("oauth.v2.access")] == ["secret-code-1"]
        # a failed exchange is logged by Bolt with its code: the code is not
        slack.fail["oauth.v2.access"] = [(200, {}, {"ok": False, "error": "invalid_code"})]
        state, cookie = await install(h)
        assert await redirect(h, "secret-code-3", state, cookie) == 401
        await until(lambda: any("/oauth_redirect" in r.getMessage() for r in caplog.records[-3:]))
    # (at DEBUG, slack-sdk and Bolt show request and response bodies: see SECURITY.md)
    logged = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
    assert 'GET /slack/oauth_redirect?code=…&state=… HTTP/1.1" 200' in logged
    assert 'GET /slack/oauth_redirect?code=…&state=… HTTP/1.1" 401' in logged
    assert "oauth.v2.access result with code: …" in logged
    for secret in ("secret-code-1", "secret-code-2", "secret-code-3", state, state.split(".")[0]):
        assert secret not in logged


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


async def test_inbound_events_reuse_a_cached_authorization(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    """Bolt's installation-store authorizer calls auth.test per inbound event unless its cache is
    on; auth.test has limits of its own (the fake's: 200 a minute per workspace). One check per
    token, whatever the traffic."""
    async with running(slack, clock, svc, slack_store, **OAUTH) as h:
        installed = Installation(
            app_id="A1",
            team_id="T2",
            bot_token="xoxb-team-two",
            bot_id="B2",
            bot_user_id="UBOT2",
            user_id="U9",
        )
        await h.adapter.installations.async_save(installed)
        for n in range(60):  # Bolt authorizes each request before its listener acknowledges it
            event = {
                "type": "message",
                "channel": "C2",
                "user": "U21",
                "text": "hi",
                "ts": f"1795445940.{n:06d}",
            }
            assert await h.event(event, team="T2") == 200
        checks = slack.of("auth.test")
        assert [c.token for c in checks] == ["xoxb-team-two"] and slack.rate_limited() == []
