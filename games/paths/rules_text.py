"""The long help text for ``rules paths``: one message per line (a paragraph or a bullet).

:data:`RULES` is the English text (what :attr:`GameInfo.rules` holds, each line marked for the
catalogue); :func:`rules` says it in the language being spoken, line by line."""

from games.common.speech import N_, _

#: The rules, one message per paragraph or bullet ("" between paragraphs).
PARAGRAPHS: tuple[str, ...] = (
    N_("Mark My Words — place letter tiles on a grid and mark down every new word"),
    "",
    N_(
        "Everyone gets letter tiles (15 each for 2 players, 10 for 3, 7 for 4, 6 for 5, 5 for 6) and one "
        "blank tile; see your tiles with `hand`. Squares are named by column and row: A1 is the top left, "
        "L12 the bottom right of the 12×12 grid."
    ),
    "",
    N_(
        "Words are read along a path of tiles that share an edge (never just a corner): start anywhere, "
        "go in any direction, turn freely, but use each tile at most once per word. A word is new if "
        "nobody has marked it down yet, or if none of its tiles formed an earlier recording of the same "
        "word. Each new word scores a point (scoring=letter: a point per letter)."
    ),
    "",
    N_(
        "First round: place one tile anywhere. If it touches another tile it must make a word. After "
        "that, every tile you place must make a new word. Name the words as you place it; you may also "
        "claim new words elsewhere on the board. Each named word that is allowed, can be read and is new "
        "is marked down; the others are listed and simply don't count (named=all: one of them refuses "
        "the whole move). A tile that makes no new word (no word that counts uses it) goes to the Free "
        "Letter Pile and your turn ends (misplaced=retry: the move is refused and you try again instead)."
    ),
    "",
    N_("Moves (type `/moji play MOVE`; in the terminal just type the move):"),
    N_("• `E5 T ATE TEA`: your T on E5, claiming ATE and TEA (or `T E5 ATE TEA`)."),
    N_(
        "• `swap E5 T ATE`: exchange the blank tile on E5 for your T; it must make a new word, and the "
        "blank comes back to you."
    ),
    N_(
        "• `blank E5`: place your blank tile (no word needed) — only when none of your letters can make "
        "a new word; it also blocks others."
    ),
    N_(
        "• `discard Q`: put a letter on the Free Letter Pile — also only when none of your letters can "
        "make a new word."
    ),
    N_(
        "• `free O F6 X G6 OXCART`: take tiles from the Free Letter Pile for ONE new word that uses all "
        "of them, then play your regular turn. If that word isn't a new word, the free tiles go back and "
        "you give the pile the letter you hold most of (the penalty)."
    ),
    N_(
        "• `knock TEA EAT`: anyone, in the knock window after each turn: claim new words you spotted; "
        "each successful knock keeps the window open."
    ),
    N_("• `pass`: end your turn."),
    N_("Commas between words are fine. A refused move comes back to you with the reason (`why`)."),
    "",
    N_(
        "The game ends when nobody can form or discover a new word (the bot checks every letter still in "
        "play on every square next to a tile), when every player passes in a row, or when no tiles are "
        "left and the last knock window closes. Tiles left over don't count. Most points wins."
    ),
    "",
    N_(
        "First game? The rulebook suggests playing without the extras: `start paths blanks=off "
        "free-pile=off knock=0`. Computer players: bots=N level=easy|normal|hard. Easy ones know only "
        "everyday words, normal ones the words most adults know, hard ones the whole word list."
    ),
    N_(
        "Other languages: language=nl|fr|de|es (each has its own letter tiles: German Ä Ö Ü, Spanish Ñ; "
        "the -s, -ing and -ed bans are English-only)."
    ),
)

#: The English text, one message per line (:attr:`GameInfo.rules`).
RULES = "\n".join(PARAGRAPHS) + "\n"


def rules() -> str:
    """The rules in the language being spoken."""
    return "\n".join(_(line) if line else "" for line in PARAGRAPHS)
