"""Buttons and reactions, as the commands of the grammar they stand for."""

from __future__ import annotations

from bot.core import views
from bot.features.privacy import FORGET_ME, PURGE

#: Buttons and the commands they stand for.
BUTTONS: dict[str, tuple[str, tuple[str, ...]]] = {
    views.JOIN: ("join", ()),
    views.LEAVE: ("leave", ()),
    views.GO: ("go", ()),
    views.SKIP: ("skip", ()),
    "moji:vote:yes": ("vote", ("yes",)),
    "moji:vote:no": ("vote", ("no",)),
    FORGET_ME: ("forget-me", ("confirm",)),
    PURGE: ("purge", ("confirm",)),
}

#: Reactions that vote on a disputed answer.
REACTION_VOTES = {"👍": "yes", "+1": "yes", "thumbsup": "yes", "👎": "no", "-1": "no", "thumbsdown": "no"}


def button_command(action: str) -> tuple[str, tuple[str, ...]] | None:
    """The command a button stands for (None: not one of moji's buttons)."""
    if action in BUTTONS:
        return BUTTONS[action]
    if action == views.HAND:
        return "hand", ()
    if action.startswith(views.MOVE) and len(action) > len(views.MOVE):
        return "play", (action[len(views.MOVE) :],)
    return None
