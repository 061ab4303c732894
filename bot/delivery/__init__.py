"""Delivery: what sessions want shown, as the fewest platform calls inside each platform's limits.

One :class:`~.delivery.Delivery` per platform takes what sessions send (the core's
:class:`~bot.core.outbox.Outbox`): the live tables edited in place (:mod:`.tables`), marks on answers
(:mod:`.marks`), private notes (:mod:`.private_notes`), paced by each platform's rate limits
(:mod:`.pacing`, :mod:`.lanes`) through the adapter's :class:`~.transport.Transport`.

May import: ``core``.
"""
