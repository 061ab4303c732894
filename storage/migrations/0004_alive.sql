-- When the process running a game was last known to be alive (renewed every few seconds,
-- and at a graceful stop). After a crash, the game's clock is held still from here to the
-- restart, so nobody runs out of time while moji was down.
ALTER TABLE games ADD COLUMN alive_at {real};
