"""Spell's web page: ``view.py``, ``page.html``, ``live.html`` and ``script.js`` (what a game's
page is: :mod:`games.common.page`), named by its registry entry (``page="tests.toy_game.web"``)."""

from games.common.page import GamePage
from tests.toy_game.web.view import SpellView

PAGE = GamePage(label=SpellView.label, view=SpellView())
