"""Finding words along paths of edge-adjacent tiles.

A word is read along a path: a sequence of squares holding letter tiles, each
sharing an edge with the one before (turning freely, in any direction), no
square twice. :class:`WordList` keeps the allowed words sorted, so the words
starting with any prefix form one contiguous slice found by two bisections;
a depth-first search over the grid narrows that slice one letter at a time and
stops as soon as it is empty. No trie is built: the sorted list is the prefix
structure, so a game pays no memory beyond the word list itself.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from games.common.languages import ASCII_LETTERS
from games.common.speech import _, _n
from games.common.words import Verdict, WordRules
from games.paths.grid import neighbours

Path = tuple[int, ...]
#: A callback that stops a search early when it returns True for a (word, path).
Stop = Callable[[str, Path], bool]

_SPANS_KEPT = 200_000  # prefixes remembered per word list (about 30 MB at most)
_UNSEEN = (-1, -1, False)


class _Found(Exception):
    """Raised inside a search to stop it at the first wanted word."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One word read along one path."""

    word: str
    path: Path


class WordList:
    """The allowed words, sorted, with the slice of words under each first letter.

    Words are spelled in ``alphabet`` (lower case; English's a-z by default) and have
    at least ``min_length`` letters; anything else given is ignored.
    """

    def __init__(self, words: Iterable[str], min_length: int = 2, alphabet: str = ASCII_LETTERS) -> None:
        min_length = max(2, min_length)  # a word is read along a path of two tiles or more
        if alphabet == ASCII_LETTERS:
            kept = {w for w in words if len(w) >= min_length and w.isascii() and w.isalpha() and w.islower()}
        else:
            letters = frozenset(alphabet)
            kept = {w for w in words if len(w) >= min_length and letters.issuperset(w)}
        self.alphabet = alphabet
        #: a character that sorts after every letter of the alphabet ("{" after a-z; ä and ñ
        #: come after z), so ``prefix + after`` bounds the words starting with ``prefix``
        self.after = chr(max(map(ord, alphabet)) + 1)
        self.words: list[str] = sorted(kept)
        self.min_length = min_length
        self.max_length = max((len(w) for w in self.words), default=0)
        self._set = frozenset(self.words)
        #: prefix -> (first, end, is a word) of the words starting with it, or None: no word does.
        #: Filled as searches meet prefixes (shared by every game using this list); bounded.
        self.spans: dict[str, tuple[int, int, bool] | None] = {}
        self.first: dict[str, tuple[int, int]] = {}
        for ch in alphabet:
            lo = bisect_left(self.words, ch)
            hi = bisect_left(self.words, ch + self.after, lo)
            if lo < hi:
                self.first[ch] = (lo, hi)

    def __contains__(self, word: object) -> bool:
        return word in self._set

    def __len__(self) -> int:
        return len(self.words)

    def judge(self, word: str, rules: WordRules) -> Verdict:
        """The list as a game's judge (a test's own words): a listed word of at least
        ``rules.min_length`` letters is allowed."""
        if len(word) < rules.min_length:
            short = _n(
                "{word} is too short: words need at least {count} letter.",
                "{word} is too short: words need at least {count} letters.",
                rules.min_length,
                word=word.upper(),
            )
            return Verdict(False, "too-short", short)
        if word in self._set:
            return Verdict(True, None, _("{word} is a word in this game.", word=word.upper()))
        return Verdict(False, "unknown", _("{word} isn't a word in this game.", word=word.upper()))


