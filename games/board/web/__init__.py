"""MOJO's web page: the board, its tiles placed square by square by pointer or keyboard and
previewed by the engine itself (``BoardPreview``), in ``page.html``, ``live.html`` and
``script.js`` (see :mod:`games.common.page`)."""

from games.common.page import GamePage
from games.common.speech import N_

PAGE = GamePage(label=N_("Open the board"))
