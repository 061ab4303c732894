-- Slash commands and button presses already handled, by the platform's own id for each one
-- (Slack's trigger id, Discord's interaction id), so a replay of a captured request or a
-- redelivery is dropped in whichever moji process it reaches, even after a restart. Holds no
-- person's id or name; a row is kept an hour (longer than the platforms would deliver it again).
CREATE TABLE deliveries (
    event_key TEXT PRIMARY KEY,
    seen_at {real} NOT NULL
);
CREATE INDEX deliveries_seen ON deliveries (seen_at);