class Finder:
    """Searches one grid (``width`` × ``height`` squares) for the words of a :class:`WordList`."""

    def __init__(self, words: WordList, width: int, height: int) -> None:
        self.list = words
        self.width = width
        self.height = height
        self.near = neighbours(width, height)

    def all_paths(self, squares: list[str], *, stop: Stop | None = None) -> list[Hit]:
        """Every (word, path) on the grid: each word once per path that reads it."""
        return self._search(squares, range(len(squares)), None, "", stop)

    def words(self, squares: list[str]) -> dict[str, Path]:
        """Every word readable on the grid, with one of its paths (the first found)."""
        out: dict[str, Path] = {}
        for hit in self.all_paths(squares):
            out.setdefault(hit.word, hit.path)
        return out

    def through(
        self, squares: list[str], square: int, letters: str = "", *, stop: Stop | None = None
    ) -> list[Hit]:
        """Every (word, path) whose path uses ``square``.

        With ``letters``, ``square`` is tried as each of those letters in turn
        (whatever it holds now): the words a tile placed there would form.
        """
        region = self._region(squares, square)
        return self._search(squares, region, square, letters, stop)

    def paths_of(self, squares: list[str], word: str, limit: int = 10_000) -> list[Path]:
        """The paths that read ``word`` on the grid (at most ``limit``), whether or not it is listed."""
        near = self.near
        size = len(word)
        found: list[Path] = []
        if size == 0:
            return found
        used = bytearray(len(squares))
        path: list[int] = []

        def step(cell: int, at: int) -> None:
            if at == size - 1:
                found.append(tuple(path))
                return
            want = word[at + 1]
            for nb in near[cell]:
                if not used[nb] and squares[nb] == want and len(found) < limit:
                    used[nb] = 1
                    path.append(nb)
                    step(nb, at + 1)
                    path.pop()
                    used[nb] = 0

        for start, letter in enumerate(squares):
            if letter == word[0] and len(found) < limit:
                used[start] = 1
                path.append(start)
                step(start, 0)
                path.pop()
                used[start] = 0
        return found

    # ------------------------------------------------------------ search

    def _region(self, squares: list[str], square: int) -> list[int]:
        """The letter squares connected to ``square`` (itself included): where its words can start."""
        seen = {square}
        todo = [square]
        while todo:
            cell = todo.pop()
            for nb in self.near[cell]:
                if nb not in seen and squares[nb].isalpha():
                    seen.add(nb)
                    todo.append(nb)
        return sorted(seen)

    def _search(
        self, squares: list[str], starts: Iterable[int], must: int | None, wild: str, stop: Stop | None
    ) -> list[Hit]:
        wordlist = self.list
        words = wordlist.words
        first = wordlist.first
        after = wordlist.after
        spans = wordlist.spans
        if len(spans) > _SPANS_KEPT:
            spans.clear()
        shortest = wordlist.min_length
        near = self.near
        used = bytearray(len(squares))
        path: list[int] = []
        out: list[Hit] = []
        # what each square can read as: its letter, the wildcard letters, or nothing
        reads = [cell if cell.isalpha() else "" for cell in squares]
        if must is not None and wild:
            reads[must] = wild

        def step(cell: int, prefix: str, lo: int, hi: int, seen_must: bool) -> None:
            for nb in near[cell]:
                if used[nb]:
                    continue
                for ch in reads[nb]:
                    key = prefix + ch
                    span = spans.get(key, _UNSEEN)
                    if span is _UNSEEN:
                        low = bisect_left(words, key, lo, hi)
                        if low == hi or not words[low].startswith(key):
                            span = None
                        else:
                            span = (low, bisect_left(words, key + after, low, hi), words[low] == key)
                        spans[key] = span
                    if span is None:
                        continue
                    used[nb] = 1
                    path.append(nb)
                    through = seen_must or nb == must
                    if span[2] and through and len(key) >= shortest:
                        hit = Hit(key, tuple(path))
                        out.append(hit)
                        if stop is not None and stop(key, hit.path):
                            raise _Found
                    if span[1] - span[0] > 1 or not span[2]:
                        step(nb, key, span[0], span[1], through)
                    path.pop()
                    used[nb] = 0

        try:
            for start in starts:
                for ch in reads[start]:
                    begin = first.get(ch)
                    if begin is None:
                        continue
                    used[start] = 1
                    path.append(start)
                    through = must is None or start == must
                    step(start, ch, begin[0], begin[1], through)
                    path.pop()
                    used[start] = 0
        except _Found:
            pass
        return out
