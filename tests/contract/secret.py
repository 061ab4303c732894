"""The secret game: the toy game plus a hidden hand for every person, for the tests of privacy
(the contract suite's, and the Discord adapter's of how a hand is delivered)."""

from __future__ import annotations

import dataclasses

from games.common.protocol import Action, CardFace, GameInfo, Notice, Snapshot
from tests.bot.toygame import TOY, ToyEngine

#: What only a hand's owner may ever see.
SECRET = "QZXJV"


class SecretEngine(ToyEngine):
    """The toy game plus a hidden hand for every person (like a rack in a Scrabble-style game):
    told privately when the game begins, shown (with a picture) to its owner alone."""

    def apply(self, action: Action) -> list[Notice]:
        out = super().apply(action)
        if action.kind == "begin":
            out += [
                Notice("private", f"Your rack: {SECRET}-{s.name}", s.id) for s in self.seats if s.bot is None
            ]
        return out

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        snap = super().snapshot(viewer)
        if viewer is None:
            return snap
        return dataclasses.replace(
            snap, lines=(f"Your hand: {SECRET}",), cards=(*snap.cards, CardFace("Z", "green", 10))
        )


SECRET_GAME: GameInfo = dataclasses.replace(
    TOY, name="secret", title="Secret", create=SecretEngine, aliases=()
)
