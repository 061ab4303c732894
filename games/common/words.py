"""Word-judging types shared by every game and the lexicon.

A game asks a :class:`WordJudge` whether a word is allowed under the
:class:`WordRules` in force and gets a :class:`Verdict` that explains itself.
The lexicon (``games.lexicon``) is the real judge; tests may use any object
with the same shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from games.common.languages import ENGLISH, Language
from games.common.placement import Placement
from games.common.speech import N_, _, _p

#: General-rule bans, by the codes used in options, the CLI and reasons.
BANS: tuple[str, ...] = (
    "proper",  # proper nouns (personal names, places and every other name)
    "names",  # personal names only (first names and surnames); places stay allowed
    "non-place",  # every proper noun but places: names, weekdays, languages, brands, symbols
    "abbrev",  # abbreviations
    "contraction",  # contractions
    "foreign",  # foreign words
    "plural-s",  # plurals ending in -s
    "ing",  # verbs ending in -ing
    "ed",  # past tense ending in -ed
    "repeat",  # words used before in the same round (tracked by the game)
)

#: Each ban in the words players read ("No proper nouns, ..."), never the option codes (marked
#: for the catalogue: show them through ``_()``).
BAN_WORDS: dict[str, str] = {
    "proper": N_("proper nouns"),
    "names": N_("personal names"),
    "non-place": N_("proper nouns other than places"),
    "abbrev": N_("abbreviations"),
    "contraction": N_("contractions"),
    "foreign": N_("foreign words"),
    "plural-s": N_("plurals ending in -s"),
    "ing": N_("words ending in -ing"),
    "ed": N_("words ending in -ed"),
}


def describe_bans(bans: Sequence[str] | frozenset[str]) -> str:
    """The bans in force as one sentence: ``No proper nouns, abbreviations, contractions or
    foreign words.`` (``repeat`` reads "no word twice in a game"); empty when none."""
    # Proper nouns include the others, and "other than places" includes personal names: say it once.
    covered = {"names", "non-place"} if "proper" in bans else {"names"} if "non-place" in bans else set()
    named = [_(BAN_WORDS[b]) for b in BANS if b in bans and b in BAN_WORDS and b not in covered]
    twice = "repeat" in bans
    if not named:
        return _("No word twice in a game.") if twice else ""
    head = named[0]
    for item in named[1:-1]:
        head = _p("list", "{head}, {item}", head=head, item=item)
    if len(named) > 1:
        head = _p("list", "{head} or {last}", head=head, last=named[-1])
    if twice:
        return _("No {bans}; no word twice in a game.", bans=head)
    return _("No {bans}.", bans=head)


#: Theme codes. A word satisfies a set of themes when it is in any of them.
THEMES: tuple[str, ...] = (
    "nouns",
    "verbs",
    "adjectives",
    "food",
    "animals",
    "movies",
    "books",
    "persons",
)

#: Themes under which the proper-noun, plural and verb-ending bans are lifted
#: (race rules: "you can ignore the General Rules against ...").
LIFTING_THEMES: frozenset[str] = frozenset({"movies", "food", "books", "persons"})

#: Themes whose answers may be several words ("star wars", "albert einstein", "ice cream").
MULTIWORD_THEMES: frozenset[str] = frozenset({"food", "animals", "movies", "books", "persons"})

#: Themes whose answers are titles or names, decided by curated lists and WordNet's names
#: rather than the word data: a workspace's own word list vouches for them.
TITLE_THEMES: frozenset[str] = frozenset({"movies", "books", "persons"})

#: Each theme as a sentence reads it ("CAT is an animal", "I don't know ZZCAZZ as a book"),
#: marked for the catalogue (show them through ``_()``).
THEME_WORDS: dict[str, str] = {
    "nouns": N_("a noun"),
    "verbs": N_("a verb"),
    "adjectives": N_("an adjective"),
    "food": N_("food or drink"),
    "animals": N_("an animal"),
    "movies": N_("a movie or TV show"),
    "books": N_("a book"),
    "persons": N_("a famous person"),
}

#: Reason code of a verdict the lexicon cannot decide (the game may hold a vote).
NEEDS_VOTE = "needs-vote"


@dataclass(frozen=True, slots=True)
class WordRules:
    """Everything that decides whether a word is allowed.

    ``added`` and ``banned`` are a workspace's own overlays: added words are
    allowed even if the dictionary lacks them (bans still apply), banned words
    are always refused.
    """

    dictionary: str = "casual"
    min_length: int = 2
    bans: frozenset[str] = frozenset()
    themes: frozenset[str] = frozenset()
    added: frozenset[str] = field(default=frozenset())
    banned: frozenset[str] = field(default=frozenset())


class Verdict(NamedTuple):
    """The judge's answer: ``ok``, a stable ``reason_code`` and a sentence.

    A named tuple rather than a frozen dataclass: the judge builds one per new
    word inside a race's claim path, and a tuple is four times cheaper to make.
    """

    ok: bool
    reason_code: str | None
    message: str

    @property
    def undecided(self) -> bool:
        """True when the lexicon cannot tell and a vote should decide."""
        return self.reason_code == NEEDS_VOTE


class Judge(Protocol):
    """Anything that judges words: the lexicon, or a test's own list."""

    def judge(self, word: str, rules: WordRules) -> Verdict:
        """Judge one normalised word (see :func:`normalize`)."""
        ...


