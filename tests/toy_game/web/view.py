"""Spell's page: the length to spell and the scores, as every page builds them for one viewer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.common.page import BadRequest
from games.common.protocol import Snapshot

#: The snapshot's line the page shows its own way.
LENGTH_LINE = "Spell a word of "


@dataclass(frozen=True, slots=True)
class SpellPart:
    """What Spell's page shows of its game: the length to spell, and whether the viewer plays."""

    length: int
    player: bool


class SpellView:
    """Spell's page (a :class:`games.common.page.GameView`)."""

    game = "spell"
    label = "Open Spell's page"

    def part(self, engine: Any, snapshot: Snapshot, seat: str | None) -> SpellPart:
        return SpellPart(int(engine.length), seat is not None)

    def hides(self, line: str) -> bool:
        return line.startswith(LENGTH_LINE)

    def preview(self, engine: Any, seat: str, body: Mapping[str, Any]) -> dict[str, Any]:
        return {"ok": False, "reason": "Type your word in the chat: the first one sent scores."}

    def words(self, engine: Any, seat: str, body: Mapping[str, Any]) -> tuple[str, ...]:
        raise BadRequest("Spell is played in the chat.")
