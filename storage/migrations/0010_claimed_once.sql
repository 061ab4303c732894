-- Things that may be used once only, across every process sharing the database: an
-- OAuth ``state`` (kind 'oauth-state', key: its nonce). A row is kept until it expires, so a
-- second use within its lifetime finds it; expired rows are deleted by the next claim. No
-- person's id or name is kept here.
CREATE TABLE claimed_once (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    expires_at {real} NOT NULL,
    PRIMARY KEY (kind, key)
);

CREATE INDEX claimed_once_expiry ON claimed_once (expires_at);
