-- moji's first schema. Portable SQL for SQLite and PostgreSQL; the loader
-- substitutes {real} (REAL / DOUBLE PRECISION) and {serial} (an auto-numbered
-- primary key). Times are epoch seconds. JSON is stored as TEXT.

CREATE TABLE workspaces (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    created_at {real} NOT NULL,
    season INTEGER NOT NULL DEFAULT 1,
    season_started_at {real} NOT NULL,
    PRIMARY KEY (platform, workspace_id)
);

CREATE TABLE seasons (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    season INTEGER NOT NULL,
    started_at {real} NOT NULL,
    ended_at {real},
    PRIMARY KEY (platform, workspace_id, season),
    FOREIGN KEY (platform, workspace_id) REFERENCES workspaces (platform, workspace_id) ON DELETE CASCADE
);

CREATE TABLE workspace_settings (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at {real} NOT NULL,
    PRIMARY KEY (platform, workspace_id, key),
    FOREIGN KEY (platform, workspace_id) REFERENCES workspaces (platform, workspace_id) ON DELETE CASCADE
);

-- kind: 'added' or 'banned'
CREATE TABLE workspace_words (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    word TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('added', 'banned')),
    added_by TEXT NOT NULL,
    added_at {real} NOT NULL,
    PRIMARY KEY (platform, workspace_id, word),
    FOREIGN KEY (platform, workspace_id) REFERENCES workspaces (platform, workspace_id) ON DELETE CASCADE
);

CREATE TABLE players (
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    display_name TEXT NOT NULL,
    updated_at {real} NOT NULL,
    PRIMARY KEY (platform, user_id)
);

-- status: 'running', 'finished' or 'void'
CREATE TABLE games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    thread_id TEXT,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    host TEXT NOT NULL,
    names TEXT NOT NULL,
    added_words TEXT NOT NULL,
    banned_words TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'void')),
    started_at {real} NOT NULL,
    ended_at {real},
    summary TEXT NOT NULL DEFAULT '',
    void_reason TEXT NOT NULL DEFAULT ''
);

CREATE INDEX games_running ON games (started_at) WHERE status = 'running';
CREATE INDEX games_workspace ON games (platform, workspace_id, started_at);

CREATE TABLE game_actions (
    game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- One row per seat of a finished game: the audit trail the scores are added up from.
CREATE TABLE results (
    game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat_id TEXT NOT NULL,
    user_id TEXT,
    points INTEGER NOT NULL,
    won INTEGER NOT NULL,
    best_word TEXT NOT NULL,
    PRIMARY KEY (game_id, seat_id)
);

-- Scores added up per workspace, game ('*': every game), period bucket and player.
-- bucket: 'all', 'season:N', 'month:YYYY-MM', 'week:YYYY-Www', 'day:YYYY-MM-DD'.
CREATE TABLE scores (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    game TEXT NOT NULL,
    bucket TEXT NOT NULL,
    user_id TEXT NOT NULL,
    points INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    best_word TEXT NOT NULL,
    PRIMARY KEY (platform, workspace_id, game, bucket, user_id)
);

CREATE INDEX scores_board ON scores (platform, workspace_id, game, bucket, points DESC);

CREATE TABLE schedules (
    id {serial},
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    days TEXT NOT NULL,
    at TEXT NOT NULL,
    args TEXT NOT NULL,
    mention TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_by_name TEXT NOT NULL,
    created_at {real} NOT NULL,
    last_run_at {real}
);

CREATE INDEX schedules_workspace ON schedules (platform, workspace_id);

-- enterprise_id / team_id / user_id are '' when absent; user_id '' is the team's latest.
CREATE TABLE slack_installations (
    enterprise_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    data TEXT NOT NULL,
    installed_at {real} NOT NULL,
    PRIMARY KEY (enterprise_id, team_id, user_id)
);
