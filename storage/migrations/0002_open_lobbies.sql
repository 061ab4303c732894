-- Lobbies that are open (not started yet), so a restart can reopen them and their
-- Join / Start buttons keep working. A row is deleted when its lobby starts or closes.
CREATE TABLE open_lobbies (
    game_id TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    thread_id TEXT,
    data TEXT NOT NULL,
    updated_at {real} NOT NULL
);
