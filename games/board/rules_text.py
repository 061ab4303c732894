"""The long help text for ``rules board``: one message per line (a paragraph or a bullet), shown
through :meth:`games.common.protocol.GameInfo.rules_text` in the language being spoken (the
options' own lines are appended by the bot)."""

from games.common.speech import N_

RULES = "\n".join(
    (
        N_("MOJO — the board game (2–4 players; computer players fill seats)"),
        "",
        N_(
            "Each player has a rack of 7 letter tiles. Take turns laying a word on the board, across "
            "(left to right) or down (top to bottom). The first word must cover a star in the middle; "
            "every later word must touch a tile already on the board. Every word a move forms — the main "
            "word and each word across it — must be in the dictionary."
        ),
        "",
        N_("Moves (type them in the game's thread, or /moji play …):"),
        N_(
            "• `H8 across WORD`, `H8 down WORD`: column letter, row number from the top, then the WHOLE "
            "word, including letters already on the board. A blank is a lower-case letter: "
            "`H8 across QuIZ` uses a blank for the U."
        ),
        N_(
            "• `swap ABC`: swap those tiles with the bag (a blank is ?); only while the bag holds at "
            "least 7 tiles."
        ),
        N_("• `pass`: pass your turn."),
        N_("• `resign`: you forfeit the game."),
        "",
        N_(
            "Scoring: each tile scores its points (a blank scores 0). A blue square triples the letter "
            "put on it, a pink square doubles the whole word; letter bonuses count first, word bonuses "
            "after, and only for tiles put down this turn. Using all 7 tiles in one move adds 40 points. "
            "After each move you draw back up to 7 tiles while the bag lasts."
        ),
        "",
        N_(
            "The board: 16×16, in 2×2 clusters coloured blue and pink like a checkerboard; each cluster "
            "has one bonus square at a random place (blue: triple letter, pink: double word), different "
            "every game. The four middle squares are the stars. layout=classic plays the 15×15 classic "
            "board instead (double/triple letter and word squares, 50-point bingo)."
        ),
        "",
        N_(
            "The game ends when a player uses their last tile and the bag is empty, when one player "
            "passes three times in a row, or after three full rounds of scoreless turns in a row "
            "(passes, swaps, words worth 0): six turns with two players, the tournament rule "
            "(scoreless=1..5 rounds). Then each player loses the points of the tiles left on their rack, "
            "and a player who used every tile gains the others' leftover points. Highest score wins."
        ),
        N_(
            "You have 72 hours for each turn (reminders at 24 h and 6 h left); run out of time and you "
            "lose the game. live=on plays live-minutes per turn instead (default 3)."
        ),
        "",
        N_(
            "Computer players: bots=0..3 level=easy|normal|hard (hard finds the best move; easy ones "
            "play only everyday words, normal ones words most adults know, hard ones the whole "
            "dictionary). missed=on: after the game, each player sees the best move they missed on "
            "each turn."
        ),
        N_(
            "language=en|nl|fr|de|es: the language of the words and tiles (default en): each has its "
            "own tiles and values (German Ä Ö Ü, Spanish Ñ)."
        ),
        N_('Your rack is shown to you privately (/moji hand). "why" repeats why a move was refused.'),
    )
)
