-- Browsing: a workspace's leaderboards, player pages and replays on the web, when an
-- admin turns them on (`config web on`). Its pages live under /w/<token>/: a random token minted
-- when the web is turned on and deleted when it is turned off (so turning it on again makes a new
-- address, and every old one answers 404). Kept as written (not hashed): every process builds the
-- link for `leaderboard` and `stats` from it. A purge deletes the row (storage/privacy.py).
CREATE TABLE web_browse (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    token TEXT NOT NULL,
    created_at {real} NOT NULL,
    PRIMARY KEY (platform, workspace_id)
);

CREATE UNIQUE INDEX web_browse_token ON web_browse (token);

-- a player's page: their results (best words, recent games) in one index range, and each one's
-- game by a covering index (a games row is wide: its seats, names, word lists), so a player of
-- thousands of games reads narrow index entries only
CREATE INDEX results_player ON results (user_id, game_id, points, won, best_word);
CREATE INDEX games_browse ON games (game_id, status, platform, workspace_id, ended_at, game, language);

-- a workspace's finished games, newest first (the replays' list)
CREATE INDEX games_finished ON games (platform, workspace_id, ended_at, game_id) WHERE status = 'finished';
