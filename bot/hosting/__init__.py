"""Hosting games: every chat's session, kept, supervised, answered and recovered.

The manager (:mod:`.manager`) and what the parts around it may use of it (:mod:`.host`), the
command handlers (:mod:`.handlers`), restart recovery and leases, and the games' one-off
preparation (:mod:`.preparing`).

May import: ``core``, ``delivery``, ``sessions``, ``features``.
"""
