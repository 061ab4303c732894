"""The long help text for ``rules dice`` (the options' own lines are appended by the bot)."""

from games.dice.dice import faces_table

RULES = f"""\
Letter dice — ten letter dice, crossing words (2 players or 2 teams)

The player with the longest first name goes first (teams: players sit on alternate sides
in the order they joined, and take turns rolling for their side).

• Turn 1: the bot rolls all ten dice. Make a word from the letters rolled; it lies on the mat.
• Every later turn: the bot rolls every die that is NOT in the word on the mat. Your word
  must cross that word at right angles, sharing exactly one of its letters (one die); every
  other letter comes from the dice just rolled. The word you cross is then picked up, and
  your word stays: long words leave the other side fewer dice.
• A blank is any letter, worth 0. Once on the mat it keeps the letter it was given.
• Score: the points on every letter of your word, the shared one included.
• Five words each (words=N), then the most points wins.
• If you cannot make a word, you lose at once, even on the last turn. The bot checks every
  roll: when no allowed word exists it says so (it has tried the whole dictionary) and the
  game ends (if you may still challenge the last word, you get that one chance first);
  `concede` gives up, and the bot shows a word you could have made.

Challenges: before you play your word, you may `challenge` the other side's last word.
The bot looks it up (the tournament dictionary; proper nouns, abbreviations, contractions
and foreign words are not allowed). Not there: it scores 0, comes off the mat, and the
dice are rolled again for you. There: its score is doubled. Playing your word (or
`accept`) lets the last word stand. The game's last word can be challenged for a while
after it is played (window=, seconds). With strict=on there are no challenges: the
lexicon refuses a word that isn't allowed at once, and you try again.

How to type a move (in the terminal just type it; in chat `/moji play ...`):
  STONE        the word; letters come from the dice, blanks fill in for missing letters
  STONe        lower-case letters are blanks (here the E)
  STONE 2 1    letter 2 of STONE (T) is letter 1 of the word on the mat
  challenge · accept · concede      (=ACCEPT plays the word ACCEPT)
The mat shows blanks in lower case; the roll shows each die as letter and points (?0 is a
blank).

Turn limit: turn=minutes (24 hours by default); a reminder comes when a quarter is left,
and a missed turn scores 0. live=on plays fast: 2-minute turns and 30 s for the last
word's challenge (it overrides turn= and window=). Computer players: bots=N
level=easy|normal|hard (easy plays short words, hard long high-scoring ones and catches
every made-up word). Easy computer players know only everyday words, normal ones the words
most adults know, hard ones the whole dictionary.

language=nl|fr|de|es plays in Dutch, French, German or Spanish: that language's dictionary,
dice and letter values (German dice have Ä Ö Ü, Spanish Ñ; `python -m games.dice faces
--language de` lists them).

The dice (letter and points on each face):
{faces_table()}
"""
