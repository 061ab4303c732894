-- Which moji process runs each active game or lobby: its owner, the epoch of that ownership
-- (every adoption adds one) and the lease's expiry on the database's clock. Every write of a
-- game carries its owner and epoch, so a process whose game was adopted by another fails
-- loudly instead of writing beside it. ``table_ref``: the game's live table message, which an
-- adopter edits instead of posting another.
ALTER TABLE active_games ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE active_games ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE active_games ADD COLUMN lease_until {real} NOT NULL DEFAULT 0;
ALTER TABLE active_games ADD COLUMN table_ref TEXT;
CREATE UNIQUE INDEX active_games_game ON active_games (game_id);
CREATE INDEX active_games_owner ON active_games (owner);
-- The moji processes sharing this database, each alive until ``seen_until`` (database clock).
CREATE TABLE instances (
    instance_id TEXT PRIMARY KEY,
    started_at {real} NOT NULL,
    seen_until {real} NOT NULL
);
-- Events that reached a process which does not run their chat's game, for the one that does
-- (whichever runs it when they are read; for a chat without a game, ``target``: a ``start``
-- sent to the process running the workspace's other games), in ``id`` order per chat.
-- ``event_key`` drops a platform's redelivery that reached another process; handled rows are
-- kept a while for that, then pruned.
CREATE TABLE inbox (
    id {serial},
    target TEXT NOT NULL,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    thread_key TEXT NOT NULL,
    event_key TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at {real} NOT NULL,
    handled_at {real}
);
CREATE UNIQUE INDEX inbox_event ON inbox (event_key);
CREATE INDEX inbox_waiting ON inbox (id) WHERE handled_at IS NULL;
