"""A small reader for Hunspell dictionaries (build time only): stems, flags and affix expansion.

It knows what the Debian ``hunspell-*`` dictionaries moji reads use: ``FLAG`` single
characters (the default and ``UTF-8``) or ``long`` (two characters), ``SFX``/``PFX``
rules with conditions, cross products of one prefix with suffixes, and the
morphological fields after the flags (``po:nom``), which it keeps as text. It does not
compound words (``COMPOUNDFLAG``) and ignores continuation flags on affixes, so an
expansion lists the forms one affix (or one prefix plus one suffix) makes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Affix:
    """One SFX or PFX line: strip ``strip``, add ``add`` where ``condition`` matches."""

    strip: str
    add: str
    condition: re.Pattern[str] | None


@dataclass(frozen=True, slots=True)
class AffixClass:
    """Every rule of one affix flag."""

    flag: str
    suffix: bool
    cross: bool
    rules: tuple[Affix, ...]


@dataclass(frozen=True, slots=True)
class Stem:
    """One line of a ``.dic`` file: the stem, its flags and its morphological fields."""

    word: str
    flags: frozenset[str]
    morph: str


def _split_flags(text: str, mode: str) -> list[str]:
    if mode == "long":
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    if mode == "num":
        return [f for f in text.split(",") if f]
    return list(text)


class Hunspell:
    """One dictionary's ``.aff`` rules and ``.dic`` stems."""

    def __init__(self, aff: Path, dic: Path) -> None:
        self.flag_mode = "char"
        self.classes: dict[str, AffixClass] = {}
        pending: dict[str, tuple[bool, bool, int, list[Affix]]] = {}
        for raw in aff.read_text("utf-8", errors="replace").splitlines():
            line = "" if raw.lstrip().startswith("#") else raw.strip()
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "FLAG" and len(parts) > 1:
                self.flag_mode = parts[1].lower() if parts[1].lower() in ("long", "num") else "char"
            elif parts[0] in ("SFX", "PFX") and len(parts) >= 4:
                flag = parts[1]
                if flag not in pending and parts[2] in ("Y", "N") and parts[3].isdigit() and len(parts) <= 5:
                    pending[flag] = (parts[0] == "SFX", parts[2] == "Y", int(parts[3]), [])
                    continue
                if flag not in pending or len(parts) < 4:
                    continue
                strip = "" if parts[2] == "0" else parts[2]
                add = parts[3].split("/", 1)[0]
                add = "" if add == "0" else add
                cond_text = parts[4] if len(parts) > 4 else "."
                suffix = pending[flag][0]
                condition = None
                if cond_text != ".":
                    try:
                        condition = re.compile(f"{cond_text}$" if suffix else f"^{cond_text}")
                    except re.error:
                        continue
                pending[flag][3].append(Affix(strip, add, condition))
        for flag, (suffix, cross, _count, rules) in pending.items():
            self.classes[flag] = AffixClass(flag, suffix, cross, tuple(rules))
        self.stems: list[Stem] = []
        lines = dic.read_text("utf-8", errors="replace").splitlines()
        for line in lines[1:]:
            if not line or line[0] in "\t#":
                continue
            head, _, morph = line.partition("\t") if "\t" in line else line.partition(" ")
            head = head.strip()
            word, slash, flag_text = head.partition("/")
            if not slash:
                word, flag_text = head, ""
            word = word.replace("\\/", "/")
            if word:
                self.stems.append(
                    Stem(word, frozenset(_split_flags(flag_text, self.flag_mode)), morph.strip())
                )

    def _apply(self, word: str, cls: AffixClass) -> Iterator[str]:
        for rule in cls.rules:
            if cls.suffix:
                if rule.strip and not word.endswith(rule.strip):
                    continue
                if rule.condition is not None and not rule.condition.search(word):
                    continue
                yield word[: len(word) - len(rule.strip)] + rule.add
            else:
                if rule.strip and not word.startswith(rule.strip):
                    continue
                if rule.condition is not None and not rule.condition.search(word):
                    continue
                yield rule.add + word[len(rule.strip) :]

    def expand(self, stem: Stem, skip: frozenset[str] = frozenset()) -> set[str]:
        """Every form of ``stem``: itself, each affix, and cross-product prefix+suffix forms.

        Affix flags in ``skip`` are not applied.
        """
        forms = {stem.word}
        suffixed: list[str] = []
        prefixes: list[AffixClass] = []
        for flag in sorted(stem.flags - skip):
            cls = self.classes.get(flag)
            if cls is None:
                continue
            if cls.suffix:
                for form in self._apply(stem.word, cls):
                    forms.add(form)
                    if cls.cross:
                        suffixed.append(form)
            else:
                forms.update(self._apply(stem.word, cls))
                if cls.cross:
                    prefixes.append(cls)
        for cls in prefixes:
            for form in suffixed:
                forms.update(self._apply(form, cls))
        return forms
