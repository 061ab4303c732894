-- The card pictures the Slack adapter uploaded to each workspace (adapters/slack/faces.py): one
-- file per picture (`picture`: the SHA-256 of its PNG, so a picture drawn anew is a new file),
-- shared in the thread of the workspace's shelf message; a race table shows its cards as image
-- elements naming these files (`slack_file`), at no upload of its own.
CREATE TABLE slack_card_files (
    team_id TEXT NOT NULL,
    picture TEXT NOT NULL,
    file_id TEXT NOT NULL,
    uploaded_at {real} NOT NULL,
    PRIMARY KEY (team_id, picture)
);

-- each workspace's shelf: the message of moji's in whose thread its card pictures are shared
CREATE TABLE slack_card_shelves (
    team_id TEXT PRIMARY KEY,
    channel_id TEXT NOT NULL,
    thread_ts TEXT NOT NULL,
    created_at {real} NOT NULL
);
