"""What a workspace has beyond one game.

Settings, leaderboards, seasons and ratings (:mod:`.workspace`, :mod:`.workspace_settings`,
:mod:`.rated`), privacy and housekeeping, ``define``, the daily, schedules and tournaments.

May import: ``core``, ``delivery``, ``sessions``.
"""
