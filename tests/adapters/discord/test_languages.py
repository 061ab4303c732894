"""Languages on Discord: /moji config language, /moji start language:, answers with
accents, and /moji leaderboard language:."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime

import pytest

from adapters.discord.commands import LANGUAGE_CHOICES, setting_values
from bot.core.registry import Registry
from bot.features.workspace_settings import language_name
from games.common.speech import speaking
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness, answer, is_lobby, is_table
from tests.adapters.discord.fakediscord import GUILD_ID
from tests.bot.toygame import LINGO, TOY, LingoEngine

MESSAGES = r"^/channels/\d+/messages$"


@pytest.fixture
def registry() -> Registry:
    return Registry([LINGO, TOY])


def test_config_values_are_offered() -> None:
    registry = Registry([LINGO, TOY])
    assert [c.value for c in setting_values(registry, "language", "")] == ["en", "nl", "fr", "de", "es"]
    assert [c.name for c in setting_values(registry, "language", "fr")] == ["French (fr)"]
    assert [c.value for c in setting_values(registry, "lingo.language", "ge")] == ["de"]
    assert setting_values(registry, "timezone", "") == []
    assert setting_values(registry, "nonsense.language", "") == []


async def test_start_offers_the_language_and_the_workspace_setting_is_its_default(h: Harness) -> None:
    start = next(c for c in h.bot.tree.get_commands()[0].commands if c.name == "start")
    language = next(p for p in start.parameters if p.name == "language")
    assert [c.value for c in language.choices] == [c.value for c in LANGUAGE_CHOICES]

    iid = await h.fake.slash(*ANN, "config", {"key": "language", "value": "es"})
    [refused] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "Only workspace admins" in refused.text
    iid = await h.fake.slash(*ANN, "config", {"key": "language", "value": "es"}, admin=True)
    [done] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "language is now es" in done.text

    await h.fake.slash(*ANN, "start", {"game": "lingo"})
    [lobby] = await h.fake.wait_for("POST", MESSAGES, is_lobby)
    with speaking("es"):  # (a Spanish workspace: moji speaks Spanish there)
        spanish, german = language_name("es"), language_name("de")
    assert spanish in lobby.text and h.manager.sessions[CHAT].options["language"] == "es"
    await h.fake.slash(*ANN, "stop")
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    await h.fake.slash(*ANN, "start", {"game": "lingo", "language": "de", "more": "target=1"})
    await h.fake.wait_for("POST", MESSAGES, lambda r: is_lobby(r) and german in r.text)
    assert h.manager.sessions[CHAT].options["language"] == "de"


async def test_an_answer_with_accents_reaches_the_game_as_typed(h: Harness) -> None:
    await h.fake.slash(*ANN, "start", {"game": "lingo", "language": "de", "more": "target=2"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    await h.fake.slash(*BOB, "join")
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    engine = h.manager.sessions[CHAT].engine
    assert isinstance(engine, LingoEngine)
    decomposed = unicodedata.normalize("NFD", "Öl")
    for who, word in ((BOB, "Äpfel"), (ANN, "Straße"), (BOB, decomposed)):
        await answer(h, who, word)
    assert engine.heard == ["Äpfel", "Straße", decomposed]
    assert engine.folded == ["äpfel", "strasse", "öl"]
    await h.fake.until(lambda: CHAT not in h.manager.sessions)

    iid = await h.fake.slash(*BOB, "leaderboard", {"game": "lingo", "language": "de"})
    [board] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "in German" in board.text and "Bob" in board.text
    rows = await h.svc.store.leaderboard(
        "discord", GUILD_ID, "lingo", "all", datetime.now(UTC), 10, language="fr"
    )
    assert rows == []


async def test_config_suggests_the_language_setting_and_its_values(h: Harness) -> None:
    iid = await h.fake.autocomplete(*ANN, "config", {"key": "lang"}, focused="key")
    [answer] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert "language" in [c["value"] for c in answer.json["data"]["choices"]]
    iid = await h.fake.autocomplete(*ANN, "config", {"key": "language", "value": "sp"}, focused="value")
    [answer] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert [(c["name"], c["value"]) for c in answer.json["data"]["choices"]] == [("Spanish (es)", "es")]
