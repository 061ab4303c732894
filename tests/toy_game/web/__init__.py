"""Spell's web page, in the toy's own folder as the recipe has it (docs/ARCHITECTURE.md, "Recipe:
add a game"): its view (``view.py``), ``page.html``, ``live.html`` and ``script.js`` (what a
game's page is: :mod:`games.common.page`), named by its registry entry
(``page="tests.toy_game.web"``)."""

from games.common.page import GamePage
from games.common.speech import N_
from tests.toy_game.web.view import SpellView

#: What the page's script says (``t(key, {…})``), beside what every page's says.
MESSAGES = {"spellHint": N_("Type a word of {length} letters in the chat: the first one sent scores.")}

PAGE = GamePage(label=SpellView.label, view=SpellView(), messages=MESSAGES)
