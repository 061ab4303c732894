"""Pairing a round: Swiss (by networkx's maximum-weight matching) and round-robin (Berger tables).

Swiss rules, in order of weight:

1. everyone active plays; an odd field gives one bye (worth a win), to the lowest-ranked player
   who has not had one (a second bye only once everyone has had one);
2. no rematch while a pairing of everyone without one exists;
3. score groups: equal points meet, else the nearest points (the squared differences are kept
   as small as they can be);
4. whoever has moved first fewer times moves first (then: not the one who moved first last
   time; then the higher-ranked), and nobody is paired so as to move first three times running
   when another pairing avoids it.

Round one seeds by rating, Dutch style: the top half meets the bottom half (1 v n/2+1 …).

The matching is :func:`networkx.max_weight_matching` (Edmonds' blossom algorithm, maintained and
tested, what many Swiss pairing programs build on) on a graph whose edge weights encode the
rules above, rather than a hand-written backtracking search: a search over pairings is easy
to get subtly wrong and slow on large fields. For speed, each player is joined only to the
players near them in the ranking (:data:`WINDOW` on either side), and to everyone only when
that graph has no perfect matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from storage.tournament_records import BYE, FORFEIT, Entry, NewGame, SeatResult, TournamentGame

#: How many players on either side in the ranking each player may be paired with first.
WINDOW = 24
_PAIR = 10**9
_REMATCH = 10**8
_SCORE = 10**4
_THRICE = 10**3
_MOVES = 10


@dataclass
class _Record:
    points: float = 0.0
    opponents: set[str] = field(default_factory=set)
    firsts: int = 0
    seconds: int = 0
    last_first: list[bool] = field(default_factory=list)
    byes: int = 0


def records(games: Sequence[TournamentGame]) -> dict[str, _Record]:
    """Each player's points, opponents, byes and who moved first, from the games so far."""
    found: dict[str, _Record] = {}
    for game in sorted(games, key=lambda g: (g.round, g.board)):
        for index, seat in enumerate(game.seats):
            record = found.setdefault(seat.user_id, _Record())
            record.points += seat.points or 0.0
            if game.how == BYE or len(game.seats) == 1:
                record.byes += 1
                continue
            record.opponents.update(s.user_id for s in game.seats if s.user_id != seat.user_id)
            if game.how != FORFEIT:
                record.last_first.append(index == 0)
                if index == 0:
                    record.firsts += 1
                else:
                    record.seconds += 1
    return found


def _first(a: str, b: str, found: dict[str, _Record], rank: dict[str, int]) -> tuple[str, str]:
    ra, rb = found.get(a, _Record()), found.get(b, _Record())
    if ra.firsts - ra.seconds != rb.firsts - rb.seconds:
        return (a, b) if ra.firsts - ra.seconds < rb.firsts - rb.seconds else (b, a)
    last_a = ra.last_first[-1] if ra.last_first else None
    last_b = rb.last_first[-1] if rb.last_first else None
    if last_a is not None and last_b is not None and last_a != last_b:
        return (b, a) if last_a else (a, b)
    return (a, b) if rank[a] < rank[b] else (b, a)


def _thrice(user: str, found: dict[str, _Record]) -> bool:
    last = found.get(user, _Record()).last_first[-2:]
    return len(last) == 2 and all(last)


