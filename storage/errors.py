"""The one exception storage raises."""

from __future__ import annotations


class StorageError(Exception):
    """A storage failure, with a one-sentence message fit to show an operator.

    Messages never contain a password or a traceback; the driver's exception
    is chained (``__cause__``) for the logs.
    """
