"""The process: settings, logging, the HTTP server, start-up, and the wiring of everything.

Settings from the environment (:mod:`.config`), logs, the health and metrics server with its
limits per client (:mod:`.health`, :mod:`.httpguard`), reaching the platforms at start-up
(:mod:`.retry`), the wiring (:mod:`.app`) and the local terminal game (:mod:`.local`).

May import: ``core``, ``delivery``, ``sessions``, ``features``, ``hosting``, ``inbound``.
"""
