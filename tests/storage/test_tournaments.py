"""The tournaments' store (storage/tournaments.py) on SQLite and (with ``MOJI_TEST_POSTGRES_URL``)
PostgreSQL.

Every step that must happen once (pairing a round, keeping a game's result, claiming a game's
start, ending the tournament) is raced from two store objects on one database, standing for two
processes, with ``asyncio.gather``: whatever the interleaving, exactly one caller wins and its
write is the one kept. Nothing here waits on the wall clock.
"""

from __future__ import annotations

import asyncio
import itertools
import weakref
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.privacy import FORMER
from storage.sqlstore import SQLStore
from storage.tournament_records import (
    BYE,
    CANCELLED,
    FINISHED,
    PLAYED,
    REGISTERING,
    RUNNING,
    SWISS,
    Entry,
    NewGame,
    SeatResult,
    Tournament,
    tournament_game_id,
)
from tests.storage.conftest import Factory
from tests.storage.helpers import NOW, PLATFORM, WS

OTHER_WS = "w2"
#: A creation time with a fraction a single-precision column would lose.
T0 = NOW.timestamp() + 0.123456
#: How many times each race is run (each on a fresh tournament).
RACES = 12


def tournament(
    tournament_id: str,
    *,
    channel: str = "c1",
    workspace: str = WS,
    platform: str = PLATFORM,
    created_at: float = T0,
    created_by: str = "u1",
    state: str = REGISTERING,
) -> Tournament:
    """A Swiss tournament of two-player games, registering in ``channel``."""
    return Tournament(
        tournament_id=tournament_id,
        platform=platform,
        workspace_id=workspace,
        channel_id=channel,
        format=SWISS,
        game="race",
        options=("cards=5", "language=en"),
        rounds=3,
        round_seconds=900.0,
        speech="en",
        created_by=created_by,
        created_by_name=created_by.upper(),
        created_at=created_at,
        state=state,
    )


async def two(make_store: Factory) -> tuple[SQLStore, SQLStore]:
    """Two open stores on the same database, as two processes would have."""
    one, other = make_store(), make_store()
    await one.open()
    await other.open()
    return one, other


async def entered(store: SQLStore, tid: str, players: Sequence[str], **fields: Any) -> Tournament:
    """Create tournament ``tid`` with ``players`` entered, one second apart."""
    saved = await store.tournaments.create_tournament(tournament(tid, **fields))
    assert saved.tournament_id == tid
    for i, user in enumerate(players):
        assert await store.tournaments.join_tournament(tid, user, user.upper(), 1500.0 + i, T0 + i)
    return saved


