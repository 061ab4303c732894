"""A page's live part as its live channel sends it: Server-Sent Events, the whole part first
(``state``), then only the regions that changed (``patch``).

The regions are marked in a page's live template (``<!--r:ID-->…<!--/r-->``, the element whose id
is ID between), so any game's page may mark its own; :func:`cut` cuts a rendering into its
:class:`Rendered`, and :meth:`Rendered.patch` diffs two of them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

#: A region of a page's live part: ``<!--r:ID-->`` before the element whose id is ID, ``<!--/r-->``
#: after it. Any page's template may mark its regions; one without marks is sent whole each time.
REGION = re.compile(r"<!--r:([A-Za-z][\w-]*)-->(.*?)<!--/r-->", re.S)
MARKS = re.compile(r"<!--/?r(?::[\w-]+)?-->")


@dataclass(frozen=True, slots=True, eq=False)
class Rendered:
    """A page's live part at one change of its game, cut into its regions: its ``skeleton`` (the
    rest, each region replaced by its mark) and each region's HTML by element id."""

    version: int
    skeleton: str
    regions: dict[str, str]
    html: str  # the whole, marks removed
    ended: bool
    _patches: dict[int, tuple[Rendered, bytes]] = field(default_factory=dict)

    def state(self) -> bytes:
        """The whole live part, as a ``state`` event."""
        return sse("state", {"v": self.version, "html": self.html, "ended": self.ended})

    def patch(self, shown: Rendered) -> bytes:
        """The regions that changed since ``shown`` (same skeleton), as a ``patch`` event: the
        client replaces each by id. Watchers of one game share it (most showed the same)."""
        cached = self._patches.get(shown.version)
        if cached is not None and cached[0] is shown:
            return cached[1]
        changed = {key: html for key, html in self.regions.items() if shown.regions.get(key) != html}
        data = {"v": self.version, "base": shown.version, "regions": changed, "ended": self.ended}
        event = sse("patch", data)
        if len(self._patches) < 8:
            self._patches[shown.version] = (shown, event)
        return event


def cut(html: str, version: int, ended: bool) -> Rendered:
    """``html`` (a live part whose regions are marked) cut into its :class:`Rendered`."""
    regions: dict[str, str] = {}

    def keep(match: re.Match[str]) -> str:
        regions[match.group(1)] = match.group(2)
        return f"<!--r:{match.group(1)}-->"

    skeleton = REGION.sub(keep, html)
    return Rendered(version, skeleton, regions, MARKS.sub("", html), ended)


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One Server-Sent Event: its name and its data as JSON."""
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()
