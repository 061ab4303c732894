"""The long help text for ``rules race``: one message per line (a paragraph or a bullet), shown
through :meth:`games.common.protocol.GameInfo.rules_text` in the language being spoken."""

from games.common.speech import N_

RULES = "\n".join(
    (
        N_("moji — the flip race (for people who know words)"),
        "",
        N_(
            "Everyone has a face-down stack of letter cards (15 each; cards=5 for a quick break). The"
            " bot flips one card for each player. Type a word that uses at least two face-up letters:"
            " each letter in your word claims one matching card (two T cards need two Ts). You may "
            "imagine other letters: with C and T face-up, CAT, TOPIC and SECTION all work."
        ),
        "",
        N_(
            "• The earliest valid word (by the chat's own timestamp) wins the cards it uses; the "
            "other cards stay face-up for the next word. Answers a few ms apart are a tie: the first "
            "of the tied players to name a different word wins."
        ),
        N_(
            "• If your card was taken, your next card flips by itself after a short pause; until then"
            " you can't collect. With an empty stack you may still claim."
        ),
        N_(
            '• Stuck? After the hourglass (30 s) or when everyone types "skip", the face-up cards go '
            "to the discard pile, the bot shows a word that would have worked (and what it means), "
            "and everyone flips. A word you don't know? `define WORD` tells you, privately."
        ),
        N_(
            "• When the stacks are played out (or only one player has cards left), one last hourglass"
            " runs for the cards still face-up. Points: A E I O U L N S T R = 1, D G = 2, B C M P = "
            "3, F H V W Y = 4, K = 5, J X = 8, Q Z = 10. Most points: the moji Master!"
        ),
        "",
        N_(
            "General Rules: no proper nouns, abbreviations, contractions or foreign words. Stricter "
            "(rules=...): plural-s (no plurals ending in -s), ing and ed (no -ing or -ed endings), "
            "repeat (no word twice in a game), or general=on for all of them."
        ),
        N_(
            "Word Challenges: min=3|4|5, placement=first-or-last|first-and-last|in-between, "
            "themes=nouns,verbs,adjectives,food,animals,movies,books,persons (food, animals, titles "
            "and famous people may be several words: SCRAMBLED EGGS, POLAR BEAR, STAR WARS; titles "
            "and famous people the dictionary doesn't know go to a quick yes/no vote of the other "
            "people; bots never vote, so alone they don't count, at no cost: an admin can allow one "
            "with `words add TITLE`, and titles voted in are kept that way for the next games). "
            "challenge-of-round=on draws a random Word Challenge card."
        ),
        "",
        N_("Variations (variation=...):"),
        N_("– `stack-em-up`: when stuck, new cards land on top; a used card takes its stack with it"),
        N_("– `do-si-do`: 4 or 6 players: partners across the table add up their win piles"),
        N_("– `ball-and-chain`: like do-si-do, and you may only use your own and your partner's cards"),
        N_("– `monochrome`: all the cards a word uses must be the same colour"),
        N_("– `three-amigos`: 4+ players: only your own card and your two neighbours' cards"),
        N_(
            "– `off-the-grid`: a grid of letters (5x5 for 2 .. 9x9 for 6); take turns, 30 s each, to "
            "name a word"
        ),
        N_(
            "– `eagle-eyes`: write words privately (DM, /moji list); shared words cross out; 1 point"
            " a letter use"
        ),
        N_("masters-choice=on: the moji Master picks the next game's challenges."),
        "",
        N_(
            "Computer players: bots=N level=easy|normal|hard. Easy ones know only everyday words, "
            "normal ones the words most adults know, hard ones the whole dictionary (and with a "
            "movies, books or persons theme every level knows every title and name)."
        ),
        N_(
            "Language: language=nl|fr|de|es plays in Dutch, French, German or Spanish: its "
            "dictionary, its letters (German adds Ä Ö Ü cards, Spanish Ñ) and its Scrabble letter "
            "values. Themes and the -s, -ing and -ed bans are English-only."
        ),
        N_('Type "why" after a ❌ to see the reason; "skip" to vote to discard stuck cards.'),
    )
)
