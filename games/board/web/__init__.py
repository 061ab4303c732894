"""MOJO's web page: the board, its tiles placed square by square by pointer or keyboard and
previewed by the engine itself, in its view (``view.py``), ``page.html``, ``live.html`` and
``script.js`` (see :mod:`games.common.page`)."""

from games.board.web.view import BoardView, in_replay_hides
from games.common.page import GamePage
from games.common.speech import N_

#: What the page's script says (``t(key, {…})``), beside what every page's says.
MESSAGES = {
    "placedByYou": N_("{square}, {tile}, placed by you"),
    "placedOn": N_("{tile} placed on {square}."),
    "backOnRack": N_("{tile} back on your rack."),
    "boardHint": N_("Place tiles on the board to see your word and its score."),
    "swapped": N_("Swapped."),
    "resigned": N_("You resigned."),
    "placeFirst": N_("Place tiles on the board first."),
    "tilesBack": N_("Your tiles are back on your rack."),
    "resignSure": N_("Resign this game? You lose it."),
    "swapChosen": N_("Swap chosen tiles"),
    "swapStart": N_("Choose the tiles to swap on your rack, then press Swap chosen tiles."),
    "selectedBoard": N_(
        "{tile} selected: move on the board with the arrow keys and press Enter to place it."
    ),
    "selectFirst": N_("Select a tile on your rack first."),
}

PAGE = GamePage(label=BoardView.label, view=BoardView(), messages=MESSAGES, replay_hides=in_replay_hides)
