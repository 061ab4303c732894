"""What each chat's last finished game asks of its next ``start`` (:attr:`GameInfo.after_game`).

A game declares the rule (the race's Master's Choice: :mod:`games.race.masters`); the host keeps
one per chat, in this process's memory, and the start command asks it before opening a lobby.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.core.events import ChatKey
from games.common.options import OptionValue
from games.common.protocol import GameInfo, Result, StartRule


class StartRules:
    """The rule each chat's last finished game left (at most one per chat)."""

    def __init__(self) -> None:
        self._rules: dict[ChatKey, StartRule] = {}

    def get(self, chat: ChatKey) -> StartRule | None:
        """The rule the next start in ``chat`` must respect (None: none)."""
        return self._rules.get(chat)

    def finished(
        self,
        chat: ChatKey,
        info: GameInfo,
        result: Result,
        options: Mapping[str, OptionValue],
        names: Mapping[str, str],
    ) -> None:
        """A game of ``info`` finished in ``chat``: its hook says what its chat's rule is now
        (a game without one clears it)."""
        rule = None if info.after_game is None else info.after_game(result, options, names, self.get(chat))
        if rule is None:
            self._rules.pop(chat, None)
        else:
            self._rules[chat] = rule

    def refusal(self, chat: ChatKey, game: str, seat_id: str, args: Sequence[str]) -> str | None:
        """Why ``seat_id`` may not start ``game`` in ``chat`` with ``args`` as typed (None: they may)."""
        rule = self._rules.get(chat)
        return None if rule is None else rule.refusal(game, seat_id, args)

    def forget_chat(self, chat: ChatKey) -> None:
        """The chat is gone."""
        self._rules.pop(chat, None)

    def forget_player(self, seat_id: str, workspace_id: str) -> None:
        """A player of the workspace asked to be forgotten: the rules holding them go."""
        for chat, rule in list(self._rules.items()):
            if seat_id in rule.seat_ids and chat.workspace_id == workspace_id:
                del self._rules[chat]

    def forget_workspace(self, platform: str, workspace_id: str) -> None:
        """A workspace was purged: its chats' rules go."""
        for chat in [c for c in self._rules if (c.platform, c.workspace_id) == (platform, workspace_id)]:
            del self._rules[chat]
