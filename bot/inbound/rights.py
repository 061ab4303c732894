"""Which commands and buttons depend on the asker's admin rights, and which must see them fresh.

The one list every adapter reads (an adapter asks its platform whether a person is an admin
only for these, and never decides which they are). A platform's answer may be cached for a
while (Slack's ``users.info`` and user groups are); a command that destroys or changes
something for everyone (:func:`rights_needed` says :attr:`Rights.FRESH`) is checked again at
that moment, so a demoted admin loses those rights at once.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from bot.core import views
from bot.core.commands import CommandError, command_of
from bot.features.privacy import PURGE


class Rights(enum.Enum):
    """What an adapter must find out about the asker before a command is handled."""

    #: Nothing: the command means the same for everyone.
    NONE = "none"
    #: Whether the asker is an admin (a recent answer will do).
    ADMIN = "admin"
    #: Whether the asker is an admin now (no cached answer): the command changes or deletes
    #: something for everyone.
    FRESH = "fresh"


#: Commands whose answer depends on the asker's admin rights.
ADMIN_COMMANDS = frozenset({"go", "stop", "config", "words", "season", "schedule", "purge"})
#: Buttons whose command depends on the presser's admin rights.
ADMIN_BUTTONS = frozenset({views.GO, PURGE})
#: Buttons that delete something for everyone (the presser's rights are checked afresh).
DESTRUCTIVE_BUTTONS = frozenset({PURGE})
#: ``schedule`` verbs that only read.
_SCHEDULE_READS = frozenset({"list", "ls"})


def rights_needed(name: str, args: Sequence[str] = ()) -> Rights:
    """What a command (as the platform gave it: ``("words", ("ban", "x"))``, ``("moji",
    ("purge",))``) needs to know of its asker's rights."""
    try:
        name, found = command_of(name, tuple(args))
    except CommandError:
        return Rights.NONE  # (refused as it is read, for everyone alike)
    if name not in ADMIN_COMMANDS:
        return Rights.NONE
    verb = found[0].lower() if found else ""
    destructive = (
        name in {"purge", "stop"}
        or (name == "season" and verb in {"reset", "rebuild"})
        or (name == "words" and bool(found))
        or (name == "config" and len(found) >= 2)
        or (name == "schedule" and bool(found) and verb not in _SCHEDULE_READS)
    )
    return Rights.FRESH if destructive else Rights.ADMIN


def button_rights(action: str) -> Rights:
    """What a button press (by its custom id) needs to know of its presser's rights."""
    if action in DESTRUCTIVE_BUTTONS:
        return Rights.FRESH
    return Rights.ADMIN if action in ADMIN_BUTTONS else Rights.NONE
