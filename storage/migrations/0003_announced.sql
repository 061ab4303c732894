-- When a finished game's result was posted in its channel. A game finished but not
-- announced (the process died in between) is announced once after a restart.
ALTER TABLE games ADD COLUMN announced_at {real};
UPDATE games SET announced_at = ended_at WHERE status <> 'running';
