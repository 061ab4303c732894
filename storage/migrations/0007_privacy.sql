-- Workspaces whose data is deleted at ``due_at``: the bot was removed from them (a Discord
-- server left, a Slack app uninstalled). Adding the bot back before then cancels it.
CREATE TABLE pending_deletions (
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    due_at {real} NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (platform, workspace_id)
);
CREATE INDEX games_ended ON games (ended_at) WHERE status <> 'running';
