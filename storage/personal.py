"""Every column of moji's database, and whether it can hold a person's id or name.

This is the privacy code's map of the schema: ``forget-me`` and ``purge``
(:meth:`~storage.privacy.SQLPrivacy.forget_player`, ``purge_workspace``, and the
:class:`~storage.privacy.Eraser` of each table kept outside storage) must reach every
column classified here as personal, and a column that is not classified at all fails
``tests/storage/test_personal.py``, which reads the real schema after every migration on
SQLite and PostgreSQL. A migration that adds a table or a column therefore adds its entry
here too, saying what it holds and how it is forgotten; "holds no personal data" is an
explicit classification (:data:`NONE`), never a default.

Kinds:

- :data:`USER_ID`: a platform user id (``U123``), or a seat id made of one (``slack:U123``);
- :data:`NAME`: a person's display name;
- :data:`TEXT`: free text or JSON that may quote a person (their id, name, or what they typed);
- :data:`NONE`: holds no person's id or name (ids of workspaces, channels, messages, games and
  moji's own processes are not personal data here).

``docs/PRIVACY.md`` says the same in words for admins; keep the two in step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Kind = Literal["none", "user_id", "name", "text"]
NONE: Kind = "none"
USER_ID: Kind = "user_id"
NAME: Kind = "name"
TEXT: Kind = "text"
PERSONAL: frozenset[Kind] = frozenset({USER_ID, NAME, TEXT})

#: Tables of the database engine or of the migration machinery, not of moji's data.
INTERNAL_TABLES = frozenset({"sqlite_sequence"})


@dataclass(frozen=True, slots=True)
class Column:
    """What one column holds; for a personal one, how ``forget-me`` and ``purge`` remove it."""

    kind: Kind
    what: str

    @property
    def personal(self) -> bool:
        """Whether the column can hold a person's id, name or words."""
        return self.kind in PERSONAL


def _none(what: str) -> Column:
    return Column(NONE, what)


_WORKSPACE = {
    "platform": _none("the platform (discord, slack, terminal)"),
    "workspace_id": _none("the Discord server or Slack workspace id"),
}
_TIME = "a time (epoch seconds)"

