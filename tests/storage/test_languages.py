"""Languages: each game's language is kept, and leaderboards may count one language only."""

from __future__ import annotations

import pytest

from storage import StorageError, migrations
from storage.base import LeaderboardRow
from storage.sqlstore import SQLStore
from tests.storage.conftest import Factory
from tests.storage.helpers import NOW, PLATFORM, WS, play, record, scores


def _board(rows: list[LeaderboardRow]) -> list[tuple[str, int, int]]:
    return [(r.user_id, r.points, r.games) for r in rows]


async def test_a_language_filter_counts_only_the_games_played_in_it(store: SQLStore) -> None:
    await play(store, "en1", {"u1": 5, "u2": 1}, language="en")
    await play(store, "fr1", {"u2": 7, "u3": 2}, language="fr")
    await play(store, "fr2", {"u2": 1}, language="fr", game="dice")
    await play(store, "de1", {"u1": 4}, language="de", game="dice")

    french = await store.leaderboard(PLATFORM, WS, "race", "all", NOW, 10, language="fr")
    assert _board(french) == [("u2", 7, 1), ("u3", 2, 1)]
    english = await store.leaderboard(PLATFORM, WS, "race", "all", NOW, 10, language="en")
    assert _board(english) == [("u1", 5, 1), ("u2", 1, 1)]
    # without a filter every language counts together
    race = await store.leaderboard(PLATFORM, WS, "race", "all", NOW, 10)
    assert _board(race) == [("u2", 8, 2), ("u1", 5, 1), ("u3", 2, 1)]
    every_game_in_french = await store.leaderboard(PLATFORM, WS, None, "week", NOW, 10, language="fr")
    assert _board(every_game_in_french) == [("u2", 8, 2), ("u3", 2, 1)]
    assert await store.leaderboard(PLATFORM, WS, "race", "all", NOW, 10, language="es") == []
    season = await store.season_leaderboard(PLATFORM, WS, "dice", 1, 10, language="de")
    assert _board(season) == [("u1", 4, 1)]
    # a player's record counts every game in every language, once
    stats = await store.player_stats(PLATFORM, WS, "u2")
    assert stats is not None and (stats.games, stats.points) == (3, 9)


async def test_a_game_keeps_its_language_through_a_restart(store: SQLStore) -> None:
    rec = record("g1", ["u1"], language="nl")
    await store.start_game(rec)
    [stored] = await store.unfinished_games()
    assert stored.record.language == "nl"
    await store.finish_game(rec, scores({"u1": 3}), NOW.timestamp())
    [ended] = await store.ended_games(0)
    assert ended.record.language == "nl"


@pytest.mark.parametrize("bad", ["*", "", "f r", "x" * 21])
async def test_a_language_code_that_names_no_one_language_is_refused(store: SQLStore, bad: str) -> None:
    with pytest.raises(StorageError):
        await store.start_game(record("g1", ["u1"], language=bad))
    with pytest.raises(StorageError):
        await store.leaderboard(PLATFORM, WS, None, "all", NOW, 10, language=bad)


async def test_scores_from_before_languages_count_as_english(
    make_store: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    everything = migrations.load()
    before = [m for m in everything if m.version < 8]
    monkeypatch.setattr(migrations, "load", lambda: before)
    old = make_store()
    await old.open()
    # a game finished by the moji of then: no language anywhere
    async with old.write() as tx:
        await tx.execute(
            "INSERT INTO workspaces (platform, workspace_id, created_at, season, season_started_at) "
            "VALUES (?, ?, 0, 1, 0)",
            (PLATFORM, WS),
        )
        await tx.execute(
            "INSERT INTO games (game_id, game, platform, workspace_id, channel_id, options, seed, seats, "
            "host, names, added_words, banned_words, status, started_at, ended_at) "
            "VALUES ('old', 'race', ?, ?, 'c1', '{}', '1', '[]', '', '{}', '[]', '[]', 'finished', 0, 1)",
            (PLATFORM, WS),
        )
        for game in ("race", "*"):
            await tx.execute(
                "INSERT INTO scores (platform, workspace_id, game, bucket, user_id, points, games, wins, "
                "best_word) VALUES (?, ?, ?, 'all', 'u1', 6, 1, 1, 'quiz')",
                (PLATFORM, WS, game),
            )
    await old.close()

    monkeypatch.setattr(migrations, "load", lambda: everything)
    new = make_store()
    await new.open()
    assert await new.schema_version() == everything[-1].version
    for language in (None, "en"):
        rows = await new.leaderboard(PLATFORM, WS, "race", "all", NOW, 10, language=language)
        assert [(r.user_id, r.points, r.wins, r.best_word) for r in rows] == [("u1", 6, 1, "quiz")]
    assert await new.leaderboard(PLATFORM, WS, "race", "all", NOW, 10, language="fr") == []
    async with new.read() as tx:
        rows = await tx.fetch("SELECT language FROM games WHERE game_id = 'old'")
    assert [tuple(row) for row in rows] == [("en",)]
    # and the rebuilt table adds new games up as before
    await play(new, "new", {"u1": 1}, language="en")
    [row] = await new.leaderboard(PLATFORM, WS, None, "all", NOW, 10, language="en")
    assert (row.points, row.games) == (7, 2)
    stats = await new.player_stats(PLATFORM, WS, "u1")
    assert stats is not None and (stats.games, stats.points, stats.best_word) == (2, 7, "quiz")
