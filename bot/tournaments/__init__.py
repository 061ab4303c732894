"""Tournaments: an arena of live games, Swiss and round-robin of turn-based ones.

The pure rules (:mod:`~bot.tournaments.pairing`, :mod:`~bot.tournaments.standings`,
:mod:`~bot.tournaments.arena`) apart from what runs them: the director's loop and results
(:mod:`~bot.tournaments.director`), starting and ending games (:mod:`~bot.tournaments.games`,
:mod:`~bot.tournaments.autoplay`), the command's words (:mod:`~bot.tournaments.spec`) and what
a tournament says (:mod:`~bot.tournaments.texts`). The ``tournament`` command is
:mod:`bot.handlers.tournament`; the tables, :mod:`storage.tournaments`.
"""
