"""Pairing a round: Swiss (by score, no rematch) and round-robin (Berger tables).

**Swiss.** The active players are ranked by tournament points, then rating, then user id. A
round's pairing is the best one by these rules, each one absolute over every rule after it:

1. everyone active plays exactly one game of the round, or has the bye;
2. odd count: exactly one bye, only to a player with the fewest byes among the active ones
   (a second bye only when everyone has had one); a bye is worth a win (1 point);
3. no rematch: two players meet again only when no pairing of everyone without one exists;
4. the bye goes to the lowest-ranked player (by points, then rating) who may have it;
5. first moves: nobody moves first (or second) three times in a row, and nobody's first moves
   outnumber their second moves (or the other way round) by more than 2, while avoidable;
6. score groups: players with equal points meet each other as far as possible, otherwise
   the nearest score group: the sum of the squared score differences of the games is minimal;
7. first-move preferences: as few players as possible move first when they have moved first
   more often than second (or, when even, moved first in their last game), or the other way;
8. seeding (Dutch): within a score group the top half meets the bottom half (1 against
   n/2+1, 2 against n/2+2 …); a floater is its group's lowest and meets the next group's top.
   Round 1, everyone on 0, is therefore seeded by rating.

In each game the first mover is the one who would break rule 5 otherwise; else the one who has
moved first less often (relative to their games: first moves minus second moves); else the one
who did not move first in their last game; else the higher-ranked one. Boards are numbered from
1 by the better-ranked player of each game, the bye last. Ties anywhere are broken by user id:
the same input always gives the same pairing.

The rules become the weights of a maximum-weight matching, taken with maximum cardinality, each
rule's penalty scaled to outweigh the sum of every later rule's over a whole round (so the
optimum is the lexicographic one). The matching is networkx's ``max_weight_matching``:
Edmonds' blossom algorithm, maintained and tested, the one many Swiss pairers build on, where a
hand-written search would be as long as this module and less trusted. It costs about the cube
of the players, so a field of more than :data:`EXACT` players is cut, down the ranking, into
blocks of about :data:`BLOCK` (at a score group's edge where one is near), each paired alone
with rematches left out; a block that cannot be paired so is merged with the next (the last
one with the one before), and only when the whole field is one block are rematches allowed
(and the bye chosen with the rest). Up to :data:`EXACT` players, the pairing is the optimum.

**Round-robin.** The circle (Berger) method over every entry, withdrawn ones included, in seed
order (rating, then user id), so the schedule never changes: see :func:`round_robin_round`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from bot.features.tournaments.history import FIRST, SECOND, Record, records
from storage.tournament_records import BYE, FORFEIT, Entry, NewGame, SeatResult, TournamentGame

#: Fields up to this many players are paired as one matching (the exact optimum).
EXACT = 48
#: Larger fields are paired in blocks of about this many players (even).
BLOCK = 24
_BYE_NODE = ""


@dataclass(frozen=True, slots=True)
class _Field:
    """What the weights read: each player's record, points and rank, and the eligible byes."""

    records: dict[str, Record]
    points: dict[str, int]  # in half points
    rank: dict[str, int]


def _record(field: _Field, user_id: str) -> Record:
    return field.records.get(user_id) or Record(user_id)


def _breaks(record: Record, seat: int) -> int:
    """1 when moving ``seat`` would break rule 5 for this player."""
    if record.last == seat and record.streak >= 2:
        return 1
    return int(abs(record.balance + seat) > 2)


def _wants(record: Record) -> int:
    """The seat a player prefers: FIRST, SECOND, or 0 before their first game."""
    if record.balance:
        return SECOND if record.balance > 0 else FIRST
    return -record.last


def _orient(field: _Field, a: str, b: str) -> tuple[str, str]:
    """The pair in seat order: the first mover first."""
    ra, rb = _record(field, a), _record(field, b)
    ab = _breaks(ra, FIRST) + _breaks(rb, SECOND)
    ba = _breaks(rb, FIRST) + _breaks(ra, SECOND)
    if ab != ba:
        return (a, b) if ab < ba else (b, a)
    key_a = (ra.balance, ra.last == FIRST, field.rank[a])
    key_b = (rb.balance, rb.last == FIRST, field.rank[b])
    return (a, b) if key_a < key_b else (b, a)


