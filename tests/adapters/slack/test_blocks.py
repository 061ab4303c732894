"""Block Kit rendering, the App Home tab and the slash-command text."""

from __future__ import annotations

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.app import typed_text
from adapters.slack.blocks import (
    MAX_BLOCKS,
    MAX_CONTEXT_ELEMENTS,
    escape,
    face_alt,
    fallback_text,
    picture_row,
    render,
)
from adapters.slack.commands import parse_slash
from adapters.slack.home import home_view
from adapters.slack.store import Schedule
from bot.core import views
from bot.core.commands import CommandError
from games.common.protocol import CardFace, SeatLine
from tests.adapters.slack.conftest import Harness

TABLE = views.View(
    kind="table",
    title="moji — round 2",
    cards=(CardFace("A", "red", 1), CardFace("Q", "blue", 10, under=2), CardFace("", "", 0)),
    seats=(SeatLine("s:1", "Ann <3", 4, "12 cards left", active=True), SeatLine("bot:1", "Ada (bot)", 2)),
    lines=("Challenge: no plurals", "", "Tip: 3 & more"),
    deadline=1_700_000_060.4,
    buttons=(views.ButtonSpec(views.SKIP, "Stuck? Skip"),),
    game="race",
)


def test_table_has_cards_letter_line_and_buttons() -> None:
    blocks = render(TABLE)
    assert blocks[0] == {
        "type": "header",
        "text": {"type": "plain_text", "text": "moji — round 2", "emoji": True},
    }
    cards = blocks[1]["text"]["text"]
    assert "🟥 *A* 1" in cards and "🟦 *Q* 10 +2" in cards and "⬜ *_* 0" in cards
    assert blocks[2]["elements"][0]["text"] == "Letters: A Q _"
    text = str(blocks)
    assert "Ann &lt;3" in text and "3 &amp; more" in text and "▶ *Ann &lt;3*: 4 (12 cards left)" in text
    # with its date: a turn-based game's turn may end days later
    assert "<!date^1700000060^{date_short_pretty} at {time_secs}|2023-11-14 22:14:20 UTC>" in text
    actions = blocks[-1]
    assert actions["type"] == "actions"
    assert actions["elements"][0]["action_id"] == "moji:skip"
    assert "style" not in actions["elements"][0]
    # the plain-text fallback: every face-up letter is a standalone capital
    assert "Cards: A Q _" in fallback_text(TABLE)


def test_a_table_with_its_cards_pictures_shows_them_instead_of_emoji() -> None:
    blocks = render(TABLE, card_files=("F1", "F2", None))
    row = blocks[1]
    assert row["type"] == "context" and blocks[2]["elements"][0]["text"] == "Letters: A Q _"
    assert row["elements"] == [
        {"type": "image", "slack_file": {"id": "F1"}, "alt_text": "Red card A, 1 point"},
        {"type": "image", "slack_file": {"id": "F2"}, "alt_text": "Blue card Q, 10 points"},
        {"type": "mrkdwn", "text": "+2"},  # (two cards stacked under the Q)
        {"type": "mrkdwn", "text": "⬜ *_* 0"},  # no picture yet: the card as text, in its place
    ]
    assert "🟥" not in str(blocks)
    assert render(TABLE, card_files=None) == render(TABLE)


def test_a_row_of_pictures_keeps_within_slacks_ten_elements_a_context_block() -> None:
    cards = tuple(CardFace(letter, "green", 1, under=1 if letter in "CF" else 0) for letter in "ABCDEFGHIJKL")
    rows = picture_row(cards, tuple(f"F{i}" for i in range(len(cards))))
    assert all(len(row["elements"]) <= MAX_CONTEXT_ELEMENTS for row in rows)
    images = [e for row in rows for e in row["elements"] if e["type"] == "image"]
    assert [e["slack_file"]["id"] for e in images] == [f"F{i}" for i in range(12)]
    for row in rows:  # a card's "+N" stays next to its picture
        assert row["elements"][0]["type"] == "image"
    assert face_alt(CardFace("", "", 0)) == "Card _, 0 points"
    assert face_alt(CardFace("E", "yellow", 1)) == "Yellow card E, 1 point"


