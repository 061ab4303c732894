"""Action logs, restart recovery and StoreGameLog, on every backend."""

from __future__ import annotations

from bot.core.events import ChatKey
from bot.core.outbox import GameStart
from bot.sessions.gamelog import StoreGameLog, load_unannounced, load_unfinished
from games.common.protocol import Action, Claim, Result, Seat
from storage.sqlstore import SQLStore
from tests.storage.helpers import NOW, PLATFORM, WS, record


async def test_unfinished_games_and_their_actions_round_trip(store: SQLStore) -> None:
    first = record("g1", ["u1", "u2"], bots=1, started_at=100.0)
    second = record("g2", ["u3"], started_at=50.0)
    done = record("g3", ["u4"], started_at=10.0)
    for rec in (first, second, done):
        await store.start_game(rec)
    await store.start_game(first)  # idempotent
    for seq in range(3):
        await store.append_action("g1", seq, {"kind": "tick", "now": 100.0 + seq, "text": f"a'{seq}"})
    await store.append_action("g1", 1, {"kind": "tick", "now": 0.0})  # a repeat is ignored
    await store.append_action("g3", 0, {"kind": "begin", "now": 10.0})
    await store.finish_game(done, [], 20.0)
    games = await store.unfinished_games()
    assert [g.record.game_id for g in games] == ["g2", "g1"]
    assert games[1].record == first
    assert games[1].actions == tuple({"kind": "tick", "now": 100.0 + i, "text": f"a'{i}"} for i in range(3))
    assert games[0].actions == ()
    await store.void_game("g2", "restart")
    assert [g.record.game_id for g in await store.unfinished_games()] == ["g1"]


async def test_an_action_of_an_unknown_game_is_refused(store: SQLStore) -> None:
    import pytest

    from storage import StorageError

    with pytest.raises(StorageError):
        await store.append_action("nope", 0, {"kind": "begin", "now": 1.0})


def _start(game_id: str = "g1") -> GameStart:
    return GameStart(
        game_id=game_id,
        game="race",
        chat=ChatKey(PLATFORM, WS, "c'1", "thread-9"),
        options={"cards": 5, "variant": "stack", "challenges": ("plural", "🎉"), "timer": True},
        seed=2**62 + 12345,
        seats=(
            Seat(f"{PLATFORM}:u1", "Ann 🎉"),
            Seat(f"{PLATFORM}:u2", "'; DROP TABLE games;--"),
            Seat("bot:1", "Bo", "hard"),
        ),
        started_at=NOW.timestamp(),
        host=f"{PLATFORM}:u1",
        names={f"{PLATFORM}:u1": "Ann 🎉", f"{PLATFORM}:u2": "'; DROP TABLE games;--", "bot:1": "Bo"},
        added_words=frozenset({"selfie"}),
        banned_words=frozenset({"rude", "ünï"}),
    )


async def test_store_game_log_end_to_end(store: SQLStore) -> None:
    log = StoreGameLog(store)
    start = _start()
    actions = [
        Action("begin", NOW.timestamp()),
        Action(
            "claims",
            NOW.timestamp() + 1.5,
            claims=(
                Claim(f"{PLATFORM}:u1", "zebra", NOW.timestamp() + 1.2, "m1"),
                Claim("bot:1", "q\x00'x", 3.0),
            ),
        ),
        Action("say", NOW.timestamp() + 2, seat=f"{PLATFORM}:u2", text="x" * 4000, private=True, ref="m2"),
    ]
    await log.start(start)
    for seq, action in enumerate(actions):
        await log.append(start.game_id, seq, action)
    await log.append(start.game_id, 1, actions[1])  # a redelivery
    ((loaded, replay),) = await load_unfinished(store)
    assert loaded == start
    assert replay == actions

    result = Result(
        scores={f"{PLATFORM}:u1": 12, f"{PLATFORM}:u2": 3, "bot:1": 99},
        winners=("bot:1",),
        summary="Bo wins",
        best_words={f"{PLATFORM}:u1": "zebra"},
    )
    assert await log.finish(start, result, NOW.timestamp() + 60) is True
    assert await log.finish(start, result, NOW.timestamp() + 61) is False
    assert await load_unfinished(store) == []
    # finished, but its result not posted yet (a crash now would leave it unannounced)
    ((unannounced, log_again),) = await load_unannounced(store)
    assert unannounced == start and log_again == actions
    await log.announced(start.game_id, NOW.timestamp() + 62)
    assert await load_unannounced(store) == []
    rows = await store.leaderboard(PLATFORM, WS, "race", "all", NOW)
    assert [(r.display_name, r.points, r.wins, r.best_word) for r in rows] == [
        ("Ann 🎉", 12, 0, "zebra"),
        ("'; DROP TABLE games;--", 3, 0, ""),
    ]


async def test_store_game_log_void_and_voided_results(store: SQLStore) -> None:
    log = StoreGameLog(store)
    await log.start(_start("g1"))
    await log.void("g1", "stopped by Ann")
    assert await log.finish(_start("g1"), Result({f"{PLATFORM}:u1": 5}, (), "x"), NOW.timestamp()) is False
    await log.start(_start("g2"))
    voided = Result({f"{PLATFORM}:u1": 5}, (), "stopped early", voided=True)
    assert await log.finish(_start("g2"), voided, NOW.timestamp()) is True
    assert await log.finish(_start("g2"), voided, NOW.timestamp()) is False
    assert await store.leaderboard(PLATFORM, WS, None, "all", NOW) == []
    assert await store.game_status("g2") == "void"


async def test_an_unreadable_log_voids_only_that_game(store: SQLStore) -> None:
    log = StoreGameLog(store)
    await log.start(_start("good"))
    await log.start(_start("bad"))
    await store.append_action("bad", 0, {"no": "kind"})
    games = await load_unfinished(store)
    assert [start.game_id for start, _ in games] == ["good"]
    assert await store.game_status("bad") == "void"


async def test_running_games_are_kept_alive_and_read_back_with_that_time(store: SQLStore) -> None:
    for rec in (record("g1", ["u1"], started_at=100.0), record("g2", ["u2"], started_at=110.0)):
        await store.start_game(rec)
    await store.finish_game(record("g2", ["u2"], started_at=110.0), [], 120.0)
    assert [g.alive_at for g in await store.unfinished_games()] == [None]  # never recorded yet
    await store.keep_alive(["g1", "g2", "nope"], 130.5)  # a finished or unknown game is left alone
    await store.keep_alive([], 131.0)
    ((game,),) = [await store.unfinished_games()]
    assert (game.record.game_id, game.alive_at) == ("g1", 130.5)
    await store.keep_alive(["g1"], 140.25)
    log = StoreGameLog(store)
    await log.keep_alive(["g1"], 150.0)
    ((start, actions),) = await load_unfinished(store)
    assert start.alive_at == 150.0 and actions == []


async def test_games_ended_since_a_time_come_back_with_their_logs(store: SQLStore) -> None:
    for game_id, started in (("old", 10.0), ("new", 100.0), ("void", 110.0), ("running", 120.0)):
        await store.start_game(record(game_id, ["u1"], started_at=started))
        await store.append_action(game_id, 0, {"kind": "begin", "now": started})
    await store.finish_game(record("old", ["u1"], started_at=10.0), [], 20.0)
    await store.finish_game(record("new", ["u1"], started_at=100.0), [], 150.0)
    await store.void_game("void", "stopped", 160.0)
    ended = await store.ended_games(140.0)
    assert [(g.record.game_id, len(g.actions)) for g in ended] == [("new", 1), ("void", 1)]
    assert await store.ended_games(1000.0) == []
