"""The referee: is a claimed word valid on this table, and which cards does it collect?

The same code judges a player's claim in a game and answers ``explain`` /
"why?" questions, so the reasons players see are always the real ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from games.common.languages import ENGLISH, Language
from games.common.placement import NONE_USED, NOT_FIRST_OR_LAST, Placement, match_letters, too_few
from games.common.speech import _, _n, listing
from games.common.words import (
    MULTIWORD_THEMES,
    THEME_WORDS,
    TITLE_THEMES,
    GameWords,
    Verdict,
    WordJudge,
    WordRules,
)
from games.race.cards import Card


@dataclass(frozen=True, slots=True)
class Ruling:
    """The referee's answer for one claim.

    ``answer`` is False when the text is not an answer at all (chatter with
    spaces, digits, emoji): games ignore those instead of marking them wrong.
    ``undecided`` means the lexicon could not judge the theme: put it to a vote.
    """

    ok: bool
    word: str
    reason: str
    cards: tuple[Card, ...] = ()
    undecided: bool = False
    answer: bool = True

    @property
    def letters(self) -> list[str]:
        """The collected letters, upper-case, in card order."""
        return [c.label for c in self.cards]


def _shout(word: str) -> str:
    return word.upper()


#: Why no vote can settle an answer the lexicon can't place in a theme (see :func:`unknown_title`).
ALONE, SECRET, NO_VOTES = "alone", "secret", "no-votes"


def unknown_title(word: str, themes: Iterable[str], why: str) -> str:
    """The refusal of an answer the lexicon can't place in a theme when no vote can decide it.

    ``why`` says why there is no vote: :data:`ALONE` (nobody else here can vote on it),
    :data:`SECRET` (Eagle Eyes lists are secret) or :data:`NO_VOTES` (Off the Grid). The
    sentence tells the player it cost nothing and how the workspace can allow it.
    """
    kinds = [_(THEME_WORDS[t]) for t in sorted(themes) if t in THEME_WORDS]
    kind = listing(kinds, style="or") if kinds else _("fitting the theme")
    params = {"word": _shout(word), "kind": kind, "typed": word}
    if why == SECRET:
        return _(
            "I don't know {word} as {kind}, and lists are secret, so there is no vote, so it doesn't "
            "count (no penalty: try another word). If it is one, an admin can allow it in the next "
            "games here with `words add {typed}`.",
            **params,
        )
    if why == NO_VOTES:
        return _(
            "I don't know {word} as {kind}, and Off the Grid holds no votes, so it doesn't count "
            "(no penalty: try another word). If it is one, an admin can allow it in the next games "
            "here with `words add {typed}`.",
            **params,
        )
    return _(
        "I don't know {word} as {kind}, and nobody else here can vote on it, so it doesn't count "
        "(no penalty: try another word). If it is one, an admin can allow it in the next games "
        "here with `words add {typed}`.",
        **params,
    )


def placement_refusal(word: str, letters: str, table: Sequence[str], placement: Placement) -> str:
    """Why ``word`` (its ``letters``, spaces left out) claims no cards of ``table`` (their
    letters) under ``placement``: a whole sentence, the same checks as
    :func:`~games.common.placement.match_letters`."""
    shown = _shout(word)
    available = Counter(table)
    total = sum(min(n, available[ch]) for ch, n in Counter(letters).items())
    if total == 0:
        return _("{word} uses none of the face-up letters", word=shown)
    if total < 2:
        return _n(
            "{word} uses only {count} face-up card; at least {minimum} are needed",
            "{word} uses only {count} face-up cards; at least {minimum} are needed",
            total,
            word=shown,
            minimum=2,
        )
    first, last = letters[0], letters[-1]
    if placement is Placement.FIRST_OR_LAST:
        return _("No face-up letter is the first or last letter of {word}", word=shown)
    if placement is Placement.FIRST_AND_LAST:
        if not available[first]:
            return _("No face-up letter is the first letter of {word}", word=shown)
        if not available[last]:
            return _("No face-up letter is the last letter of {word}", word=shown)
        return _(
            "First and last need two different cards, and only one {letter} is face-up",
            letter=first.upper(),
        )
    if placement is Placement.IN_BETWEEN:
        return _("At least two face-up letters must sit between the first and last letter")
    return _("{word} uses none of the face-up letters", word=shown)


class Referee:
    """Judges claims for one game's rules; caches the lexicon's verdicts."""

    def __init__(
        self,
        judge: WordJudge,
        *,
        min_length: int = 2,
        placement: Placement = Placement.ANYWHERE,
        bans: frozenset[str] = frozenset(),
        themes: frozenset[str] = frozenset(),
        added: frozenset[str] = frozenset(),
        banned: frozenset[str] = frozenset(),
        language: Language = ENGLISH,
    ) -> None:
        self.judge = judge
        self.language = language
        self.placement = placement
        self.min_length = min_length
        self.bans = bans
        self.rules = WordRules(min_length=min_length, bans=bans, themes=themes, added=added, banned=banned)
        #: the one verdict on a word: claims (through :meth:`rule`), ``define`` and the words the
        #: computer players and the hints look for (:class:`games.race.bots.Planner`)
        self.game_words = GameWords(judge, self.rules, language)
        self.multiword = bool(themes & MULTIWORD_THEMES)
        self.themes = themes
        self._vouched = themes & TITLE_THEMES  # a workspace word counts as a title or name
        # The judge's one spelling of a multi-word answer (games.lexicon.Lexicon.answer), if it has one.
        self._answer: Callable[[str, WordRules], str] | None = getattr(judge, "answer", None)
        self.accepted: set[str] = set()  # answers accepted by a vote in this game
        self._verdicts: dict[str, Verdict] = {}
        self._indexes: dict[tuple[int, ...], dict[str, list[tuple[int, Card]]]] = {}
        self._last_group: Sequence[Card] | None = None
        self._last_index: dict[str, list[tuple[int, Card]]] = {}

    def verdict(self, word: str) -> Verdict:
        """The lexicon's verdict on ``word`` under this game's rules (cached)."""
        found = self._verdicts.get(word)
        if found is None:
            found = self.game_words.verdict(word)
            self._verdicts[word] = found
        return found

    def _by_letter(self, group: Sequence[Card]) -> dict[str, list[tuple[int, Card]]]:
        """``group``'s cards by letter, in preference order: built once per table, not per claim."""
        if group is self._last_group:
            return self._last_index
        key = tuple([c.id for c in group])
        index = self._indexes.get(key)
        if index is None:
            if len(self._indexes) > 64:
                self._indexes.clear()
            index = {}
            for pos, card in enumerate(group):
                index.setdefault(card.letter, []).append((pos, card))
            self._indexes[key] = index
        self._last_group, self._last_index = group, index
        return index

    def _quick_pick(self, letters: str, group: Sequence[Card]) -> tuple[list[Card] | None, str]:
        """``(cards collected, "")``, ``(None, reason)`` for a refusal, or ``(None, "")``: ask the matcher.

        Decides anywhere and first-or-last cheaply, with the same reasons as
        :func:`~games.common.placement.match_letters`, which decides the rest.
        """
        index = self._by_letter(group)
        chosen: list[tuple[int, Card]] = []
        for ch in set(letters):
            cards = index.get(ch)
            if cards:
                chosen.extend(cards[: letters.count(ch)])
        if len(chosen) < 2:
            return None, too_few(len(chosen), 2) if chosen else _(NONE_USED)
        if self.placement is Placement.FIRST_OR_LAST:
            if letters[0] not in index and letters[-1] not in index:
                return None, _(NOT_FIRST_OR_LAST)
        elif self.placement is not Placement.ANYWHERE:
            return None, ""
        chosen.sort(key=lambda item: item[0])
        return [card for __, card in chosen], ""

    def normalize(self, text: str) -> str | None:
        """The answer in ``text`` folded to the game's letters (spaces only for the multi-word
        themes: food & drink, animals, movies & TV, books, famous persons)."""
        return self.language.fold(text, multiword=self.multiword)

    def rule(
        self,
        text: str,
        groups: Sequence[Sequence[Card]],
        used: Iterable[str] = (),
        *,
        whole_table: Sequence[Card] | None = None,
        restriction: str = "",
    ) -> Ruling:
        """Judge ``text`` against the cards a player may use.

        ``groups`` are alternative card sets (Monochrome: one per colour; else
        one set), each in preference order: when several cards share a letter
        the earlier ones are collected. ``used`` holds words already played
        (for the repeat ban). ``whole_table`` and ``restriction`` explain a
        refusal caused only by a variation (Three Amigos, Ball and Chain).
        """
        word = self.normalize(text)
        if word is None:
            return Ruling(False, "", _("That is not a single word."), answer=False)
        if self.multiword and self._answer is not None:
            word = self._answer(word, self.rules)  # icecream, ice-cream: ice cream (one word for repeats)
        letters = word.replace(" ", "")  # every word's letters count toward the cards
        if len(letters) < self.min_length:
            return Ruling(
                False,
                word,
                _(
                    "{word} is too short: words need at least {count} letters.",
                    word=_shout(word),
                    count=self.min_length,
                ),
            )
        best: tuple[int, int, Sequence[Card]] | None = None
        first_reason = ""
        for group in groups:
            picked, refused = self._quick_pick(letters, group)
            if refused:
                first_reason = first_reason or refused
                continue
            if picked is None:
                # the general matcher decides the other placements (and words their refusals)
                match = match_letters(letters, [c.letter for c in group], self.placement, 2)
                if not match.ok:
                    if not first_reason:
                        first_reason = match.reason or ""
                    continue
                picked = _pick(match.claimed, group)
            key = (len(picked), sum(c.points for c in picked))
            if best is None or key > best[:2]:
                best = (key[0], key[1], picked)
        if best is None:
            refused_by = groups[0] if groups else ()
            for group in groups:
                if not match_letters(letters, [c.letter for c in group], self.placement, 2).ok:
                    refused_by = group
                    break
            reason = placement_refusal(word, letters, [c.letter for c in refused_by], self.placement)
            if len(groups) > 1 or restriction:
                # Would it have worked without the variation's limits?
                table = whole_table if whole_table is not None else [c for g in groups for c in g]
                if match_letters(letters, [c.letter for c in table], self.placement, 2).ok:
                    reason = restriction or _(
                        "Monochrome: all the cards a word uses must be the same colour, "
                        "and {word} would mix colours.",
                        word=_shout(word),
                    )
            return Ruling(False, word, reason)
        cards = tuple(best[2])
        if "repeat" in self.bans and word in used:
            return Ruling(
                False,
                word,
                _(
                    "{word} was already played this game, and the General Rules ban repeated words.",
                    word=_shout(word),
                ),
                cards,
            )
        if word in self.accepted:
            return Ruling(True, word, _("accepted earlier by a vote"), cards)
        verdict = self.verdict(word)
        if verdict.undecided:
            if self._vouched and word in self.rules.added:
                # the workspace's own list holds titles and names the lexicon lacks (votes feed it)
                return Ruling(
                    True, word, _("{word} is on this workspace's word list.", word=_shout(word)), cards
                )
            return Ruling(False, word, verdict.message, cards, undecided=True)
        if not verdict.ok:
            return Ruling(False, word, verdict.message, cards)
        return Ruling(True, word, verdict.message or "ok", cards)


def _pick(claimed: Counter[str], group: Sequence[Card]) -> list[Card]:
    need = dict(claimed)
    out: list[Card] = []
    for card in group:
        n = need.get(card.letter, 0)
        if n:
            out.append(card)
            need[card.letter] = n - 1
    return out
