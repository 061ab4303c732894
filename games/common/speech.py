"""What moji says, in the language it speaks: gettext catalogues read with Babel.

Every sentence a player or an admin reads is one message of the catalogue
(``games/common/locale/<code>/LC_MESSAGES/moji.po``), written whole, with named
placeholders, and looked up in the language being spoken::

    _("{name} takes {letters} with {word}.", name=name, letters=letters, word=word)
    _n("{count} card left", "{count} cards left", left)
    _p("button", "Join")

Which language is spoken is a context (:func:`speaking`), set where a message is made for
an audience: the session speaks its chat's language around every engine call, a handler
the asker's, the terminal the system locale's. Engines stay pure: they never choose a
language, they only speak in the one they are given.

Placeholders are plain ``{name}`` (no format spec): numbers passed as ``int`` or ``float``
are written the way the language writes them (``1,234`` in English, ``1.234`` in German);
pass a ``str`` for anything that must stay as it is (a year, a code, a ``+7``).

Text defined before anyone speaks (option descriptions, command help, button labels) is
marked with :func:`N_` where it is defined and translated with :func:`_` where it is shown.

``qps`` is a pseudo-language for the tests: every message comes out as ``⟦message⟧``, so a
scan of what moji printed finds any text that did not come through the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from gettext import c2py
from pathlib import Path
from typing import Literal

from babel import Locale
from babel.core import UnknownLocaleError
from babel.lists import format_list
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

#: The languages moji speaks, in the order menus list them (English is the source).
LANGUAGES: tuple[str, ...] = ("en", "nl", "fr", "de", "es")
#: The pseudo-language of the tests: every message marked ``⟦…⟧``.
PSEUDO = "qps"
OPEN, CLOSE = "⟦", "⟧"
#: Each language's own name for itself (menus of languages show these).
NATIVE_NAMES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "fr": "Français",
    "de": "Deutsch",
    "es": "Español",
}
DOMAIN = "moji"
LOCALE_DIR = Path(__file__).with_name("locale")

_speaking: ContextVar[str] = ContextVar("moji_speaking")
#: Spoken where no :func:`speaking` says otherwise.
_fallback = "en"
#: When set, every :func:`speaking` speaks this instead (:func:`speak_only`).
_only: str | None = None
_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})")


def current() -> str:
    """The code of the language being spoken (``en`` unless :func:`speaking` says otherwise)."""
    return _speaking.get(_fallback)


@contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Speak ``code`` (a catalogue's code, or anything :func:`resolve` reads) inside the block.

    An unknown or empty code speaks English. Yields the code spoken."""
    spoken = _only or resolve(code) or "en"
    token = _speaking.set(spoken)
    try:
        yield spoken
    finally:
        _speaking.reset(token)


@contextmanager
def speak_only(code: str) -> Iterator[None]:
    """Everything inside speaks ``code``, whatever any :func:`speaking` asks for: the tests'
    way to run a whole process in the pseudo-language. Not for production code."""
    global _fallback, _only
    before = _fallback, _only
    _fallback = _only = code
    try:
        yield
    finally:
        _fallback, _only = before


def resolve(tag: str | None) -> str | None:
    """The catalogue that speaks a locale tag, or None: ``es-419`` and ``es_ES.UTF-8`` are
    ``es``, ``de-AT`` is ``de``, ``en-GB`` is ``en``, ``pt-BR`` is None (no catalogue)."""
    if not tag:
        return None
    if tag == PSEUDO:
        return PSEUDO
    base = re.split(r"[-_.@]", tag.strip(), maxsplit=1)[0].lower()
    return base if base in LANGUAGES else None


