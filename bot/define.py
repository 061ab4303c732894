"""``define WORD``: what a word means, answered privately.

The meanings are the shipped glosses (:mod:`games.lexicon.glosses`: WordNet for English, the
English translations of Ding and FreeDict for German, French, Spanish and Dutch); while a game
runs in the channel the answer also says whether that game takes the word, by the game's own
judge. Nothing here reads the network.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import views
from bot.commands import CommandError
from games.common.grammar import excerpt
from games.common.languages import Language, language
from games.common.text import user
from games.common.words import Verdict
from games.lexicon import glosses

#: The longest word ``define`` looks up (letters): longer text is no word.
MAX_LETTERS = 40

#: Where each language's meanings come from, as the answer credits them.
SOURCES: dict[str, str] = {
    "en": "WordNet 3.0 (Princeton University)",
    "de": "Ding German–English dictionary (Frank Richter)",
    "fr": "FreeDict French–English dictionary",
    "es": "FreeDict Spanish–English dictionary",
    "nl": "FreeDict Dutch–English dictionary",
}


def parse_define(args: Sequence[str]) -> tuple[str, str | None]:
    """Read ``WORD [language=CODE]`` (in any order): the word as typed and the language code
    asked for (None: the channel's). :class:`CommandError` with a friendly reason otherwise."""
    words: list[str] = []
    code: str | None = None
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.strip().lower() in {"language", "lang"}:
            try:
                code = language(value).code
            except ValueError as exc:
                raise CommandError(str(exc)) from None
        elif sep:
            raise CommandError(
                f"{excerpt(arg)}: `define` takes one word and maybe `language=fr`, nothing else."
            )
        else:
            words.append(arg)
    if not words:
        raise CommandError("Say which word, like `define quoth` (or `define chat language=fr`).")
    if len(words) > 1:
        raise CommandError(
            f"`define` looks up one word at a time, and you gave {len(words)}: ask for each on its own."
        )
    return words[0], code


def fold(typed: str, lang: Language) -> str:
    """The word ``typed`` folded in ``lang``; :class:`CommandError` when it is no word."""
    if len(typed) > MAX_LETTERS:
        raise CommandError(f"That's too long to be a word: `define` takes {MAX_LETTERS} letters at most.")
    folded = lang.fold(typed)
    if folded is None or not lang.is_word(folded):
        raise CommandError(
            f"{excerpt(typed)} isn't a word I can look up: letters only, without digits, symbols or spaces."
        )
    return folded


def answer(word: str, lang: Language, verdict: Verdict | None) -> views.View:
    """The private answer for ``word`` (folded in ``lang``): its senses, and the running game's
    ``verdict`` when there is one."""
    shown = user(word.upper())
    title = shown if lang.code == "en" else f"{shown} ({lang.name})"
    lines: list[str] = []
    table = glosses.load(lang.code)
    found = table.meaning(word) if table is not None else None
    if table is None:
        lines.append(f"moji ships no definitions for {lang.name}, so I can't say what {shown} means.")
    elif found is None:
        lines.append(f"I don't know what {shown} means: it isn't in my {lang.name} definitions.")
    else:
        if found.base is not None:
            lines.append(f"{shown} is a form of {user(found.base.upper())}.")
        if lang.code != "en":
            lines.append("In English:")
        for sense in found.senses:
            lines.append(f"• {sense.pos} — {sense.text}" if sense.pos else f"• {sense.text}")
    if verdict is not None:
        if verdict.ok:
            lines.append(f"✓ The game in this channel takes {shown}.")
        else:
            reason = verdict.message or f"{shown} isn't a word in this game."
            lines.append(f"✗ The game in this channel doesn't take it: {reason}")
    if found is not None:
        lines.append(f"Source: {SOURCES.get(lang.code, 'moji')}.")
    return views.View(kind="info", title=title, lines=tuple(lines))
