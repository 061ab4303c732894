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
from games.common.words import MULTIWORD_THEMES, THEME_WORDS, TITLE_THEMES, Verdict, WordJudge, WordRules
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


def unknown_title(word: str, themes: Iterable[str], why: str) -> str:
    """The refusal of an answer the lexicon can't place in a theme when no vote can decide it.

    ``why`` says why there is no vote ("nobody else here can vote on it"). The
    sentence tells the player it cost nothing and how the workspace can allow it.
    """
    kinds = " or ".join(THEME_WORDS[t] for t in sorted(themes) if t in THEME_WORDS) or "fitting the theme"
    return (
        f"I don't know {_shout(word)} as {kinds}, and {why}, so it doesn't count "
        f"(no penalty: try another word). If it is one, an admin can allow it in the next games "
        f"here with `words add {word}`."
    )


def _placement_reason(reason: str, word: str) -> str:
    text = reason.replace("the word", _shout(word))
    if text.startswith("uses"):
        text = f"{_shout(word)} {text}"
    return text[0].upper() + text[1:]


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
            found = self.judge.judge(word, self.rules)
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
            return None, too_few(len(chosen), 2) if chosen else NONE_USED
        if self.placement is Placement.FIRST_OR_LAST:
            if letters[0] not in index and letters[-1] not in index:
                return None, NOT_FIRST_OR_LAST
        elif self.placement is not Placement.ANYWHERE:
            return None, ""
        chosen.sort(key=lambda item: item[0])
        return [card for _, card in chosen], ""

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
            return Ruling(False, "", "That is not a single word.", answer=False)
        if self.multiword and self._answer is not None:
            word = self._answer(word, self.rules)  # icecream, ice-cream: ice cream (one word for repeats)
        letters = word.replace(" ", "")  # every word's letters count toward the cards
        if len(letters) < self.min_length:
            return Ruling(
                False,
                word,
                f"{_shout(word)} is too short: words need at least {self.min_length} letters.",
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
            reason = _placement_reason(first_reason or "uses none of the face-up letters", word)
            if len(groups) > 1 or restriction:
                # Would it have worked without the variation's limits?
                table = whole_table if whole_table is not None else [c for g in groups for c in g]
                if match_letters(letters, [c.letter for c in table], self.placement, 2).ok:
                    reason = restriction or (
                        f"Monochrome: all the cards a word uses must be the same colour, "
                        f"and {_shout(word)} would mix colours."
                    )
            return Ruling(False, word, reason)
        cards = tuple(best[2])
        if "repeat" in self.bans and word in used:
            return Ruling(
                False,
                word,
                f"{_shout(word)} was already played this game, and the General Rules ban repeated words.",
                cards,
            )
        if word in self.accepted:
            return Ruling(True, word, "accepted earlier by a vote", cards)
        verdict = self.verdict(word)
        if verdict.undecided:
            if self._vouched and word in self.rules.added:
                # the workspace's own list holds titles and names the lexicon lacks (votes feed it)
                return Ruling(True, word, f"{_shout(word)} is on this workspace's word list.", cards)
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
