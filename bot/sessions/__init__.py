"""One game in one chat: the session and the parts it holds.

The session (:mod:`.session`) holds its state (:mod:`.state`) and its parts — the lobby
(:mod:`.lobby`), the settle window (:mod:`.settle`), the timer (:mod:`.timers`), the announcer
(:mod:`.announce`) and the journal of its writes (:mod:`.journal`) — each made with only what it
works with (:mod:`.parts`); an action is played in :mod:`.play` and kept in the game log on the
database (:mod:`.gamelog`). Also: the rule for what a player typed (:mod:`.moves`) and what a
finished game asks of the next start (:mod:`.startrules`).

May import: ``core``, ``delivery``.
"""
