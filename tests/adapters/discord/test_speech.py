"""moji speaks each Discord client's language: /moji localised by MojiTranslator within Discord's
limits, the person's locale read from each interaction, and the adapter's own words (embeds,
replies, the modal, picture descriptions) through the catalogue (scanned in the pseudo-language)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from adapters.discord.client import ListModal, MojiBot
from adapters.discord.commands import build_group
from adapters.discord.permissions import legacy_note, missing_message
from adapters.discord.render import render
from adapters.discord.translator import DISCORD_LOCALES, MojiTranslator, command_names, option_names
from adapters.discord.transport import DiscordTransport
from bot.core import views
from bot.core.registry import Registry, load_default
from games.common import speech
from games.common.protocol import CardFace, SeatLine
from games.common.speech import PSEUDO, speaking
from games.common.text import user
from tests.adapters.discord.conftest import ANN, CHAT, Harness, is_lobby
from tests.adapters.discord.fakediscord import command_errors
from tests.bot.toygame import TOY
from tests.speech.pseudo import unmarked

MESSAGES = r"^/channels/\d+/messages$"
#: Where Discord's documentation says what a localisation may hold: docs/interactions/
#: Application_Commands.md, "Localization" and "Application Command Naming" (discord-api-docs).
LOCALES = {"nl", "fr", "de", "es-ES", "es-419"}
_original_lookup = speech._lookup


async def _noop(*_args: Any) -> None:
    return None


async def synced(registry: Registry | None = None) -> dict[str, Any]:
    """The ``/moji`` payload a sync sends, with MojiTranslator installed on the tree."""
    bot: Any = SimpleNamespace(registry=registry or load_default(), run_command=_noop, open_list_modal=_noop)
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    group = build_group(bot)
    tree.add_command(group)
    translator = MojiTranslator()
    await tree.set_translator(translator)
    return await group.get_translated_payload(tree, translator)


def walk(node: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    where = f"{path}/{node['name']}"
    yield where, node
    for option in node.get("options") or []:
        yield from walk(option, where)


@pytest.fixture
def translated(monkeypatch: pytest.MonkeyPatch) -> None:
    """Catalogues that translate everything: a name ``start`` is ``start-de`` in German, any other
    text ``«de» …`` (long enough to need Discord's 100-character cut somewhere)."""

    def lookup(code: str, context: str | None, message: str) -> str:
        if code in ("en", PSEUDO):
            return _original_lookup(code, context, message)
        if context in ("command name", "option name"):
            return f"{message}-{code}"
        return f"«{code}» {message}"

    monkeypatch.setattr(speech, "_lookup", lookup)


@pytest.mark.usefixtures("translated")
async def test_every_name_and_description_is_localised_for_the_five_locales() -> None:
    payload = await synced()
    assert command_errors(payload) == []  # every localisation within Discord's limits
    assert not payload.get("name_localizations")  # /moji is moji in every language
    assert set(payload["description_localizations"]) == LOCALES
    nodes = dict(walk(payload))
    start = nodes["/moji/start"]
    assert start["name_localizations"] == {loc: f"start-{code}" for loc, code in DISCORD_LOCALES.items()}
    assert start["description_localizations"]["es-419"].startswith("«es» Open a game lobby")
    for path in (
        "/moji/start/game",
        "/moji/start/cards",
        "/moji/leaderboard/period",
        "/moji/privacy/forget-me",
    ):
        assert set(nodes[path]["name_localizations"]) == LOCALES, path
        assert set(nodes[path]["description_localizations"]) == LOCALES, path
    [today] = [c for c in nodes["/moji/leaderboard/period"]["choices"] if c["value"] == "day"]
    assert today["name_localizations"]["de"] == "«de» today"
    # a language menu lists each language by its own name in every other client language
    [french] = [c for c in nodes["/moji/define/language"]["choices"] if c["value"] == "fr"]
    assert french["name"] == "French (fr)" and french["name_localizations"]["de"] == "Français (fr)"
    for path, node in nodes.items():  # nothing for a locale moji does not speak
        for key in ("name_localizations", "description_localizations"):
            assert set(node.get(key) or {}) <= LOCALES, path


@pytest.mark.usefixtures("translated")
async def test_a_localised_option_still_reaches_its_own_option() -> None:
    # Discord sends an interaction with the command's own names, whatever the client shows: the
    # localised name is display only; the option names discord.py reads stay the English ones
    payload = await synced()
    nodes = dict(walk(payload))
    assert nodes["/moji/define/word"]["name"] == "word"
    assert nodes["/moji/define/word"]["name_localizations"]["de"] == "word-de"


async def test_the_catalogues_translations_stay_within_discords_limits() -> None:
    # (whatever the catalogues hold now: a translation Discord would refuse fails here)
    payload = await synced()
    assert command_errors(payload) == []
    for code in ("nl", "fr", "de", "es"):
        with speaking(code):
            for table in (command_names(), option_names()):
                for english, name in table.items():
                    assert name == name.lower() and 0 < len(name) <= 32, (code, english, name)
                    assert all(ch.isalnum() or ch in "-_" for ch in name), (code, english, name)


async def test_a_translation_discord_would_refuse_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def lookup(code: str, context: str | None, message: str) -> str:
        if code in ("en", PSEUDO):
            return _original_lookup(code, context, message)
        return "Two Words" if context else "x" * 300

    monkeypatch.setattr(speech, "_lookup", lookup)
    payload = await synced()
    assert command_errors(payload) == []
    start = dict(walk(payload))["/moji/start"]
    assert not start.get("name_localizations")  # not a name Discord takes: the English stays
    assert len(start["description_localizations"]["de"]) == 100  # cut to Discord's 100


# ------------------------------------------------------------ the person's locale


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY])


