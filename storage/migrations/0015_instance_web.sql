-- The web companion on several processes: each process's internal address for pages
-- (``web_url``, WEB_INTERNAL_URL) and the key that signs the page requests another process
-- proxies to it (``web_key``: random, made afresh at each start). A process that receives a
-- page request for a game another process runs proxies it to that owner's ``web_url``.
ALTER TABLE instances ADD COLUMN web_url TEXT NOT NULL DEFAULT '';
ALTER TABLE instances ADD COLUMN web_key TEXT NOT NULL DEFAULT '';
