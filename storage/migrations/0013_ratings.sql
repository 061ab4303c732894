-- Skill ratings: a rating per player, game and language in each workspace, the changes
-- each rated game made, the ratings each season ended with, and the order games were rated in
-- (so a rebuild replays them in the same order and arrives at the same numbers). The model is
-- the bot's (bot/core/ratings.py); storage keeps numbers. See docs/RATINGS.md.

-- partners (race team variants) share a team number; NULL for a seat playing alone
ALTER TABLE results ADD COLUMN team INTEGER;

-- the current rating: mu, sigma (the model's skill and uncertainty) and the rating shown and
-- ranked (a conservative estimate on a 1,000-based scale), with rated games and wins
CREATE TABLE ratings (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    game TEXT NOT NULL,
    language TEXT NOT NULL,
    user_id TEXT NOT NULL,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    rating {real} NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    updated_at {real} NOT NULL,
    PRIMARY KEY (platform, workspace_id, game, language, user_id)
);

-- a leaderboard by rating: one index range read, best first
CREATE INDEX ratings_board ON ratings (platform, workspace_id, game, language, rating DESC, user_id);

-- each workspace's rating history, in order: a rated game (game_id) or a season's start (season)
CREATE TABLE rating_events (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    game_id TEXT,
    season INTEGER,
    PRIMARY KEY (platform, workspace_id, seq)
);

CREATE UNIQUE INDEX rating_events_game ON rating_events (game_id);

-- how far each workspace's ratings have got (the row every rating write locks first)
CREATE TABLE rating_state (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    season INTEGER NOT NULL,
    PRIMARY KEY (platform, workspace_id)
);

-- what one rated game did to one person's rating: before and after (as shown), their rated
-- games so far, whether they won, and the best rating they beat (NULL: no win over anyone)
CREATE TABLE rating_changes (
    game_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    game TEXT NOT NULL,
    language TEXT NOT NULL,
    user_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    before {real} NOT NULL,
    after {real} NOT NULL,
    games INTEGER NOT NULL,
    won INTEGER NOT NULL,
    beaten {real},
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_changes_player ON rating_changes (platform, workspace_id, user_id, game, language, seq);

-- the ratings a season ended with (archived by `season reset`, like its points)
CREATE TABLE season_ratings (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    season INTEGER NOT NULL,
    game TEXT NOT NULL,
    language TEXT NOT NULL,
    user_id TEXT NOT NULL,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    rating {real} NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    PRIMARY KEY (platform, workspace_id, season, game, language, user_id)
);

CREATE INDEX season_ratings_board ON season_ratings (platform, workspace_id, season, game, language, rating DESC);

-- the history so far, in the order it happened: finished games by their end, seasons by their
-- start (ratings themselves are computed by `season rebuild`, which replays it)
INSERT INTO rating_events (platform, workspace_id, seq, game_id, season)
SELECT platform, workspace_id,
       ROW_NUMBER() OVER (PARTITION BY platform, workspace_id ORDER BY at, kind, tiebreak),
       game_id, season
FROM (
    SELECT platform, workspace_id, ended_at AS at, 1 AS kind, game_id AS tiebreak, game_id,
           CAST(NULL AS INTEGER) AS season
    FROM games WHERE status = 'finished'
    UNION ALL
    SELECT platform, workspace_id, started_at AS at, 0 AS kind, '' AS tiebreak, CAST(NULL AS TEXT) AS game_id,
           season
    FROM seasons WHERE season > 1
) history;

INSERT INTO rating_state (platform, workspace_id, seq, season)
SELECT w.platform, w.workspace_id,
       COALESCE((SELECT MAX(e.seq) FROM rating_events e
                 WHERE e.platform = w.platform AND e.workspace_id = w.workspace_id), 0),
       w.season
FROM workspaces w;
