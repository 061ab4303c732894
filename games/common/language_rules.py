"""Which word rules work in which language, and the reason a game gives when one doesn't.

The themes (WordNet's noun, verb, food... lists) and the -s / -ing / -ed bans read
English word forms, so a game in another language refuses them at its start with a
clear reason instead of judging words by the wrong language's grammar. The other bans
(proper nouns, abbreviations, contractions, foreign words) work in every language.
"""

from __future__ import annotations

from collections.abc import Collection

from games.common.languages import Language
from games.common.speech import N_, _
from games.common.words import BANS

#: Bans that read English word endings.
ENGLISH_ONLY_BANS: frozenset[str] = frozenset({"plural-s", "ing", "ed"})

THEMES_REASON = N_("Themes are English-only for now.")
BANS_REASON = N_("The -s, -ing and -ed bans are English-only.")


def english_only(
    language: Language, *, themes: Collection[str] = (), bans: Collection[str] = ()
) -> str | None:
    """Why a game in ``language`` can't start with these themes and bans, or None when it can."""
    if language.code == "en":
        return None
    if themes:
        return _(
            "Themes are English-only for now. Start a {language} game without themes.",
            language=language.spoken,
        )
    chosen = [ban for ban in BANS if ban in ENGLISH_ONLY_BANS and ban in bans]
    if chosen:
        return _(
            "The -s, -ing and -ed bans are English-only. Start a {language} game without rules={rules}.",
            language=language.spoken,
            rules=",".join(chosen),
        )
    return None


#: Bans no other language's data can judge: a word list marks no foreign words, so in another
#: language this ban refuses nothing (and a game's rules don't promise it).
UNJUDGED_OUTSIDE_ENGLISH: frozenset[str] = frozenset({"foreign"})


def judged_bans(language: Language, bans: frozenset[str]) -> frozenset[str]:
    """The bans of ``bans`` the lexicon of ``language`` can judge (what the rules may promise)."""
    if language.code == "en":
        return bans
    return bans - ENGLISH_ONLY_BANS - UNJUDGED_OUTSIDE_ENGLISH


def without_english_bans(language: Language, bans: frozenset[str]) -> frozenset[str]:
    """``bans`` less the English-only ones when ``language`` is not English (``general=on``:
    every ban the language has)."""
    return bans if language.code == "en" else bans - ENGLISH_ONLY_BANS
