"""The inbound pipeline: every event from every front door, once, in order, to the right process.

The :class:`~.runtime.Runtime` every adapter talks to; the steps of its pipeline (:mod:`.steps`,
:mod:`.admission`, :mod:`.once`, :mod:`.rights`) and the router to other processes (:mod:`.routing`).

May import: ``core``, ``delivery``, ``sessions``, ``features``, ``hosting``.
"""
