"""Tournaments for the tournament pages' tests, written through the store's own API
(``store.tournaments``): a Swiss tournament of five players three rounds in, and an arena."""

from __future__ import annotations

from storage.sqlite import SQLiteStore
from storage.tournament_records import (
    ADJUDICATED,
    ARENA,
    BYE,
    PLAYED,
    SWISS,
    NewGame,
    SeatResult,
    Tournament,
    tournament_game_id,
)

#: When everything happens (the site's fake clock starts at 1_000_000).
NOW = 1_000_000.0
#: The Swiss tournament's players: (user id, name, rating).
PLAYERS = [("ann", "Ann", 1200.0), ("bob", "Bob", 1100.0), ("cat", "Cat", 1000.0), ("dan", "Dan", 900.0)]
#: A player whose name is an attack.
HOSTILE = "<script>alert('x')</script><b>Eve</b>"


def tournament(
    tournament_id: str, fmt: str = SWISS, *, workspace: str = "W1", channel: str = "C1", rounds: int = 3
) -> Tournament:
    """A new tournament of MOJO in the test workspace (``workspace``: another one)."""
    return Tournament(
        tournament_id,
        "web",
        workspace,
        channel,
        fmt,
        "board",
        ("bots=0",),
        rounds if fmt != ARENA else 0,
        3600.0,
        "en",
        "ann",
        "Ann",
        NOW,
    )


async def swiss(store: SQLiteStore, tournament_id: str = "sw1") -> str:
    """A Swiss tournament of Ann, Bob, Cat, Dan and the hostile Eve, in round 3 of 3.

    Round 1: Ann beats Bob (board 1), Cat and Dan draw (board 2), Eve has the bye.
    Round 2: Ann beats Cat by adjudication, Eve beats Bob, Dan has the bye.
    Round 3: Ann and Eve are playing; Bob and Dan too; Cat has the bye.
    """
    tours = store.tournaments
    await tours.create_tournament(tournament(tournament_id))
    for at, (user, name, rating) in enumerate([*PLAYERS, ("eve", HOSTILE, 950.0)]):
        assert await tours.join_tournament(tournament_id, user, name, rating, NOW + at)
    bye = (SeatResult("eve", None, 1, 1.0),)
    assert await tours.begin_round(
        tournament_id,
        1,
        NOW + 3600,
        [NewGame(1, ("ann", "bob")), NewGame(2, ("cat", "dan")), NewGame(3, ("eve",), bye, BYE)],
        NOW + 10,
    )
    await finish(store, tournament_id, 1, 1, [("ann", 320, 1, 1.0), ("bob", 280, 2, 0.0)])
    await finish(store, tournament_id, 1, 2, [("cat", 300, 1, 0.5), ("dan", 300, 1, 0.5)])
    assert await tours.begin_round(
        tournament_id,
        2,
        NOW + 7200,
        [
            NewGame(1, ("ann", "cat")),
            NewGame(2, ("eve", "bob")),
            NewGame(3, ("dan",), (SeatResult("dan", None, 1, 1.0),), BYE),
        ],
        NOW + 3600,
    )
    await finish(store, tournament_id, 2, 1, [("ann", 200, 1, 1.0), ("cat", 150, 2, 0.0)], ADJUDICATED)
    await finish(store, tournament_id, 2, 2, [("eve", 250, 1, 1.0), ("bob", 240, 2, 0.0)])
    assert await tours.begin_round(
        tournament_id,
        3,
        NOW + 10800,
        [
            NewGame(1, ("ann", "eve")),
            NewGame(2, ("bob", "dan")),
            NewGame(3, ("cat",), (SeatResult("cat", None, 1, 1.0),), BYE),
        ],
        NOW + 7200,
    )
    return tournament_id


async def finish(
    store: SQLiteStore,
    tournament_id: str,
    round_no: int,
    board: int,
    seats: list[tuple[str, int, int, float]],
    how: str = PLAYED,
) -> None:
    """Keep a game's result: each seat's (user, score, place, points)."""
    assert await store.tournaments.finish_tournament_game(
        tournament_game_id(tournament_id, round_no, board),
        [SeatResult(user, score, place, points) for user, score, place, points in seats],
        how,
        NOW + 100 * round_no + board,
    )


async def arena(store: SQLiteStore, tournament_id: str = "ar1") -> str:
    """An arena: Ann wins her two games in a row (on fire), Bob wins one, Cat none."""
    tours = store.tournaments
    await tours.create_tournament(tournament(tournament_id, ARENA, channel="C2"))
    for at, (user, name, rating) in enumerate(PLAYERS[:3]):
        assert await tours.join_tournament(tournament_id, user, name, rating, NOW + at)
    assert await tours.begin_round(
        tournament_id, 1, NOW + 3600, [NewGame(1, ("ann", "bob", "cat")), NewGame(2, ("bob", "cat"))], NOW
    )
    await finish(store, tournament_id, 1, 1, [("ann", 90, 1, 2.0), ("bob", 60, 2, 0.0), ("cat", 30, 3, 0.0)])
    await finish(store, tournament_id, 1, 2, [("bob", 70, 1, 2.0), ("cat", 40, 2, 0.0)])
    assert await tours.begin_round(tournament_id, 2, NOW + 3600, [NewGame(1, ("ann", "cat"))], NOW + 50)
    await finish(store, tournament_id, 2, 1, [("ann", 80, 1, 4.0), ("cat", 20, 2, 0.0)])
    return tournament_id


async def record_as(store: SQLiteStore, played: str, game_id: str) -> None:
    """Copy the log of the finished game ``played`` under ``game_id`` (a tournament game's id):
    the tournament's game, recorded and replayable."""
    async with store.write() as tx:
        columns = [str(row[1]) for row in await tx.fetch("PRAGMA table_info(games)", ())]
        rest = [c for c in columns if c != "game_id"]
        await tx.execute(
            f"INSERT INTO games (game_id, {', '.join(rest)}) "
            f"SELECT ?, {', '.join(rest)} FROM games WHERE game_id = ?",
            (game_id, played),
        )
        await tx.execute(
            "INSERT INTO game_actions (game_id, seq, action) "
            "SELECT ?, seq, action FROM game_actions WHERE game_id = ?",
            (game_id, played),
        )
