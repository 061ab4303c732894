"""The every-table privacy scan: after forget-me or a purge, no column of any table holds
the person's id or name.

A Slack workspace (installations exist only there) holds each kind of row that can name a
person: finished and void games with answers and votes in their logs, a stop recorded by an
older moji, word-list entries (one voted in), a setting, a schedule, an installation (the Slack
adapter's own table, attached to the store as when the adapter runs), a forwarded event, an
open lobby, and people who only opened or joined a lobby. Before forgetting, every column
:mod:`storage.personal` calls personal is checked to hold the person, so the scan exercises
each one (a new personal column needs a row here). Every test runs on SQLite and (with
``MOJI_TEST_POSTGRES_URL``) PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from slack_sdk.oauth.installation_store import Installation

from adapters.slack.store import SQLInstallations, attach
from bot.core.ratings import RATER
from storage import personal
from storage.base import GameRecord, LobbyRecord, Schedule, SeatRecord, SeatScore
from storage.privacy import FORMER, STOPPED
from storage.sqlstore import SQLStore
from storage.tournament_records import NewGame, SeatResult, Tournament, tournament_game_id
from storage.weblinks import Grant, digest
from tests.storage.helpers import NOW

P = "slack"
WS = "T0SCANWS"
OTHER = "T0OTHERWS"
T = NOW.timestamp()


@dataclass(frozen=True)
class Person:
    user_id: str
    name: str

    @property
    def seat(self) -> str:
        return f"{P}:{self.user_id}"

    @property
    def marks(self) -> tuple[str, str]:
        return self.user_id, self.name


ANN = Person("U0ANNZED", "Annabel Zed")  # plays, votes, stops, installs, schedules: asks to be forgotten
BOB = Person("U0BOBYAR", "Bobbie Yarrow")  # plays with Ann here, and in the other workspace
DORA = Person("U0DORALO", "Dora Lobbyist")  # only opened a lobby here (still open)
LEO = Person("U0LEOJOI", "Leopold Joiner")  # only joined a lobby here that closed without starting
EVE = Person("U0EVEADM", "Evelyn Admin")  # an admin who stopped a game she did not play

#: Personal columns forget-me cannot meet the person in: it is refused while they sit in an open
#: lobby of the workspace.
NOT_WHILE_FORGETTING = {("open_lobbies", "data")}


async def everything(store: SQLStore) -> list[str]:
    """Every row of every table the database has, as text."""
    out = []
    async with store.read() as tx:
        for table in sorted(await store.columns()):
            out.extend(f"{table}: {row!r}" for row in await tx.fetch(f"SELECT * FROM {table}"))
    return out


def naming(rows: Iterable[str], people: Iterable[Person]) -> list[str]:
    marks = [m for person in people for m in person.marks]
    return [row for row in rows if any(m in row for m in marks)]


async def holding(store: SQLStore, people: Iterable[Person]) -> set[tuple[str, str]]:
    """The personal columns (table, column) where some row holds one of ``people``."""
    marks = [m for person in people for m in person.marks]
    found = set()
    async with store.read() as tx:
        for table, column, _ in personal.personal_columns():
            values = await tx.fetch(f"SELECT {column} FROM {table}")
            if any(any(m in str(value[0]) for m in marks) for value in values):
                found.add((table, column))
    return found


def game(game_id: str, people: list[Person], *, ws: str = WS, host: Person | None = None) -> GameRecord:
    seats = tuple(SeatRecord(p.seat, p.name) for p in people)
    return GameRecord(
        game_id=game_id,
        game="race",
        platform=P,
        workspace_id=ws,
        channel_id="C1",
        thread_id=None,
        options={"cards": 5},
        seed=7,
        seats=seats,
        started_at=T - 600,
        host=(host or people[0]).seat,
        names={p.seat: p.name for p in people},
    )


async def played(store: SQLStore, game_id: str, people: list[Person], *, ws: str = WS) -> None:
    """A race with an answer and a vote from each seat."""
    await store.start_game(game(game_id, people, ws=ws))
    await store.append_action(game_id, 0, {"kind": "begin", "now": 1.0})
    seq = 1
    for person in people:
        claim = {"kind": "claims", "claims": [{"seat": person.seat, "text": "zebra"}]}
        await store.append_action(game_id, seq, claim)
        await store.append_action(game_id, seq + 1, {"kind": "vote", "seat": person.seat, "text": "yes"})
        seq += 2


def lobby(game_id: str, host: Person, players: list[Person], channel: str) -> LobbyRecord:
    def player(p: Person) -> dict[str, str]:
        return {"platform": P, "user_id": p.user_id, "name": p.name}

    data = {"game": "race", "host": player(host), "players": [player(p) for p in players], "seed": 1}
    return LobbyRecord(game_id, P, WS, channel, None, data)


async def a_workspace(store: SQLStore) -> None:
    for person in (ANN, BOB, DORA, LEO, EVE):  # `start` and `join` keep the name fresh
        await store.upsert_player(P, person.user_id, person.name)
    # a finished race Ann won
    await played(store, "g-won", [ANN, BOB])
    record = game("g-won", [ANN, BOB])
    scores = [SeatScore(ANN.seat, 30, True, "zebra"), SeatScore(BOB.seat, 20, False, "zebu")]
    await store.finish_game(record, scores, T, f"{ANN.name} wins")
    await store.mark_announced("g-won", T)
    # its ratings, archived by a new season
    await store.rate_game("g-won", RATER)
    await store.reset_season(P, WS, NOW)
    await store.start_rating_seasons(P, WS, RATER)
    # a race Ann stopped (as the bot records a stop now), one a moji before migration 0011
    # recorded with her name, and one Eve stopped without playing
    await played(store, "g-stopped", [ANN, BOB])
    await store.void_game("g-stopped", STOPPED, T)
    await played(store, "g-old-stop", [BOB, ANN])
    await store.void_game("g-old-stop", f"stopped by {ANN.name}", T)
    await played(store, "g-eve", [BOB])
    await store.void_game("g-eve", STOPPED, T)
    # a race running without Ann, and Bob ranked in another workspace
    await played(store, "g-running", [BOB])
    await played(store, "g-other", [BOB], ws=OTHER)
    await store.finish_game(game("g-other", [BOB], ws=OTHER), [SeatScore(BOB.seat, 5, True, "yak")], T, "x")
    # Dora's lobby is open; Leo joined one that closed without starting
    await store.save_lobby(lobby("g-dora", DORA, [DORA], "C2"))
    await store.save_lobby(lobby("g-leo", BOB, [BOB, LEO], "C3"))
    await store.delete_lobby("g-leo")
    # the workspace's word list (one word the players voted in), a setting, a word break
    await store.add_word(P, WS, "zebu", ANN.user_id, NOW)
    await store.add_word(P, WS, "quagga", "vote", NOW)
    await store.set_setting(P, WS, "timezone", "Europe/Paris", ANN.user_id)
    await store.add_schedule(
        Schedule(0, WS, "C1", (0,), "10:00", ("race",), "<!here>", ANN.user_id, ANN.name, platform=P)
    )
    # Ann installed the app with a user token; an event of hers was forwarded to another process
    data = {
        "team_id": WS,
        "bot_token": "xoxb-workspace",
        "bot_user_id": "B0MOJI",
        "user_id": ANN.user_id,
        "user_token": "xoxp-annabel",
        "user_scopes": ["chat:write"],
        "installed_at": T,
    }
    await attach(store).save_installation(Key(None, WS, ANN.user_id), data)
    payload = {"kind": "text", "player": {"user_id": ANN.user_id, "name": ANN.name}, "text": "zebra"}
    await store.forward_event(P, WS, "C1", None, "Ev1", payload, T)
    # Ann opened her page of the running game from a web link (a link and its session)
    grant = Grant(P, WS, "C1", None, "g-running", ANN.user_id)
    await store.web_links.add_link(digest("link"), grant, T + 3600, T)
    assert await store.web_links.exchange(digest("link"), digest("session"), T + 3600, T) == grant
    # Ann played the daily here (its game is one of hers above)
    await store.daily.begin_daily(P, WS, ANN.user_id, "2026-11-27", "en", "g-won", T)
    # Ann created a Swiss tournament and played its first round against Bob
    tour = Tournament("t1", P, WS, "C4", "swiss", "dice", (), 3, 3600.0, "en", ANN.user_id, ANN.name, T)
    await store.tournaments.create_tournament(tour)
    for who in (ANN, BOB):
        await store.tournaments.join_tournament("t1", who.user_id, who.name, 25.0, T)
    await store.tournaments.begin_round("t1", 1, T + 3600, [NewGame(1, (ANN.user_id, BOB.user_id))], T)
    won = (SeatResult(ANN.user_id, 40, 1, 1.0), SeatResult(BOB.user_id, 30, 2, 0.0))
    await store.tournaments.finish_tournament_game(tournament_game_id("t1", 1, 1), won, "played", T)


@dataclass(frozen=True)
class Key:
    enterprise_id: str | None
    team_id: str | None
    user_id: str | None = None


async def test_forget_me_leaves_no_column_naming_the_player(store: SQLStore) -> None:
    await a_workspace(store)
    everyone = {(t, c) for t, c, _ in personal.personal_columns()}
    assert await holding(store, [ANN]) == everyone - NOT_WHILE_FORGETTING, "the scan exercises each column"
    bob_before = naming(await everything(store), [BOB])

    await store.forget_player(P, WS, ANN.user_id)

    rows = await everything(store)
    assert naming(rows, [ANN]) == []
    # the games stay, Ann's seats anonymised; the stops name nobody; everyone else is untouched
    async with store.read() as tx:
        games = {
            str(r[0]): (str(r[1]), str(r[2]))
            for r in await tx.fetch("SELECT game_id, status, void_reason FROM games")
        }
        seats = [str(r[0]) for r in await tx.fetch("SELECT seats FROM games WHERE game_id = 'g-stopped'")]
    assert games["g-stopped"] == ("void", STOPPED) and games["g-old-stop"] == ("void", STOPPED)
    assert games["g-eve"] == ("void", STOPPED) and games["g-won"][0] == "finished"
    assert FORMER in seats[0] and BOB.name in seats[0]
    ann_logs = tuple(f"game_actions: ('{g}'" for g in ("g-won", "g-stopped", "g-old-stop"))
    kept = [row for row in bob_before if not row.startswith(ann_logs)]
    assert len(naming(rows, [BOB])) == len(kept), "only the logs of Ann's games went (what she typed)"
    assert [r.user_id for r in await store.leaderboard(P, WS, None, "all", NOW)] == [BOB.user_id]
    # the workspace's installation still works, without its installer
    team = await SQLInstallations(store).find_installation(Key(None, WS))
    assert team is not None and team["bot_token"] == "xoxb-workspace" and "user_token" not in team
    assert Installation(**team).bot_token == "xoxb-workspace"
    assert await SQLInstallations(store).find_installation(Key(None, WS, ANN.user_id)) is None


async def test_purge_leaves_no_column_naming_the_workspaces_people(store: SQLStore) -> None:
    await a_workspace(store)
    here = [ANN, DORA, LEO, EVE]
    everyone = {(t, c) for t, c, _ in personal.personal_columns()}
    assert await holding(store, here) == everyone, "the scan exercises each column"
    elsewhere = await store.leaderboard(P, OTHER, None, "all", NOW)

    await store.purge_workspace(P, WS)

    rows = await everything(store)
    assert naming(rows, here) == [], "lobby-only people's names go too"
    assert [r for r in rows if WS in r] == []
    assert await store.leaderboard(P, OTHER, None, "all", NOW) == elsewhere
    assert [r for r in rows if r.startswith("players:")] == [
        r for r in rows if r.startswith("players:") and BOB.user_id in r
    ], "only Bob's name stays: another workspace ranks him"
    assert naming(rows, [BOB]), "Bob's name stays while the other workspace ranks him"


async def test_every_table_is_scanned(store: SQLStore) -> None:
    """The scans read the tables the database has; storage/personal.py knows each of them."""
    tables = set(await store.columns()) - personal.INTERNAL_TABLES
    assert tables == set(personal.COLUMNS)
    await a_workspace(store)
    scanned = {row.split(":", 1)[0] for row in await everything(store)}
    for table in ("games", "game_actions", "open_lobbies", "schedules", "slack_installations", "inbox"):
        assert table in scanned


async def test_migration_0011_takes_the_names_out_of_recorded_stops(store: SQLStore) -> None:
    """A database written before 0011 (a stop named who stopped) names nobody once migrated."""
    for game_id, reason in (("g-a", f"stopped by {ANN.name}"), ("g-b", "restart"), ("g-c", STOPPED)):
        await played(store, game_id, [BOB])
        await store.void_game(game_id, reason, T)
    async with store.write() as tx:
        await tx.execute("DELETE FROM schema_version WHERE version = 11")
    assert await store.migrate() == [11]
    async with store.read() as tx:
        reasons = {str(r[0]): str(r[1]) for r in await tx.fetch("SELECT game_id, void_reason FROM games")}
    assert reasons == {"g-a": STOPPED, "g-b": "restart", "g-c": STOPPED}
