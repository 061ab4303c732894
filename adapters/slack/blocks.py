"""Render neutral views as Slack Block Kit (pure: no I/O).

Every message carries a plain ``text`` fallback (notifications, screen
readers, search) in which each face-up card is a standalone capital letter,
and table messages also show that letter line as a context block. Card
colours are never the only cue: every colour has its own square emoji and the
letter and points are written out. A table whose cards have pictures on Slack
(:mod:`adapters.slack.faces`) shows them as a row of image elements instead of
the emoji line, each with its card in words as alt text (:func:`face_alt`); a
card whose picture is not there yet keeps its emoji text in that row.

What people typed (marked as user text in the view, see :mod:`games.common.text`) is escaped by
:func:`escape_user`, in the blocks and in the ``text`` fallback alike: ``&``, ``<`` and ``>``
become entities (so no ``<!channel>``, ``<@U1>`` or ``<https://x|login>`` token can form), a
zero-width space goes on each side of ``*``, ``_``, ``~`` and backticks (Slack has no escape for
formatting; a marker next to a zero-width space neither opens nor closes), before a leading
``>`` (no quote at a line's start) and into ``://``; and every mrkdwn text object is ``verbatim``, so Slack
never turns a bare URL, ``@channel`` or ``#channel`` into a link or mention by itself. moji's own
text keeps its tokens (mentions, dates, channels) and formatting.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from bot.core.views import ButtonSpec, View
from games.common.protocol import CardFace
from games.common.speech import _, _n, speaking
from games.common.text import plain, spans, tidy

Block = dict[str, Any]

#: Slack's limits (https://api.slack.com/reference/block-kit/blocks).
MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_FALLBACK_TEXT = 3900
MAX_HEADER_TEXT = 150
#: Elements in one context block (https://docs.slack.dev/reference/block-kit/blocks/context-block).
MAX_CONTEXT_ELEMENTS = 10

CARD_EMOJI = {"red": "🟥", "blue": "🟦", "yellow": "🟨", "green": "🟩", "": "⬜"}
KIND_ICON = {"error": "✖ ", "private": "🔒 "}


_TOKEN = re.compile(r"(<[@#!][^<>]*>)")


#: A zero-width space: next to a formatting character in user text it keeps it from formatting.
ZWSP = "\u200b"
_FORMATTING = re.compile(r"([*_~`])")


def _entities(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_user(text: str) -> str:
    """Text a person typed, shown as typed in mrkdwn (see the module's docstring)."""
    escaped = _entities(tidy(text)).replace("://", ":" + ZWSP + "//")
    if escaped.lstrip(" ").startswith("&gt;"):  # (user text is one line: only its start can quote)
        escaped = ZWSP + escaped
    return _FORMATTING.sub(ZWSP + r"\1" + ZWSP, escaped)


def _escape_own(text: str) -> str:
    """moji's own text for mrkdwn: ``&``, ``<`` and ``>`` escaped except in the tokens moji writes
    on purpose (``<@U1>``, ``<#C1>``, ``<!subteam^S1>``, ``<!date^…>``), which stay live."""
    parts = _TOKEN.split(text)
    return "".join(part if index % 2 else _entities(part) for index, part in enumerate(parts))


def escape(text: str) -> str:
    """moji's text as mrkdwn: its own parts with their tokens, user parts escaped."""
    return "".join(escape_user(part) if mine else _escape_own(part) for part, mine in spans(text))


def plain_text(text: str) -> str:
    """moji's text for a ``plain_text`` object (headers, labels): nothing in it is parsed, so user
    parts only lose control characters and bidirectional overrides."""
    return "".join(tidy(part) if mine else part for part, mine in spans(text))


def card(face: CardFace) -> str:
    """One card as mrkdwn: ``🟥 *A* 1`` (plus ``+2`` when cards are stacked under it)."""
    under = f" +{face.under}" if face.under else ""
    return f"{CARD_EMOJI.get(face.colour, CARD_EMOJI[''])} *{face.letter or '_'}* {face.points}{under}"


def face_alt(face: CardFace) -> str:
    """A card in words, in the language being spoken (a card picture's alt text and title)."""
    letter, points = face.letter or "_", face.points
    if face.colour == "red":
        return _n(
            "Red card {letter}, {count} point", "Red card {letter}, {count} points", points, letter=letter
        )
    if face.colour == "blue":
        return _n(
            "Blue card {letter}, {count} point", "Blue card {letter}, {count} points", points, letter=letter
        )
    if face.colour == "yellow":
        return _n(
            "Yellow card {letter}, {count} point",
            "Yellow card {letter}, {count} points",
            points,
            letter=letter,
        )
    if face.colour == "green":
        return _n(
            "Green card {letter}, {count} point",
            "Green card {letter}, {count} points",
            points,
            letter=letter,
        )
    return _n("Card {letter}, {count} point", "Card {letter}, {count} points", points, letter=letter)


def picture_row(cards: tuple[CardFace, ...], files: tuple[str | None, ...]) -> list[Block]:
    """The cards as pictures: an image element naming each card's file (``slack_file``), followed by
    ``+N`` when cards are stacked under it; a card without a file yet is its emoji text. In context
    blocks of at most ten elements."""
    rows: list[Block] = []
    elements: list[Block] = []
    for face, file_id in zip(cards, files, strict=True):
        card_elements: list[Block]
        if file_id is None:
            card_elements = [{"type": "mrkdwn", "text": card(face)}]
        else:
            card_elements = [{"type": "image", "slack_file": {"id": file_id}, "alt_text": face_alt(face)}]
            if face.under:
                card_elements.append({"type": "mrkdwn", "text": f"+{face.under}"})
        if len(elements) + len(card_elements) > MAX_CONTEXT_ELEMENTS:
            rows.append({"type": "context", "elements": elements})
            elements = []
        elements.extend(card_elements)
    if elements:
        rows.append({"type": "context", "elements": elements})
    return rows


def _user(seat: str) -> str | None:
    """The Slack user id in a seat id (``slack:U123``), else None."""
    platform, __, user = seat.partition(":")
    return user if platform == "slack" and user else None


def mention_text(view: View) -> str:
    """The view's mentions as Slack writes them: ``<@U1>`` for a player, a group's token as is."""
    out = []
    for mention in view.mentions:
        user = _user(mention) if not mention.startswith(("<", "@")) else None
        out.append(f"<@{user}>" if user else mention)
    return " ".join(out)


def date_token(when: float, date: str, time: str, fallback: str) -> str:
    """Slack's date token: ``when`` as each reader's Slack writes it in their own time zone, as
    ``date`` at ``time`` (Slack's ``{date_…}`` and ``{time…}`` tokens) in the language spoken."""
    shown = _("{date} at {time}", date="{" + date + "}", time="{" + time + "}")
    return f"<!date^{int(when)}^{shown}|{fallback}>"


def turn_text(view: View) -> str:
    """A turn ping: the player's mention (Slack notifies them: it is a new message), the text, and
    the deadline as a date and time each reader's Slack shows in their own time zone."""
    with speaking(view.locale):
        text = " ".join([mention_text(view), *map(escape, view.lines)]).strip()
        if view.deadline is not None:
            when = int(view.deadline)
            fallback = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M UTC")
            text += "\n⏳ " + date_token(when, "date_long_pretty", "time", fallback)
        return text


def fallback_text(view: View) -> str:
    """The message's plain-text form (Slack's ``text`` field, read as mrkdwn: escaped like the
    blocks), with the letter line."""
    with speaking(view.locale):
        return _fallback_text(view)


def _fallback_text(view: View) -> str:
    if view.kind == "turn":
        return turn_text(view)
    text = escape(KIND_ICON.get(view.kind, "") + view.text()).strip() or "moji"
    if view.mentions:
        text = f"{mention_text(view)} {text}"
    return text if len(text) <= MAX_FALLBACK_TEXT else text[: MAX_FALLBACK_TEXT - 1] + "…"


def _section(text: str) -> Block:
    # verbatim: Slack links only what moji wrote as a token, never a bare URL or @channel in the text
    return {"type": "section", "text": {"type": "mrkdwn", "text": text, "verbatim": True}}


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
    if spec.url:  # a link button (a web page): Slack opens it, and still tells the app (acked)
        return {
            "type": "button",
            "action_id": spec.action,
            "url": spec.url[:3000],
            "style": "primary",
            "text": {"type": "plain_text", "text": plain(spec.label)[:75], "emoji": True},
        }
    button: Block = {
        "type": "button",
        "action_id": spec.action,
        "value": spec.action,
        "text": {"type": "plain_text", "text": plain(spec.label)[:75], "emoji": True},
    }
    if spec.style in {"primary", "success"}:
        button["style"] = "primary"
    elif spec.style == "danger":
        button["style"] = "danger"
    return button


def render(view: View, card_files: tuple[str | None, ...] | None = None) -> list[Block]:
    """The view as Block Kit blocks (at most 50), the words this adds in the view's language;
    ``card_files``: the Slack file of each of its cards (None: none yet), shown as pictures
    instead of emoji."""
    with speaking(view.locale):
        return _render(view, card_files)


def _render(view: View, card_files: tuple[str | None, ...] | None = None) -> list[Block]:
    if view.kind == "turn":
        turn = [_section(turn_text(view))]
        if view.buttons:  # (My rack, when the game has a web page: its private answer holds the link)
            turn.append(
                {
                    "type": "actions",
                    "block_id": "moji:actions",
                    "elements": [_button(b) for b in view.buttons],
                }
            )
        return turn
    blocks: list[Block] = []
    title = KIND_ICON.get(view.kind, "") + view.title
    if view.title:
        header = plain_text(title)
        if (
            view.kind in {"lobby", "table", "result", "leaderboard", "help"}
            and len(header) <= MAX_HEADER_TEXT
        ):
            blocks.append({"type": "header", "text": {"type": "plain_text", "text": header, "emoji": True}})
        else:
            blocks.append(_section(f"*{escape(title)}*"))
    if view.cards and card_files is not None:
        blocks.extend(picture_row(view.cards, card_files))
    elif view.cards:
        blocks.append(_section("   ".join(card(face) for face in view.cards)))
    if view.cards:
        blocks.append(
            {
                "type": "context",
                "elements": [
                    {"type": "plain_text", "text": _("Letters: {letters}", letters=view.card_line())}
                ],
            }
        )
    if view.grid:
        for text in _chunks(list(view.grid), MAX_SECTION_TEXT - 200):
            blocks.append(_section(f"```{escape(text)}```"))
    if view.lines:
        prefix = KIND_ICON.get(view.kind, "") if not view.title else ""
        lines = [escape(line) for line in view.lines]
        if view.mentions:
            lines[0] = f"{mention_text(view)} {lines[0]}"
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
            # a seat's name is what its player is called: all of it is theirs, marked or not
            cells.append(f"{mark}*{escape_user(plain(seat.name))}*: {seat.score}{detail}")
        blocks.extend(_section(text) for text in _chunks([" · ".join(cells)]))
    if view.deadline is not None and view.kind == "table":
        when = int(view.deadline)
        fallback = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        due = date_token(when, "date_short_pretty", "time_secs", fallback)
        blocks.append(
            {
                "type": "context",
                "elements": [
                    {
                        "type": "mrkdwn",
                        # with its date: a turn-based game's 72-hour turn ends on another day
                        "text": _("⏳ Time is up {when}", when=due),
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
