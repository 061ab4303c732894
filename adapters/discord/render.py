r"""Neutral views → Discord message parts (content, embed, buttons).

A table's face-up cards are shown twice: as a picture (attached by the
outbox, see :mod:`adapters.pictures`) and as plain text in the message
content, ``Cards: A C T``, where each letter stands alone as a capital — for
screen readers and Discord search. Nothing here talks to Discord.

What people typed (marked as user text in the view, see :mod:`games.common.text`) is escaped by
:func:`text`: every ASCII punctuation character gets a backslash (Discord shows ``\X`` as ``X``
for any of them, so no markdown, masked link, heading, quote, spoiler or bare URL can form), and
a zero-width space follows each ``<`` and ``@``, so no mention (``<@1>``, ``<#1>``, ``<@&1>``,
``@everyone``), timestamp or custom emoji token can form either, even where Discord would not
honour a backslash. moji's own text keeps its markdown.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

import discord

from bot.views import ButtonSpec, View
from games.common.text import plain, spans, tidy

#: The file name a table picture is attached under (``attachment://``).
PICTURE_NAME = "moji-table.png"

_COLOURS: dict[str, int] = {
    "lobby": 0x5865F2,
    "table": 0x2B2D31,
    "announce": 0x57F287,
    "result": 0xFEE75C,
    "help": 0x5865F2,
    "error": 0xED4245,
    "info": 0x5865F2,
    "leaderboard": 0xFEE75C,
    "private": 0xEB459E,
}
_STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "danger": discord.ButtonStyle.danger,
    "success": discord.ButtonStyle.success,
}
CONTENT_LIMIT = 2000
DESCRIPTION_LIMIT = 4000
TITLE_LIMIT = 256


@dataclass(frozen=True, slots=True)
class Rendered:
    """A view ready to send: text content, an embed (or None) and buttons."""

    content: str
    embed: discord.Embed | None
    buttons: tuple[ButtonSpec, ...]
    picture: bool  # attach the cards' picture


_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")
#: A zero-width space: after ``<`` and ``@`` in user text it breaks every mention and token.
ZWSP = "\u200b"


def escape(text: str) -> str:
    """Text a person typed, shown as typed in Discord markdown (see the module's docstring)."""
    escaped = _PUNCTUATION.sub(r"\\\1", tidy(text))
    return escaped.replace("<", "<" + ZWSP).replace("@", "@" + ZWSP)


def text(value: str, *, code: bool = False) -> str:
    """moji's text as Discord markdown: its own parts as written, user parts escaped.

    In a code block (``code``) markdown is inert, so user text only loses its backticks
    (which could close the block) and its control characters.
    """
    if code:
        return "".join(tidy(part).replace("`", "ˋ") if mine else part for part, mine in spans(value))
    return "".join(escape(part) if mine else part for part, mine in spans(value))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def card_text(view: View) -> str:
    """The face-up cards as standalone capital letters with their points: ``Cards: A C T``."""
    return "Cards: " + view.card_line() if view.cards else ""


def seat_id_to_user(seat: str) -> str | None:
    """The Discord user id in a seat id (``discord:123``), else None."""
    platform, _, user = seat.partition(":")
    return user if platform == "discord" and user.isdigit() else None


def mention_text(view: View) -> str:
    """The view's mentions as Discord writes them: ``<@123>`` for a player, a role's ``<@&456>`` as is."""
    out = []
    for mention in view.mentions:
        user = seat_id_to_user(mention) if not mention.startswith("<") else None
        if user:
            out.append(f"<@{user}>")
        elif mention.startswith("<@&"):
            out.append(mention)
    return " ".join(out)


def role_ids(view: View) -> list[int]:
    """The roles a view mentions (each message names the roles it may notify)."""
    return [int(m[3:-1]) for m in view.mentions if m.startswith("<@&") and m[3:-1].isdigit()]


def _turn(view: View) -> Rendered:
    """A turn ping: plain content that mentions the player (a new message: Discord notifies them)
    and the deadline as a date and time each reader's Discord shows in their own time zone."""
    content = " ".join([mention_text(view), *map(text, view.lines)]).strip()
    if view.deadline is not None:
        when = int(view.deadline)
        content += f"\n⏳ <t:{when}:F> (<t:{when}:R>)"
    return Rendered(_clip(content, CONTENT_LIMIT), None, view.buttons, False)


def render(view: View, *, mention_active: bool = False, with_picture: bool = True) -> Rendered:
    """A view as Discord message parts.

    ``mention_active`` puts a mention of whoever's turn it is in the content
    (turn-based games in their thread).
    """
    if view.kind == "turn":
        return _turn(view)
    content_parts: list[str] = []
    if view.mentions:
        content_parts.append(mention_text(view))
    if mention_active:
        users = [u for s in view.seats if s.active and (u := seat_id_to_user(s.seat))]
        if users:
            content_parts.append(" ".join(f"<@{u}>" for u in users) + " — your turn")
    if view.cards:
        content_parts.append(card_text(view))
    body: list[str] = []
    picture = with_picture and bool(view.cards or view.board)
    if view.grid and not (picture and view.board):
        # with the board's picture attached, its text rows (which wrap badly on phones) are
        # the picture's description instead, for screen readers; `board` shows them on request
        body.append("```\n" + "\n".join(text(row, code=True) for row in view.grid) + "\n```")
    if view.cards:
        points = " · ".join(
            f"{c.letter or '_'} {c.points}" + (f" (+{c.under})" if c.under else "") for c in view.cards
        )
        body.append("Points: " + points)
    body.extend(map(text, view.lines))
    if view.kind == "error" and body:
        body[0] = "⚠️ " + body[0]
    if view.seats:
        body.append("")
        for seat in view.seats:
            mark = "▶ " if seat.active else ""
            detail = f" — {text(seat.detail)}" if seat.detail else ""
            # a seat's name is what its player is called: all of it is theirs, marked or not
            body.append(f"{mark}**{escape(plain(seat.name))}**: {seat.score}{detail}")
    if view.deadline is not None and view.kind == "table":
        body.append(f"⏳ <t:{int(view.deadline)}:R>")
    description = "\n".join(body).strip()
    embed: discord.Embed | None = None
    if view.title or description or picture:
        embed = discord.Embed(
            title=_clip(text(view.title), TITLE_LIMIT) or None,
            description=_clip(description, DESCRIPTION_LIMIT) or None,
            colour=_COLOURS.get(view.kind, 0x5865F2),
        )
        if picture:
            embed.set_image(url=f"attachment://{PICTURE_NAME}")
    return Rendered(_clip("\n".join(content_parts), CONTENT_LIMIT), embed, view.buttons, picture)


class Buttons(discord.ui.View):
    """A message's buttons, built from neutral :class:`ButtonSpec` values.

    Their custom ids are the stable ids of :mod:`bot.views`; presses are
    handled by the client's ``on_interaction`` from the id alone, so they keep
    working after a restart and no view object is kept per message.
    """

    def __init__(self, specs: tuple[ButtonSpec, ...]) -> None:
        super().__init__(timeout=None)
        for spec in specs[:25]:
            self.add_item(
                discord.ui.Button(
                    label=plain(spec.label)[:80],
                    custom_id=spec.action,
                    style=_STYLES.get(spec.style, _STYLES["secondary"]),
                )
            )

    def is_dispatchable(self) -> bool:
        """Never stored by discord.py: presses are routed by custom id."""
        return False


def buttons(specs: tuple[ButtonSpec, ...]) -> discord.ui.View | None:
    """Buttons for a message (None: none)."""
    return Buttons(specs) if specs else None
