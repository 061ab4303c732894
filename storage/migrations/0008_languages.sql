-- Languages (#22): each game is played in one language, and scores add up per language too.
-- Games recorded before this were all played in English.
ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';

-- Scores gain a language ('*': every language, as game '*' is every game). The primary key
-- changes, so the table is rebuilt: each old row counts for every language and for English.
CREATE TABLE scores_by_language (
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
INSERT INTO scores_by_language
    (platform, workspace_id, game, language, bucket, user_id, points, games, wins, best_word)
SELECT platform, workspace_id, game, '*', bucket, user_id, points, games, wins, best_word FROM scores;
INSERT INTO scores_by_language
    (platform, workspace_id, game, language, bucket, user_id, points, games, wins, best_word)
SELECT platform, workspace_id, game, 'en', bucket, user_id, points, games, wins, best_word FROM scores;
DROP TABLE scores;
ALTER TABLE scores_by_language RENAME TO scores;
CREATE INDEX scores_board ON scores (platform, workspace_id, game, language, bucket, points DESC);
