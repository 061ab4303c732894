"""moji's application core: config, events, commands, sessions, the manager."""

__version__ = "0.1.0"
