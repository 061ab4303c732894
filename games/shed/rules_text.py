"""The long help text for ``rules shed``: one message per line (a paragraph or a bullet).

:data:`RULES` is the English text (what :attr:`GameInfo.rules` holds, each line marked for the
catalogue); :func:`rules` says it in the language being spoken, line by line."""

from games.common.speech import N_, _

#: The rules, one message per paragraph or bullet ("" between paragraphs).
PARAGRAPHS: tuple[str, ...] = (
    N_("Shed — get rid of your cards by making words (2–6 players)"),
    "",
    N_(
        "Everyone gets 7 letter cards; only you see your hand (`hand`, or the private message after each "
        "change). On your turn type ONE line: any number of moves separated by `;`. The line is played "
        "all or nothing; then it is the next player's turn."
    ),
    "",
    N_("Moves (case doesn't matter):"),
    N_("• `WHO`: a new word of 3+ letters from your hand (`play WHO` for words like DRAW)."),
    N_("• `SOCK+H -> SHOCK`: add letters from your hand to a table word; letters may be rearranged."),
    N_("• `SOCK -> SHOCK`: the same: the bot works out which letters come from your hand."),
    N_(
        "• `SHOCK-H+WO -> WHO SOCK`: take letters from a table word and use them in a new word; the table "
        "word must leave a word of 3+ letters behind (you may add to it too)."
    ),
    N_("• `CAT SHOCK -> CHAT SOCK`: move letters between table words; #2 names table word number 2."),
    N_(
        "• `WH*O`: * before a letter: a joker plays it (otherwise jokers are used only for letters you "
        "don't have)."
    ),
    N_("• `draw`: draw a card and end your turn (when you can't or won't play)."),
    N_("For example `WHO; SOCK+H -> SHOCK` plays WHO, then makes SHOCK."),
    "",
    N_("Rules of the table"),
    N_(
        "• Before you add to or take from table words you must have made a word of your own from your "
        "hand (once a game; opening=turn: every turn). Letters taken must be played in the same move."
    ),
    N_(
        "• Jokers (★) play any letter, not in your first word (fine in your last). A joker on the table "
        "can be moved to another word, as long as a word is left behind; it never goes back to a hand."
    ),
    N_(
        "• Action cards: playing one is your whole turn — a line with just the action card, no words "
        "(actions=last: it may end a line of words instead); you can't play one before your first word, "
        "nor as your last card. Played action cards are out of the game: they never come back."
    ),
    N_("– `trade Q`: Deck Trade: Q goes to the discard pile, you take the deck's top card."),
    N_("– `trade Q Bob`: Trade: Bob gets your Q, you take one of Bob's cards blindly."),
    N_("– `skip Bob`: Skip: Bob skips their next turn."),
    N_("– `swap Bob`: Swap Hands: you and Bob swap hands."),
    N_("– `+2 Bob`: Draw Two: Bob draws 2 cards."),
    N_("– `+2 all`: All Draw Two: every opponent draws 2 cards."),
    N_(
        "Name opponents by name (a unique start is enough) or seat number; with one opponent, leave it "
        "out. Cards you receive can't be played before your next turn."
    ),
    N_(
        "• Turn timer: 2 minutes (pace=live) or 24 hours (pace=slow); minutes=N sets your own. A missed "
        "turn draws a card. When the deck is empty the discard pile's letters and jokers are shuffled in "
        "(reshuffle=off: they aren't). A full round of turns in which nobody lays a card from their hand, "
        "plays an action card or draws a card (moving table letters alone doesn't count) ends the round: "
        "the fewest cards win it. So every round ends, within 3 x players x (cards + 1) turns."
    ),
    N_(
        "• The first to shed every card wins. rounds=N plays the Counting Points variant: each round's "
        "winner scores one point per card the others still hold; most points after N rounds wins."
    ),
    "",
    N_("Deal and words: hand=7 cards each (3–10); words of min=3 letters or more (3–5)."),
    N_(
        "Word Rules: English words from the tournament dictionary (dictionary=casual for common words "
        "only); names, place names, countries and abbreviations are refused (rules=...); verbs=off refuses "
        "words that are only verbs; easy=on ignores the Word Rules (a good idea with children)."
    ),
    N_(
        "Cards (cards=...): two = blue letters + 3 jokers + action cards (2 players), group = blue + red + "
        "all jokers + action cards (3–4 players), children = all 110 cards; auto picks by player count."
    ),
    N_(
        "The 110 cards: blue, red and yellow letters (A–Z, vowels twice: 31 each), 5 jokers and 2 of each "
        "action card."
    ),
    N_(
        "Computer players: bots=N level=easy|normal|hard. Easy ones know only everyday words, normal ones "
        "the words most adults know, hard ones the whole dictionary."
    ),
    N_(
        "Language: language=nl|fr|de|es plays in Dutch, French, German or Spanish (its dictionary; German "
        "cards add Ä Ö Ü, Spanish Ñ; accents typed fold as the language's word games do). The -s, -ing "
        "and -ed bans are English-only."
    ),
)

#: The English text, one message per line (:attr:`GameInfo.rules`).
RULES = "\n".join(PARAGRAPHS) + "\n"


def rules() -> str:
    """The rules in the language being spoken."""
    return "\n".join(_(line) if line else "" for line in PARAGRAPHS)
