"""Render neutral views as Slack Block Kit (pure: no I/O).

Every message carries a plain ``text`` fallback (notifications, screen
readers, search) in which each face-up card is a standalone capital letter,
and table messages also show that letter line as a context block. Card
colours are never the only cue: every colour has its own square emoji and the
letter and points are written out.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from bot.views import ButtonSpec, View
from games.common.protocol import CardFace

Block = dict[str, Any]

#: Slack's limits (https://api.slack.com/reference/block-kit/blocks).
MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_FALLBACK_TEXT = 3900
MAX_HEADER_TEXT = 150

CARD_EMOJI = {"red": "🟥", "blue": "🟦", "yellow": "🟨", "green": "🟩", "": "⬜"}
KIND_ICON = {"error": "✖ ", "private": "🔒 "}


_TOKEN = re.compile(r"(<[@#!][^<>]*>)")


def escape(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` for mrkdwn, keeping Slack's own tokens.

    Mentions and dates the bot writes on purpose (``<@U1>``, ``<#C1>``,
    ``<!subteam^S1>``, ``<!date^…>``) stay live; anything else is shown as typed.
    """
    parts = _TOKEN.split(text)
    return "".join(
        part if index % 2 else part.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        for index, part in enumerate(parts)
    )


def card(face: CardFace) -> str:
    """One card as mrkdwn: ``🟥 *A* 1`` (plus ``+2`` when cards are stacked under it)."""
    under = f" +{face.under}" if face.under else ""
    return f"{CARD_EMOJI.get(face.colour, CARD_EMOJI[''])} *{face.letter or '_'}* {face.points}{under}"


def _user(seat: str) -> str | None:
    """The Slack user id in a seat id (``slack:U123``), else None."""
    platform, _, user = seat.partition(":")
    return user if platform == "slack" and user else None


def mention_text(view: View) -> str:
    """The view's mentions as Slack writes them: ``<@U1>`` for a player, a group's token as is."""
    out = []
    for mention in view.mentions:
        user = _user(mention) if not mention.startswith(("<", "@")) else None
        out.append(f"<@{user}>" if user else mention)
    return " ".join(out)


def turn_text(view: View) -> str:
    """A turn ping: the player's mention (Slack notifies them: it is a new message), the text, and
    the deadline as a date and time each reader's Slack shows in their own time zone."""
    text = " ".join([mention_text(view), *view.lines]).strip()
    if view.deadline is not None:
        when = int(view.deadline)
        fallback = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M UTC")
        text += f"\n⏳ <!date^{when}^{{date_long_pretty}} at {{time}}|{fallback}>"
    return text


def fallback_text(view: View) -> str:
    """The message's plain-text form (Slack's ``text`` field), with the letter line."""
    if view.kind == "turn":
        return turn_text(view)
    text = (KIND_ICON.get(view.kind, "") + view.plain()).strip() or view.kind
    if view.mentions:
        text = f"{mention_text(view)} {text}"
    return text if len(text) <= MAX_FALLBACK_TEXT else text[: MAX_FALLBACK_TEXT - 1] + "…"


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _chunks(lines: list[str], limit: int = MAX_SECTION_TEXT - 100) -> list[str]:
    """Join lines into texts no longer than ``limit`` (a too-long line is cut)."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current:
        out.append(current)
    return out


def _button(spec: ButtonSpec) -> Block:
    button: Block = {
        "type": "button",
        "action_id": spec.action,
        "value": spec.action,
        "text": {"type": "plain_text", "text": spec.label[:75], "emoji": True},
    }
    if spec.style in {"primary", "success"}:
        button["style"] = "primary"
    elif spec.style == "danger":
        button["style"] = "danger"
    return button


def render(view: View) -> list[Block]:
    """The view as Block Kit blocks (at most 50)."""
    if view.kind == "turn":
        return [_section(escape(turn_text(view)))]
    blocks: list[Block] = []
    title = KIND_ICON.get(view.kind, "") + view.title
    if view.title:
        if view.kind in {"lobby", "table", "result", "leaderboard", "help"} and len(title) <= MAX_HEADER_TEXT:
            blocks.append({"type": "header", "text": {"type": "plain_text", "text": title, "emoji": True}})
        else:
            blocks.append(_section(f"*{escape(title)}*"))
    if view.cards:
        blocks.append(_section("   ".join(card(face) for face in view.cards)))
        blocks.append(
            {"type": "context", "elements": [{"type": "plain_text", "text": "Letters: " + view.card_line()}]}
        )
    if view.grid:
        for text in _chunks(list(view.grid), MAX_SECTION_TEXT - 200):
            blocks.append(_section(f"```{escape(text)}```"))
    if view.lines:
        prefix = KIND_ICON.get(view.kind, "") if not view.title else ""
        lines = [escape(line) for line in view.lines]
        if view.mentions:
            lines[0] = f"{escape(mention_text(view))} {lines[0]}"
        if prefix:
            lines[0] = prefix + lines[0]
        lines = [line if line.strip() else " " for line in lines]
        while lines and not lines[-1].strip():
            lines.pop()
        blocks.extend(_section(text) for text in _chunks(lines) if text.strip())
    if view.seats:
        cells = []
        for seat in view.seats:
            mark = "▶ " if seat.active else ""
            detail = f" ({escape(seat.detail)})" if seat.detail else ""
            cells.append(f"{mark}*{escape(seat.name)}*: {seat.score}{detail}")
        blocks.extend(_section(text) for text in _chunks([" · ".join(cells)]))
    if view.deadline is not None and view.kind == "table":
        when = int(view.deadline)
        fallback = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        date_token = f"<!date^{when}^{{date_short_pretty}} at {{time_secs}}|{fallback}>"
        blocks.append(
            {
                "type": "context",
                "elements": [
                    {
                        "type": "mrkdwn",
                        # with its date: a turn-based game's 72-hour turn ends on another day
                        "text": f"⏳ Time is up {date_token}",
                    }
                ],
            }
        )
    if view.buttons:
        blocks.append(
            {"type": "actions", "block_id": "moji:actions", "elements": [_button(b) for b in view.buttons]}
        )
    if len(blocks) > MAX_BLOCKS:
        blocks = [*blocks[: MAX_BLOCKS - 1], _section("…")]
    return blocks
