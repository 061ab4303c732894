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

from bot.core.views import ButtonSpec, View
from games.common.speech import _, speaking
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
#: Discord's limits on one message (docs/resources/Message.md, "Create Message" and "Embed
#: Limits"): content up to 2,000 characters; an embed's title 256 and description 4,096; up
#: to 10 embeds, whose titles and descriptions together hold at most 6,000 characters. Anything
#: longer is refused with error 50035 (Invalid Form Body). Lengths here are counted in UTF-16
#: code units, which is never fewer than the characters Discord counts.
CONTENT_LIMIT = 2000
DESCRIPTION_LIMIT = 4096
TITLE_LIMIT = 256
EMBEDS_LIMIT = 10
MESSAGE_EMBED_TOTAL = 6000


@dataclass(frozen=True, slots=True)
class Rendered:
    """A view ready to send: text content, an embed (or None) and buttons.

    A text longer than one embed's description goes on in ``extra`` embeds of the same
    message; one longer than a message holds goes on in ``then``: further messages, sent
    after this one, in order. Nothing is ever cut.
    """

    content: str
    embed: discord.Embed | None
    buttons: tuple[ButtonSpec, ...]
    picture: bool  # attach the cards' picture
    extra: tuple[discord.Embed, ...] = ()
    then: tuple[Rendered, ...] = ()

    @property
    def embeds(self) -> list[discord.Embed]:
        """Every embed of this message, in order."""
        return [*([self.embed] if self.embed is not None else []), *self.extra]

    @property
    def messages(self) -> int:
        """How many messages the view takes."""
        return 1 + len(self.then)


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
    return text if size(text) <= limit else _head(text, limit - 1) + "…"


def size(text: str) -> int:
    """A text's length as Discord may count it: UTF-16 code units (an emoji such as 🎲 is 2)."""
    return len(text.encode("utf-16-le")) // 2


def _head(text: str, limit: int) -> str:
    """The longest start of ``text`` of at most ``limit`` UTF-16 code units."""
    if size(text) <= limit:
        return text
    out, used = [], 0
    for char in text:
        width = 2 if ord(char) > 0xFFFF else 1
        if used + width > limit:
            break
        out.append(char)
        used += width
    return "".join(out)


def split_text(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` (UTF-16 code units), all of it, in order.

    Pieces end at a blank line when one is near enough, else at a line's end, else at a space;
    a line with no space to break at is broken where the limit falls. Discord trims each
    piece's leading and trailing white space, so the breaks themselves are dropped.
    """
    pieces: list[str] = []
    rest = text.strip()
    while rest:
        if size(rest) <= limit:
            pieces.append(rest)
            break
        head = _head(rest, limit)
        cut = -1
        for sep in ("\n\n", "\n", " "):
            at = head.rfind(sep)
            if at > len(head) // 3:  # a break too early would waste most of a piece
                cut = at
                break
        if cut <= 0:
            cut = len(head)
        piece = rest[:cut].rstrip()
        if piece:
            pieces.append(piece)
        rest = rest[cut:].strip()
    return pieces


def card_text(view: View) -> str:
    """The face-up cards as standalone capital letters: ``Cards: A C T`` (in the language spoken)."""
    return _("Cards: {letters}", letters=view.card_line()) if view.cards else ""


def seat_id_to_user(seat: str) -> str | None:
    """The Discord user id in a seat id (``discord:123``), else None."""
    platform, __, user = seat.partition(":")
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
    first, *more = split_text(content, CONTENT_LIMIT) or [""]
    then = tuple(Rendered(part, None, (), False) for part in more)
    return Rendered(first, None, view.buttons, False, then=then)


def render(view: View, *, mention_active: bool = False, with_picture: bool = True) -> Rendered:
    """A view as Discord message parts, the words this adds in the view's language.

    ``mention_active`` puts a mention of whoever's turn it is in the content
    (turn-based games in their thread).
    """
    with speaking(view.locale):
        return _render(view, mention_active=mention_active, with_picture=with_picture)


def _render(view: View, *, mention_active: bool, with_picture: bool) -> Rendered:
    if view.kind == "turn":
        return _turn(view)
    content_parts: list[str] = []
    if view.mentions:
        content_parts.append(mention_text(view))
    if mention_active:
        users = [u for s in view.seats if s.active and (u := seat_id_to_user(s.seat))]
        if users:
            mentions = " ".join(f"<@{u}>" for u in users)
            content_parts.append(_("{players} — your turn", players=mentions))
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
        body.append(_("Points: {points}", points=points))
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
    colour = _COLOURS.get(view.kind, 0x5865F2)
    title = _clip(text(view.title), TITLE_LIMIT)  # moji's own titles: far shorter
    contents = split_text("\n".join(content_parts), CONTENT_LIMIT) or [""]
    if not (view.title or description or picture):
        return Rendered(contents[0], None, view.buttons, False, then=_plain_messages(contents[1:]))
    # the description in embeds of at most 4,096, grouped into messages of at most 6,000
    messages: list[list[str]] = [[]]
    budget = MESSAGE_EMBED_TOTAL - size(title)
    for piece in split_text(description, DESCRIPTION_LIMIT) or [""]:
        if messages[-1] and (size(piece) > budget or len(messages[-1]) == EMBEDS_LIMIT):
            messages.append([])
            budget = MESSAGE_EMBED_TOTAL
        messages[-1].append(piece)
        budget -= size(piece)
    embeds = [[discord.Embed(description=piece or None, colour=colour) for piece in m] for m in messages]
    lead = embeds[0][0]
    lead.title = title or None
    if picture:
        lead.set_image(url=f"attachment://{PICTURE_NAME}")
    then = [
        Rendered(contents[i + 1] if i + 1 < len(contents) else "", group[0], (), False, tuple(group[1:]))
        for i, group in enumerate(embeds[1:])
    ]
    then.extend(Rendered(part, None, (), False) for part in contents[len(embeds) :])
    return Rendered(contents[0], lead, view.buttons, picture, tuple(embeds[0][1:]), tuple(then))


def _plain_messages(contents: list[str]) -> tuple[Rendered, ...]:
    return tuple(Rendered(part, None, (), False) for part in contents)


class Buttons(discord.ui.View):
    """A message's buttons, built from neutral :class:`ButtonSpec` values.

    Their custom ids are the stable ids of :mod:`bot.core.views`; presses are
    handled by the client's ``on_interaction`` from the id alone, so they keep
    working after a restart and no view object is kept per message.
    """

    def __init__(self, specs: tuple[ButtonSpec, ...]) -> None:
        super().__init__(timeout=None)
        for spec in specs[:25]:
            if spec.url:  # a link button (a web page): opens the address, sends no interaction
                self.add_item(discord.ui.Button(label=plain(spec.label)[:80], url=spec.url[:512]))
                continue
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
