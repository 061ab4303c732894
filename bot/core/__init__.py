"""The words every room of bot/ shares.

Events and views (what crosses the adapter boundary, both ways), the command grammar, the
registry of games, the clock, the rating model, metrics, what a platform is (:class:`~.platform.Platform`),
what sessions send out (:class:`~.outbox.Outbox`), per-person allowances and per-chat order.

May import: nothing of bot/ (games/ and storage/ only).
"""
