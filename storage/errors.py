"""The one exception storage raises."""

from __future__ import annotations


class StorageError(Exception):
    """A storage failure, with a one-sentence message fit to show an operator.

    Messages never contain a password or a traceback; the driver's exception
    is chained (``__cause__``) for the logs.
    """


class Fenced(StorageError):
    """A write refused because another process has taken the game over (its lease moved on).

    The process that meets it must drop the game at once, silently: the game's new owner
    carries it on and speaks for it.
    """
