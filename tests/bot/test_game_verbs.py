"""The games' own verbs (GameInfo.verbs): declared once, read by the grammar, the help, the
handlers (one per kind of verb) and Discord's subcommands; the chat's game decides what a verb
shared by two games means."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.clock import FakeClock
from bot.core.commands import COMMANDS, CommandError, grammar, help_lines, resolve, split
from bot.core.events import ChatKey, Command, Player, Post, Private, PrivateText
from bot.core.registry import Registry, load_default
from bot.hosting.manager import GameManager
from games import race, shed
from games.common.protocol import GameInfo, GameVerb, VerbArgument
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox, MemoryLog
from tests.toy_game.game import SHOUT, SPELL

PLAIN_TOY = dataclasses.replace(TOY, verbs=())  # a game with no verbs of its own
CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")
BOB = Player("test", "bob", "Bob")


def _game(name: str, *verbs: GameVerb) -> GameInfo:
    return dataclasses.replace(PLAIN_TOY, name=name, title=name.title(), aliases=(), verbs=verbs)


# ----------------------------------------------------------------- declarations


def test_a_verb_is_lower_case_and_says_why_it_needs_its_argument() -> None:
    with pytest.raises(ValueError, match="lower-case"):
        GameVerb("Hint", "hint", "a hint", "vote")
    with pytest.raises(ValueError, match="missing"):
        GameVerb("hint", "hint WORD", "a hint", "move", argument=VerbArgument("word", "A word"))
    with pytest.raises(ValueError, match="1 to 100"):
        VerbArgument("word", "x" * 101)
    with pytest.raises(ValueError, match="twice"):
        _game("twice", SHOUT, dataclasses.replace(SHOUT, name="holler"))  # (both have the alias yell)


def test_a_choice_is_one_of_the_declared_ones_or_a_unique_start_of_one() -> None:
    vote = race.GAME.verb("vote")
    assert vote is not None
    assert [vote.choice([w]) for w in ("yes", "Y", "n", "NO", "maybe", "")] == [
        "yes",
        "yes",
        "no",
        "no",
        None,
        None,
    ]
    assert vote.choice([]) is None
    skip = race.GAME.verb("stuck")
    assert skip is not None and skip.name == "skip" and skip.choice(["whatever"]) == "skip"


@given(st.lists(st.text(max_size=8), max_size=3))
def test_a_choice_is_always_a_declared_one(words: list[str]) -> None:
    vote = race.GAME.verb("vote")
    assert vote is not None and vote.argument is not None
    assert vote.choice(words) in (*vote.argument.choices, None)


# ----------------------------------------------------------------- the grammar


def test_the_grammar_is_the_core_commands_and_the_registered_games_verbs() -> None:
    installed = grammar(load_default())
    assert [spec.name for spec in installed.commands[: len(COMMANDS)]] == [spec.name for spec in COMMANDS]
    assert [spec.name for spec in installed.verbs] == ["skip", "vote", "list"]
    assert installed.resolve("skip").games == ("race", "shed")  # two games, one name
    assert installed.split("/moji stuck") == ("skip", ())
    assert installed.split("secret cat act") == ("list", ("cat", "act"))
    assert not {"skip", "vote", "list"} & {spec.name for spec in COMMANDS}, "no game's verb is core"

    with_spell = Registry([*load_default(), SPELL])
    assert split("yell tree", with_spell) == ("shout", ("tree",))
    assert resolve("shout", with_spell).games == ("spell",)
    with pytest.raises(CommandError, match="don't know the command"):
        split("shout tree")  # (the installed games have no shout)
    with pytest.raises(CommandError, match="don't know the command"):
        split("skip", Registry([PLAIN_TOY]))  # no game here has a skip


def test_a_verb_may_not_take_a_core_command_or_another_verbs_name() -> None:
    helpful = GameVerb("help", "help", "a hint", "vote")
    with pytest.raises(ValueError, match="core command 'help'"):
        grammar(Registry([_game("helpful", helpful)]))
    stuck = GameVerb("stuck", "stuck", "say you're stuck", "vote")
    with pytest.raises(ValueError, match="already the verb"):
        grammar(Registry([race.GAME, _game("stuckup", stuck)]))


def test_the_grammar_follows_games_added_to_its_registry() -> None:
    registry = Registry([PLAIN_TOY])
    assert grammar(registry).verbs == ()
    registry.add(SPELL)
    assert split("shout tree", registry) == ("shout", ("tree",))


verb_names = st.text(alphabet="abcdefgh-", min_size=1, max_size=6).filter(lambda n: n.strip("-") == n)


@given(st.lists(st.lists(verb_names, min_size=1, max_size=3, unique=True), max_size=4), st.text(max_size=40))
def test_any_games_verbs_resolve_to_themselves_and_any_text_reads_or_is_refused(
    games: list[list[str]], text: str
) -> None:
    infos = [
        _game(f"g{i}", *(GameVerb(n, n, "a verb", "vote") for n in names)) for i, names in enumerate(games)
    ]
    try:
        found = grammar(Registry(infos))
    except ValueError:  # a verb named as a core command
        assert any(
            spec.name in names or set(spec.aliases) & set(names) for spec in COMMANDS for names in games
        )
        return
    for names in games:
        for name in names:
            assert found.resolve(name).name == name
    try:
        name, _ = found.split(text)
    except CommandError as exc:
        assert str(exc)
        return
    assert name in {spec.name for spec in found.commands}


def test_the_help_lists_the_core_commands_then_each_games_own_verbs() -> None:
    lines = help_lines(Registry([*load_default(), SPELL]))
    first_game = lines.index("In moji (race):")
    assert all(line.startswith("`") or not line for line in lines[:first_game])
    assert lines[first_game + 1 : first_game + 4] == [
        "`skip` — vote to discard the face-up cards when everyone is stuck",
        "`vote yes|no` — vote on an answer the dictionary can't judge",
        "`list WORD …` — Eagle Eyes: hand in words privately",
    ]
    assert (
        "In Shed (shed):" in lines and "`skip NAME` — play a Skip card: NAME misses their next turn" in lines
    )
    assert "`shout WORD` — shout a word: if it fits, it scores twice" in lines
    assert not any(line.startswith("In MOJO") for line in lines), "a game without verbs has no heading"


# ----------------------------------------------------------------- the handlers


@pytest.fixture
async def table() -> AsyncIterator[tuple[GameManager, FakeOutbox]]:
    outbox = FakeOutbox()
    registry = Registry([TOY, SPELL, shed.GAME, _game("plain")])
    manager = GameManager(registry, outbox, MemoryLog(), FakeClock(), rng=random.Random(3))
    yield manager, outbox
    await manager.shutdown()


async def said(manager: GameManager, outbox: FakeOutbox, who: Player, *words: str) -> list[str]:
    before = len(outbox.sent)
    await manager.handle(Command(words[0], words[1:], CHAT, who))
    return [m.view.plain() for m in outbox.sent[before:] if isinstance(m, Post | Private)]


async def test_the_chats_game_decides_what_a_verb_means(table: tuple[GameManager, FakeOutbox]) -> None:
    manager, outbox = table
    (none,) = await said(manager, outbox, ANN, "shout", "tree")
    assert none == "There's no game in this channel. Start one with `start`."
    await manager.handle(Command("start", ("toy", "target=5"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    (shout,) = await said(manager, outbox, ANN, "yell", "tree")
    assert "`shout WORD` scores twice in Spell; Toy has no shouting." in shout
    assert "Type your words in the channel; `rules toy` explains the game." in shout
    log = manager.game_log.actions[manager.sessions[CHAT].game_id]  # type: ignore[attr-defined]
    before = len(log)
    await said(manager, outbox, ANN, "skip")  # the toy's own skip: a vote its engine counts
    assert [(a.kind, a.text) for a in log[before:]] == [("vote", "skip")]
    (vote,) = await said(manager, outbox, ANN, "vote", "maybe")
    assert vote == "Vote `yes` or `no`."
    await said(manager, outbox, ANN, "vote", "y")
    assert [(a.kind, a.text) for a in log[before:]][-1] == ("vote", "yes")
    (listed,) = await said(manager, outbox, ANN, "list")
    assert listed == "Give your words, like `list cat act tact`."


async def test_a_verb_no_game_here_declares_is_explained_in_general_words(
    table: tuple[GameManager, FakeOutbox],
) -> None:
    manager, outbox = table
    await manager.handle(Command("start", ("plain",), CHAT, ANN))
    (skip,) = await said(manager, outbox, ANN, "skip")
    assert skip.startswith("`skip` draws a new letter in Toy.")  # the first declaring game's words


async def test_shed_skip_with_and_without_a_name(table: tuple[GameManager, FakeOutbox]) -> None:
    manager, outbox = table
    await manager.handle(Command("start", ("shed", "bots=1"), CHAT, ANN))
    (lobby,) = await said(manager, outbox, ANN, "skip", "Bob")
    assert lobby == "The game hasn't started yet."
    await manager.handle(Command("go", (), CHAT, ANN))
    log = manager.game_log.actions[manager.sessions[CHAT].game_id]  # type: ignore[attr-defined]
    before = len(log)
    (alone,) = await said(manager, outbox, ANN, "skip")
    assert alone.startswith("Shed has no skip vote: to play a Skip card, name who skips: `skip NAME`.")
    assert "`draw` (draw a card)" in alone and "`rules shed` explains the moves." in alone
    assert len(log) == before, "nothing reached the game"
    answers = await said(manager, outbox, ANN, "skip", "Ada")
    assert answers and log[before:] and log[-1].text == "skip Ada"  # a move the game judged

    # words sent privately: shed takes none, and no game here words what they'd be for
    await manager.handle(PrivateText(CHAT, ANN, "cat act", 1.0))
    assert outbox.sent[-1].view.plain() == (  # type: ignore[union-attr]
        "This Shed game takes no words sent privately. On your turn, type your move here or `play MOVE`."
    )


# ----------------------------------------------------------------- Discord


async def _noop(*_: Any) -> None:
    return None


#: The core commands Discord has under ``/moji privacy`` (with ``show``, the ``privacy`` command).
IN_PRIVACY = {"forget-me", "purge"}


def _group(registry: Registry) -> Any:
    from adapters.discord.commands import build_group

    bot: Any = SimpleNamespace(registry=registry, run_command=_noop, open_list_modal=_noop)
    return build_group(bot)


def test_discord_has_a_subcommand_for_every_verb_of_the_installed_games() -> None:
    # (`forget-me` and `purge` are in the `privacy` group: /moji privacy show|forget-me|purge)
    core = {spec.name for spec in COMMANDS} - IN_PRIVACY
    group = _group(load_default())
    names = [command.name for command in group.commands]
    assert len(names) == 25 and len(set(names)) == len(names)
    assert core | {"skip", "vote", "list"} == set(names)
    privacy = group.get_command("privacy")
    assert {c.name for c in privacy.commands} == {"show", *IN_PRIVACY}
    # one more game's verb (the toy's shout) no longer fits: the last subcommand becomes
    # `/moji game`, which takes the verbs that did not (by name)
    group = _group(Registry([*load_default(), SPELL]))
    names = [command.name for command in group.commands]
    assert len(names) == 25 and len(set(names)) == len(names)
    assert core | {"skip", "vote", "game"} == set(names)


def test_every_discord_subcommand_is_described_whole_within_100_characters() -> None:
    # A verb two games declare (the race's skip vote, shed's Skip card) is described for both,
    # each by its first clause when the whole would pass Discord's 100 characters.
    group = _group(load_default())
    for command in group.commands:
        assert 0 < len(command.description) <= 100 and not command.description.endswith("…"), command.name
    skip = next(command for command in group.commands if command.name == "skip")
    assert "Skip card" in skip.description and "face-up cards" in skip.description


def test_verbs_beyond_discords_25_subcommands_go_through_one_game_subcommand() -> None:
    many = [GameVerb(f"verb-{i}", f"verb-{i}", f"verb number {i}", "vote") for i in range(6)]
    group = _group(Registry([_game("busy", *many)]))
    names = [command.name for command in group.commands]
    assert len(names) == 25
    # (the core commands are one subcommand each, but forget-me and purge in the privacy group;
    # `words` is a group)
    room = 25 - len(COMMANDS) + len(IN_PRIVACY)
    assert names[-room:] == [*(f"verb-{i}" for i in range(room - 1)), "game"]
    more = group.get_command("game").to_dict(group)
    verb = next(o for o in more["options"] if o["name"] == "verb")
    assert [c["value"] for c in verb["choices"]] == [f"verb-{i}" for i in range(room - 1, 6)]
