-- Languages: each game is played in one language. Games recorded before this were all
-- played in English.
ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';

-- Scores added up per language as well (``scores`` keeps adding up every language together,
-- so the usual leaderboards read as before): per workspace, game ('*': every game), language,
-- period bucket and player. Read only by a leaderboard that names a language, so it has no
-- index beyond its key (a game's end writes it too, and stays quick).
CREATE TABLE language_scores (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    game TEXT NOT NULL,
    language TEXT NOT NULL,
    bucket TEXT NOT NULL,
    user_id TEXT NOT NULL,
    points INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    best_word TEXT NOT NULL,
    PRIMARY KEY (platform, workspace_id, game, language, bucket, user_id)
);

-- every score from before was made in English
INSERT INTO language_scores
    (platform, workspace_id, game, language, bucket, user_id, points, games, wins, best_word)
SELECT platform, workspace_id, game, 'en', bucket, user_id, points, games, wins, best_word FROM scores;
