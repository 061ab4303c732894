"""Views → Discord message parts; snowflake times; list forms."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from adapters.discord.client import modal_text, snowflake_seconds
from adapters.discord.permissions import (
    INVITE_PERMISSIONS,
    RoleError,
    holds_role,
    missing,
    resolve_role,
    role_id,
)
from adapters.discord.render import PICTURE_NAME, Buttons, render
from bot.core import views
from games.common.protocol import CardFace, SeatLine, Snapshot


def table() -> views.View:
    snap = Snapshot(
        title="moji — flip 3",
        cards=(CardFace("M", "red", 3), CardFace("O", "blue", 1, under=2), CardFace("", "", 0)),
        seats=(
            SeatLine("discord:42", "Ann", 5, "3 cards left", active=True),
            SeatLine("bot:1", "Ada (bot)", 2),
        ),
        lines=("Minimum length: 4",),
        deadline=1_800_000_000.4,
    )
    return views.table(snap, "race", realtime=True)


def test_a_table_message() -> None:
    out = render(table())
    assert out.content == "Cards: M O _"  # standalone capitals for screen readers and search
    assert out.embed is not None and out.picture
    assert out.embed.image.url == f"attachment://{PICTURE_NAME}"
    text = out.embed.description or ""
    assert "**Ann**: 5 — 3 cards left" in text and "▶" in text
    assert "<t:1800000000:R>" in text  # a live countdown in every viewer's own time
    assert "O 1 (+2)" in text
    assert [b.action for b in out.buttons] == [views.SKIP]


def test_turn_mentions_only_in_threads() -> None:
    assert render(table(), mention_active=True).content.startswith("<@42> — your turn")
    assert "<@" not in render(table()).content


def test_errors_and_plain_messages() -> None:
    out = render(views.error("Nope."))
    assert out.embed is not None and (out.embed.description or "").startswith("⚠️ Nope.")
    assert not out.picture and out.content == ""


def test_buttons_keep_stable_ids_and_are_never_stored() -> None:
    view = Buttons(table().buttons)
    assert not view.is_dispatchable()
    assert [c["components"][0]["custom_id"] for c in view.to_components()] == [views.SKIP]


def test_snowflake_time_has_millisecond_precision() -> None:
    # 175928847299117063 is Discord's documented example: 2016-04-30 11:18:25.796 UTC
    assert snowflake_seconds(175928847299117063) == 1462015105.796


def test_modal_text_reads_every_input() -> None:
    data = {"components": [{"type": 1, "components": [{"type": 4, "custom_id": "a", "value": "cat dog"}]}]}
    assert modal_text(data) == "cat dog"
    assert modal_text({"components": [{"type": 18, "component": {"type": 4, "value": "x"}}]}) == "x"


def test_permissions_and_admin_roles() -> None:
    assert missing(INVITE_PERMISSIONS) == []
    assert missing(discord.Permissions(send_messages=True)) == [
        "View Channel",
        "Embed Links",
        "Attach Files",
        "Add Reactions",
        "Read Message History",
    ]
    assert role_id("<@&600000000000000009>") == role_id("600000000000000009") == 600000000000000009
    assert (
        role_id("") is None and role_id("Game Masters") is None and role_id("<@600000000000000009>") is None
    )


def test_an_admin_role_is_one_role_by_id_never_by_name() -> None:
    everyone = SimpleNamespace(id=800000000000000001, name="@everyone")
    masters = SimpleNamespace(id=600000000000000009, name="Game Masters")
    namesake = SimpleNamespace(id=600000000000000077, name="game masters")
    roles: list[Any] = [everyone, masters]
    for typed in ("<@&600000000000000009>", "600000000000000009", "game MASTERS", "@Game Masters"):
        assert resolve_role(typed, roles, everyone.id) is masters
    for typed, reason in [
        ("Game Masters", "2 roles here are called @Game Masters"),
        ("Wizards", "no role @Wizards"),
        ("<@&600000000000000010>", "no role <@&600000000000000010>"),
        ("@everyone", "@everyone can't be the admin role"),
    ]:
        with pytest.raises(RoleError, match=reason):
            resolve_role(typed, [*roles, namesake], everyone.id)
    member: Any = SimpleNamespace(roles=[namesake])
    assert not holds_role(member, masters.id) and not holds_role(member, None)
    assert holds_role(SimpleNamespace(roles=[everyone, masters]), masters.id)  # type: ignore[arg-type]
