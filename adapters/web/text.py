"""moji's text on a web page: the web's renderer of :mod:`games.common.text`.

Every other platform renders a game's text for its own markup (Discord and Slack markdown, the
terminal's plain lines); a page renders it as HTML. moji's own parts keep their one piece of
markup, a `command` or move in backticks, shown as ``<code>``; user parts (a name, a word a
player typed) are only escaped: a backtick a player typed stays a backtick. Everything is
escaped: the result is safe to put in a page as it is (a :class:`markupsafe.Markup`).
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from games.common.text import spans, tidy

_CODE = re.compile(r"`([^`\n]+)`")


def web_html(text: str) -> Markup:
    """``text`` (moji's, its user parts marked) as escaped HTML: moji's `code` in ``<code>``."""
    out: list[str] = []
    for part, mine in spans(text):
        if mine:
            out.append(str(escape(tidy(part))))
        else:
            out.append(_CODE.sub(lambda m: f"<code>{m.group(1)}</code>", str(escape(part))))
    return Markup("".join(out))


__all__ = ["web_html"]
