"""The terminal adapter: play moji locally against computer players."""

from adapters.terminal.app import TerminalAdapter

__all__ = ["TerminalAdapter"]
