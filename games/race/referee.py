"""The referee: is a claimed word valid on this table, and which cards does it collect?

The same code judges a player's claim in a game and answers ``explain`` /
"why?" questions, so the reasons players see are always the real ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.common.placement import Placement, match_letters
from games.common.words import MULTIWORD_THEMES, Verdict, WordJudge, WordRules, normalize
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
    ) -> None:
        self.judge = judge
        self.placement = placement
        self.min_length = min_length
        self.bans = bans
        self.rules = WordRules(min_length=min_length, bans=bans, themes=themes, added=added, banned=banned)
        self.multiword = bool(themes & MULTIWORD_THEMES)
        self.accepted: set[str] = set()  # answers accepted by a vote in this game
        self._verdicts: dict[str, Verdict] = {}

    def verdict(self, word: str) -> Verdict:
        """The lexicon's verdict on ``word`` under this game's rules (cached)."""
        found = self._verdicts.get(word)
        if found is None:
            found = self.judge.judge(word, self.rules)
            self._verdicts[word] = found
        return found

    def normalize(self, text: str) -> str | None:
        """The answer in ``text`` (lower-case letters, spaces only for title themes)."""
        return normalize(text, multiword=self.multiword)

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
        letters = word.replace(" ", "")
        if len(letters) < self.min_length:
            return Ruling(
                False,
                word,
                f"{_shout(word)} is too short: words need at least {self.min_length} letters.",
            )
        best: tuple[int, int, Counter[str], Sequence[Card]] | None = None
        first_reason = ""
        for group in groups:
            match = match_letters(letters, [c.letter for c in group], self.placement, 2)
            if not match.ok:
                if not first_reason:
                    first_reason = match.reason or ""
                continue
            picked = _pick(match.claimed, group)
            key = (sum(match.claimed.values()), sum(c.points for c in picked))
            if best is None or key > best[:2]:
                best = (key[0], key[1], match.claimed, picked)
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
        cards = tuple(best[3])
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
