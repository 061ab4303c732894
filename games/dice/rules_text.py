"""The long help text for ``rules dice``: one message per line (a paragraph or a bullet), shown
through :meth:`games.common.protocol.GameInfo.rules_text` in the language being spoken; the dice'
faces follow (:func:`faces`), and the options' own lines are appended by the bot."""

from games.common.speech import N_, _
from games.dice.dice import faces_table

RULES = "\n".join(
    (
        N_("Letter dice — ten letter dice, crossing words (2 players or 2 teams)"),
        "",
        N_(
            "The player with the longest first name goes first (teams: players sit on alternate sides "
            "in the order they joined, and take turns rolling for their side)."
        ),
        "",
        N_("• Turn 1: the bot rolls all ten dice. Make a word from the letters rolled; it lies on the mat."),
        N_(
            "• Every later turn: the bot rolls every die that is NOT in the word on the mat. Your word "
            "must cross that word at right angles, sharing exactly one of its letters (one die); every "
            "other letter comes from the dice just rolled. The word you cross is then picked up, and "
            "your word stays: long words leave the other side fewer dice."
        ),
        N_("• A blank is any letter, worth 0. Once on the mat it keeps the letter it was given."),
        N_("• Score: the points on every letter of your word, the shared one included."),
        N_("• Five words each (words=N), then the most points wins."),
        N_(
            "• If you cannot make a word, you lose at once, even on the last turn. The bot checks every "
            "roll: when no allowed word exists it says so (it has tried the whole dictionary) and the "
            "game ends (if you may still challenge the last word, you get that one chance first); "
            "`concede` gives up, and the bot shows a word you could have made."
        ),
        "",
        N_(
            "Challenges: before you play your word, you may `challenge` the other side's last word. The "
            "bot looks it up (the tournament dictionary; proper nouns, abbreviations, contractions and "
            "foreign words are not allowed). Not there: it scores 0, comes off the mat, and the dice "
            "are rolled again for you. There: its score is doubled. Playing your word (or `accept`) "
            "lets the last word stand. The game's last word can be challenged for a while after it is "
            "played (window=, seconds). With strict=on there are no challenges: the lexicon refuses a "
            "word that isn't allowed at once, and you try again."
        ),
        "",
        N_("How to type a move (in the terminal just type it; in chat `/moji play ...`):"),
        N_("• `STONE`: the word; letters come from the dice, blanks fill in for missing letters."),
        N_("• `STONe`: lower-case letters are blanks (here the E)."),
        N_("• `STONE 2 1`: letter 2 of STONE (T) is letter 1 of the word on the mat."),
        N_("• `challenge` · `accept` · `concede` (`=ACCEPT` plays the word ACCEPT)."),
        N_(
            "The mat shows blanks in lower case; the roll shows each die as letter and points "
            "(?0 is a blank)."
        ),
        "",
        N_(
            "Turn limit: turn=minutes (24 hours by default); a reminder comes when a quarter is left, "
            "and a missed turn scores 0. live=on plays fast: 2-minute turns and 30 s for the last word's "
            "challenge (it overrides turn= and window=)."
        ),
        N_(
            "Computer players: bots=N level=easy|normal|hard (easy plays short words, hard long "
            "high-scoring ones and catches every made-up word). Easy computer players know only everyday "
            "words, normal ones the words most adults know, hard ones the whole dictionary."
        ),
        "",
        N_(
            "language=nl|fr|de|es plays in Dutch, French, German or Spanish: that language's dictionary, "
            "dice and letter values (German dice have Ä Ö Ü, Spanish Ñ; `python -m games.dice faces "
            "--language de` lists them)."
        ),
    )
)


def faces() -> str:
    """The dice' faces under the rules (English dice), said in the language being spoken."""
    return _("The dice (letter and points on each face):") + "\n" + faces_table()
