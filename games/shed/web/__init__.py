"""The shed game's web page: its view (`view.py`), `page.html`, `live.html` and `script.js`
(see :mod:`games.common.page`)."""

from games.common.page import GamePage
from games.shed.web.view import ShedView

PAGE = GamePage(label=ShedView.label, view=ShedView())
