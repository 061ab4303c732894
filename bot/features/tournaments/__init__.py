"""Tournaments: an arena of live games, Swiss and round-robin of turn-based ones.

The pure rules (:mod:`~.pairing`, :mod:`~.standings`,
:mod:`~.arena`) apart from what runs them: the director's loop and results
(:mod:`~.director`), starting and ending games (:mod:`~.games`,
:mod:`~.autoplay`), the command's words (:mod:`~.spec`) and what
a tournament says (:mod:`~.texts`). The ``tournament`` command is
:mod:`bot.hosting.handlers.tournament`; the tables, :mod:`storage.tournaments`.
"""
