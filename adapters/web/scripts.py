"""What the pages' scripts say (live announcements, prompts, button labels), in the page's
language: each page renders :func:`messages` into ``<script type="application/json"
id="moji-messages">``, which ``static/messages.js``'s ``t(key, {name: …})`` reads. No text a
player reads is written in a script (docs/LANGUAGES.md).

What the companion's own scripts say is here; what a game's page's script says is declared in
the game's page folder (``GamePage.messages``), kept by :mod:`adapters.web.pages` as it reads
the page (:func:`add`), and carried by that game's page only.
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


#: What each game's page's script says, by game, as its folder declares it (:func:`add`).
PAGE_MESSAGES: dict[str, dict[str, str]] = {}


def add(game: str, said: Mapping[str, str], where: str) -> None:
    """Keep what ``game``'s page's script says (``where``: its folder, for the error). A key of
    the messages every page carries keeps its message: another one is refused (ValueError)."""
    for key, text in said.items():
        if MESSAGES.get(key, text) != text:
            raise ValueError(f"{where}: the script message {key!r} means {MESSAGES[key]!r}, not {text!r}")
    PAGE_MESSAGES[game] = dict(said)


def messages(game: str | None = None) -> dict[str, str]:
    """What the scripts say, in the language being spoken (placeholders left for the script):
    what every page's scripts say, and what ``game``'s page's says ("": no game's, as on a page
    of no game; None: every game's page read so far)."""
    said = dict(MESSAGES)
    for name, own in PAGE_MESSAGES.items():
        if game is None or name == game:
            said.update(own)
    return {key: _(text) for key, text in said.items()}


__all__ = ["MESSAGES", "PAGE_MESSAGES", "add", "messages"]
