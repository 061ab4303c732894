"""The dice game's web page: its view (`view.py`), `page.html`, `live.html` and `script.js`
(see :mod:`games.common.page`)."""

from games.common.page import GamePage
from games.dice.web.view import DiceView

PAGE = GamePage(label=DiceView.label, view=DiceView())