def spoken_from(*tags: str | None) -> str:
    """The first of ``tags`` that a catalogue speaks (``en`` if none): a person's own locale
    first, then the chat's."""
    for tag in tags:
        code = resolve(tag)
        if code:
            return code
    return "en"


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue where it is defined; :func:`_` translates it where
    it is shown."""
    return message


def _(message: str, /, **params: object) -> str:
    """``message`` in the language being spoken, its ``{placeholders}`` filled from ``params``."""
    code = current()
    if not params:
        return _lookup(code, None, message)
    try:
        return _said(code, None, message, tuple(params.items()))
    except TypeError:  # (a value that cannot be kept: said afresh)
        return _fill(_lookup(code, None, message), params, code)


def _p(context: str, message: str, /, **params: object) -> str:
    """Like :func:`_`, for a message whose English is ambiguous (``_p("button", "Pass")``):
    ``context`` tells translators which meaning it has."""
    code = current()
    if not params:
        return _lookup(code, context, message)
    try:
        return _said(code, context, message, tuple(params.items()))
    except TypeError:  # (a value that cannot be kept: said afresh)
        return _fill(_lookup(code, context, message), params, code)


def _n(singular: str, plural: str, count: int, /, **params: object) -> str:
    """The form of a message for ``count`` by the language's plural rules (CLDR); ``{count}``
    is filled with ``count`` as the language writes numbers."""
    try:
        return _counted(current(), singular, plural, count, tuple(params.items()))
    except TypeError:  # (a value that cannot be kept: said afresh)
        return _counted.__wrapped__(current(), singular, plural, count, tuple(params.items()))


def opening(message: str, /, context: str | None = None) -> str:
    """How ``message`` begins in the language being spoken, up to its first placeholder: a view
    that recognises a game's own line (``opening("Roll: {dice}")`` is ``Wurf: `` in German) reads
    the same message the game said, never an English prefix."""
    text = _lookup(current(), context, message)
    found = _PLACEHOLDER.search(text)
    return text[: found.start()] if found else text


def number(value: float) -> str:
    """``value`` as the language being spoken writes numbers (``1,234.5``; ``1.234,5``)."""
    return format_decimal(value, locale=_babel_locale(current()))


def listing(items: Iterable[str], *, style: Literal["standard", "or"] = "standard") -> str:
    """``A``, ``A and B``, ``A, B and C`` (``style="or"``: ``A or B``) in the language being
    spoken, by CLDR's rules for lists."""
    parts = list(items)
    code = current()
    if code == PSEUDO and len(parts) > 1:
        return f"{', '.join(parts[:-1])} {OPEN}{'or' if style == 'or' else 'and'}{CLOSE} {parts[-1]}"
    # (English lists as moji has always written them, without the serial comma: "A, B and C")
    locale = _babel_locale("en_GB" if code == "en" else code)
    return format_list(parts, style=style, locale=locale) if parts else ""


def duration(seconds: float) -> str:
    """A span of time as precise as a player needs: ``45 s``, ``1 min 46 s``, ``2 min``,
    ``71 h 59 min``, ``72 h``, ``4 days 2 h``, in the language being spoken."""
    total = max(0, round(seconds))
    if total < 60:
        return _("{seconds} s", seconds=total)
    minutes, secs = divmod(total, 60)
    if minutes < 60:
        if secs:
            return _("{minutes} min {seconds} s", minutes=minutes, seconds=secs)
        return _("{minutes} min", minutes=minutes)
    hours, minutes = divmod(minutes, 60)
    if hours < 96:
        if minutes:
            return _("{hours} h {minutes} min", hours=hours, minutes=minutes)
        return _("{hours} h", hours=hours)
    days, hours = divmod(hours, 24)
    if hours:
        return _n("{count} day {hours} h", "{count} days {hours} h", days, hours=hours)
    return _n("{count} day", "{count} days", days)


def babel_locale(code: str | None = None) -> Locale:
    """The Babel locale of a catalogue (the one being spoken by default), for dates and times."""
    return _babel_locale(code or current())


def placeholders(message: str) -> set[str]:
    """The names of ``message``'s ``{placeholders}`` (catalogue checks compare them)."""
    return set(_PLACEHOLDER.findall(message))


