"""kill -9 mid-tournament, for real: ``python -m bot`` on the fake Discord and a real SQLite file.

A Swiss of dice for Ann and three computer players (two boards a round: the computers' game is
played out at once, Ann's in a thread of its own). Each test kills the process with SIGKILL at
a bad moment and starts another on the same database; then, from the database and from what
the fake Discord was sent, nothing is paired twice and nothing is lost:

* during a round, with Ann's game begun in its thread (and, as a rule, the computers' game of
  the round still being played out): the next process resumes her game and plays the
  computers' game out; once Ann concedes, the tournament carries on to its final standings;
* at a round's deadline: the process is killed with the round still running, and the next one
  starts after the deadline (its clock moved on with ``MOJI_TEST_SKEW``, as if it had been down
  that long: :mod:`tests.hardening.botprocess`); it adjudicates Ann's game once, plays the
  computers' game out (its result is known in full: nothing to adjudicate) and pairs the next
  round once.

Each runs the tournament to its end and then checks every round's games (once each, each done
once with its points), each round's pairings, each result line and the final standings (said
once each in the channel). Ann's games end when she concedes (``/moji play move:concede`` in
the thread): a dice turn runs for minutes on the wall clock, and these tests never wait for one.

Not covered, and allowed for: a kill between keeping a result and its line's post going out
loses that line (the store keeps no record of what the channel was told, so no process says it
again); the check allows exactly that gap (:func:`assert_nothing_twice_nothing_lost`).
"""

from __future__ import annotations

import re
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.adapters.discord.fakediscord import CHANNEL_ID, FakeDiscord, Request
from tests.hardening.botprocess import BotProcess, poll

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

TOKEN = "fake-discord-token-" + "t" * 40
ANN = ("100000000000000001", "Ann")
MESSAGES = r"^/channels/(\d+)/messages$"
#: Ann and three computer players: two boards a round, no bye.
BOARDS = 2
ROUNDS = 2


# ---------------------------------------------------------------------------------------------
# reading what the processes left behind


def tournament(db: Path) -> tuple[str, str, int] | None:
    """(id, state, round) of the one tournament, once opened."""
    with sqlite3.connect(db) as conn:
        rows = list(conn.execute("SELECT tournament_id, state, round FROM tournaments"))
    assert len(rows) <= 1, rows
    return (str(rows[0][0]), str(rows[0][1]), int(rows[0][2])) if rows else None


def boards(db: Path) -> list[tuple[int, int, str, str | None, str, str]]:
    """(round, board, game id, thread id, state, how) of every tournament game."""
    with sqlite3.connect(db) as conn:
        return list(
            conn.execute(
                "SELECT round, board, game_id, thread_id, state, how FROM tournament_games "
                "ORDER BY round, board"
            )
        )


def anns_game(db: Path, round_no: int) -> tuple[str, str | None, str, str] | None:
    """(game id, thread id, state, how) of Ann's game in ``round_no``, once paired."""
    with sqlite3.connect(db) as conn:
        rows = list(
            conn.execute(
                "SELECT g.game_id, g.thread_id, g.state, g.how FROM tournament_games g "
                "JOIN tournament_seats s ON (s.tournament_id, s.round, s.board) = "
                "(g.tournament_id, g.round, g.board) WHERE g.round = ? AND s.user_id = ?",
                (round_no, ANN[0]),
            )
        )
    assert len(rows) <= 1, rows
    return (str(rows[0][0]), rows[0][1], str(rows[0][2]), str(rows[0][3])) if rows else None


def game_status(db: Path, game_id: str) -> str | None:
    """The game log's status of ``game_id`` (None: never recorded)."""
    with sqlite3.connect(db) as conn:
        rows = list(conn.execute("SELECT status FROM games WHERE game_id = ?", (game_id,)))
    return str(rows[0][0]) if rows else None


def dealt(db: Path, game_id: str) -> bool:
    """Whether ``game_id`` is recorded and has begun (its first action, the deal, is in its log)."""
    with sqlite3.connect(db) as conn:
        [(count,)] = conn.execute("SELECT COUNT(*) FROM game_actions WHERE game_id = ?", (game_id,))
    return game_status(db, game_id) == "running" and count > 0