#: table -> column -> what it holds. Every column of every table, after every migration.
COLUMNS: Mapping[str, Mapping[str, Column]] = {
    "schema_version": {
        "version": _none("a migration's number"),
        "name": _none("a migration's file name"),
        "applied_at": _none(_TIME),
    },
    "workspaces": {
        **_WORKSPACE,
        "created_at": _none(_TIME),
        "season": _none("the current season's number"),
        "season_started_at": _none(_TIME),
    },
    "seasons": {
        **_WORKSPACE,
        "season": _none("a season's number"),
        "started_at": _none(_TIME),
        "ended_at": _none(_TIME),
    },
    "workspace_settings": {
        **_WORKSPACE,
        "key": _none("a setting's name"),
        "value": _none("a setting's value (a role or user group, a time zone, a number of days…)"),
        "updated_by": Column(USER_ID, "who set it: forget-me puts an anonymous id; purge deletes the row"),
        "updated_at": _none(_TIME),
    },
    "workspace_words": {
        **_WORKSPACE,
        "word": _none("a word added to or banned from the workspace's list"),
        "kind": _none("added or banned"),
        "added_by": Column(
            USER_ID, "who added or banned it ('vote': the players): forget-me anonymises; purge deletes"
        ),
        "added_at": _none(_TIME),
    },
    "players": {
        "platform": _none("the platform"),
        "user_id": Column(
            USER_ID,
            "the player: the row goes at forget-me, and at a purge, once no workspace ranks them "
            "(scores or results)",
        ),
        "display_name": Column(NAME, "their display name: goes with the row"),
        "updated_at": _none(_TIME),
    },
    "games": {
        "game_id": _none("the game's id"),
        "game": _none("which game (race, board…)"),
        **_WORKSPACE,
        "channel_id": _none("the channel"),
        "thread_id": _none("the thread"),
        "options": _none("the game's options (numbers, levels, a language)"),
        "seed": _none("the shuffle's seed"),
        "seats": Column(
            TEXT, "each seat's id and name: forget-me makes theirs “a former player”; purge deletes"
        ),
        "host": Column(USER_ID, "who opened the game: forget-me anonymises; purge deletes"),
        "names": Column(TEXT, "seat id -> name: forget-me drops theirs; purge deletes"),
        "added_words": _none("the workspace's added words when the game began"),
        "banned_words": _none("the workspace's banned words when the game began"),
        "status": _none("running, finished or void"),
        "started_at": _none(_TIME),
        "ended_at": _none(_TIME),
        "summary": Column(TEXT, "the result line (names the winners): forget-me empties it; purge deletes"),
        "void_reason": _none(
            "why a game was voided, in moji's words (a restart, a crash, “stopped by a player”); "
            "never a name since migration 0011 (before, a stop named who stopped)"
        ),
        "announced_at": _none(_TIME),
        "alive_at": _none(_TIME),
        "language": _none("the game's language"),
    },
    "game_actions": {
        "game_id": _none("the game"),
        "seq": _none("the action's number"),
        "action": Column(
            TEXT,
            "an answer, move or vote with its seat and text: forget-me deletes the log of every ended "
            "game they played; retention prunes; purge deletes",
        ),
    },
    "results": {
        "game_id": _none("the game"),
        "seat_id": Column(USER_ID, "the seat: forget-me puts an anonymous id; purge deletes"),
        "user_id": Column(USER_ID, "the player: forget-me empties it (NULL); purge deletes"),
        "points": _none("points"),
        "won": _none("won or not"),
        "best_word": _none("the seat's best word"),
        "team": _none("partners' shared team number (race team variants), or none"),
    },
    "scores": {
        **_WORKSPACE,
        "game": _none("which game"),
        "bucket": _none("the period"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "points": _none("points"),
        "games": _none("games played"),
        "wins": _none("games won"),
        "best_word": _none("the best word"),
    },
    "language_scores": {
        **_WORKSPACE,
        "game": _none("which game"),
        "language": _none("the language"),
        "bucket": _none("the period"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "points": _none("points"),
        "games": _none("games played"),
        "wins": _none("games won"),
        "best_word": _none("the best word"),
    },
    "ratings": {
        **_WORKSPACE,
        "game": _none("which game"),
        "language": _none("the language"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "mu": _none("the rating model's skill estimate"),
        "sigma": _none("the rating model's uncertainty"),
        "rating": _none("the rating shown (a number)"),
        "games": _none("rated games"),
        "wins": _none("rated wins"),
        "updated_at": _none(_TIME),
    },
    "rating_changes": {
        "game_id": _none("the game"),
        **_WORKSPACE,
        "game": _none("which game"),
        "language": _none("the language"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "seq": _none("the order games were rated in"),
        "before": _none("the rating before the game (a number)"),
        "after": _none("the rating after it"),
        "games": _none("rated games so far"),
        "won": _none("won or not"),
        "beaten": _none("the best rating (a number) beaten in a win, never whose"),
    },
    "season_ratings": {
        **_WORKSPACE,
        "season": _none("the season it ended"),
        "game": _none("which game"),
        "language": _none("the language"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "mu": _none("the rating model's skill estimate"),
        "sigma": _none("the rating model's uncertainty"),
        "rating": _none("the rating shown"),
        "games": _none("rated games"),
        "wins": _none("rated wins"),
    },
    "rating_events": {
        **_WORKSPACE,
        "seq": _none("the order of the workspace's rating history"),
        "game_id": _none("a rated game"),
        "season": _none("a season that started"),
    },
    "rating_state": {
        **_WORKSPACE,
        "seq": _none("the last rating event's number"),
        "season": _none("the season the ratings are in"),
    },
    "daily_plays": {
        "platform": _none("the platform"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row (and so their streak)"),
        "day": _none("the daily's date"),
        "workspace_id": _none("the workspace it was played in"),
        "language": _none("the language"),
        "game_id": _none("the daily's recorded game"),
        "started_at": _none(_TIME),
        "ended_at": _none(_TIME),
        "cards": _none("cards taken"),
        "points": _none("points"),
        "seconds": _none("seconds played"),
        "streak": _none("consecutive dailies finished, up to this one"),
        "shared_at": _none(_TIME),
    },
    "tournaments": {
        "tournament_id": _none("the tournament's id"),
        **_WORKSPACE,
        "channel_id": _none("the channel it is announced in"),
        "format": _none("arena, swiss or roundrobin"),
        "game": _none("the game"),
        "options": _none("the game's options"),
        "rounds": _none("the rounds planned"),
        "round_seconds": _none("a round's time, or the arena's window"),
        "speech": _none("the language it is announced in"),
        "created_by": Column(USER_ID, "who created it: forget-me anonymises; purge deletes"),
        "created_by_name": Column(NAME, "their name: forget-me makes it “a former player”; purge deletes"),
        "created_at": _none(_TIME),
        "starts_at": _none(_TIME),
        "state": _none("registering, running, finished or cancelled"),
        "round": _none("the round being played"),
        "round_ends_at": _none(_TIME),
        "ended_at": _none(_TIME),
    },
    "tournament_players": {
        "tournament_id": _none("the tournament"),
        "user_id": Column(USER_ID, "the player: forget-me replaces it by an anonymous id; purge deletes"),
        "name": Column(NAME, "their name: forget-me makes it “a former player”; purge deletes"),
        "rating": _none("their rating when they joined"),
        "joined_at": _none(_TIME),
        "left_at": _none(_TIME),
    },
    "tournament_games": {
        "tournament_id": _none("the tournament"),
        "round": _none("the round"),
        "board": _none("the board (pairing) number"),
        "game_id": _none("the recorded game"),
        "thread_id": _none("the thread it is played in"),
        "state": _none("playing or done"),
        "how": _none("how it ended (played, adjudicated, bye…)"),
        "started_at": _none(_TIME),
        "ended_at": _none(_TIME),
    },
    "tournament_seats": {
        "tournament_id": _none("the tournament"),
        "round": _none("the round"),
        "board": _none("the board"),
        "seat": _none("the seat's order (first mover first)"),
        "user_id": Column(USER_ID, "the player: forget-me replaces it by the anonymous id; purge deletes"),
        "score": _none("the points scored in the game"),
        "place": _none("the place in the game"),
        "points": _none("the tournament points it earned"),
    },
    "schedules": {
        "id": _none("the schedule's number"),
        **_WORKSPACE,
        "channel_id": _none("the channel"),
        "days": _none("the days it runs"),
        "at": _none("the time of day"),
        "args": _none("the start command's game and options"),
        "mention": _none("a group mention (a Slack user group or @here, a Discord role), or none"),
        "created_by": Column(USER_ID, "who scheduled it: forget-me anonymises; purge deletes"),
        "created_by_name": Column(NAME, "their name: forget-me makes it “a former player”; purge deletes"),
        "created_at": _none(_TIME),
        "last_run_at": _none(_TIME),
    },
    "slack_installations": {
        "enterprise_id": _none("the Slack Enterprise Grid id"),
        "team_id": _none("the Slack workspace id"),
        "user_id": Column(
            USER_ID,
            "who installed the app ('': the workspace's latest row): forget-me deletes their row; "
            "purge deletes",
        ),
        "data": Column(
            TEXT,
            "the installation (bot token, installer's id and user token): forget-me removes the installer "
            "from the workspace's row; an uninstall or a purge deletes it",
        ),
        "installed_at": _none(_TIME),
    },
    "slack_card_files": {
        "team_id": _none("the Slack workspace id"),
        "picture": _none("the SHA-256 of a card picture moji drew"),
        "file_id": _none("the Slack file moji uploaded it as"),
        "uploaded_at": _none(_TIME),
    },
    "slack_card_shelves": {
        "team_id": _none("the Slack workspace id"),
        "channel_id": _none("the channel of moji's shelf message"),
        "thread_ts": _none("moji's shelf message"),
        "created_at": _none(_TIME),
    },
    "open_lobbies": {
        "game_id": _none("the lobby's game id"),
        **_WORKSPACE,
        "channel_id": _none("the channel"),
        "thread_id": _none("the thread"),
        "data": Column(
            TEXT,
            "who sits in the lobby (ids, names): deleted when it starts or closes; forget-me is refused "
            "while they are in one; purge deletes",
        ),
        "updated_at": _none(_TIME),
    },
    "active_games": {
        **_WORKSPACE,
        "channel_id": _none("the channel"),
        "thread_key": _none("the thread ('' for none)"),
        "game_id": _none("the game holding the chat"),
        "claimed_at": _none(_TIME),
        "owner": _none("the moji process running it"),
        "epoch": _none("the ownership's number"),
        "lease_until": _none(_TIME),
        "table_ref": _none("the game's table message"),
    },
    "instances": {
        "instance_id": _none("a moji process"),
        "started_at": _none(_TIME),
        "seen_until": _none(_TIME),
        "web_url": _none("the process's internal address for pages"),
        "web_key": _none("the key signing page requests proxied to that process"),
    },
    "inbox": {
        "id": _none("the row's number"),
        "target": _none("the moji process it is for"),
        **_WORKSPACE,
        "channel_id": _none("the channel"),
        "thread_key": _none("the thread"),
        "event_key": _none("the platform's id of the event"),
        "payload": Column(
            TEXT,
            "a forwarded event (who sent it, their name, what they typed): pruned after 15 minutes; "
            "forget-me deletes theirs; purge deletes",
        ),
        "created_at": _none(_TIME),
        "handled_at": _none(_TIME),
    },
    "pending_deletions": {
        **_WORKSPACE,
        "due_at": _none(_TIME),
        "reason": _none("why (the bot was removed, uninstalled), in moji's words"),
    },
    "deliveries": {
        "event_key": _none("the platform's id of a command or button press"),
        "seen_at": _none(_TIME),
    },
    "web_links": {
        "token_hash": _none("the SHA-256 of a web link's or page session's random secret"),
        "kind": _none("a link (used once), a watch link (used again: the public view only) or a session"),
        **_WORKSPACE,
        "channel_id": _none("the channel"),
        "thread_key": _none("the thread ('' for none)"),
        "game_id": _none("the game the page shows"),
        "user_id": Column(
            USER_ID,
            "the player the page plays as ('' for a watcher): expires within hours; forget-me and "
            "purge delete the row",
        ),
        "expires_at": _none(_TIME),
        "used_at": _none(_TIME),
    },
    "web_browse": {
        **_WORKSPACE,
        "token": _none("the random path of the workspace's web pages while its web is on (no person's)"),
        "created_at": _none(_TIME),
    },
    "claimed_once": {
        "kind": _none("what was claimed (an OAuth state)"),
        "key": _none("its nonce"),
        "expires_at": _none(_TIME),
    },
}


def personal_columns() -> list[tuple[str, str, Column]]:
    """(table, column, what) of every column that can hold a person's id, name or words."""
    return [
        (table, name, column)
        for table, columns in COLUMNS.items()
        for name, column in columns.items()
        if column.personal
    ]


def unclassified(schema: Mapping[str, Sequence[str]]) -> list[str]:
    """``table.column`` of every column of ``schema`` (table -> its columns) that :data:`COLUMNS`
    does not classify, and of every classified one the schema lacks (a stale entry)."""
    found = {
        f"{table}.{column}"
        for table, columns in schema.items()
        if table not in INTERNAL_TABLES
        for column in columns
    }
    known = {f"{table}.{column}" for table, columns in COLUMNS.items() for column in columns}
    return sorted(found ^ known)
