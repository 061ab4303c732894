"""One game in one chat: the session and the parts it is made of.

The session (:mod:`.session`) holds its lobby, settle window, timers and announcer (what each is
asked for: :mod:`.parts`) and writes every action to the game log on the database
(:mod:`.gamelog`); the rule for what a player typed (:mod:`.moves`) and what a finished game asks
of the next start (:mod:`.startrules`).

May import: ``core``, ``delivery``.
"""