async def test_an_interaction_tells_the_players_locale(h: Harness) -> None:
    await h.fake.slash(*ANN, "start", {"game": "toy"}, locale="es-ES")
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    assert h.manager.sessions[CHAT].host.locale == "es-ES"
    assert h.fake.refused_commands == []  # (and the commands synced within Discord's limits)


async def test_what_one_person_reads_speaks_their_clients_language(h: Harness) -> None:
    # (the pseudo-language stands in for a client language: every message comes out marked)
    iid = await h.fake.slash(*ANN, "list", locale=PSEUDO)
    [opened] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    form = opened.json["data"]
    texts = [form["title"], *(c["label"] for row in form["components"] for c in row["components"])]
    assert all(text.startswith("⟦") and unmarked(text) == [] for text in texts)
    sid = await h.fake.submit_modal(*ANN, form, ["cat"], locale=PSEUDO)
    [thanks] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{sid}$")
    assert "⟦📝 Got your list.⟧" in thanks.text


def test_the_list_form_speaks_the_language_spoken() -> None:
    with speaking(PSEUDO):
        form = ListModal().to_dict()
    texts = [form["title"], *(c["label"] for row in form["components"] for c in row["components"])]
    assert all(unmarked(text) == [] and "⟦" in text for text in texts)


def test_a_player_from_an_interaction_carries_the_clients_locale() -> None:
    user = SimpleNamespace(id=7, display_name="Ann")
    me: Any = SimpleNamespace(player_of=MojiBot.player_of)
    player = MojiBot.asker(me, SimpleNamespace(user=user, locale=discord.Locale.german))  # type: ignore[arg-type]
    assert player.locale == "de" and player.display_name == "Ann"
    assert MojiBot.asker(me, SimpleNamespace(user=user)).locale is None  # type: ignore[arg-type]


# ------------------------------------------------------------ the pseudo-language scan


def test_renders_and_replies_hold_no_text_outside_the_catalogue() -> None:
    with speaking(PSEUDO):
        table = views.View(
            kind="table",
            title=user("Ann") + " ⟦table⟧",
            lines=("⟦a line⟧",),
            cards=(CardFace("A", "red", 1), CardFace("Q", "blue", 10, under=2)),
            seats=(SeatLine("discord:1", "Ann", 3, active=True),),
            deadline=1_700_000_000.0,
        )
        error = views.error("⟦Nope.⟧")
        notes = [
            missing_message(["View Channel", "Attach Files"]),
            legacy_note("Game Masters", 2),
            legacy_note("Game Masters", 0),
            legacy_note("Game Masters", -1),
        ]
    texts: list[str] = []
    for view in (table, error):
        for rendered in (render(view, mention_active=True), render(dataclasses.replace(view, kind="turn"))):
            texts.append(rendered.content)
            texts += [f"{e.title or ''}\n{e.description or ''}" for e in rendered.embeds]
    file = DiscordTransport._file(b"png", table)
    assert file is not None
    texts.append(file.description or "")
    texts += notes
    allowed = {"Ann", "Game", "Masters"}
    assert [word for text in texts for word in unmarked(text, allowed)] == []