def test_lobby_buttons_keep_stable_ids_and_styles() -> None:
    lobby = views.View(
        kind="lobby",
        title="Race — lobby",
        buttons=(
            views.ButtonSpec(views.JOIN, "Join", "primary"),
            views.ButtonSpec(views.GO, "Start", "success"),
            views.ButtonSpec("moji:vote:no", "No", "danger"),
        ),
    )
    elements = render(lobby)[-1]["elements"]
    assert [(e["action_id"], e.get("style")) for e in elements] == [
        ("moji:join", "primary"),
        ("moji:go", "primary"),
        ("moji:vote:no", "danger"),
    ]


def test_long_views_respect_slack_limits() -> None:
    huge = views.View(kind="help", title="x" * 400, lines=tuple(f"line {i} " + "y" * 200 for i in range(800)))
    blocks = render(huge)
    assert len(blocks) <= MAX_BLOCKS
    assert blocks[0]["type"] == "section"  # too long for a header
    assert all(len(b["text"]["text"]) <= 3000 for b in blocks if b["type"] == "section")
    assert len(fallback_text(huge)) < 4000


def test_escape_keeps_slack_tokens_live() -> None:
    assert escape("a < b & <@U1> <#C1> <!subteam^S1|@x> <script>") == (
        "a &lt; b &amp; <@U1> <#C1> <!subteam^S1|@x> &lt;script&gt;"
    )


def test_errors_and_private_views_are_marked() -> None:
    assert fallback_text(views.error("Nope.")) == "✖ Nope."
    assert render(views.error("Nope."))[0]["text"]["text"] == "✖ Nope."


def test_home_view_shows_next_break_and_leaderboard() -> None:
    board = views.View(kind="leaderboard", title="🏆 Leaderboard", lines=("1. Ann — 9 pts",))
    schedule = Schedule(3, "T1", "C7", (0, 1, 2, 3, 4), "15:00", ("race", "bots=1"))
    home = home_view(board, (schedule, 1_800_000_000.0))
    text = str(home["blocks"])
    assert home["type"] == "home"
    assert "weekdays at 15:00: race bots=1 in <#C7>" in text and "<!date^1800000000^" in text
    assert "1. Ann — 9 pts" in text
    assert "none scheduled" in str(home_view(board, None)["blocks"])


def test_parse_slash() -> None:
    assert parse_slash("start race bots=2 cards=5 min=4") == ("start", ("race", "bots=2", "cards=5", "min=4"))
    assert parse_slash("") == ("help", ())
    assert parse_slash("schedule weekdays 15:00 race") == ("schedule", ("weekdays", "15:00", "race"))
    assert parse_slash("lb week") == ("leaderboard", ("week",))
    assert parse_slash("stats <@U1|ann>") == ("stats", ("<@U1|ann>",))
    with pytest.raises(CommandError):
        parse_slash("dance")


async def test_app_home_tab_is_published(h: Harness) -> None:
    await h.command("UADMIN", "schedule weekdays 15:00 toy")
    await h.slack.wait_for("chat.postEphemeral")
    assert await h.event({"type": "app_home_opened", "user": "UANN", "tab": "home", "channel": "D1"}) == 200
    [published] = await h.slack.wait_for("views.publish")
    assert published.args["user_id"] == "UANN"
    text = str(published.args["view"])
    assert "Leaderboard" in text and "weekdays at 15:00: toy in <#C1>" in text


def test_typed_text_drops_slack_escapes_and_marks() -> None:
    assert typed_text("  *Cat*  ") == "Cat"
    assert typed_text("_rock &amp; roll_") == "rock & roll"
    assert typed_text("`x&lt;y`") == "x<y"
