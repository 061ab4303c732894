-- The web companion: a link's single-use token and a page's session, each kept only as
-- the SHA-256 of its secret (the secret itself is never stored), bound to one platform,
-- workspace, chat, game and player ('' for a watcher). A link is used once (used_at); every
-- row expires within hours and is deleted by the next write after it has; forget-me deletes a
-- person's rows, a purge the workspace's (storage/personal.py).
CREATE TABLE web_links (
    token_hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    thread_key TEXT NOT NULL,
    game_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    expires_at {real} NOT NULL,
    used_at {real}
);

CREATE INDEX web_links_expiry ON web_links (expires_at);
