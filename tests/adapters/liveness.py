"""What counts as *live markup* in a rendered message, per platform, and hostile text to try.

A renderer must show what people typed as typed: a hostile display name, word or option value
may add no link, mention, token or formatting of its own. These finders list every live
construct of a rendered text, so a test can compare a message rendered with hostile user text
against the same message with harmless text of the same length in its place: the hostile one
may not have more of anything.

- **Discord** (markdown in content, embed titles and descriptions): a masked link ``](``, a bare
  ``http(s)://`` URL, a ``<…>`` token (``<@1>``, ``<@&1>``, ``<#1>``, ``<t:1>``, ``<:e:1>``,
  ``</cmd:1>``, ``<https://…>``), ``@everyone`` / ``@here``, a formatting marker (``*``, ``_``,
  ``~~``, ``||``, a backtick) and a line-start construct (``>`` quote, ``#`` heading, ``-#``,
  ``- `` / ``* `` / ``1. `` lists) — each unless backslash-escaped.
- **Slack** (mrkdwn in sections, context and the ``text`` fallback): any ``<…>`` token, an ``&``
  that is not one of the three entities, a formatting character (``*``, ``_``, ``~``, backtick)
  not fenced by a zero-width space, a line-start quote, and a bare URL.
- **Terminal**: any control character other than a newline once moji's own colour codes
  (``ESC[…m``) are set aside, any bidirectional override.

On every platform: no user-text marker (U+FDD0/U+FDD1) and no bidirectional override survives.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from typing import Any

from hypothesis import strategies as st

from games.common.text import BIDI_CONTROLS, CLOSE, OPEN

ZWSP = "\u200b"
_PUNCT = frozenset(string.punctuation)

#: Pieces of hostile text: every kind of markup each platform knows, control sequences,
#: invisible and direction-changing characters.
HOSTILE_PIECES = (
    "[Free Nitro](https://evil.example)",
    "[x](<https://evil.example>)",
    "https://evil.example/login",
    "<https://evil.example|login>",
    "<https://evil.example>",
    "@everyone",
    "@here",
    "<@123>",
    "<@!100000000000000001>",
    "<#1>",
    "<@&1>",
    "<@&600000000000000009>",
    "<!channel>",
    "<!here>",
    "<!everyone>",
    "<!subteam^S1|@team>",
    "<@U0123ABC>",
    "<#C01|general>",
    "<t:1700000000:R>",
    "<:pog:123>",
    "</moji start:1>",
    "`code`",
    "```block```",
    "***",
    "**bold**",
    "__under__",
    "_it_",
    "~~gone~~",
    "~strike~",
    "||spoiler||",
    "> quote",
    ">>> quote",
    "# heading",
    "-# small",
    "- item",
    "1. item",
    "&amp; &lt; &",
    "\\",
    "\\*",
    "\n> new line quote",
    "\n# new line heading",
    "\x1b[31mred\x1b[0m",
    "\x1b]0;title\x07",
    "\x1b[2J",
    "\r\x08\x7f",
    "\u200b\u200c\u200d\u2060\ufeff",
    "\u202eevil\u202c",
    "\u2066\u2067\u2068\u2069",
    OPEN + "**x**",
    CLOSE + "**x**" + OPEN,
    ":smile:",
)


@st.composite
def hostile(draw: st.DrawFn) -> str:
    """A hostile name or word: the sentinel ``Zyx`` (so a test can tell where it went) and a few
    hostile pieces, with ordinary text between them."""
    pieces = draw(st.lists(st.sampled_from(HOSTILE_PIECES), min_size=1, max_size=4))
    filler = draw(st.text(alphabet="ab *_<>@#&|~`\\\n", max_size=6))
    return "Zyx " + filler.join(pieces)


SENTINEL = "zyx"


def discord_live(text: str) -> Counter[str]:
    """The live constructs of a Discord markdown text (see the module's docstring)."""
    found: Counter[str] = Counter()
    i, n = 0, len(text)
    line_start = True
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in _PUNCT:
            i += 2
            line_start = False
            continue
        if line_start:
            rest = text[i:].lstrip(" ")
            for lead, kind in (
                (">>> ", "quote"),
                ("> ", "quote"),
                ("-# ", "subtext"),
                ("# ", "heading"),
                ("## ", "heading"),
                ("### ", "heading"),
                ("- ", "list"),
                ("* ", "list"),
            ):
                if rest.startswith(lead):
                    found[f"line:{kind}"] += 1
                    break
            else:
                if re.match(r"\d+\. ", rest):
                    found["line:numbered"] += 1
        line_start = ch == "\n"
        if ch == "]" and text[i + 1 : i + 2] == "(":
            found["masked-link"] += 1
        elif text.startswith(("http://", "https://"), i):
            found["url"] += 1
        elif (
            ch == "<" and i + 1 < n and (text[i + 1] in "@#:/" or text.startswith(("<t:", "<a:", "<http"), i))
        ):
            end = text.find(">", i)
            found["token:" + (text[i : end + 1] if end != -1 else text[i:])] += 1
        elif text.startswith(("@everyone", "@here"), i):
            found["everyone"] += 1
        elif text.startswith(("**", "__", "~~", "||"), i):
            found["fmt:" + text[i : i + 2]] += 1
            i += 2
            continue
        elif ch in "*_`":
            found["fmt:" + ch] += 1
        i += 1
    return found


def slack_live(text: str) -> Counter[str]:
    """The live constructs of a Slack mrkdwn text (see the module's docstring)."""
    found: Counter[str] = Counter()
    for match in re.finditer(r"<[^>]*>?", text):
        found["token:" + match.group(0)] += 1
    found["raw-ampersand"] += len(re.findall(r"&(?!amp;|lt;|gt;)", text))
    for index, ch in enumerate(text):
        if ch in "*_~`":
            fenced = text[index - 1 : index] == ZWSP and text[index + 1 : index + 2] == ZWSP
            if not fenced:
                found["fmt:" + ch] += 1
    for line in text.split("\n"):
        if line.lstrip(" ").startswith((">", "&gt;")):
            found["quote"] += 1
    found["url"] += len(re.findall(r"https?://", text))
    return +found


_SGR = re.compile(r"\x1b\[[0-9;]*m")


def terminal_live(text: str) -> list[str]:
    """Control characters (other than newlines) and bidi overrides left in terminal text, once
    moji's own colour codes are set aside."""
    bare = _SGR.sub("", text)
    return [
        repr(ch)
        for ch in bare
        if (unicodedata.category(ch) == "Cc" and ch != "\n") or ch in BIDI_CONTROLS or ch in (OPEN, CLOSE)
    ]


def leaks(text: str) -> list[str]:
    """What no platform's output may carry: user-text markers and bidi overrides."""
    return [repr(ch) for ch in text if ch in (OPEN, CLOSE) or ch in BIDI_CONTROLS]


def slack_texts(blocks: Any) -> tuple[list[str], list[str]]:
    """Every mrkdwn and plain_text string in Slack blocks (mrkdwn first)."""
    mrkdwn: list[str] = []
    plain: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "mrkdwn" and isinstance(node.get("text"), str):
                mrkdwn.append(node["text"])
            elif node.get("type") == "plain_text" and isinstance(node.get("text"), str):
                plain.append(node["text"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(blocks)
    return mrkdwn, plain


def more(hostile: Counter[str], harmless: Counter[str]) -> Counter[str]:
    """What ``hostile`` has more of than ``harmless`` (empty: nothing was added)."""
    return hostile - harmless
