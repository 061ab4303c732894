"""LOG_FORMAT: text for people, json (one object per line) for log shippers."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.process import logs
from bot.process.config import ConfigError, load_config


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    """The root logger's output during the test (its handlers and level restored afterwards)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    out = io.StringIO()
    try:
        yield out
    finally:
        for handler in list(root.handlers):
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)


def test_json_lines_parse(stream: io.StringIO) -> None:
    logs.setup("INFO", "json", stream)
    log = logging.getLogger("bot.example")
    log.info("game %s started in %s", "g1", "discord/1/2")
    log.debug("not shown at INFO")
    try:
        raise ValueError('bad "quotes"\nand a second line')
    except ValueError:
        log.exception("it broke")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["level"] == "INFO" and first["logger"] == "bot.example"
    assert first["message"] == "game g1 started in discord/1/2"
    assert first["time"].endswith("+00:00") and "T" in first["time"]
    assert "exception" not in first
    assert second["level"] == "ERROR" and second["message"] == "it broke"
    assert "Traceback" in second["exception"] and 'ValueError: bad "quotes"' in second["exception"]


def test_text_is_the_default_and_setup_replaces_its_own_handler(stream: io.StringIO) -> None:
    logs.setup("INFO", "text", stream)
    logs.setup("WARNING", "text", stream)  # again: still one line per record
    logging.getLogger("bot.example").warning("hello")
    [line] = stream.getvalue().splitlines()
    assert line.endswith("WARNING bot.example: hello")
    assert load_config({}, env_file=None).log_format == "text"


def test_log_format_setting() -> None:
    assert load_config({"LOG_FORMAT": "JSON"}, env_file=None).log_format == "json"
    with pytest.raises(ConfigError, match="LOG_FORMAT must be text or json"):
        load_config({"LOG_FORMAT": "xml"}, env_file=None)
