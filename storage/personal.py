"""Every column of moji's database, and whether it can hold a person's id or name.

This is the privacy code's map of the schema: ``forget-me`` and ``purge``
(:meth:`~storage.privacy.SQLPrivacy.forget_player`, ``purge_workspace``, and the
:class:`~storage.privacy.Eraser` of each table kept outside storage) must reach every
column classified here as personal, and a column that is not classified at all fails
``tests/storage/test_personal.py``, which reads the real schema after every migration on
SQLite and PostgreSQL. A migration that adds a table or a column therefore adds its entry
here too, saying what it holds and how it is forgotten; "holds no personal data" is an
explicit classification (:data:`NONE`), never a default.

The kinds a column is classified by are :mod:`storage.column_kinds`'s.

``docs/PRIVACY.md`` says the same in words for admins; keep the two in step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storage.column_kinds import INTERNAL_TABLES, NAME, NONE, PERSONAL, TEXT, USER_ID, Column, Kind, none

__all__ = [
    "COLUMNS",
    "INTERNAL_TABLES",
    "NAME",
    "NONE",
    "PERSONAL",
    "TEXT",
    "USER_ID",
    "Column",
    "Kind",
    "personal_columns",
    "unclassified",
]

_WORKSPACE = {
    "platform": none("the platform (discord, slack, terminal)"),
    "workspace_id": none("the Discord server or Slack workspace id"),
}
_TIME = "a time (epoch seconds)"

#: table -> column -> what it holds. Every column of every table, after every migration.
COLUMNS: Mapping[str, Mapping[str, Column]] = {
    "schema_version": {
        "version": none("a migration's number"),
        "name": none("a migration's file name"),
        "applied_at": none(_TIME),
    },
    "workspaces": {
        **_WORKSPACE,
        "created_at": none(_TIME),
        "season": none("the current season's number"),
        "season_started_at": none(_TIME),
    },
    "seasons": {
        **_WORKSPACE,
        "season": none("a season's number"),
        "started_at": none(_TIME),
        "ended_at": none(_TIME),
    },
    "workspace_settings": {
        **_WORKSPACE,
        "key": none("a setting's name"),
        "value": none("a setting's value (a role or user group, a time zone, a number of days…)"),
        "updated_by": Column(USER_ID, "who set it: forget-me puts an anonymous id; purge deletes the row"),
        "updated_at": none(_TIME),
    },
    "workspace_words": {
        **_WORKSPACE,
        "word": none("a word added to or banned from the workspace's list"),
        "kind": none("added or banned"),
        "added_by": Column(
            USER_ID, "who added or banned it ('vote': the players): forget-me anonymises; purge deletes"
        ),
        "added_at": none(_TIME),
    },
    "players": {
        "platform": none("the platform"),
        "user_id": Column(
            USER_ID,
            "the player: the row goes at forget-me, and at a purge, once no workspace ranks them "
            "(scores or results)",
        ),
        "display_name": Column(NAME, "their display name: goes with the row"),
        "updated_at": none(_TIME),
    },
    "games": {
        "game_id": none("the game's id"),
        "game": none("which game (race, board…)"),
        **_WORKSPACE,
        "channel_id": none("the channel"),
        "thread_id": none("the thread"),
        "options": none("the game's options (numbers, levels, a language)"),
        "seed": none("the shuffle's seed"),
        "seats": Column(
            TEXT, "each seat's id and name: forget-me makes theirs “a former player”; purge deletes"
        ),
        "host": Column(USER_ID, "who opened the game: forget-me anonymises; purge deletes"),
        "names": Column(TEXT, "seat id -> name: forget-me drops theirs; purge deletes"),
        "added_words": none("the workspace's added words when the game began"),
        "banned_words": none("the workspace's banned words when the game began"),
        "status": none("running, finished or void"),
        "started_at": none(_TIME),
        "ended_at": none(_TIME),
        "summary": Column(TEXT, "the result line (names the winners): forget-me empties it; purge deletes"),
        "void_reason": none(
            "why a game was voided, in moji's words (a restart, a crash, “stopped by a player”); "
            "never a name since migration 0011 (before, a stop named who stopped)"
        ),
        "announced_at": none(_TIME),
        "alive_at": none(_TIME),
        "language": none("the game's language"),
    },
    "game_actions": {
        "game_id": none("the game"),
        "seq": none("the action's number"),
        "action": Column(
            TEXT,
            "an answer, move or vote with its seat and text: forget-me deletes the log of every ended "
            "game they played; retention prunes; purge deletes",
        ),
    },
    "results": {
        "game_id": none("the game"),
        "seat_id": Column(USER_ID, "the seat: forget-me puts an anonymous id; purge deletes"),
        "user_id": Column(USER_ID, "the player: forget-me empties it (NULL); purge deletes"),
        "points": none("points"),
        "won": none("won or not"),
        "best_word": none("the seat's best word"),
        "team": none("partners' shared team number (race team variants), or none"),
    },
    "scores": {
        **_WORKSPACE,
        "game": none("which game"),
        "bucket": none("the period"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "points": none("points"),
        "games": none("games played"),
        "wins": none("games won"),
        "best_word": none("the best word"),
    },
    "language_scores": {
        **_WORKSPACE,
        "game": none("which game"),
        "language": none("the language"),
        "bucket": none("the period"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "points": none("points"),
        "games": none("games played"),
        "wins": none("games won"),
        "best_word": none("the best word"),
    },
    "ratings": {
        **_WORKSPACE,
        "game": none("which game"),
        "language": none("the language"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "mu": none("the rating model's skill estimate"),
        "sigma": none("the rating model's uncertainty"),
        "rating": none("the rating shown (a number)"),
        "games": none("rated games"),
        "wins": none("rated wins"),
        "updated_at": none(_TIME),
    },
    "rating_changes": {
        "game_id": none("the game"),
        **_WORKSPACE,
        "game": none("which game"),
        "language": none("the language"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "seq": none("the order games were rated in"),
        "before": none("the rating before the game (a number)"),
        "after": none("the rating after it"),
        "games": none("rated games so far"),
        "won": none("won or not"),
        "beaten": none("the best rating (a number) beaten in a win, never whose"),
    },
    "season_ratings": {
        **_WORKSPACE,
        "season": none("the season it ended"),
        "game": none("which game"),
        "language": none("the language"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row"),
        "mu": none("the rating model's skill estimate"),
        "sigma": none("the rating model's uncertainty"),
        "rating": none("the rating shown"),
        "games": none("rated games"),
        "wins": none("rated wins"),
    },
    "rating_events": {
        **_WORKSPACE,
        "seq": none("the order of the workspace's rating history"),
        "game_id": none("a rated game"),
        "season": none("a season that started"),
    },
    "rating_state": {
        **_WORKSPACE,
        "seq": none("the last rating event's number"),
        "season": none("the season the ratings are in"),
    },
    "daily_plays": {
        "platform": none("the platform"),
        "user_id": Column(USER_ID, "the player: forget-me and purge delete the row (and so their streak)"),
        "day": none("the daily's date"),
        "workspace_id": none("the workspace it was played in"),
        "language": none("the language"),
        "game_id": none("the daily's recorded game"),
        "started_at": none(_TIME),
        "ended_at": none(_TIME),
        "cards": none("cards taken"),
        "points": none("points"),
        "seconds": none("seconds played"),
        "streak": none("consecutive dailies finished, up to this one"),
        "shared_at": none(_TIME),
    },
    "tournaments": {
        "tournament_id": none("the tournament's id"),
        **_WORKSPACE,
        "channel_id": none("the channel it is announced in"),
        "format": none("arena, swiss or roundrobin"),
        "game": none("the game"),
        "options": none("the game's options"),
        "rounds": none("the rounds planned"),
        "round_seconds": none("a round's time, or the arena's window"),
        "speech": none("the language it is announced in"),
        "created_by": Column(USER_ID, "who created it: forget-me anonymises; purge deletes"),
        "created_by_name": Column(NAME, "their name: forget-me makes it “a former player”; purge deletes"),
        "created_at": none(_TIME),
        "starts_at": none(_TIME),
        "state": none("registering, running, finished or cancelled"),
        "round": none("the round being played"),
        "round_ends_at": none(_TIME),
        "ended_at": none(_TIME),
    },
    "tournament_players": {
        "tournament_id": none("the tournament"),
        "user_id": Column(USER_ID, "the player: forget-me replaces it by an anonymous id; purge deletes"),
        "name": Column(NAME, "their name: forget-me makes it “a former player”; purge deletes"),
        "rating": none("their rating when they joined"),
        "joined_at": none(_TIME),
        "left_at": none(_TIME),
    },
    "tournament_games": {
        "tournament_id": none("the tournament"),
        "round": none("the round"),
        "board": none("the board (pairing) number"),
        "game_id": none("the recorded game"),
        "thread_id": none("the thread it is played in"),
        "state": none("playing or done"),
        "how": none("how it ended (played, adjudicated, bye…)"),
        "started_at": none(_TIME),
        "ended_at": none(_TIME),
    },
    "tournament_seats": {
        "tournament_id": none("the tournament"),
        "round": none("the round"),
        "board": none("the board"),
        "seat": none("the seat's order (first mover first)"),
        "user_id": Column(USER_ID, "the player: forget-me replaces it by the anonymous id; purge deletes"),
        "score": none("the points scored in the game"),
        "place": none("the place in the game"),
        "points": none("the tournament points it earned"),
    },
    "schedules": {
        "id": none("the schedule's number"),
        **_WORKSPACE,
        "channel_id": none("the channel"),
        "days": none("the days it runs"),
        "at": none("the time of day"),
        "args": none("the start command's game and options"),
        "mention": none("a group mention (a Slack user group or @here, a Discord role), or none"),
        "created_by": Column(USER_ID, "who scheduled it: forget-me anonymises; purge deletes"),
        "created_by_name": Column(NAME, "their name: forget-me makes it “a former player”; purge deletes"),
        "created_at": none(_TIME),
        "last_run_at": none(_TIME),
    },
    "slack_installations": {
        "enterprise_id": none("the Slack Enterprise Grid id"),
        "team_id": none("the Slack workspace id"),
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
        "installed_at": none(_TIME),
    },
    "slack_card_files": {
        "team_id": none("the Slack workspace id"),
        "picture": none("the SHA-256 of a card picture moji drew"),
        "file_id": none("the Slack file moji uploaded it as"),
        "uploaded_at": none(_TIME),
    },
    "slack_card_shelves": {
        "team_id": none("the Slack workspace id"),
        "channel_id": none("the channel of moji's shelf message"),
        "thread_ts": none("moji's shelf message"),
        "created_at": none(_TIME),
    },
    "open_lobbies": {
        "game_id": none("the lobby's game id"),
        **_WORKSPACE,
        "channel_id": none("the channel"),
        "thread_id": none("the thread"),
        "data": Column(
            TEXT,
            "who sits in the lobby (ids, names): deleted when it starts or closes; forget-me is refused "
            "while they are in one; purge deletes",
        ),
        "updated_at": none(_TIME),
    },
    "active_games": {
        **_WORKSPACE,
        "channel_id": none("the channel"),
        "thread_key": none("the thread ('' for none)"),
        "game_id": none("the game holding the chat"),
        "claimed_at": none(_TIME),
        "owner": none("the moji process running it"),
        "epoch": none("the ownership's number"),
        "lease_until": none(_TIME),
        "table_ref": none("the game's table message"),
    },
    "instances": {
        "instance_id": none("a moji process"),
        "started_at": none(_TIME),
        "seen_until": none(_TIME),
        "web_url": none("the process's internal address for pages"),
        "web_key": none("the key signing page requests proxied to that process"),
    },
    "inbox": {
        "id": none("the row's number"),
        "target": none("the moji process it is for"),
        **_WORKSPACE,
        "channel_id": none("the channel"),
        "thread_key": none("the thread"),
        "event_key": none("the platform's id of the event"),
        "payload": Column(
            TEXT,
            "a forwarded event (who sent it, their name, what they typed): pruned after 15 minutes; "
            "forget-me deletes theirs; purge deletes",
        ),
        "created_at": none(_TIME),
        "handled_at": none(_TIME),
    },
    "pending_deletions": {
        **_WORKSPACE,
        "due_at": none(_TIME),
        "reason": none("why (the bot was removed, uninstalled), in moji's words"),
    },
    "deliveries": {
        "event_key": none("the platform's id of a command or button press"),
        "seen_at": none(_TIME),
    },
    "web_links": {
        "token_hash": none("the SHA-256 of a web link's or page session's random secret"),
        "kind": none("a link (used once), a watch link (used again: the public view only) or a session"),
        **_WORKSPACE,
        "channel_id": none("the channel"),
        "thread_key": none("the thread ('' for none)"),
        "game_id": none("the game the page shows"),
        "user_id": Column(
            USER_ID,
            "the player the page plays as ('' for a watcher): expires within hours; forget-me and "
            "purge delete the row",
        ),
        "expires_at": none(_TIME),
        "used_at": none(_TIME),
    },
    "web_browse": {
        **_WORKSPACE,
        "token": none("the random path of the workspace's web pages while its web is on (no person's)"),
        "created_at": none(_TIME),
    },
    "claimed_once": {
        "kind": none("what was claimed (an OAuth state)"),
        "key": none("its nonce"),
        "expires_at": none(_TIME),
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
