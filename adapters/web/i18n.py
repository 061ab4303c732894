"""Which language a page speaks, and moji's catalogue in the pages' templates.

A web page is one person's screen (docs/LANGUAGES.md): it follows the browser's
``Accept-Language`` (the best-liked tag a catalogue speaks, by ``q``), else the chat's language.

Templates say their text as ``{{ _("Your turn.") }}``, ``{{ _("{name}'s turn.", name=n) }}``,
``{{ _n("{count} point", "{count} points", n) }}`` and ``{{ _p("button", "Pass") }}``: the
catalogue's own ``{name}`` placeholders (never ``{% trans %}``, whose ``%(name)s`` the catalogue
does not use). What they return is escaped HTML (a :class:`markupsafe.Markup`): the message and
every value in it are escaped, and moji's `commands` in backticks are shown as ``<code>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import jinja2
from markupsafe import Markup, escape

from adapters.web.scripts import messages
from games.common import speech
from games.common.grammar import is_you
from games.common.speech import PSEUDO, resolve

_CODE = re.compile(r"`([^`\n]+)`")
_SLOT = "\x00{}\x00"
_SLOTS = re.compile("\x00(\\d+)\x00")


def accepted(header: str | None) -> str | None:
    """The catalogue an ``Accept-Language`` header likes best (None: none it names, or English
    only by a ``*``): ``de-CH, fr;q=0.8`` is ``de``, ``pt-BR, es;q=0.5`` is ``es``."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for at, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, at, tag.strip()))
    for _q, _at, tag in sorted(ranked):
        code = resolve(tag)
        if code is not None:
            return code
    return None


def page_language(header: str | None, chat: str | None) -> str:
    """The language a page speaks: the browser's (``Accept-Language``) when a catalogue speaks
    it, else the chat's (``chat``), else English."""
    return accepted(header) or resolve(chat) or "en"


def _html(message: str, params: Mapping[str, object], say: Callable[..., str]) -> Markup:
    """``say(message, …)`` as escaped HTML, its values escaped once (a Markup value as it is)."""
    values: list[str] = []
    passed: dict[str, object] = {}
    for name, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            values.append(str(value) if isinstance(value, Markup) else str(escape(value)))
            passed[name] = _SLOT.format(len(values) - 1)
        else:
            passed[name] = value
    text = str(escape(say(message, passed)))
    text = _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", text)
    return Markup(_SLOTS.sub(lambda m: values[int(m.group(1))], text))


def gettext(message: str, /, **params: object) -> Markup:
    """``_("…", name=…)`` in a template."""
    return _html(message, params, lambda text, values: speech._(text, **values))


def ngettext(singular: str, plural: str, count: int, /, **params: object) -> Markup:
    """``_n("…", "…", n)`` in a template (``{count}`` is ``n``)."""
    return _html(singular, params, lambda _text, values: speech._n(singular, plural, count, **values))


def pgettext(context: str, message: str, /, **params: object) -> Markup:
    """``_p("context", "…")`` in a template."""
    return _html(message, params, lambda text, values: speech._p(context, text, **values))


def install(env: jinja2.Environment) -> None:
    """Give ``env``'s templates the catalogue: ``_``, ``_n``, ``_p`` (and gettext's own names,
    which Babel's extractor also reads), ``is_you(name)`` (the local player, already named
    "You": never "You (you)"), and ``html_lang()``: the code of the language spoken."""
    env.add_extension("jinja2.ext.i18n")
    env.globals.update(
        _=gettext,
        gettext=gettext,
        _n=ngettext,
        ngettext=ngettext,
        _p=pgettext,
        pgettext=pgettext,
        html_lang=html_lang,
        messages=messages,
        is_you=is_you,
    )


def html_lang() -> str:
    """The page's ``<html lang>``: the language being spoken (English for the pseudo-language)."""
    code = speech.current()
    return "en" if code == PSEUDO else code


__all__ = ["accepted", "gettext", "install", "ngettext", "page_language", "pgettext"]
