"""What the pages' scripts say (live announcements, prompts, button labels), in the page's
language: each page renders :func:`messages` into ``<script type="application/json"
id="moji-messages">``, which ``static/messages.js``'s ``t(key, {name: …})`` reads. No text a
player reads is written in a script (docs/LANGUAGES.md).
"""

from __future__ import annotations

from games.common.speech import N_, _

#: key -> message (its ``{placeholders}`` are filled by the script).
MESSAGES: dict[str, str] = {
    # every page
    "refused": N_("That move was not accepted."),
    "notYet": N_("Not a move yet."),
    "played": N_("Played."),
    "passed": N_("You passed."),
    "taken": N_("{square} is taken."),
    "hoursLeft": N_("{hours} h {minutes} min"),
    "reasonOf": N_("{move}: {reason}"),
    "blankWhich": N_("Which letter does the blank stand for?"),
    "blankOne": N_("A blank stands for one letter."),
    # a tournament's page
    "tournamentUpdated": N_("The tournament's standings and results are updated."),
    "tournamentOffline": N_("The tournament's page could not update itself: it tries again shortly."),
    # opening a game's link
    "openFromChat": N_("Open this game from the link moji gave you in the chat."),
    "linkDead": N_("This link does not open a game any more: ask for a fresh one in the chat."),
    # MOJO's board
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
    # Mark My Words (paths)
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
    # shed
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
    # dice
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


def messages() -> dict[str, str]:
    """Every script's message in the language being spoken (placeholders left for the script)."""
    return {key: _(text) for key, text in MESSAGES.items()}


__all__ = ["MESSAGES", "messages"]
