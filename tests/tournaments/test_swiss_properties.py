"""Swiss pairing's rules, checked on random tournaments (hypothesis): every round of fields of
2 to 200 players with random results (draws included), withdrawals and late entries.

Each round is checked against an independent reading of the games so far: everyone active
plays once; one bye exactly when the count is odd, never a second while someone has none; no
rematch unless no pairing without one exists (networkx on the whole graph); nobody's first
moves and second moves differ by more than 2; the same input (in any order) pairs the same.
On fields of up to 10 players the pairing is compared with a brute-force optimum of the rules
in their order (rematches, the bye's rank, first-move breaks, the squared score differences).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.tournaments.pairing import swiss_round
from storage.tournament_records import BYE, FORFEIT, Entry, NewGame, TournamentGame
from tests.tournaments.sim import churn, result
from tests.tournaments.sim import field as new_field


@dataclass
class Past:
    """A player's games so far, read independently of bot.features.tournaments."""

    points: float = 0.0
    met: set[str] = field(default_factory=set)
    byes: int = 0
    seats: str = ""  # "F" moved first, "S" second, game by game


def read(games: Sequence[TournamentGame]) -> dict[str, Past]:
    found: dict[str, Past] = {}
    for game in sorted(games, key=lambda g: (g.round, g.board)):
        ids = [s.user_id for s in game.seats]
        for seat in game.seats:
            past = found.setdefault(seat.user_id, Past())
            past.points += seat.points or 0.0
            past.met |= set(ids) - {seat.user_id}
        if game.how == BYE:
            found[ids[0]].byes += 1
        elif len(ids) == 2 and game.how != FORFEIT:
            found[ids[0]].seats += "F"
            found[ids[1]].seats += "S"
    return found


def breaks(past: Past, seat: str) -> int:
    """1 when moving ``seat`` now would be a third in a row or unbalance them by more than 2."""
    after = past.seats + seat
    return int(after.endswith(seat * 3) or abs(after.count("F") - after.count("S")) > 2)


def ranked(active: Sequence[Entry], info: dict[str, Past]) -> list[str]:
    def points(e: Entry) -> float:
        return info[e.user_id].points if e.user_id in info else 0.0

    return [e.user_id for e in sorted(active, key=lambda e: (-points(e), -e.rating, e.user_id))]


def matchings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(head, other), *more]


def cost(
    pairs: Sequence[tuple[str, str]], bye: str | None, order: list[str], info: dict[str, Past]
) -> tuple[int, ...]:
    """(rematches, the bye's place above the lowest who may have it, first-move breaks, squared
    score differences in half points), pairs seated first mover first."""
    blank = Past()
    fewest = min(info.get(u, blank).byes for u in order)
    eligible = [u for u in order if info.get(u, blank).byes == fewest]
    rematches = sum(b in info.get(a, blank).met for a, b in pairs)
    hard = sum(breaks(info.get(a, blank), "F") + breaks(info.get(b, blank), "S") for a, b in pairs)
    diff = sum(
        (round(2 * info.get(a, blank).points) - round(2 * info.get(b, blank).points)) ** 2 for a, b in pairs
    )
    bye_rank = 0 if bye is None else eligible[::-1].index(bye)
    return (rematches, bye_rank, hard, diff)


def best(order: list[str], info: dict[str, Past]) -> tuple[int, ...]:
    blank = Past()
    fewest = min(info.get(u, blank).byes for u in order)
    byes: list[str | None] = (
        [u for u in order if info.get(u, blank).byes == fewest] if len(order) % 2 else [None]
    )
    found = None
    for bye in byes:
        rest = [u for u in order if u != bye]
        for pairs in matchings(rest):
            seated = [
                min(
                    ((a, b), (b, a)),
                    key=lambda p: breaks(info.get(p[0], blank), "F") + breaks(info.get(p[1], blank), "S"),
                )
                for a, b in pairs
            ]
            c = cost(seated, bye, order, info)
            found = c if found is None or c < found else found
    assert found is not None
    return found


def rematch_free_exists(order: list[str], info: dict[str, Past]) -> bool:
    blank = Past()
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(order)
    graph.add_edges_from(
        (a, b) for i, a in enumerate(order) for b in order[i + 1 :] if b not in info.get(a, blank).met
    )
    if len(order) % 2:
        fewest = min(info.get(u, blank).byes for u in order)
        graph.add_edges_from(("", u) for u in order if info.get(u, blank).byes == fewest)
    matched: set[tuple[str, str]] = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matched) == len(graph)


def check_round(
    entries: list[Entry], games: list[TournamentGame], round_no: int, brute: bool
) -> list[NewGame]:
    new = swiss_round(entries, games, round_no)
    active = [e for e in entries if e.active]
    info = read(games)
    order = ranked(active, info)
    seated = [u for g in new for u in g.seats]
    assert sorted(seated) == sorted(order), "everyone active plays exactly once"
    assert [g.board for g in new] == list(range(1, len(new) + 1))
    byes = [g for g in new if g.how == BYE]
    assert len(byes) == len(order) % 2
    bye = byes[0].seats[0] if byes else None
    if bye is not None:
        assert new[-1] is byes[0] and byes[0].done[0].points == 1.0
        if info.get(bye, Past()).byes:
            assert all(info.get(u, Past()).byes for u in order), "a second bye while someone has none"
    pairs = [(g.seats[0], g.seats[1]) for g in new if len(g.seats) == 2]
    if any(b in info.get(a, Past()).met for a, b in pairs) and len(order) <= 60:
        assert not rematch_free_exists(order, info)
    if brute:
        assert cost(pairs, bye, order, info) == best(order, info)
    shuffled = list(entries)
    random.Random(round_no).shuffle(shuffled)
    assert swiss_round(shuffled, list(reversed(games)), round_no) == new, "deterministic"
    return new


def run(size: int, rounds: int, seed: int, leave: float, join: float, brute: bool) -> None:
    rng = random.Random(seed)
    entries = new_field(size, rng)
    games: list[TournamentGame] = []
    for round_no in range(1, rounds + 1):
        if round_no > 1:
            entries = churn(entries, rng, leave, join, round_no)
        if not any(e.active for e in entries):
            break
        games += [result(g, round_no, rng) for g in check_round(entries, games, round_no, brute)]
        for user, past in read(games).items():
            assert abs(past.seats.count("F") - past.seats.count("S")) <= 2, (user, past.seats)


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    size=st.integers(2, 10),
    rounds=st.integers(1, 7),
    seed=st.integers(0, 2**32),
    churning=st.booleans(),
)
def test_small_fields_are_paired_optimally(size: int, rounds: int, seed: int, churning: bool) -> None:
    run(size, rounds, seed, 0.1 if churning else 0.0, 0.3 if churning else 0.0, brute=True)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    size=st.integers(11, 60),
    rounds=st.integers(1, 9),
    seed=st.integers(0, 2**32),
    churning=st.booleans(),
)
def test_middle_fields_keep_the_rules(size: int, rounds: int, seed: int, churning: bool) -> None:
    run(size, rounds, seed, 0.05 if churning else 0.0, 0.5 if churning else 0.0, brute=False)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(size=st.integers(61, 200), rounds=st.integers(1, 7), seed=st.integers(0, 2**32))
def test_big_fields_keep_the_rules(size: int, rounds: int, seed: int) -> None:
    run(size, rounds, seed, 0.03, 0.5, brute=False)
