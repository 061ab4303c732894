"""``define WORD``: what a word means, answered privately.

The meanings are the shipped glosses (:mod:`games.lexicon.glosses`: WordNet for English, the
English translations of Ding and FreeDict for German, French, Spanish and Dutch); while a game
runs in the channel the answer also says whether that game takes the word, by the game's own
judge. Nothing here reads the network.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core import views
from bot.core.commands import CommandError
from games.common.grammar import excerpt
from games.common.languages import Language, language
from games.common.speech import N_, _, _n, _p, current
from games.common.text import user
from games.common.words import Verdict
from games.lexicon import glosses

#: The longest word ``define`` looks up (letters): longer text is no word.
MAX_LETTERS = 40

#: Where each language's meanings come from, as the answer credits them.
SOURCES: dict[str, str] = {
    "en": N_("WordNet 3.0 (Princeton University)"),
    "de": N_("Ding German–English dictionary (Frank Richter)"),
    "fr": N_("FreeDict French–English dictionary"),
    "es": N_("FreeDict Spanish–English dictionary"),
    "nl": N_("FreeDict Dutch–English dictionary"),
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
                _("{word}: `define` takes one word and maybe `language=fr`, nothing else.", word=excerpt(arg))
            )
        else:
            words.append(arg)
    if not words:
        raise CommandError(_("Say which word, like `define quoth` (or `define chat language=fr`)."))
    if len(words) > 1:
        raise CommandError(
            _n(
                "`define` looks up one word at a time, and you gave {count}: ask for each on its own.",
                "`define` looks up one word at a time, and you gave {count}: ask for each on its own.",
                len(words),
            )
        )
    return words[0], code


def fold(typed: str, lang: Language) -> str:
    """The word ``typed`` folded in ``lang``; :class:`CommandError` when it is no word."""
    if len(typed) > MAX_LETTERS:
        raise CommandError(
            _("That's too long to be a word: `define` takes {count} letters at most.", count=MAX_LETTERS)
        )
    folded = lang.fold(typed)
    if folded is None or not lang.is_word(folded):
        raise CommandError(
            _(
                "{word} isn't a word I can look up: letters only, without digits, symbols or spaces.",
                word=excerpt(typed),
            )
        )
    return folded


def answer(word: str, lang: Language, verdict: Verdict | None) -> views.View:
    """The private answer for ``word`` (folded in ``lang``): its senses, and the running game's
    ``verdict`` when there is one."""
    shown = user(word.upper())
    title = shown if lang.code == "en" else _("{word} ({language})", word=shown, language=lang.spoken)
    lines: list[str] = []
    table = glosses.load(lang.code)
    found = table.meaning(word) if table is not None else None
    if table is None:
        lines.append(
            _(
                "moji ships no definitions for {language}, so I can't say what {word} means.",
                language=lang.spoken,
                word=shown,
            )
        )
    elif found is None:
        lines.append(
            _(
                "I don't know what {word} means: it isn't in my {language} definitions.",
                word=shown,
                language=lang.spoken,
            )
        )
    else:
        if found.base is not None:
            lines.append(_("{word} is a form of {base}.", word=shown, base=user(found.base.upper())))
        if lang.code != "en" or current() != "en":
            lines.append(_("In English:"))
        for sense in found.senses:
            if sense.pos:
                lines.append(_("• {kind} — {meaning}", kind=_part_of_speech(sense.pos), meaning=sense.text))
            else:
                lines.append(_("• {meaning}", meaning=sense.text))
    if verdict is not None:
        if verdict.ok:
            lines.append(_("✓ The game in this channel takes {word}.", word=shown))
        else:
            reason = verdict.message or _("{word} isn't a word in this game.", word=shown)
            lines.append(_("✗ The game in this channel doesn't take it: {reason}", reason=reason))
    if found is not None:
        source = SOURCES.get(lang.code)
        lines.append(_("Source: {source}.", source=_(source) if source else "moji"))
    return views.View(kind="info", title=title, lines=tuple(lines))


def _part_of_speech(pos: str) -> str:
    """A sense's part of speech (``noun``, ``verb``, ``adj``, ``adv``) as players read it."""
    names = {
        "noun": _p("part of speech", "noun"),
        "verb": _p("part of speech", "verb"),
        "adj": _p("part of speech", "adj"),
        "adv": _p("part of speech", "adv"),
    }
    return names.get(pos, pos)