def _weight(a: str, b: str, found: dict[str, _Record], rank: dict[str, int], size: int) -> int:
    ra, rb = found.get(a, _Record()), found.get(b, _Record())
    weight = _PAIR
    if b in ra.opponents:
        weight -= _REMATCH
    weight -= int(round((ra.points - rb.points) * 2) ** 2) * _SCORE
    first = _first(a, b, found, rank)[0]
    if _thrice(first, found):
        weight -= _THRICE
    if (found.get(first, _Record()).firsts - found.get(first, _Record()).seconds) > 0:
        weight -= _MOVES
    # within a score group, the Dutch preference: top half against bottom half
    if ra.points == rb.points:
        weight -= abs(abs(rank[a] - rank[b]) - size // 2)
    return weight


def swiss_round(entries: Sequence[Entry], games: Sequence[TournamentGame], round_no: int) -> list[NewGame]:
    """Pair round ``round_no`` of a Swiss among the active entries (see the module's rules)."""
    found = records(games)
    active = [e for e in entries if e.active]
    ranked = sorted(active, key=lambda e: (-found.get(e.user_id, _Record()).points, -e.rating, e.user_id))
    ids = [e.user_id for e in ranked]
    bye: str | None = None
    if len(ids) % 2:
        fewest = min(found.get(u, _Record()).byes for u in ids)
        bye = next(u for u in reversed(ids) if found.get(u, _Record()).byes == fewest)
        ids.remove(bye)
    rank = {u: i for i, u in enumerate(ids)}
    if not any(found.get(u) for u in ids) or (round_no == 1 and not games):
        half = len(ids) // 2
        pairs = [(ids[i], ids[i + half]) for i in range(half)]
    else:
        pairs = _matched(ids, found, rank)
    games_out: list[NewGame] = []
    ordered = sorted(pairs, key=lambda p: min(rank[p[0]], rank[p[1]]))
    for board, (a, b) in enumerate(ordered, start=1):
        games_out.append(NewGame(board, _first(a, b, found, rank)))
    if bye is not None:
        games_out.append(NewGame(len(games_out) + 1, (bye,), (SeatResult(bye, None, 1, 1.0),), BYE))
    return games_out


def _matched(ids: list[str], found: dict[str, _Record], rank: dict[str, int]) -> list[tuple[str, str]]:
    for window in (WINDOW, len(ids)):
        graph = nx.Graph()
        graph.add_nodes_from(ids)
        for i, a in enumerate(ids):
            for b in ids[i + 1 : i + 1 + window]:
                graph.add_edge(a, b, weight=_weight(a, b, found, rank, len(ids)))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) == len(ids) and (
            window >= len(ids) or not any(b in found.get(a, _Record()).opponents for a, b in matching)
        ):
            return [(a, b) if rank[a] < rank[b] else (b, a) for a, b in matching]
    raise AssertionError("a complete graph with an even number of players always has a perfect matching")


def round_robin_rounds(count: int) -> int:
    """The rounds of a round-robin of ``count`` players (each meets each once)."""
    return max(0, count - 1 if count % 2 == 0 else count)


def round_robin_round(entries: Sequence[Entry], round_no: int) -> list[NewGame]:
    """Round ``round_no`` of a round-robin by the circle method over every entry in seed order
    (withdrawn ones keep their place; their games are forfeits; an odd field's dummy is a bye)."""
    seeded = sorted(entries, key=lambda e: (-e.rating, e.user_id))
    ids: list[str | None] = [e.user_id for e in seeded]
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    if n < 2 or not 1 <= round_no <= n - 1:
        return []
    active = {e.user_id for e in seeded if e.active}
    rotated = [ids[0], *_rotate(ids[1:], round_no - 1)]
    games: list[NewGame] = []
    byes: list[NewGame] = []
    for i in range(n // 2):
        a, b = rotated[i], rotated[n - 1 - i]
        if i == 0 and round_no % 2 == 0:
            a, b = b, a  # the fixed seat alternates moving first
        elif i > 0 and i % 2 == 1:
            a, b = b, a
        if a is None or b is None:
            alone = a or b
            if alone is not None and alone in active:
                byes.append(NewGame(0, (alone,), (SeatResult(alone, None, 1, 1.0),), BYE))
            continue
        if a in active and b in active:
            games.append(NewGame(0, (a, b)))
        else:
            results = tuple(
                SeatResult(u, None, 1 if u in active else 2, 1.0 if u in active else 0.0) for u in (a, b)
            )
            games.append(NewGame(0, (a, b), results, FORFEIT))
    return [NewGame(board, g.seats, g.done, g.how) for board, g in enumerate([*games, *byes], start=1)]


def _rotate(items: list[str | None], steps: int) -> list[str | None]:
    steps %= len(items) if items else 1
    return items[-steps:] + items[:-steps] if steps else list(items)


__all__ = ["WINDOW", "records", "round_robin_round", "round_robin_rounds", "swiss_round"]
