"""The inbound pipeline: every event from every front door, once, in order, to the right process.

The :class:`~.runtime.Runtime` every adapter talks to, what it is built from (:mod:`.wiring`) and
where (:mod:`.builder`);
the steps of its pipeline (:mod:`.steps`, with the once-only record :mod:`.once` and the rights
commands need :mod:`.rights`) and the router to other processes (:mod:`.routing`).

May import: ``core``, ``delivery``, ``sessions``, ``features``, ``hosting``.
"""