async def rows(store: SQLStore, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Every row of a raw query, as tuples."""
    async with store.read() as tx:
        return [tuple(row) for row in await tx.fetch(sql, args)]


async def seat_rows(store: SQLStore, tid: str) -> list[tuple[Any, ...]]:
    """The tournament's seats as stored: (round, board, seat, user, score, place, points)."""
    return await rows(
        store,
        "SELECT round, board, seat, user_id, score, place, points FROM tournament_seats "
        "WHERE tournament_id = ? ORDER BY round, board, seat",
        (tid,),
    )


def one_winner(results: Sequence[bool]) -> int:
    """The index of the one True in ``results`` (fails unless there is exactly one)."""
    assert sum(results) == 1, results
    return results.index(True)


# ------------------------------------------------------------------ create and read


async def test_a_tournament_round_trips_every_field(store: SQLStore) -> None:
    live = Tournament(
        tournament_id="t1",
        platform=PLATFORM,
        workspace_id=WS,
        channel_id="c1",
        format=SWISS,
        game="race",
        options=("cards=5", "level=hard", "name=Ünïcode ✓"),
        rounds=5,
        round_seconds=600.25,
        speech="fr",
        created_by="u1",
        created_by_name="Ann «la reine»",
        created_at=T0,
        starts_at=T0 + 3600.000001,
        state=RUNNING,
        round=2,
        round_ends_at=T0 + 7200.5,
        ended_at=None,
    )
    ended = Tournament(
        tournament_id="t2",
        platform=PLATFORM,
        workspace_id=WS,
        channel_id="c2",
        format="arena",
        game="chain",
        options=(),
        rounds=0,
        round_seconds=1800.0,
        speech="en",
        created_by="u2",
        created_by_name="Bob",
        created_at=T0 + 1,
        state=FINISHED,
        ended_at=T0 + 9999.999999,
    )
    assert await store.tournaments.create_tournament(live) == live
    assert await store.tournaments.create_tournament(ended) == ended
    assert await store.tournaments.tournament("t1") == live
    assert await store.tournaments.tournament("t2") == ended
    assert await store.tournaments.tournament("t3") is None


async def test_the_live_tournament_is_found_by_its_channel(store: SQLStore) -> None:
    t = await store.tournaments.create_tournament(tournament("t1"))
    assert await store.tournaments.live_tournament(PLATFORM, WS, "c1") == t
    assert await store.tournaments.live_tournament(PLATFORM, WS, "c2") is None
    assert await store.tournaments.live_tournament(PLATFORM, OTHER_WS, "c1") is None
    assert await store.tournaments.live_tournament("other", WS, "c1") is None
    assert await store.tournaments.start_tournament("t1", T0 + 10)
    running = await store.tournaments.live_tournament(PLATFORM, WS, "c1")
    assert running is not None and (running.state, running.starts_at) == (RUNNING, T0 + 10)
    assert not await store.tournaments.start_tournament("t1", T0 + 20), "registration closes once"
    assert await store.tournaments.end_tournament("t1", FINISHED, T0 + 30)
    assert await store.tournaments.live_tournament(PLATFORM, WS, "c1") is None


async def test_a_channel_has_one_live_tournament_until_it_ends(make_store: Factory) -> None:
    a, b = await two(make_store)
    first = await a.tournaments.create_tournament(tournament("t1"))
    assert await a.tournaments.create_tournament(tournament("t2")) == first
    assert await b.tournaments.create_tournament(tournament("t3")) == first, "from another process too"
    assert await a.tournaments.tournament("t2") is None and await a.tournaments.tournament("t3") is None
    elsewhere = await b.tournaments.create_tournament(tournament("t4", channel="c2"))
    assert elsewhere.tournament_id == "t4", "another channel has its own"
    other_ws = await b.tournaments.create_tournament(tournament("t5", workspace=OTHER_WS))
    assert other_ws.tournament_id == "t5", "the same channel id in another workspace is another channel"

    assert await a.tournaments.end_tournament("t1", FINISHED, T0 + 1)
    second = await b.tournaments.create_tournament(tournament("t2"))
    assert second.tournament_id == "t2", "a finished tournament lets a new one open"
    assert await b.tournaments.end_tournament("t2", CANCELLED, T0 + 2)
    third = await a.tournaments.create_tournament(tournament("t3"))
    assert third.tournament_id == "t3", "so does a cancelled one"
    assert await a.tournaments.live_tournament(PLATFORM, WS, "c1") == third


async def test_two_processes_opening_a_tournament_in_one_channel_get_the_same_one(
    make_store: Factory,
) -> None:
    a, b = await two(make_store)
    for n in range(RACES):
        channel = f"c{n}"
        made = [tournament(f"t{n}-{i}", channel=channel) for i in range(4)]
        saved = await asyncio.gather(
            *(store.tournaments.create_tournament(t) for store, t in zip((a, b, a, b), made, strict=True))
        )
        assert len({t.tournament_id for t in saved}) == 1, saved
        [live] = await rows(
            a,
            "SELECT tournament_id FROM tournaments WHERE channel_id = ?",
            (channel,),
        )
        assert live == (saved[0].tournament_id,)


async def test_live_and_recent_tournaments_are_ordered(store: SQLStore) -> None:
    ts = store.tournaments
    await ts.create_tournament(tournament("tb", channel="c1", created_at=T0 + 10))
    await ts.create_tournament(tournament("ta", channel="c2", created_at=T0 + 10))
    await ts.create_tournament(tournament("tc", channel="c3", created_at=T0 + 5))
    await ts.create_tournament(tournament("td", channel="c4", created_at=T0 + 20))
    await ts.create_tournament(tournament("te", channel="c1", created_at=T0 + 1, workspace=OTHER_WS))
    await ts.create_tournament(tournament("tf", channel="c1", created_at=T0, platform="other"))
    assert await ts.end_tournament("td", FINISHED, T0 + 30)

    live = await ts.live_tournaments(PLATFORM)
    assert [t.tournament_id for t in live] == ["te", "tc", "ta", "tb"], "oldest first, then by id"
    assert [t.tournament_id for t in await ts.live_tournaments("other")] == ["tf"]
    recent = await ts.recent_tournaments(PLATFORM, WS, 10)
    assert [t.tournament_id for t in recent] == ["td", "ta", "tb", "tc"], "newest first, ended ones too"
    assert [t.tournament_id for t in await ts.recent_tournaments(PLATFORM, WS, 2)] == ["td", "ta"]
    assert [t.tournament_id for t in await ts.recent_tournaments(PLATFORM, OTHER_WS, 10)] == ["te"]


# ------------------------------------------------------------------ entries


async def test_players_join_leave_and_rejoin(store: SQLStore) -> None:
    ts = store.tournaments
    await ts.create_tournament(tournament("t1"))
    assert await ts.join_tournament("t1", "u2", "Bob", 1510.5, T0 + 1)
    assert await ts.join_tournament("t1", "u1", "Ann", 1600.0, T0 + 2)
    assert await ts.join_tournament("t1", "bot:1", "Robo (bot)", 1400.0, T0 + 3)
    assert not await ts.join_tournament("t1", "u1", "Ann", 1700.0, T0 + 4), "in already"
    assert await ts.entries("t1") == [
        Entry("u2", "Bob", 1510.5, T0 + 1),
        Entry("u1", "Ann", 1600.0, T0 + 2),
        Entry("bot:1", "Robo (bot)", 1400.0, T0 + 3),
    ]

    assert await ts.leave_tournament("t1", "u2", T0 + 5)
    assert not await ts.leave_tournament("t1", "u2", T0 + 6), "left already"
    assert not await ts.leave_tournament("t1", "u9", T0 + 6), "never entered"
    [bob] = [e for e in await ts.entries("t1") if e.user_id == "u2"]
    assert bob == Entry("u2", "Bob", 1510.5, T0 + 1, T0 + 5) and not bob.active, "the row stays"

    assert await ts.join_tournament("t1", "u2", "Bobby", 1520.0, T0 + 7), "back after leaving"
    entries = await ts.entries("t1")
    assert [e.user_id for e in entries] == ["u2", "u1", "bot:1"], "still in the order they first joined"
    assert entries[0] == Entry("u2", "Bobby", 1510.5, T0 + 1), "left_at cleared, the new name kept"
    assert not await ts.join_tournament("t1", "u2", "Bob", 1500.0, T0 + 8)
    assert await ts.entries("t2") == []


# ------------------------------------------------------------------ once-only steps, raced


async def test_a_join_or_a_start_raced_by_two_processes_counts_once(make_store: Factory) -> None:
    a, b = await two(make_store)
    callers = (a, b, a, b)
    for n in range(RACES):
        tid = f"t{n}"
        await entered(a, tid, ["u1"], channel=f"c{n}")
        joined = await asyncio.gather(
            *(
                s.tournaments.join_tournament(tid, "u2", f"Bob {i}", 1500.0, T0 + 10 + i)
                for i, s in enumerate(callers)
            )
        )
        winner = one_winner(joined)
        assert [(e.user_id, e.name) for e in await b.tournaments.entries(tid)] == [
            ("u1", "U1"),
            ("u2", f"Bob {winner}"),
        ]
        assert await a.tournaments.leave_tournament(tid, "u2", T0 + 20)
        back = await asyncio.gather(
            *(
                s.tournaments.join_tournament(tid, "u2", "Bob", 1500.0, T0 + 30 + i)
                for i, s in enumerate(callers)
            )
        )
        one_winner(back)
        assert all(e.active for e in await a.tournaments.entries(tid))
        started = await asyncio.gather(
            *(s.tournaments.start_tournament(tid, T0 + 40 + i) for i, s in enumerate(callers))
        )
        winner = one_winner(started)
        t = await b.tournaments.tournament(tid)
        assert t is not None and (t.state, t.starts_at) == (RUNNING, T0 + 40 + winner)


def pairings(caller: int) -> list[NewGame]:
    """The pairings caller ``caller`` would make for round 1 (each caller its own)."""
    players = ["u1", "u2", "u3", "u4", "u5"]
    order = players[caller:] + players[:caller]
    return [
        NewGame(1, (order[0], order[1])),
        NewGame(2, (order[2], order[3])),
        NewGame(3, (order[4],), (SeatResult(order[4], None, None, 1.0),), BYE),
    ]


async def test_a_round_raced_by_two_processes_is_paired_once(make_store: Factory) -> None:
    a, b = await two(make_store)
    for n in range(RACES):
        tid = f"t{n}"
        await entered(a, tid, ["u1", "u2", "u3", "u4", "u5"], channel=f"c{n}")
        callers = (a, b, a, b)
        won = await asyncio.gather(
            *(
                store.tournaments.begin_round(tid, 1, T0 + 100 + i, pairings(i), T0 + 50 + i)
                for i, store in enumerate(callers)
            )
        )
        winner = one_winner(won)
        games = await b.tournaments.tournament_games(tid)
        assert [(g.board, tuple(s.user_id for s in g.seats)) for g in games] == [
            (g.board, g.seats) for g in pairings(winner)
        ], "the winner's pairings, inserted once"
        assert all(g.started_at == T0 + 50 + winner for g in games)
        assert len(await seat_rows(a, tid)) == 5
        t = await a.tournaments.tournament(tid)
        assert t is not None and (t.state, t.round, t.round_ends_at) == (RUNNING, 1, T0 + 100 + winner)

    assert not await a.tournaments.begin_round("t0", 1, None, pairings(0), T0), "paired already"
    assert not await a.tournaments.begin_round("t0", 3, None, [], T0), "a round is never skipped"
    assert await b.tournaments.begin_round("t0", 2, None, [NewGame(1, ("u1", "u2"))], T0 + 200)
    t = await a.tournaments.tournament("t0")
    assert t is not None and (t.round, t.round_ends_at) == (2, None)
    assert await a.tournaments.end_tournament("t0", FINISHED, T0 + 300)
    assert not await a.tournaments.begin_round("t0", 3, None, [], T0), "an ended tournament pairs nothing"


def result(caller: int, first: str, second: str) -> list[SeatResult]:
    """Caller ``caller``'s idea of a game's result (each caller a different one)."""
    return [SeatResult(first, 10 + caller, 1, 1.0), SeatResult(second, caller, 2, 0.0)]


async def test_a_result_raced_by_two_processes_is_kept_once(make_store: Factory) -> None:
    a, b = await two(make_store)
    for n in range(RACES):
        tid = f"t{n}"
        await entered(a, tid, ["u1", "u2", "u3", "u4"], channel=f"c{n}")
        assert await a.tournaments.begin_round(
            tid, 1, None, [NewGame(1, ("u3", "u1")), NewGame(2, ("u2", "u4"))], T0
        )
        game_id = tournament_game_id(tid, 1, 1)
        callers = (a, b, a, b)
        won = await asyncio.gather(
            *(
                store.tournaments.finish_tournament_game(game_id, result(i, "u1", "u3"), PLAYED, T0 + 10 + i)
                for i, store in enumerate(callers)
            )
        )
        winner = one_winner(won)
        game = await b.tournaments.tournament_game(game_id)
        assert game is not None and game.done and (game.how, game.ended_at) == (PLAYED, T0 + 10 + winner)
        assert game.seats == (
            SeatResult("u3", winner, 2, 0.0),
            SeatResult("u1", 10 + winner, 1, 1.0),
        ), "the winner's result, in seat order"
        assert await seat_rows(a, tid) == [
            (1, 1, 0, "u3", winner, 2, 0.0),
            (1, 1, 1, "u1", 10 + winner, 1, 1.0),
            (1, 2, 0, "u2", None, None, None),
            (1, 2, 1, "u4", None, None, None),
        ], "written once, the other board untouched"
        again = await a.tournaments.finish_tournament_game(game_id, result(9, "u1", "u3"), PLAYED, T0 + 99)
        assert not again


async def test_a_tournament_raced_to_its_end_ends_once(make_store: Factory) -> None:
    a, b = await two(make_store)
    for n in range(RACES):
        tid = f"t{n}"
        await entered(a, tid, ["u1", "u2"], channel=f"c{n}")
        ends = [(FINISHED, T0 + 1), (CANCELLED, T0 + 2), (FINISHED, T0 + 3), (CANCELLED, T0 + 4)]
        won = await asyncio.gather(
            *(
                store.tournaments.end_tournament(tid, state, at)
                for store, (state, at) in zip((a, b, b, a), ends, strict=True)
            )
        )
        winner = one_winner(won)
        t = await b.tournaments.tournament(tid)
        assert t is not None and (t.state, t.ended_at) == ends[winner]
        assert await a.tournaments.live_tournament(PLATFORM, WS, f"c{n}") is None


async def test_a_game_start_raced_by_two_processes_is_claimed_once(make_store: Factory) -> None:
    a, b = await two(make_store)
    for n in range(RACES):
        tid = f"t{n}"
        await entered(a, tid, ["u1", "u2"], channel=f"c{n}")
        assert await a.tournaments.begin_round(tid, 1, None, [NewGame(1, ("u1", "u2"))], T0)
        game_id = tournament_game_id(tid, 1, 1)
        callers = (a, b, a, b)
        won = await asyncio.gather(
            *(store.tournaments.claim_tournament_game(game_id, f"p{i}") for i, store in enumerate(callers))
        )
        winner = one_winner(won)
        game = await a.tournaments.tournament_game(game_id)
        assert game is not None and game.thread_id == f"p{winner}"
        assert not await b.tournaments.claim_tournament_game(game_id, "late")

        await callers[winner].tournaments.release_tournament_game(game_id)
        game = await a.tournaments.tournament_game(game_id)
        assert game is not None and game.thread_id is None, "given back"
        won = await asyncio.gather(
            *(store.tournaments.claim_tournament_game(game_id, f"q{i}") for i, store in enumerate(callers))
        )
        winner = one_winner(won)
        await callers[winner].tournaments.set_game_thread(game_id, "thread-1")
        assert await b.tournaments.finish_tournament_game(game_id, result(0, "u1", "u2"), PLAYED, T0 + 5)
        await a.tournaments.release_tournament_game(game_id)
        game = await a.tournaments.tournament_game(game_id)
        assert game is not None and game.thread_id == "thread-1", "a finished game keeps its thread"
        assert not await a.tournaments.claim_tournament_game(game_id, "late"), "nor is it started again"


# ------------------------------------------------------------------ byes and games


async def test_a_bye_is_stored_done_with_its_points(store: SQLStore) -> None:
    ts = store.tournaments
    await entered(store, "t1", ["u1", "u2", "u3"])
    bye = NewGame(2, ("u2",), (SeatResult("u2", None, None, 1.0),), BYE)
    assert await ts.begin_round("t1", 1, T0 + 900, [NewGame(1, ("u3", "u1")), bye], T0 + 60)
    first, second = await ts.tournament_games("t1")
    assert (first.board, first.state, first.how, first.ended_at) == (1, "playing", "", None)
    assert first.seats == (SeatResult("u3"), SeatResult("u1")), "seat order, not name order"
    assert second.is_bye and second.done
    assert (second.game_id, second.started_at, second.ended_at) == (
        tournament_game_id("t1", 1, 2),
        T0 + 60,
        T0 + 60,
    )
    assert second.seats == (SeatResult("u2", None, None, 1.0),)
    assert not await ts.finish_tournament_game(second.game_id, [SeatResult("u2", 0, 1, 0.0)], PLAYED, T0 + 99)
    assert not await ts.claim_tournament_game(second.game_id, "p1"), "a bye is never started"

    assert await ts.finish_tournament_game(
        first.game_id, [SeatResult("u1", 20, 1, 0.5), SeatResult("u3", 20, 1, 0.5)], "adjudicated", T0 + 500
    )
    assert await ts.begin_round(
        "t1", 2, None, [NewGame(1, ("u1", "u2")), NewGame(2, ("u3",), (), "")], T0 + 1000
    )
    games = await ts.tournament_games("t1")
    assert [(g.round, g.board) for g in games] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert games[0].seats == (SeatResult("u3", 20, 1, 0.5), SeatResult("u1", 20, 1, 0.5))
    assert games[0].how == "adjudicated" and games[0].ended_at == T0 + 500
    for game in games:
        assert await ts.tournament_game(game.game_id) == game
    assert await ts.tournament_game(tournament_game_id("t1", 3, 1)) is None
    assert await ts.tournament_games("t2") == []


# ------------------------------------------------------------------ privacy


async def a_tournament_played(store: SQLStore, tid: str, workspace: str) -> None:
    """A tournament in ``workspace`` made by u1: u1, u2 and u3 entered, round 1 played (u1 beat u2,
    u3 had the bye)."""
    await entered(store, tid, ["u1", "u2", "u3"], workspace=workspace)
    bye = NewGame(2, ("u3",), (SeatResult("u3", None, None, 1.0),), BYE)
    assert await store.tournaments.begin_round(tid, 1, None, [NewGame(1, ("u1", "u2")), bye], T0 + 10)
    assert await store.tournaments.finish_tournament_game(
        tournament_game_id(tid, 1, 1), result(0, "u1", "u2"), PLAYED, T0 + 20
    )


async def everything_of(store: SQLStore, tid: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of a tournament, table by table."""
    return {
        table: await rows(store, f"SELECT * FROM {table} WHERE tournament_id = ? ORDER BY 1, 2, 3", (tid,))
        for table in ("tournaments", "tournament_players", "tournament_games", "tournament_seats")
    }


async def test_forget_me_anonymises_a_player_in_that_workspace_s_tournaments(store: SQLStore) -> None:
    await a_tournament_played(store, "t1", WS)
    await a_tournament_played(store, "t2", OTHER_WS)
    elsewhere = await everything_of(store, "t2")
    players_before = await store.tournaments.entries("t1")

    await store.forget_player(PLATFORM, WS, "u1")

    t = await store.tournaments.tournament("t1")
    assert t is not None and t.created_by.startswith("former:") and t.created_by_name == FORMER
    former = t.created_by
    entries = await store.tournaments.entries("t1")
    assert [e for e in entries if e.user_id != former] == [e for e in players_before if e.user_id != "u1"]
    [gone] = [e for e in entries if e.user_id == former]
    assert gone.name == FORMER and gone.rating == 1500.0 and gone.left_at is not None
    assert await seat_rows(store, "t1") == [
        (1, 1, 0, former, 10, 1, 1.0),
        (1, 1, 1, "u2", 0, 2, 0.0),
        (1, 2, 0, "u3", None, None, 1.0),
    ], "their points stay (under the former id), the others' rows untouched"
    assert "u1" not in repr(await everything_of(store, "t1"))
    assert await everything_of(store, "t2") == elsewhere, "another workspace's tournament is untouched"


async def test_purge_deletes_every_tournament_row_of_that_workspace_only(store: SQLStore) -> None:
    await a_tournament_played(store, "t1", WS)
    await store.tournaments.create_tournament(tournament("t3", channel="c2"))
    await a_tournament_played(store, "t2", OTHER_WS)
    elsewhere = await everything_of(store, "t2")

    deleted = await store.purge_workspace(PLATFORM, WS)

    assert deleted >= 2 + 3 + 2 + 3, "every tournament, player, game and seat row counted"
    for tid in ("t1", "t3"):
        assert all(not found for found in (await everything_of(store, tid)).values())
    assert await store.tournaments.recent_tournaments(PLATFORM, WS, 10) == []
    assert await everything_of(store, "t2") == elsewhere


# ------------------------------------------------------------------ any interleaving counts once

BOARDS = 3
#: A finish call: (which store, which board).
CALLS = st.lists(st.tuples(st.integers(0, 1), st.integers(1, BOARDS)), min_size=1, max_size=10)
#: The two stores each database's examples share (opened by the first example, closed by the
#: fixture), and a number for each example's tournament.
_SHARED: weakref.WeakKeyDictionary[Factory, tuple[SQLStore, SQLStore]] = weakref.WeakKeyDictionary()
_EXAMPLES = itertools.count()


async def shared(make_store: Factory) -> tuple[SQLStore, SQLStore]:
    """Two open stores on the fixture's database, the same for every example of a test."""
    if make_store not in _SHARED:
        _SHARED[make_store] = await two(make_store)
    return _SHARED[make_store]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calls=CALLS, batch=st.integers(1, 4))
async def test_any_interleaving_of_finishes_counts_each_game_once(
    make_store: Factory, calls: list[tuple[int, int]], batch: int
) -> None:
    stores = await shared(make_store)
    tid = f"t{next(_EXAMPLES)}"
    players = [f"u{i}" for i in range(1, 2 * BOARDS + 1)]
    await entered(stores[0], tid, players, channel=tid)
    boards = {board: (players[2 * board - 2], players[2 * board - 1]) for board in range(1, BOARDS + 1)}
    assert await stores[1].tournaments.begin_round(
        tid, 1, None, [NewGame(board, seats) for board, seats in boards.items()], T0
    )

    won: list[bool] = []
    for start in range(0, len(calls), batch):  # each batch runs concurrently, the batches in turn
        won += await asyncio.gather(
            *(
                stores[who].tournaments.finish_tournament_game(
                    tournament_game_id(tid, 1, board),
                    result(start + i, *boards[board]),
                    PLAYED,
                    T0 + start + i,
                )
                for i, (who, board) in enumerate(calls[start : start + batch])
            )
        )

    called = {board for _, board in calls}
    assert sum(won) == len(called), "each game called counts once"
    kept = {board: i for i, (_, board) in enumerate(calls) if won[i]}
    assert set(kept) == called
    games = {g.board: g for g in await stores[0].tournaments.tournament_games(tid)}
    for board, (first, second) in boards.items():
        game = games[board]
        if board not in kept:
            assert not game.done and all(s.points is None for s in game.seats)
            continue
        i = kept[board]
        assert game.done and game.ended_at == T0 + i
        assert {s.user_id: s for s in game.seats} == {s.user_id: s for s in result(i, first, second)}
    points = sum(s.points or 0.0 for g in games.values() for s in g.seats)
    assert points == len(called), "one point per game kept, never twice"
