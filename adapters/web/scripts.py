"""What the pages' scripts say (live announcements, prompts, button labels), in the page's
language: each page renders :func:`messages` into ``<script type="application/json"
id="moji-messages">``, which ``static/messages.js``'s ``t(key, {name: …})`` reads. No text a
player reads is written in a script (docs/LANGUAGES.md).

What the companion's own scripts say is here; what a game's page's script says is declared in
the game's page folder (``GamePage.messages``), added by :mod:`adapters.web.pages` as it reads
the page (:func:`add`).
"""

from __future__ import annotations

from collections.abc import Mapping

from games.common.speech import N_, _

#: key -> message (its ``{placeholders}`` are filled by the script).
MESSAGES: dict[str, str] = {
    # every game's page
    "refused": N_("That move was not accepted."),
    "notYet": N_("Not a move yet."),
    "played": N_("Played."),
    "passed": N_("You passed."),
    "taken": N_("{square} is taken."),
    "hoursLeft": N_("{hours} h {minutes} min"),
    "reasonOf": N_("{move}: {reason}"),
    "blankWhich": N_("Which letter does the blank stand for?"),
    "blankOne": N_("A blank stands for one letter."),
    # a tournament's page
    "tournamentUpdated": N_("The tournament's standings and results are updated."),
    "tournamentOffline": N_("The tournament's page could not update itself: it tries again shortly."),
    # opening a game's link
    "openFromChat": N_("Open this game from the link moji gave you in the chat."),
    "linkDead": N_("This link does not open a game any more: ask for a fresh one in the chat."),
}


#: What the games' pages' scripts say, as their folders declare it (:func:`add`).
PAGES_SAY: dict[str, str] = {}


def add(said: Mapping[str, str], where: str) -> None:
    """Add what a game's page's script says (``where``: its folder, for the error); a key that
    already means another message is refused (ValueError): a key means one message on every page."""
    for key, text in said.items():
        known = MESSAGES.get(key, PAGES_SAY.get(key))
        if known is not None and known != text:
            raise ValueError(f"{where}: the script message {key!r} already means {known!r}, not {text!r}")
    PAGES_SAY.update(said)


def messages() -> dict[str, str]:
    """Every script's message in the language being spoken (placeholders left for the script)."""
    return {key: _(text) for key, text in (MESSAGES | PAGES_SAY).items()}


__all__ = ["MESSAGES", "PAGES_SAY", "add", "messages"]
