"""A whole game on Discord: lobby buttons, answers, edits, reasons, the result and the leaderboard."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.delivery.delivery import EDIT_SETTLE
from bot.delivery.tables import MISS_QUIET
from tests.adapters.discord.conftest import (
    ANN,
    BOB,
    CAT,
    CHAT,
    Harness,
    answer,
    is_lobby,
    is_table,
    mark_of,
)
from tests.adapters.discord.fakediscord import GUILD_ID

MESSAGES = r"^/channels/\d+/messages$"


async def open_lobby(h: Harness, *options: tuple[str, object]) -> str:
    await h.fake.slash(*ANN, "start", {"game": "toy", **dict(options)})
    [lobby] = await h.fake.wait_for("POST", MESSAGES, is_lobby)
    return str(h.fake.requests[h.fake.requests.index(lobby)].json and _id_of(h, lobby))


def _id_of(h: Harness, request: object) -> str:
    # the fake answers each POST with a new message; find the one whose content matches
    for mid, message in h.fake.messages.items():
        if message.get("embeds") == getattr(request, "json", {}).get("embeds"):
            return mid
    raise AssertionError("message not found")


async def test_lobby_buttons_join_leave_start(h: Harness) -> None:
    lobby = await open_lobby(h)
    iid = await h.fake.press(*BOB, "moji:join", lobby)
    await h.fake.wait_for("PATCH", rf"/messages/{lobby}$", lambda r: "Bob" in r.text)
    [callback] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert callback.json["type"] == 6  # deferred update: the press is acknowledged at once
    [joined] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert joined.ephemeral and "Bob joined" in joined.text

    iid = await h.fake.press(*CAT, "moji:go", lobby)
    [refused] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert refused.ephemeral and "Only the host" in refused.text

    iid = await h.fake.press(*BOB, "moji:leave", lobby)
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 1)
    await h.advance(EDIT_SETTLE)  # a lobby edited again soon after waits: a burst of joins is one edit
    await h.fake.wait_for("PATCH", rf"/messages/{lobby}$", lambda r: "Bob" not in r.text)

    await h.fake.press(*ANN, "moji:go", lobby)
    await h.fake.wait_for("POST", MESSAGES, is_table)
    await h.drain()
    closed = h.fake.of("PATCH", rf"/messages/{lobby}$")[-1]
    assert closed.json.get("components") == []  # the lobby's buttons are gone once the game starts


async def test_whole_game_to_leaderboard(h: Harness) -> None:
    await open_lobby(h)
    await h.fake.slash(*BOB, "join")
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*ANN, "go")
    [table] = await h.fake.wait_for("POST", MESSAGES, is_table)
    assert table.files[0].startswith(b"\x89PNG")
    session = h.manager.sessions[CHAT]
    letter = session.engine.letter
    content = table.json["content"]
    assert f"Cards: {letter.upper()}" in content  # the face-up letter stands alone, as a capital

    wrong = "q" if letter != "q" else "x"
    mid = await answer(h, BOB, wrong * 3)
    assert mark_of(h, mid) == [], "refusals are listed in the table, not marked, by default"
    assert not h.fake.of("POST", rf"/messages/{mid}"), "no reply in the channel"
    await h.advance(MISS_QUIET)  # nothing else happened: the table shows the refusal on its own
    await h.fake.wait_for(
        "PATCH", r"^/channels/\d+/messages/\d+$", lambda r: f"Bob: {wrong.upper() * 3}" in r.text
    )

    mid = await answer(h, ANN, letter + "ab")
    assert mark_of(h, mid) == ["✅"]
    letter = session.engine.letter
    mid = await answer(h, ANN, letter + "ab")
    assert mark_of(h, mid) == ["✅"]
    await h.posted(lambda r: "game over" in r.text)
    await h.fake.until(lambda: CHAT not in h.manager.sessions)

    iid = await h.fake.slash(*BOB, "leaderboard", {"game": "toy", "period": "all"})
    [board] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert board.ephemeral and "Leaderboard" in board.text and "Ann" in board.text
    rows = await h.svc.store.leaderboard("discord", GUILD_ID, "toy", "all", datetime.now(UTC), 10)
    assert [(r.display_name, r.points) for r in rows][:1] == [("Ann", 2)]


async def test_chatter_edits_and_non_players_are_ignored(h: Harness) -> None:
    await open_lobby(h)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    session = h.manager.sessions[CHAT]
    letter = session.engine.letter
    await h.fake.say(*ANN, f"hello everyone, {letter} is hard")  # chatter: not one word
    await h.fake.say(*CAT, letter + "zz")  # not playing
    mid = await h.fake.say(*ANN, "q")  # then edited into a winning word: edits never count
    await h.fake.edit(mid, letter + "ok")
    marker = await answer(h, ANN, letter + "yy")
    assert mark_of(h, marker) == ["✅"]
    assert mark_of(h, mid) == ["❌"] or mark_of(h, mid) == []
    [claims] = [a for a in await _actions(h) if a.kind == "claims"][:1]
    texts = {c.text for c in claims.claims}
    assert letter + "ok" not in texts and letter + "zz" not in texts


async def _actions(h: Harness) -> list:  # type: ignore[type-arg]
    from bot.sessions.gamelog import load_unfinished

    [(_, actions)] = await load_unfinished(h.svc.store)
    return actions


async def test_reasons_setting_explains_refusals(h: Harness) -> None:
    iid = await h.fake.slash(*ANN, "config", {"key": "reasons", "value": "on"}, admin=True)
    [done] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "reasons is now on" in done.text
    await open_lobby(h)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    letter = h.manager.sessions[CHAT].engine.letter
    wrong = "q" if letter != "q" else "x"
    mid = await answer(h, ANN, wrong * 3)
    assert mark_of(h, mid) == ["❌"]
    await answer(h, ANN, wrong * 4)  # one mark per player and table: the rest are listed
    assert len(h.fake.of("PUT", r"/reactions/")) == 1
    await h.advance(MISS_QUIET)
    [table] = await h.fake.wait_for("PATCH", r"^/channels/\d+/messages/\d+$", lambda r: "Not taken" in r.text)
    assert f"has no {letter.upper()}" in table.text and wrong.upper() * 4 in table.text
    iid = await h.fake.slash(*ANN, "why")
    [private] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert private.ephemeral and f"has no {letter.upper()}" in private.text


async def test_stats_for_a_member_and_votes_by_reaction(h: Harness) -> None:
    await open_lobby(h)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    letter = h.manager.sessions[CHAT].engine.letter
    mid = await answer(h, ANN, letter + "ab")
    await h.fake.react(*ANN, mid, "👍")
    await h.fake.until(lambda: h.manager.sessions[CHAT].journal.seq >= 3)
    actions = await _actions(h)
    assert [(a.kind, a.text) for a in actions if a.kind == "vote"] == [("vote", "yes")]
    await h.fake.slash(*ANN, "stop")
    await h.fake.until(lambda: CHAT not in h.manager.sessions)

    iid = await h.fake.slash(*BOB, "stats", {"member": ANN})
    [stats] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert stats.ephemeral and "hasn't finished a game here yet" in stats.text
    assert f"<@{ANN[0]}>" in stats.text


async def test_a_lobby_reopens_after_a_restart_and_its_buttons_work(h: Harness) -> None:
    lobby = await open_lobby(h)
    h2 = await h.restart()
    try:
        iid = await h2.fake.press(*BOB, "moji:join", lobby)
        [reply] = await h2.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
        assert reply.ephemeral and "joined" in reply.text
    finally:
        await h2.stop()
