"""The long help text for ``rules race``: :func:`rules` gives its paragraphs in the language
being spoken (one catalogue message per paragraph or bullet)."""

from __future__ import annotations

from games.common.speech import _


def rules() -> list[str]:
    """The race's rules, paragraph by paragraph, in the language being spoken."""
    return [
        _("moji — the flip race (for people who know words)"),
        _(
            "Everyone has a face-down stack of letter cards (15 each; cards=5 for a quick break).\n"
            "The bot flips one card for each player. Type a word that uses at least two face-up\n"
            "letters: each letter in your word claims one matching card (two T cards need two Ts).\n"
            "You may imagine other letters: with C and T face-up, CAT, TOPIC and SECTION all work."
        ),
        _(
            "• The earliest valid word (by the chat's own timestamp) wins the cards it uses; the\n"
            "  other cards stay face-up for the next word. Answers a few ms apart are a tie: the first\n"
            "  of the tied players to name a different word wins."
        ),
        _(
            "• If your card was taken, your next card flips by itself after a short pause; until\n"
            "  then you can't collect. With an empty stack you may still claim."
        ),
        _(
            '• Stuck? After the hourglass (30 s) or when everyone types "skip", the face-up cards go\n'
            "  to the discard pile, the bot shows a word that would have worked (and what it means),\n"
            "  and everyone flips. A word you don't know? `define WORD` tells you, privately."
        ),
        _(
            "• When the stacks are played out (or only one player has cards left), one last\n"
            "  hourglass runs for the cards still face-up. Points: A E I O U L N S T R = 1, D G = 2,\n"
            "  B C M P = 3, F H V W Y = 4, K = 5, J X = 8, Q Z = 10. Most points: the moji Master!"
        ),
        _(
            "General Rules: no proper nouns, abbreviations, contractions or foreign words. Stricter\n"
            "(rules=...): plural-s (no plurals ending in -s), ing and ed (no -ing or -ed endings),\n"
            "repeat (no word twice in a game), or general=on for all of them."
        ),
        _(
            "Word Challenges: min=3|4|5, placement=first-or-last|first-and-last|in-between,\n"
            "themes=nouns,verbs,adjectives,food,animals,movies,books,persons (food, animals, titles\n"
            "and famous people may be several words: SCRAMBLED EGGS, POLAR BEAR, STAR WARS; titles and\n"
            "famous people the dictionary doesn't know go to a quick yes/no vote of the other people; bots\n"
            "never vote, so alone they don't count, at no cost: an admin can allow one with\n"
            "`words add TITLE`, and titles voted in are kept that way for the next games).\n"
            "challenge-of-round=on draws a random Word Challenge card."
        ),
        _("Variations (variation=...):"),
        _("  stack-em-up    when stuck, new cards land on top; a used card takes its stack with it"),
        _("  do-si-do       4 or 6 players: partners across the table add up their win piles"),
        _("  ball-and-chain like do-si-do, and you may only use your own and your partner's cards"),
        _("  monochrome     all the cards a word uses must be the same colour"),
        _("  three-amigos   4+ players: only your own card and your two neighbours' cards"),
        _(
            "  off-the-grid   a grid of letters (5x5 for 2 .. 9x9 for 6); "
            "take turns, 30 s each, to name a word"
        ),
        _(
            "  eagle-eyes     write words privately (DM, /moji list); "
            "shared words cross out; 1 point a letter use"
        ),
        _("masters-choice=on: the moji Master picks the next game's challenges."),
        _(
            "Computer players: bots=N level=easy|normal|hard. Easy ones know only everyday words, normal\n"
            "ones the words most adults know, hard ones the whole dictionary (and with a movies, books or\n"
            "persons theme every level knows every title and name)."
        ),
        _(
            "Language: language=nl|fr|de|es plays in Dutch, French, German or Spanish: its dictionary,\n"
            "its letters (German adds Ä Ö Ü cards, Spanish Ñ) and its Scrabble letter values. Themes and\n"
            "the -s, -ing and -ed bans are English-only."
        ),
        _('Type "why" after a ❌ to see the reason; "skip" to vote to discard stuck cards.'),
    ]


#: Where a paragraph break falls in the rules text (the lines of the variations' table and the
#: last lines go on without a blank line, as the rules always read).
_JOINED_TO_NEXT = frozenset({2, 3, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18})


def rules_text() -> str:
    """The whole rules text in the language being spoken, laid out as one text."""
    parts = rules()
    out = ""
    for i, part in enumerate(parts):
        out += part + ("\n" if i in _JOINED_TO_NEXT or i == len(parts) - 1 else "\n\n")
    return out


class _Rules(str):
    """``GameInfo.rules`` as a text: reads as :func:`rules_text` in the language being spoken
    wherever it is shown (``str()``, ``strip()``, ``splitlines()``, formatting)."""

    __slots__ = ()

    def __str__(self) -> str:
        return rules_text()

    def __format__(self, spec: str) -> str:
        return format(rules_text(), spec)

    def strip(self, chars: str | None = None) -> str:
        return rules_text().strip(chars)

    def splitlines(self, keepends: bool = False) -> list[str]:
        return rules_text().splitlines(keepends)

    def __add__(self, other: str) -> str:
        return rules_text() + other

    def __radd__(self, other: str) -> str:
        return other + rules_text()


#: The rules as ``GameInfo.rules`` keeps them (English by default, spoken where shown).
RULES: str = _Rules(rules_text())
