"""Keeping moji's message catalogues: extract, update and check them (``make messages``).

``python -m games.common.catalogue update`` extracts every message marked in ``games/``,
``bot/`` and ``adapters/`` (the keywords below; the templates through Jinja2's i18n
extension) into ``games/common/locale/moji.pot``, then brings each language's catalogue up to
date with it: new messages come in untranslated, messages no longer in the code are dropped
(never kept as obsolete or fuzzy guesses). ``check`` lists what a catalogue still lacks; the
tests (tests/speech) fail on any of it. The same as Babel's ``pybabel extract`` and
``pybabel update`` with these options, without a second configuration to keep in step.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from games.common.speech import DOMAIN, LANGUAGES, LOCALE_DIR, catalogue_path, placeholders

ROOT = LOCALE_DIR.parents[2]
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
#: The functions whose string arguments are messages (Babel's keyword specs).
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "_n": (1, 2),
    "_p": ((1, "c"), 2),
    "gettext": None,  # (the templates' {% trans %} and _() compile to these)
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
#: The languages with a catalogue of their own (English is the source text).
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")


def _method_map() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    with (LOCALE_DIR / "babel.cfg").open() as handle:
        return parse_mapping_cfg(handle)  # type: ignore[no-untyped-call,no-any-return]  # (Babel 2.16+)


def extract() -> Catalog:
    """Every message marked in the code, as a catalogue template."""
    template = Catalog(project="moji", domain=DOMAIN, charset="utf-8", fuzzy=False)
    methods, options = _method_map()
    for _filename, _lineno, message, comments, context in extract_from_dir(
        str(ROOT), methods, options, KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        template.add(message, None, auto_comments=comments, context=context)
    return template


def read(path: Path, code: str | None = None) -> Catalog:
    """A catalogue (or the template) as Babel reads it."""
    with path.open("rb") as handle:
        return read_po(handle, locale=code, domain=DOMAIN)


def write(catalog: Catalog, path: Path) -> None:
    """Write ``catalog`` sorted and without source locations (stable diffs)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(
            handle,
            catalog,
            width=100,
            no_location=True,
            omit_header=False,
            sort_output=True,
            ignore_obsolete=True,
            include_previous=False,
        )


def update() -> None:
    """Extract the template and bring every language's catalogue up to date with it."""
    template = extract()
    write(template, TEMPLATE)
    for code in TRANSLATED:
        path = catalogue_path(code)
        if path.exists():
            catalog = read(path, code)
        else:
            catalog = Catalog(locale=code, domain=DOMAIN, project="moji", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        write(catalog, path)
        print(f"{code}: {len(catalog)} messages, {len(list(untranslated(catalog)))} to translate")


def key(message: Message) -> tuple[str | None, str]:
    """A message's identity: its context and its (singular) id."""
    ident = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return (message.context, str(ident))


def untranslated(catalog: Catalog) -> Iterator[Message]:
    """The messages of ``catalog`` without a (complete) translation."""
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if not all(forms):
            yield message


def problems(code: str, template: Catalog | None = None) -> list[str]:
    """Everything wrong with ``code``'s catalogue against the template: a message missing,
    untranslated, fuzzy or stale, a placeholder renamed, a plural form missing."""
    template = template or read(TEMPLATE)
    path = catalogue_path(code)
    if not path.exists():
        return [f"{code}: no catalogue at {path}"]
    catalog = read(path, code)
    wanted = {key(m) for m in template if m.id}
    found = {key(m): m for m in catalog if m.id}
    out = [f"{code}: missing {k!r}" for k in sorted(wanted - found.keys(), key=str)]
    out += [f"{code}: stale {k!r}" for k in sorted(found.keys() - wanted, key=str)]
    out += [f"{code}: obsolete {k!r}" for k in catalog.obsolete]
    nplurals = get_plural(code).num_plurals
    for ident, message in found.items():
        if message.fuzzy:
            out.append(f"{code}: fuzzy {ident!r}")
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if not all(forms):
            out.append(f"{code}: untranslated {ident!r}")
            continue
        if len(ids) > 1 and len(forms) != nplurals:
            out.append(f"{code}: {len(forms)} plural forms of {nplurals} for {ident!r}")
        names = set().union(*(placeholders(str(i)) for i in ids))
        for form in forms:
            got = placeholders(str(form))
            # A plural form may say its number in words ("une carte"), so {count} may be left out.
            if got - names or (names - got) - {"count"}:
                out.append(f"{code}: placeholders {sorted(got)} instead of {sorted(names)} in {ident!r}")
    return out


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update()
        return 0
    if command == "check":
        template = read(TEMPLATE)
        found = [problem for code in TRANSLATED for problem in problems(code, template)]
        print("\n".join(found) or "every catalogue is complete")
        return 1 if found else 0
    print("usage: python -m games.common.catalogue update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
