"""Games prepare their slow one-off work at start-up, off the event loop, and a failure is only logged."""

from __future__ import annotations

import dataclasses
import logging
import threading

import pytest

from bot.app import warm_up
from tests.bot.toygame import TOY


async def test_each_game_prepares_in_a_worker_thread(caplog: pytest.LogCaptureFixture) -> None:
    ran: list[tuple[str, int]] = []

    def broken() -> None:
        raise OSError("disk gone")

    games = [
        dataclasses.replace(TOY, name="first", prepare=lambda: ran.append(("first", threading.get_ident()))),
        dataclasses.replace(TOY, name="broken", prepare=broken),
        dataclasses.replace(TOY, name="nothing"),
        dataclasses.replace(TOY, name="last", prepare=lambda: ran.append(("last", threading.get_ident()))),
    ]
    with caplog.at_level(logging.INFO, logger="bot.app"):
        await warm_up(games)
    assert [name for name, _ in ran] == ["first", "last"]
    assert all(ident != threading.get_ident() for _, ident in ran)
    assert "preparing broken failed" in caplog.text
    assert "first prepared in" in caplog.text and "last prepared in" in caplog.text


def test_every_installed_game_that_prepares_does_so_without_error() -> None:
    from bot.registry import load_default

    prepared = [info.name for info in load_default() if info.prepare is not None]
    assert prepared == [info.name for info in load_default()]  # every game has one-off work to do
    for info in load_default():
        if info.prepare is not None:
            info.prepare()
