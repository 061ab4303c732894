-- The daily: one attempt per person per day, what it scored, and the streak it made.
-- The deal itself is not stored: it is the game's seed (games/race/daily.py, docs/DAILY.md).

-- a person's daily of one date (UTC, YYYY-MM-DD): the workspace they played it in, its recorded
-- game, and once it ended the cards taken, points, seconds played and the streak it made
-- (cards NULL with ended_at set: the game was voided; the attempt still counts as played)
CREATE TABLE daily_plays (
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    day TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    language TEXT NOT NULL,
    game_id TEXT NOT NULL,
    started_at {real} NOT NULL,
    ended_at {real},
    cards INTEGER,
    points INTEGER,
    seconds {real},
    streak INTEGER,
    shared_at {real},
    PRIMARY KEY (platform, user_id, day)
);

-- the day's board and the streaks of a workspace: one index range read
CREATE INDEX daily_plays_board ON daily_plays (platform, workspace_id, day, points DESC);
CREATE UNIQUE INDEX daily_plays_game ON daily_plays (game_id);
