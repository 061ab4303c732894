-- One active game (an open lobby or a running game) per chat, whichever moji process runs it:
-- a lobby claims its chat here before it opens. A claim whose game has ended, or whose lobby
-- closed without starting, no longer holds the chat.
CREATE TABLE active_games (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    thread_key TEXT NOT NULL,
    game_id TEXT NOT NULL,
    claimed_at {real} NOT NULL,
    PRIMARY KEY (platform, workspace_id, channel_id, thread_key)
);
INSERT INTO active_games (platform, workspace_id, channel_id, thread_key, game_id, claimed_at)
SELECT platform, workspace_id, channel_id, COALESCE(thread_id, ''), game_id, started_at
FROM games WHERE status = 'running'
ON CONFLICT DO NOTHING;
INSERT INTO active_games (platform, workspace_id, channel_id, thread_key, game_id, claimed_at)
SELECT platform, workspace_id, channel_id, COALESCE(thread_id, ''), game_id, updated_at
FROM open_lobbies WHERE 1 = 1  -- (SQLite needs a WHERE before ON CONFLICT in INSERT … SELECT)
ON CONFLICT DO NOTHING;
