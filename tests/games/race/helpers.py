"""A tiny deterministic word judge and table helpers for the race engine tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from games.common.placement import Placement, match_letters
from games.common.protocol import Action, Claim, Seat, Setup
from games.common.words import NEEDS_VOTE, Verdict, WordRules
from games.race.cards import Card
from games.race.engine import FlipRace

WORDS = {
    "cat", "act", "tact", "tat", "teach", "ache", "part", "art", "back", "cart", "cult",
    "heartache", "hearth", "pact", "at", "ta", "it", "ti", "dog", "god", "go", "do", "tic",
    "ant", "tan", "neat", "ate", "eat", "tea", "date", "rat", "tar", "car", "arc", "scar",
}  # fmt: skip
FOODS = {"cake", "tea", "taco"}


class ListJudge:
    """A WordJudge over :data:`WORDS`: fast, tiny, and no big lexicon needed."""

    def __init__(self, words: Iterable[str] = WORDS) -> None:
        self.words = set(words)

    def judge(self, word: str, rules: WordRules) -> Verdict:
        if word in rules.banned:
            return Verdict(False, "banned", f"{word.upper()} is banned here.")
        if len(word.replace(" ", "")) < rules.min_length:
            return Verdict(False, "too-short", f"{word.upper()} is too short.")
        if rules.themes:
            if "food" in rules.themes and word in FOODS:
                return Verdict(True, None, "")
            if "movies" in rules.themes:
                return Verdict(False, NEEDS_VOTE, f"I don't know the title {word.upper()}.")
            return Verdict(False, "theme", f"{word.upper()} doesn't fit the theme.")
        if word in self.words or word in rules.added:
            return Verdict(True, None, "")
        return Verdict(False, "unknown", f"{word.upper()} isn't in my dictionary.")

    def examples(
        self,
        letters: Sequence[str],
        rules: WordRules,
        placement: Placement = Placement.ANYWHERE,
        limit: int = 3,
    ) -> list[str]:
        found = [
            w
            for w in sorted(self.words | set(rules.added))
            if match_letters(w, letters, placement).ok and self.judge(w, rules).ok
        ]
        found.sort(key=lambda w: (-sum(match_letters(w, letters, placement).claimed.values()), w))
        return found[:limit]

    def zipf(self, word: str) -> float:
        return 5.0 if word in self.words else 0.0


ANN, BOB, CAL, DEE = "t:ann", "t:bob", "t:cal", "t:dee"
NAMES = {ANN: "Ann", BOB: "Bob", CAL: "Cal", DEE: "Dee"}


def race(
    *players: str,
    options: dict[str, object] | None = None,
    seed: int = 1,
    judge: ListJudge | None = None,
    gloss: Callable[[str], str | None] | None = None,
    timestamp_precision: float = 0.0,
) -> FlipRace:
    """A begun race between ``players`` (default Ann and Bob), at time 0; ``gloss`` None: the
    shipped meanings; ``timestamp_precision``: the platform's (seconds)."""
    seats = [
        Seat(p, NAMES.get(p, p), "normal" if p.startswith("bot:") else None) for p in players or (ANN, BOB)
    ]
    setup = Setup(
        dict(options or {}),
        seats,
        seed,
        judge=judge or ListJudge(),
        gloss=gloss,
        timestamp_precision=timestamp_precision,
    )
    engine = FlipRace(setup)
    engine.apply(Action("begin", 0.0))
    return engine


_ids = iter(range(1000, 100000))


def card(letter: str, colour: str = "red") -> Card:
    return Card(next(_ids), letter, colour)


def put(engine: FlipRace, **tops: str) -> dict[str, Card]:
    """Replace the face-up cards: ``put(e, ann="c", bob="a")`` (seat names without ``t:``)."""
    placed: dict[str, Card] = {}
    for sid in engine.order:
        engine.piles[sid] = []
    for name, letter in tops.items():
        sid = f"t:{name}"
        placed[sid] = card(letter)
        engine.piles[sid] = [placed[sid]]
    engine._changed(engine.now)
    return placed


def claim(engine: FlipRace, *claims: tuple[str, str, float]) -> list[tuple[str, str]]:
    """Apply claims ``(seat, text, sent_at)``; returns (kind, text) of the notices."""
    batch = tuple(Claim(s, t, at, ref=f"{s}@{at}") for s, t, at in claims)
    now = max(c.sent_at for c in batch)
    return [(n.kind, n.text) for n in engine.apply(Action("claims", now, claims=batch))]


def total_cards(engine: FlipRace) -> int:
    return (
        sum(len(s) for s in engine.stacks.values())
        + sum(len(p) for p in engine.piles.values())
        + sum(len(w) for w in engine.won.values())
        + len(engine.discard)
        + len(engine.undealt)
    )
