"""The dice game's web page: its view (``view.py``), ``page.html``, ``live.html`` and
``script.js`` (see :mod:`games.common.page`)."""

from games.common.page import GamePage
from games.common.speech import N_
from games.dice.web.view import DiceView

#: What the page's script says (``t(key, {…})``), beside what every page's says.
MESSAGES = {
    "added": N_("{letter} added: {word}."),
    "ofCross": N_("{letter} of the word to cross"),
    "blankAs": N_("blank as {letter}"),
    "dieInWord": N_("{die}, letter {position} of your word: press to take it back"),
    "diceHint": N_("Choose dice (and one letter of the word to cross) to build your word."),
    "diceFor": N_("{move}: {word} for {points}."),
    "blankAdded": N_("Blank as {letter} added: {word}."),
    "crossOut": N_("{letter} of the word to cross left out."),
    "crossAdded": N_("{letter} of the word to cross added: {word}."),
    "diceFirst": N_("Build a word from the dice first."),
    "wordCleared": N_("Your word is cleared."),
    "challenged": N_("You challenged."),
    "accepted": N_("You accepted the last word."),
    "concedeSure": N_("Concede this game? You lose it."),
    "conceded": N_("You conceded."),
    "takenBack": N_("{letter} taken back."),
}

PAGE = GamePage(label=DiceView.label, view=DiceView(), messages=MESSAGES)
