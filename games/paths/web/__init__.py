"""The paths game's web page: its view (``view.py``), ``page.html``, ``live.html`` and
``script.js`` (see :mod:`games.common.page`)."""

from games.common.page import GamePage
from games.common.speech import N_
from games.paths.web.view import PathsView

#: What the page's script says (``t(key, {…})``), beside what every page's says.
MESSAGES = {
    "placedByYou": N_("{square}, {tile}, placed by you"),
    "placedOn": N_("{tile} placed on {square}."),
    "yourBlankTile": N_("your blank tile"),
    "fromPile": N_("{tile} from the Free Letter Pile"),
    "freeOn": N_("{tile} on {square}"),
    "freeHint": N_("Free tiles: {tiles}. Type the one new word they make, then press Take free tiles."),
    "gridHint": N_("Place a tile on the grid and name the new words it makes."),
    "blankOn": N_("Your blank tile on {square}: press Play to place it."),
    "wordWhy": N_("{word}: {reason}"),
    "wordOk": N_("{word} ✓ {points}"),
    "aloneNoWord": N_("A tile on its own needs no word here."),
    "freeNeedsEmpty": N_("A free tile needs an empty square: {square} holds a blank tile."),
    "freeBefore": N_("Free tiles come before your own move: take your tile back first."),
    "pilePlaced": N_("{tile} from the Free Letter Pile placed on {square}."),
    "freeFirst": N_("Take your free tiles first (Take free tiles), or take them back."),
    "blankPlaced": N_("Your blank tile placed on {square}."),
    "freeBack": N_("The free tiles are back on the pile."),
    "tileBack": N_("Your tile is back on your rack."),
    "backOnPile": N_("{tile} is back on the Free Letter Pile."),
    "selectedGrid": N_("{tile} selected: move on the grid with the arrow keys and press Enter to place it."),
    "gridFirst": N_("Place a tile on the grid first."),
    "pileFirst": N_("Place tiles of the Free Letter Pile on the grid first."),
    "typeFreeWord": N_("Type the one new word your free tiles make."),
    "tookFree": N_("You took the free tiles: now your regular move."),
    "typeKnock": N_("Type the new words you found, then press Knock."),
    "knocked": N_("Knocked."),
    "discardFirst": N_("Select the letter to discard on your rack first."),
    "onPile": N_("{tile} is on the Free Letter Pile."),
    "selectOrPile": N_("Select a tile on your rack (or on the Free Letter Pile) first."),
}

PAGE = GamePage(label=PathsView.label, view=PathsView(), messages=MESSAGES)
