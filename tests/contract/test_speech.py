"""moji speaks through its catalogue on every front door.

- In the pseudo-language (every message of the catalogue comes out as ``⟦…⟧``), a whole game of
  each of the five games on Discord, Slack and the terminal: everything the platform was asked
  to show (messages, edits, ephemeral answers, DMs, embeds, blocks, buttons, modals, alt texts)
  holds no word outside the marks but what people typed or played.
- A Dutch, a French, a German and a Spanish workspace each play all five games from lobby to
  result in their language, with their own words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.core.registry import Registry, load_default
from bot.sessions.lobby import BOT_NAMES
from games.common.speech import PSEUDO, speak_only
from tests.contract.harness import PEOPLE, PlatformHarness, game_session
from tests.speech.pseudo import english_words, unmarked, without_links

#: Each game with computer players enough to finish it, and short settings.
GAMES: dict[str, str] = {
    "race": "bots=2 cards=3",
    "board": "bots=1 live=on",
    "dice": "bots=1 live=on",
    "paths": "bots=1",
    "shed": "bots=1",
}
#: Keys of a platform's JSON whose string values a person reads.
_READ = frozenset(
    {"content", "title", "description", "name", "value", "text", "label", "placeholder", "alt_text"}
)
#: Requests that are no message (the commands' registration speaks every language at once).
_NOT_SHOWN = re.compile(r"^/applications/\d+/(guilds/\d+/)?commands")


@pytest.fixture
def registry() -> Registry:
    return load_default()


def _read(node: Any, *, slack: bool = False) -> Iterator[str]:
    """The strings a person reads in a platform's JSON (Slack: a button's ``value`` is its action
    id, never shown)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _READ and isinstance(value, str) and not (slack and key == "value"):
                yield value
            elif key == "blocks" and isinstance(value, str):
                yield from _read(json.loads(value), slack=slack)
            else:
                yield from _read(value, slack=slack)
    elif isinstance(node, list):
        for value in node:
            yield from _read(value, slack=slack)


def shown(p: PlatformHarness) -> list[str]:
    """Every text the platform was asked to show anyone (the harness's raw calls)."""
    if p.name == "discord":
        fake = p.fake  # type: ignore[attr-defined]
        return ["\n".join(_read(r.json)) for r in fake.requests if not _NOT_SHOWN.match(r.path)]
    if p.name == "slack":
        calls = p.slack.calls  # type: ignore[attr-defined]
        # (one text per call: a long message is split into several blocks, a sentence among them)
        return [
            "\n".join(_read({k: c.args.get(k) for k in ("text", "blocks", "view")}, slack=True))
            for c in calls
        ]
    return [*p.channel(), *p.told("ann")]


async def play_through(p: PlatformHarness, registry: Registry, game: str, options: str) -> None:
    """Ann starts ``game`` with computer players and takes her turn button whenever her turn
    comes, until the game is over."""
    info = registry.get(game)
    await p.command("ann", f"start {game} {options} level=hard")
    await p.until(lambda: game_session(p) is not None)
    thread = p.thread() if not info.realtime else None
    await p.command("ann", "go", thread=thread)
    await p.until(lambda: game_session(p) is None or game_session(p).engine is not None)
    for _step in range(3000):
        session = game_session(p)
        if session is None or session.phase.value not in ("running", "lobby"):
            break
        if info.turn_moves and p.seat("ann") in session.state.turn_seats():
            await p.say("ann", info.turn_moves[-1][1], thread=thread)
        await p.advance(2.0)
    await p.drain()
    assert game_session(p) is None or game_session(p).phase.value != "running", f"{game} ended"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_in_the_pseudo_language_shows_nothing_outside_the_catalogue(
    p: PlatformHarness, registry: Registry, game: str
) -> None:
    with speak_only(PSEUDO):
        await play_through(p, registry, game, GAMES[game])
        await p.command("ann", f"rules {game}")
        await p.command("ann", "help")
        await p.settle()
    names = {*BOT_NAMES, *(who.title() for who in PEOPLE), "You"}
    found = {word for text in shown(p) for word in unmarked(without_links(text), names)}
    assert not found, sorted(found)
    assert not p.manager.errors


async def speak(p: PlatformHarness, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workspace speaks ``code`` and so do its people's own clients (what one person
    alone reads follows their locale where the platform tells it; the terminal: the system
    locale says so)."""
    p.people_speak(code if p.name == "discord" and code != "es" else f"{code}-{code.upper()}")
    if p.name == "terminal":
        monkeypatch.setenv("LC_ALL", f"{code}_{code.upper()}.UTF-8")
        return
    await p.command("ada", f"config language {code}")
    await p.settle()


@pytest.mark.parametrize("code", ["nl", "fr", "de", "es"])
async def test_a_workspace_plays_every_game_in_its_language(
    p: PlatformHarness, registry: Registry, code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await speak(p, code, monkeypatch)
    # (a word's meaning is English by design, labelled as such: docs/LANGUAGES.md, "Meanings")
    monkeypatch.setattr("games.lexicon.glosses.gloss", lambda word, language="en": None)
    for game in sorted(GAMES):
        before = len(shown(p))
        await play_through(p, registry, game, GAMES[game].replace("bots=2", "bots=1"))
        said = shown(p)[before:]
        assert said, f"{game} showed something"
        english = english_words(said, {*BOT_NAMES, *(who.title() for who in PEOPLE)})
        assert not english, (game, english[:20])
        if p.name == "terminal":
            break  # (the terminal plays the one game it opened with)
    assert not p.manager.errors