def catalogue_path(code: str) -> Path:
    """Where the catalogue of ``code`` lives."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


# -- the machinery -------------------------------------------------------------------------


# A table says the same sentences with the same values again and again (scores, cards left,
# whose turn): each filled sentence is kept, so saying it again costs a dictionary lookup.
@lru_cache(maxsize=16384)
def _said(code: str, context: str | None, message: str, params: tuple[tuple[str, object], ...]) -> str:
    return _fill(_lookup(code, context, message), dict(params), code)


@lru_cache(maxsize=16384)
def _counted(
    code: str, singular: str, plural: str, count: int, params: tuple[tuple[str, object], ...]
) -> str:
    forms = _plurals(code, singular)
    if forms is None:
        text = singular if count == 1 else plural
    else:
        text = forms[_plural_index(code, count)]
    if code == PSEUDO and (None, singular) in _template():
        text = f"{OPEN}{text}{CLOSE}"
    return _fill(text, {"count": count, **dict(params)}, code)


class _Kept(dict[str, str]):
    """Placeholders without a value stay as they are (``{name}``)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _text_of(item: object, code: str) -> str:
    if isinstance(item, bool) or not isinstance(item, int | float):
        return str(item)
    if isinstance(item, int):
        return _integer(code, item)
    return format_decimal(item, locale=_babel_locale(code))


def _fill(text: str, params: dict[str, object], code: str) -> str:
    values = _Kept({name: _text_of(item, code) for name, item in params.items()})
    try:
        # (str.format_map is several times faster than a regular expression's substitution, and
        # a message's placeholders are plain names, which it reads the same way)
        return text.format_map(values)
    except (ValueError, IndexError, KeyError, AttributeError):  # a brace that is no placeholder
        return _PLACEHOLDER.sub(lambda m: values[m.group(1)], text).replace("{{", "{").replace("}}", "}")


@lru_cache(maxsize=8192)
def _integer(code: str, value: int) -> str:
    """An integer as ``code`` writes it (Babel's CLDR rules, ~20 µs a call: a table's scores and
    counts repeat, so each is worked out once)."""
    return format_decimal(value, locale=_babel_locale(code))


@cache
def _babel_locale(code: str) -> Locale:
    try:
        return Locale.parse("en" if code == PSEUDO else code)
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


Key = tuple[str | None, str]


@cache
def _catalogue(code: str) -> dict[Key, str | tuple[str, ...]]:
    """The translated, non-fuzzy messages of ``code``'s catalogue (empty for English and for a
    language without one)."""
    path = catalogue_path(code)
    if code in ("en", PSEUDO) or not path.exists():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=code, domain=DOMAIN)
    found: dict[Key, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms = tuple(str(form) for form in message.string or ())
            if all(forms):
                found[(message.context, str(message.id[0]))] = forms
        elif message.string:
            found[(message.context, str(message.id))] = str(message.string)
    return found


def _lookup(code: str, context: str | None, message: str) -> str:
    if code == PSEUDO:
        # (only a message of the catalogue is marked: text that reaches _() without being one,
        # built at run time or cut differently from what the code marked, shows up unmarked)
        return f"{OPEN}{message}{CLOSE}" if (context, message) in _template() else message
    if code == "en":
        return message
    found = _catalogue(code).get((context, message))
    return found if isinstance(found, str) else message


@cache
def _template() -> frozenset[Key]:
    """Every message of the catalogue's template (what the pseudo-language marks)."""
    path = LOCALE_DIR / f"{DOMAIN}.pot"
    if not path.exists():
        return frozenset()
    with path.open("rb") as handle:
        catalog = read_po(handle, domain=DOMAIN)
    found: set[Key] = set()
    for message in catalog:
        if message.id:
            ident = message.id[0] if isinstance(message.id, tuple | list) else message.id
            found.add((message.context, str(ident)))
    return frozenset(found)


def _plurals(code: str, singular: str) -> tuple[str, ...] | None:
    if code in ("en", PSEUDO):
        return None
    found = _catalogue(code).get((None, singular))
    return found if isinstance(found, tuple) else None


def _plural_index(code: str, count: int) -> int:
    """The index of ``count``'s form in a catalogue's plural forms, by the gettext rule Babel
    gives the language (from CLDR; the catalogue's ``Plural-Forms`` header says the same)."""
    return _plural_function(code)(count)


@cache
def _plural_function(code: str) -> Callable[[int], int]:
    return c2py(get_plural(code).plural_expr)


__all__ = [
    "LANGUAGES",
    "NATIVE_NAMES",
    "N_",
    "PSEUDO",
    "_",
    "_n",
    "_p",
    "babel_locale",
    "current",
    "duration",
    "listing",
    "number",
    "opening",
    "placeholders",
    "resolve",
    "speak_only",
    "speaking",
    "spoken_from",
]
