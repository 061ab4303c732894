-- Privacy: a game a person stopped was recorded as "stopped by <their display name>",
-- which forget-me and a purge of another workspace did not reach. The reason no longer names
-- anyone ("stopped by a player", as moji writes it from now on); every column that can hold a
-- person's id or name is classified in storage/personal.py.
UPDATE games SET void_reason = 'stopped by a player' WHERE void_reason LIKE 'stopped by %';
