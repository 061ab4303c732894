"""The shed game's web page: its view (``view.py``), ``page.html``, ``live.html`` and
``script.js`` (see :mod:`games.common.page`)."""

from games.common.page import GamePage
from games.common.speech import N_
from games.shed.web.view import ShedView

#: What the page's script says (``t(key, {…})``), beside what every page's says.
MESSAGES = {
    "jokerAs": N_("joker as {letter}"),
    "inWord": N_("{card} in your word, letter {position}: press to take it back"),
    "handHint": N_("Choose cards from your hand to build a word."),
    "typeResults": N_("Type the words the table words and your cards make."),
    "jokerWhich": N_("Which letter does the joker play?"),
    "jokerOne": N_("A joker plays one letter."),
    "jokerAdded": N_("Joker as {letter} added: {word}."),
    "added": N_("{letter} added: {word}."),
    "backInHand": N_("{letter} back in your hand."),
    "sourceIn": N_("Table word {number} is in your move: type the words it makes."),
    "sourceOut": N_("Table word {number} left out."),
    "joker": N_("joker"),
    "buildFirst": N_("Build a word from your cards first."),
    "cardsBack": N_("Your cards are back in your hand."),
    "drew": N_("You drew a card."),
    "actionPlayed": N_("{card} played."),
}

PAGE = GamePage(label=ShedView.label, view=ShedView(), messages=MESSAGES)
