"""The paths game's web page: its view (`view.py`), `page.html`, `live.html` and `script.js`
(see :mod:`games.common.page`)."""

from games.common.page import GamePage
from games.paths.web.view import PathsView

PAGE = GamePage(label=PathsView.label, view=PathsView())