class WordJudge(Judge, Protocol):
    """What games need from a lexicon."""

    def examples(
        self,
        letters: Sequence[str],
        rules: WordRules,
        placement: Placement = Placement.ANYWHERE,
        limit: int = 3,
    ) -> list[str]:
        """Common allowed words that claim at least two of ``letters``.

        Best first (most common, then most letters claimed). ``letters`` is a
        multiset of single lower-case letters (the face-up cards).
        """
        ...


#: A rule a game adds to the judge's (Shed's "no words that are only verbs"): its refusal of a
#: word the judge allows, or None.
OwnRule = Callable[[str], Verdict | None]


class GameWords:
    """One game's verdict on a word: its judge under its word rules, and any rule of its own.

    Everything in a game that decides about a word asks this one object: the move check (what a
    player's word is judged by), the finders that look for words themselves (the words on a grid,
    the plays a rack makes, a word that would have worked, the words shown at the end) and the
    computer players' candidate words. A finder builds its words from :meth:`allowed`, never by a
    filter of its own, so a word it finds is one the move check accepts, and a word the move
    check accepts is one it can find.
    """

    __slots__ = ("_letters", "judge", "language", "own", "rules")

    def __init__(
        self,
        judge: Judge,
        rules: WordRules,
        language: Language = ENGLISH,
        own: OwnRule | None = None,
    ) -> None:
        self.judge = judge
        self.rules = rules
        #: the game's playing language: its words are spelled in its alphabet
        self.language = language
        self.own = own
        self._letters = frozenset(language.alphabet)

    @property
    def alphabet(self) -> str:
        """The letters the game's words are spelled in (lower case)."""
        return self.language.alphabet

    def __repr__(self) -> str:
        return f"<GameWords {self.judge!r} {self.rules!r}>"

    def verdict(self, word: str) -> Verdict:
        """The verdict on ``word`` (folded by the game's language), with the reason when refused."""
        found = self.judge.judge(word, self.rules)
        if found.ok and self.own is not None:
            return self.own(word) or found
        return found

    def allows(self, word: str) -> bool:
        """True when the game accepts ``word`` (folded)."""
        return self.verdict(word).ok

    def spells(self, word: str) -> bool:
        """True when ``word`` is spelled in the game's letters only (no space, hyphen or other
        letter): the words a finder keeps."""
        return bool(word) and self._letters.issuperset(word)

    def entries(self) -> list[str]:
        """Every word a finder considers: the entries of the judge's dictionary (when the judge
        lists them, as the lexicon does) and the workspace's own added words."""
        listed: Callable[[str], Iterable[str]] | None = getattr(self.judge, "words", None)
        found = list(listed(self.rules.dictionary)) if callable(listed) else []
        return found + sorted(self.rules.added)

    def allowed(self, words: Iterable[str] | None = None, *, longest: int | None = None) -> Iterator[str]:
        """Those of ``words`` (default: :meth:`entries`) that a finder can spell (:meth:`spells`;
        at most ``longest`` letters when given) and the game accepts: what every finder is built from."""
        spells, allows = self.spells, self.allows
        for word in self.entries() if words is None else words:
            if (longest is None or len(word) <= longest) and spells(word) and allows(word):
                yield word


def normalize(text: str, *, multiword: bool = False) -> str | None:
    """Fold an English answer to lower-case ASCII letters, or None if it is no answer
    (:meth:`games.common.languages.Language.fold` of English).

    Case and accents fold (``Café`` -> ``cafe``, ``Straße`` -> ``strasse``); surrounding whitespace and
    trailing sentence punctuation are ignored. Anything else that is not a
    letter (digits, symbols, letters of other scripts such as a Cyrillic
    ``а``, zero-width characters, more than two accent marks on one letter)
    makes it no answer. With ``multiword`` single spaces between words
    are kept and a hyphen separates words like a space (``ice-cream`` ->
    ``ice cream``), for the themes in :data:`MULTIWORD_THEMES`.
    """
    return ENGLISH.fold(text, multiword=multiword)
