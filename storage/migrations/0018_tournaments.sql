-- Tournaments (docs/TOURNAMENTS.md): an arena of back-to-back games in one channel, or a Swiss or
-- round-robin of two-player games, each pairing in a thread of its own. Every step that must
-- happen once across processes and restarts is one guarded write: a round is paired by the one
-- UPDATE that moves `round` on (its games are inserted in the same transaction), a game's result
-- is kept by the one UPDATE that moves its game from 'playing' to 'done', and the tournament ends
-- by the one UPDATE that moves its state from 'running'.

-- one tournament: where it is announced (a channel), its format and game, and where it stands
-- (format: 'arena', 'swiss' or 'roundrobin'; state: 'registering', 'running', 'finished' or
-- 'cancelled'; round: the round being played, 0 before the first; in an arena, the games begun)
CREATE TABLE tournaments (
    tournament_id TEXT PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    format TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    round_seconds {real} NOT NULL,
    speech TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_by_name TEXT NOT NULL,
    created_at {real} NOT NULL,
    starts_at {real},
    state TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 0,
    round_ends_at {real},
    ended_at {real}
);

-- one tournament open or running per channel, on every process
CREATE UNIQUE INDEX tournaments_live ON tournaments (platform, workspace_id, channel_id)
    WHERE state IN ('registering', 'running');
CREATE INDEX tournaments_workspace ON tournaments (platform, workspace_id, created_at);

-- who plays in it (a computer player's user_id is 'bot:N'); left_at: withdrawn (their games and
-- points stay); rating: their rating when they joined, the seed of the first pairings
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    rating {real} NOT NULL,
    joined_at {real} NOT NULL,
    left_at {real},
    PRIMARY KEY (tournament_id, user_id)
);

-- its games: a pairing of a round (board 1, 2, …), or an arena's game (round = its number)
-- (state: 'playing' or 'done'; how: 'played', 'adjudicated', 'bye', 'forfeit' or 'void')
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    thread_id TEXT,
    state TEXT NOT NULL,
    how TEXT NOT NULL DEFAULT '',
    started_at {real} NOT NULL,
    ended_at {real},
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_games_game ON tournament_games (game_id);

-- the seats of each game, first mover first: what each scored in the game and what it is worth
-- in the tournament (a Swiss game: 1, 0.5 or 0; an arena game: its arena points), once done
CREATE TABLE tournament_seats (
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    user_id TEXT NOT NULL,
    score INTEGER,
    place INTEGER,
    points {real},
    PRIMARY KEY (tournament_id, round, board, seat)
);
CREATE INDEX tournament_seats_player ON tournament_seats (tournament_id, user_id);
