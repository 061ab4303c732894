"""The games' one-off work (word lists, computer players' tries), done in a worker thread as a
lobby opens rather than on the first computer move (:attr:`GameInfo.prepare`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable, Iterable, Mapping

from bot.hosting.host import GameHost
from games.common.options import OptionValue
from games.common.protocol import GameInfo

log = logging.getLogger(__name__)


class Preparing:
    """What one host's process has prepared, and the preparing of the rest."""

    def __init__(self, host: GameHost, games: Iterable[GameInfo]) -> None:
        self.host = host
        #: :meth:`GameInfo.preparation` keys (game, language, options' key) whose one-off work
        #: this process has begun: English with default options at start-up.
        self.begun: set[tuple[Hashable, ...]] = {info.preparation("en", {}) for info in games}

    def defer(self, games: Iterable[GameInfo]) -> None:
        """``games`` were not prepared at start-up (PREPARE_AT_START): their first lobby in
        English with the default options prepares them, as any other lobby would."""
        for info in games:
            self.begun.discard(info.preparation("en", {}))

    def prepare(self, info: GameInfo, options: Mapping[str, OptionValue]) -> None:
        """Start ``info``'s one-off work for the lobby's language and options (its word lists, its
        computer players' tries) in a worker thread as a lobby opens, so that the first computer
        move, which would otherwise do it on the spot, finds it done: once per
        :meth:`GameInfo.preparation` key in this process, and only where players think in threads
        (the real clock). English with the default options is prepared at start-up, unless
        :meth:`defer` said otherwise."""
        language = str(options.get("language", "en"))
        key = info.preparation(language, options)
        if not self.host.think_in_thread or key in self.begun:
            return
        self.begun.add(key)
        prepare = info.prepare

        async def in_a_thread() -> None:
            try:
                await asyncio.to_thread(prepare, language, options)
            except Exception:
                log.exception(
                    "preparing %s in %s failed; its game will do the work instead", info.name, language
                )

        self.host.spawn(in_a_thread(), f"prepare {info.name} {language}")