def ended_at(db: Path) -> dict[tuple[int, int], float]:
    """When each done game's result was kept, by (round, board) (the keeping process's clock)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT round, board, ended_at FROM tournament_games WHERE state = 'done'")
        return {(int(r), int(b)): float(at) for r, b, at in rows}


def seats(db: Path) -> list[tuple[int, int, str, float | None]]:
    """(round, board, user id, points) of every seat."""
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT round, board, user_id, points FROM tournament_seats"))


# ---------------------------------------------------------------------------------------------
# what the channel was told


def posts(fake: FakeDiscord, channel: str = CHANNEL_ID) -> list[Request]:
    """The messages the channel shows (a repeat Discord recognised by its nonce shows nothing new)."""
    return [r for r in fake.channel_posts(channel) if not r.duplicate]


def said(fake: FakeDiscord, text: str, channel: str = CHANNEL_ID) -> list[Request]:
    return [r for r in posts(fake, channel) if text in r.text]


def text_of(request: Request) -> str:
    """What a message says: its content and its embeds' titles and descriptions."""
    body = request.json if isinstance(request.json, dict) else {}
    parts = [str(body.get("content") or "")]
    for embed in body.get("embeds") or ():
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
    return "\n".join(parts)


def result_lines(fake: FakeDiscord) -> list[str]:
    """Every "Round N: Board B: …" result line the channel shows."""
    return [
        line
        for r in posts(fake)
        for line in text_of(r).splitlines()
        if re.match(r"Round \d+: Board \d+: ", line)
    ]


# ---------------------------------------------------------------------------------------------
# the steps