def _colour_penalties(field: _Field, a: str, b: str) -> tuple[int, int]:
    """(rule 5 breaks, rule 7 cost) of the pair seated as :func:`_orient` seats them."""
    first, second = _orient(field, a, b)
    rf, rs = _record(field, first), _record(field, second)
    hard = _breaks(rf, FIRST) + _breaks(rs, SECOND)
    soft = 0
    for record, seat in ((rf, FIRST), (rs, SECOND)):
        want = _wants(record)
        if want and want != seat:
            soft += 2 if record.balance else 1
    return hard, soft


def _seeding(block: Sequence[str], field: _Field) -> dict[str, tuple[int, int]]:
    """Each player's (index, size) of their score group within ``block``."""
    groups: dict[int, list[str]] = {}
    for user in block:
        groups.setdefault(field.points[user], []).append(user)
    return {user: (i, len(group)) for group in groups.values() for i, user in enumerate(group)}


def _match(
    block: Sequence[str], field: _Field, byes: Sequence[str] | None, rematches: bool
) -> tuple[list[tuple[str, str]], str | None] | None:
    """The best pairing of ``block`` (ranked) and, given ``byes`` (the players who may have it,
    ranked), its bye; None when it leaves someone out."""
    seeds = _seeding(block, field)
    levels: list[tuple[str, str, list[int]]] = []  # per edge: rematch, bye, hard, diff², soft, seed
    for i, a in enumerate(block):
        ra = _record(field, a)
        for b in block[i + 1 :]:
            rematch = int(b in ra.met)
            if rematch and not rematches:
                continue
            hard, soft = _colour_penalties(field, a, b)
            diff = field.points[a] - field.points[b]
            (ia, ga), (ib, _) = seeds[a], seeds[b]
            seed = abs(ib - ia - ga // 2) if diff == 0 else (ga - 1 - ia) + ib
            levels.append((a, b, [rematch, 0, hard, diff * diff, soft, seed]))
    if byes is not None:
        for n, user in enumerate(reversed(byes)):
            levels.append((_BYE_NODE, user, [0, n, 0, 0, 0, 0]))
    nodes = len(block) + (byes is not None)
    pairs_in_matching = nodes // 2
    weights = [0] * len(levels)
    unit = 1
    for level in range(5, -1, -1):
        top = 0
        for e, (_a, _b, values) in enumerate(levels):
            weights[e] += values[level] * unit
            top = max(top, values[level])
        unit *= top * pairs_in_matching + 1
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(block)
    for (a, b, _values), weight in zip(levels, weights, strict=True):
        graph.add_edge(a, b, weight=unit - weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < nodes:
        return None
    bye = None
    pairs = []
    for a, b in matching:
        if _BYE_NODE in (a, b):
            bye = b if a == _BYE_NODE else a
        else:
            pairs.append((a, b))
    return pairs, bye


def _blocks(ranked: Sequence[str], points: dict[str, int]) -> list[list[str]]:
    """``ranked`` (even) cut into consecutive blocks of even size near :data:`BLOCK`, at a score
    group's edge when one is within half a block."""
    cuts: list[list[str]] = []
    start, n = 0, len(ranked)
    while start < n:
        if n - start <= BLOCK + BLOCK // 2:
            end = n
        else:
            edges = [
                b
                for b in range(start + BLOCK // 2, min(n - 2, start + BLOCK + BLOCK // 2) + 1, 2)
                if points[ranked[b - 1]] != points[ranked[b]]
            ]
            end = min(edges, key=lambda b: (abs(b - start - BLOCK), b)) if edges else start + BLOCK
        cuts.append(list(ranked[start:end]))
        start = end
    return cuts


def _in_blocks(ranked: Sequence[str], field: _Field) -> list[tuple[str, str]] | None:
    """A rematch-free pairing of ``ranked`` (even) block by block, or None."""
    blocks = _blocks(ranked, field.points)
    paired: list[tuple[list[str], list[tuple[str, str]]]] = []
    k = 0
    while k < len(blocks):
        found = _match(blocks[k], field, None, rematches=False)
        if found is not None:
            paired.append((blocks[k], found[0]))
            k += 1
        elif k + 1 < len(blocks):
            blocks[k + 1] = blocks[k] + blocks[k + 1]
            k += 1
        elif paired:
            blocks[k] = paired.pop()[0] + blocks[k]
        else:
            return None
    return [pair for _block, pairs in paired for pair in pairs]


def swiss_round(entries: Sequence[Entry], games: Sequence[TournamentGame], round_no: int) -> list[NewGame]:
    """The games of Swiss round ``round_no`` for the active ``entries``, given every game so far
    (the module's rules)."""
    past = records([g for g in games if g.round < round_no])
    active = [e for e in entries if e.active]

    def points(user_id: str) -> int:
        record = past.get(user_id)
        return round(2 * record.points) if record else 0

    ranked = [e.user_id for e in sorted(active, key=lambda e: (-points(e.user_id), -e.rating, e.user_id))]
    field = _Field(past, {u: points(u) for u in ranked}, {u: i for i, u in enumerate(ranked)})
    byes: list[str] | None = None
    if len(ranked) % 2:
        fewest = min(_record(field, u).byes for u in ranked)
        byes = [u for u in ranked if _record(field, u).byes == fewest]
    pairs: list[tuple[str, str]] | None = None
    bye: str | None = None
    if len(ranked) > EXACT:
        bye = byes[-1] if byes else None
        pairs = _in_blocks([u for u in ranked if u != bye], field)
    if pairs is None:
        found = _match(ranked, field, byes, rematches=True)
        assert found is not None  # every pair has an edge: the matching is perfect
        pairs, bye = found
    seated = sorted((_orient(field, a, b) for a, b in pairs), key=lambda p: min(field.rank[u] for u in p))
    new = [NewGame(board, pair) for board, pair in enumerate(seated, 1)]
    if bye is not None:
        new.append(NewGame(len(new) + 1, (bye,), done=(SeatResult(bye, None, 1, 1.0),), how=BYE))
    return new


def round_robin_rounds(count: int) -> int:
    """How many rounds a round-robin of ``count`` players takes (count-1 if even, count if odd)."""
    if count < 2:
        return 0
    return count - 1 if count % 2 == 0 else count


def seed_order(entries: Sequence[Entry]) -> list[Entry]:
    """Every entry by rating (highest first), then user id: a round-robin's fixed order."""
    return sorted(entries, key=lambda e: (-e.rating, e.user_id))


def round_robin_round(entries: Sequence[Entry], round_no: int) -> list[NewGame]:
    """The games of round-robin round ``round_no`` (1-based) over every entry.

    The circle method on Berger's tables: the entries in seed order sit on a circle that turns
    one place a round, so each meets each once. An even count: the last seat stays put and its
    game alternates who moves first, round by round. An odd count: every seat turns and the one
    at the top has the bye (a dummy's game). In the other games, seats facing across the circle,
    the odd-numbered one moves first, so a player's first moves alternate as they go round and
    everyone moves first in half their games, give or take one.

    A withdrawn player keeps their place: their games are forfeited when paired (the present
    player wins; both withdrawn, both lose) and their bye is left out. Boards follow the table,
    the bye last.
    """
    seeded = seed_order(entries)
    count = len(seeded)
    if not 1 <= round_no <= round_robin_rounds(count):
        return []
    r = round_no - 1
    turning = count - 1 if count % 2 == 0 else count
    circle = [seeded[(i + r) % turning] for i in range(turning)]
    pairs: list[tuple[Entry, Entry]] = []
    bye: Entry | None = None
    if count % 2 == 0:
        fixed = seeded[-1]
        pairs.append((fixed, circle[0]) if r % 2 else (circle[0], fixed))
    else:
        bye = circle[0]
    for i in range(1, (turning + 1) // 2):
        ahead, behind = circle[i], circle[turning - i]
        pairs.append((ahead, behind) if i % 2 else (behind, ahead))
    games: list[NewGame] = []
    for first, second in pairs:
        board = len(games) + 1
        seats = (first.user_id, second.user_id)
        if first.active and second.active:
            games.append(NewGame(board, seats))
            continue
        results = tuple(
            SeatResult(e.user_id, None, 1, 1.0) if e.active else SeatResult(e.user_id, None, 2, 0.0)
            for e in (first, second)
        )
        games.append(NewGame(board, seats, done=results, how=FORFEIT))
    if bye is not None and bye.active:
        games.append(NewGame(len(games) + 1, (bye.user_id,), (SeatResult(bye.user_id, None, 1, 1.0),), BYE))
    return games