@pytest.fixture
async def discord_bot(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    fake = FakeDiscord()
    await fake.start()
    bot = BotProcess(tmp_path, {"DISCORD_TOKEN": TOKEN, "MOJI_TEST_DISCORD_API": fake.base})
    try:
        yield fake, bot
    finally:
        await bot.close()
        await fake.close()


async def open_and_start(fake: FakeDiscord, bot: BotProcess, db: Path, round_time: str) -> str:
    """Ann opens the Swiss and starts it; once her first game has begun in its thread: its id."""
    bot.start()
    await fake.connected(within=60)
    await bot.logged("connected as")
    what = f"swiss dice rounds={ROUNDS} round={round_time} register=10m bots=3 words=1 live=on"
    await fake.slash(*ANN, "tournament", {"what": what})
    await fake.until(lambda: bool(said(fake, "opened a Swiss tournament")), within=30)
    await fake.slash(*ANN, "tournament", {"what": "start"})
    await fake.until(lambda: bool(said(fake, "Round 1 — pairings")), within=60)
    await poll(lambda: (game := anns_game(db, 1)) is not None and dealt(db, game[0]), within=60)
    game = anns_game(db, 1)
    assert game is not None
    _game_id, thread_id, state, _how = game
    assert state == "playing" and thread_id is not None and thread_id.isdigit(), game
    await fake.until(lambda: bool(said(fake, "Round 1: ", channel=thread_id)), within=30)
    return thread_id


async def concede(fake: FakeDiscord, db: Path, round_no: int) -> None:
    """Ann concedes her game of ``round_no`` in its thread; waits until the tournament counted it."""
    game = anns_game(db, round_no)
    assert game is not None
    _game_id, thread_id, _state, _how = game
    assert thread_id is not None and thread_id.isdigit(), game
    await fake.slash(*ANN, "play", {"move": "concede"}, channel=thread_id, thread_parent=CHANNEL_ID)
    await poll(lambda: (found := anns_game(db, round_no)) is not None and found[2] == "done", within=60)


async def play_to_the_end(fake: FakeDiscord, db: Path, first_round: int) -> None:
    """Ann concedes each of her games from ``first_round`` on, as each begins; the final standings."""
    for round_no in range(first_round, ROUNDS + 1):
        await poll(
            lambda r=round_no: (game := anns_game(db, r)) is not None and dealt(db, game[0]), within=60
        )
        await concede(fake, db, round_no)
    await poll(lambda: (t := tournament(db)) is not None and t[1] == "finished", within=60)
    await fake.until(lambda: bool(said(fake, "Final standings")), within=30)


def assert_nothing_twice_nothing_lost(fake: FakeDiscord, bot: BotProcess, db: Path, killed_at: float) -> None:
    """The tournament's records and its channel, after its end: each round paired once, each game
    done once with its points, each result line and the final standings said once.

    One gap is allowed for, and only one: the result line of a game whose result the killed
    process kept (before ``killed_at``, on the wall clock) may be missing: the kill can land
    between keeping a result and its post going out, and nothing posts that line again."""
    t = tournament(db)
    assert t is not None and t[1:] == ("finished", ROUNDS), t
    games = boards(db)
    per_round = Counter(round_no for round_no, *_rest in games)
    assert per_round == {r: BOARDS for r in range(1, ROUNDS + 1)}, games
    ids = [game_id for _r, _b, game_id, *_rest in games]
    assert len(ids) == len(set(ids)), ids
    assert all(state == "done" and how in ("played", "adjudicated") for *_a, state, how in games), games
    # a game of computers only is played out, whenever a process is killed (never adjudicated)
    people = {(r, b) for r, b, user, _p in seats(db) if not user.startswith("bot:")}
    computers = [g for g in games if (g[0], g[1]) not in people]
    assert len(computers) == ROUNDS and all(g[3:] == ("auto", "done", "played") for g in computers), games
    all_seats = seats(db)
    assert len(all_seats) == ROUNDS * BOARDS * 2
    assert all(points is not None for *_a, points in all_seats), all_seats
    for round_no in range(1, ROUNDS + 1):
        in_round = [user for r, _b, user, _p in all_seats if r == round_no]
        assert len(in_round) == len(set(in_round)) == 4, in_round  # everyone once a round
        points = sum(p or 0.0 for r, _b, _u, p in all_seats if r == round_no)
        assert points == BOARDS, (round_no, all_seats)  # a point a board
    # each of Ann's games was a session of the game log, begun once and ended
    for round_no, board, game_id, _t, _s, _h in games:
        if (round_no, board) in people:
            assert game_status(db, game_id) in ("finished", "void"), (game_id, game_status(db, game_id))
    # the channel: each round's pairings once, each result once, the final standings once
    for round_no in range(1, ROUNDS + 1):
        assert len(said(fake, f"Round {round_no} — pairings")) == 1, round_no
    lines = result_lines(fake)
    assert len(set(lines)) == len(lines), lines
    told = {tuple(int(n) for n in re.findall(r"\d+", line)[:2]) for line in lines}
    kept = ended_at(db)
    missing = sorted(set(kept) - told)
    assert all(kept[board] <= killed_at for board in missing), (missing, kept, killed_at, lines)
    assert len(said(fake, "Final standings")) == 1
    assert "Traceback" not in bot.output(since_start=False)


# ---------------------------------------------------------------------------------------------
# the tests


async def test_a_kill_9_during_a_round_resumes_the_game_and_the_tournament_runs_to_its_end(
    discord_bot: tuple[FakeDiscord, BotProcess], tmp_path: Path
) -> None:
    fake, bot = discord_bot
    db = tmp_path / "moji.db"
    thread_id = await open_and_start(fake, bot, db, "2h")
    # round 1: Ann's game running in its thread; the computers' board is played out just after
    # hers was started (the kill often lands just before it is claimed, or while it is played)
    bot.kill9()
    killed_at = time.time()

    bot.start()
    await fake.connected(within=60)
    await bot.logged(r"resumed 1 game")
    await fake.until(lambda: bool(said(fake, "moji restarted", channel=thread_id)), within=60)
    assert len(boards(db)) == BOARDS, "round 1 is not paired again"
    await play_to_the_end(fake, db, 1)
    assert_nothing_twice_nothing_lost(fake, bot, db, killed_at)
    first = anns_game(db, 1)
    assert first is not None and first[3] == "played"
    assert len(said(fake, "moji restarted", channel=thread_id)) == 1


async def test_a_kill_9_at_a_rounds_deadline_adjudicates_once_and_pairs_the_next_round_once(
    discord_bot: tuple[FakeDiscord, BotProcess], tmp_path: Path
) -> None:
    fake, bot = discord_bot
    db = tmp_path / "moji.db"
    thread_id = await open_and_start(fake, bot, db, "5m")
    bot.kill9()  # round 1 still running, its deadline five minutes away
    killed_at = time.time()

    bot.start(MOJI_TEST_SKEW="360")  # the next process starts six minutes later, past the deadline
    await fake.connected(within=60)
    await bot.logged(r"resumed 1 game")
    await poll(lambda: (t := tournament(db)) is not None and t[2] == 2, within=60)
    first = anns_game(db, 1)
    assert first is not None and first[2:] == ("done", "adjudicated"), first
    assert game_status(db, first[0]) == "void"  # (adjudicated: the game itself changes no rating)
    await fake.until(lambda: bool(said(fake, "Round 2 — pairings")), within=60)
    await play_to_the_end(fake, db, 2)
    assert_nothing_twice_nothing_lost(fake, bot, db, killed_at)
    lines = result_lines(fake)
    assert len([line for line in lines if "adjudicated at the round's end" in line]) == 1, lines
    # (the farewell goes out in the thread's own lane: waited for, then counted)
    await fake.until(lambda: bool(said(fake, "Time is up for round 1", channel=thread_id)), within=30)
    assert len(said(fake, "Time is up for round 1", channel=thread_id)) == 1
