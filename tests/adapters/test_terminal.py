"""The terminal adapter, in process, on a fake clock."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

import pytest

from adapters.terminal.app import (
    LOCAL_GAME,
    TerminalAdapter,
    TerminalOutbox,
    local_game_banner,
    stdin_lines,
    system_language,
)
from adapters.terminal.render import card, render, time_left
from bot.core.clock import FakeClock
from bot.core.registry import Registry
from bot.core.views import View
from bot.hosting.manager import GameManager
from games.common.protocol import Action, CardFace, Notice, Reading
from games.common.speech import _, _p, speaking
from tests.bot.toygame import LINGO, TOY, LingoEngine, ToyEngine
from tests.doubles import Keyboard, MemoryLog
from tests.speech.pseudo import unmarked
from tests.waiting import eventually


async def test_a_whole_game_in_the_terminal() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="toy", options=["target=1"])
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)  # 3… 2… 1…
    assert "Go!\n" in screen
    engine = next(iter(manager.sessions.values())).engine
    assert isinstance(engine, ToyEngine)
    keys.type("/help")
    keys.type(engine.letter + "ox")
    await clock.advance(0.2)
    text = "".join(screen)
    assert "moji commands" in text
    assert "✔" in text
    assert "game over" in text
    keys.type("/quit")
    assert await run == 0
    assert "Thanks for playing" in "".join(screen)
    await manager.shutdown()


async def test_a_word_typed_just_after_the_end_neither_quits_nor_restarts() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="toy", options=["target=1"])
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    engine = next(iter(manager.sessions.values())).engine
    assert isinstance(engine, ToyEngine)
    keys.type(engine.letter + "ox")
    await clock.advance(0.2)  # the game is won and over…
    assert "game over" in "".join(screen)
    keys.type("late")  # …and a word typed a moment too late
    await clock.settle()
    assert not run.done(), "a late word is not /quit"
    assert "(The game is over.)" in "".join(screen)
    keys.type("")  # Enter: another game
    await clock.advance(3)
    assert "".join(screen).count("Go!") == 2
    keys.type(None)
    assert await run == 0
    await manager.shutdown()


async def test_countdown_warnings() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager, outbox, keys.lines(), screen.append, game="toy", options=[], countdown=0
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(0)
    await clock.advance(6)  # the toy hourglass is 10 s
    assert "⏳ 5 seconds left!\n" in screen
    keys.type(None)  # end of input quits
    assert await run == 0
    await manager.shutdown()


def test_cards_have_shapes_without_colour() -> None:
    assert card(CardFace("A", "red", 1), colour=False) == "[● A 1]"
    assert card(CardFace("Q", "blue", 10, under=2), colour=False) == "[■ Q 10 +2]"
    coloured = card(CardFace("A", "yellow", 1), colour=True)
    assert "\033[" in coloured and "▲ A 1" in coloured


def test_render_lists_letters_as_standalone_capitals() -> None:
    view = View(kind="table", title="t", cards=(CardFace("A", "red", 1), CardFace("C", "green", 3)))
    assert "letters: A C" in render(view, colour=False)


class MoveEngine(ToyEngine):
    """A turn-based stand-in: the move ``win now`` wins; anything else is refused with a reason."""

    def apply(self, action: Action) -> list[Notice]:
        if action.kind == "say" and action.seat is not None:
            if (action.text or "").lower() == "win now":
                self.scores[action.seat] += 1
                self.done = True
                return [Notice("accepted", "You win.", action.seat), Notice("end", "Won by a move.")]
            return [Notice("rejected", f"“{action.text}” is not a move here.", action.seat)]
        return super().apply(action) if action.kind == "begin" else []


class AnyMove:
    """The stand-in's reading: any line is a move (the engine says why it is a wrong one)."""

    def read(self, text: str, *, private: bool = False) -> Reading:
        return Reading(text)


MOVES = dataclasses.replace(
    TOY, name="moves", create=MoveEngine, reads=lambda options, seed: AnyMove(), realtime=False, aliases=()
)


async def _moves_game() -> tuple[FakeClock, list[str], GameManager, Keyboard, asyncio.Future[int]]:
    """The terminal running the turn-based toy game, past its countdown."""
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([MOVES]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="moves", options=[])
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    return clock, screen, manager, keys, run


async def test_in_a_turn_based_game_a_typed_line_is_a_move() -> None:
    clock, screen, manager, keys, run = await _moves_game()
    keys.type("H8 across NOPE")
    await clock.advance(0.1)
    assert "“H8 across NOPE” is not a move here." in "".join(screen)  # the reason, at once
    keys.type("play win now")  # `play` in front is fine too
    await clock.advance(0.1)
    assert "game over" in "".join(screen)
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


async def test_an_unknown_command_points_to_slash_help() -> None:
    clock, screen, manager, keys, run = await _moves_game()
    keys.type("/frobnicate now")
    keys.type("/" + "x" * 2000)
    keys.type("/help")
    await clock.advance(0.1)
    shown = "".join(screen)
    assert "✖ I don't know the command '/frobnicate'. Type /help for the list." in shown
    assert "Try `help`" not in shown  # (`help` alone is a move in the terminal, not a command)
    assert "x" * 30 not in shown  # a long typo is not echoed whole
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


def test_time_left_reads_like_a_person_would_say_it() -> None:
    assert time_left(28) == "28 s"
    assert time_left(180) == "3 min"
    assert time_left(72 * 3600) == "72 h"
    assert time_left(72 * 3600 - 60) == "71 h 59 min"
    assert time_left(7 * 24 * 3600 + 7200) == "7 days 2 h"
    long_turn = render(
        View(kind="table", title="MOJO", deadline=1000.0 + 72 * 3600), colour=False, now=1000.0
    )
    assert "⏳ 72 h left" in long_turn and "hourglass" not in long_turn
    race = render(View(kind="table", title="moji", deadline=1030.0), colour=False, now=1000.0)
    assert "⏳ 30 s left" in race


def test_a_ticking_timer_keeps_one_wording() -> None:
    # a live dice turn read "2 min left", then "106 s on the hourglass" a few seconds later
    def shown(left: float) -> str:
        return render(View(kind="table", title="dice", deadline=1000.0 + left), colour=False, now=1000.0)

    assert "⏳ 2 min left" in shown(120)
    assert "⏳ 1 min 46 s left" in shown(106)
    assert "⏳ 9 s left" in shown(9)
    assert not any("hourglass" in shown(s) for s in (120, 106, 9))


async def test_a_turn_based_game_is_welcomed_with_its_own_title() -> None:
    from tests.bot.test_thinking import COUNT

    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY, COUNT]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager, outbox, keys.lines(), screen.append, game="count", options=[], countdown=0
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(0)
    welcome = screen[0]
    assert welcome.startswith("count — Say the next number.") and "face-up letters" not in welcome
    assert "/hand" in welcome
    keys.type(None)
    assert await run == 0
    await manager.shutdown()


async def test_alone_an_unknown_title_is_refused_until_the_workspace_adds_it(tmp_path: Path) -> None:
    # one person and a computer player, themes=movies. Nobody can vote, so THE ZQ
    # SHOW is refused with what to do; after `/words add the zq show` the next game accepts it.
    from bot.features.workspace import Workspace
    from games.race import GAME
    from games.race.cards import Card
    from games.race.engine import FlipRace
    from storage import open_store

    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    registry = Registry([GAME])
    manager = GameManager(
        registry, outbox, MemoryLog(), clock, workspace=Workspace(store, registry), rng=random.Random(3)
    )
    keys = Keyboard()
    options = ["bots=1", "cards=1", "themes=movies", "level=easy"]
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="race", options=options)
    run = asyncio.ensure_future(adapter.run())

    async def until(predicate: Callable[[], bool]) -> None:
        """The database answers from its own thread: wait (really) for it."""
        try:
            await eventually(predicate)
        except AssertionError as e:
            raise AssertionError("".join(screen)) from e

    async def zq_on_the_table() -> FlipRace:
        await until(lambda: bool(manager.sessions))  # the lobby reads the workspace's words
        await clock.advance(3)  # 3… 2… 1… Go!
        session = next(iter(manager.sessions.values()))
        await until(lambda: session.engine is not None and "Go!\n" in screen)
        engine = session.engine
        assert isinstance(engine, FlipRace)
        for i, (sid, letter) in enumerate(zip(engine.order, "zq", strict=True)):
            engine.piles[sid] = [Card(900 + i, letter, "red")]
        engine._changed(clock.now())
        await clock.advance(1.0)
        return engine

    await zq_on_the_table()
    keys.type("the zq show")
    await clock.advance(0.3)
    text = "".join(screen)
    assert "✘ THE ZQ SHOW: I don't know THE ZQ SHOW as a movie or TV show" in text
    assert "nobody else here can vote on it" in text and "`words add the zq show`" in text
    assert "accepted (nobody else can vote)" not in text
    keys.type("/words add the zq show")
    await until(lambda: "“the zq show” is now allowed in this workspace." in "".join(screen))
    for _tick in range(120):  # the hourglass runs out and the game ends
        if "Press Enter to play again" in "".join(screen):
            break
        await clock.advance(1.0)
    await until(lambda: "Press Enter to play again" in "".join(screen))

    mark = len(screen)
    keys.type("")  # another game
    engine = await zq_on_the_table()
    keys.type("the zq show")
    await clock.advance(0.3)
    later = "".join(screen[mark:])
    assert "✔ THE ZQ SHOW" in later, later
    assert engine.won[engine.order[0]]
    keys.type("/quit")
    keys.type(None)
    for _tick in range(60):
        if run.done():
            break
        await clock.advance(1.0)
        await asyncio.sleep(0.002)
    assert await run == 0
    await manager.shutdown()
    await store.close()


async def test_a_word_with_accents_reaches_the_game_as_typed() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([LINGO]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager, outbox, keys.lines(), screen.append, game="lingo", options=["language=de", "target=3"]
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    engine = next(iter(manager.sessions.values())).engine
    assert isinstance(engine, LingoEngine)
    assert "toy · German" in "".join(screen)  # the table names its language
    for word in ("Äpfel", "Straße", "Öl"):
        keys.type(word)
        await clock.advance(0.2)
    assert engine.heard == ["Äpfel", "Straße", "Öl"]
    assert engine.folded == ["äpfel", "strasse", "öl"]
    assert "✔ ÄPFEL" in "".join(screen)
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


@pytest.fixture
def typed_pipe() -> Iterator[TextIO]:
    """Standard input as a pipe holding two lines typed in UTF-8, opened with another encoding."""
    read, write = os.pipe()
    os.write(write, "Äpfel\nniño\r\n".encode())
    os.close(write)
    with open(read, encoding="latin-1") as stdin:  # (the locale's encoding does not matter)
        yield stdin


async def test_typed_lines_are_read_as_utf8(typed_pipe: TextIO, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", typed_pipe)
    lines = [line async for line in stdin_lines()]
    assert [line.strip() for line in lines] == ["Äpfel", "niño"]


async def _race_in_the_terminal(
    options: list[str], letters: str
) -> tuple[GameManager, FakeClock, Keyboard, list[str], asyncio.Future[int]]:
    """A terminal race against one computer player whose face-up cards are ``letters``."""
    from games.race import GAME
    from games.race.cards import full_deck
    from games.race.engine import FlipRace

    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([GAME]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager, outbox, keys.lines(), screen.append, game="race", options=["bots=1", "level=easy", *options]
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)  # 3… 2… 1… Go!
    engine = next(iter(manager.sessions.values())).engine
    assert isinstance(engine, FlipRace)
    deck = {card.letter: card for card in full_deck(engine.language)}
    for sid, letter in zip(engine.order, letters, strict=True):
        engine.piles[sid] = [deck[letter]]  # the language's own card, with its points
    engine._changed(clock.now())
    await clock.advance(0.5)
    return manager, clock, keys, screen, run


async def test_a_multi_word_food_answer_wins_cards_in_the_terminal() -> None:
    # SCRAMBLED EGGS under themes=food was "not an answer"; the letters of every
    # word count toward the cards, and ICE-CREAM is the same answer as ICE CREAM
    manager, clock, keys, screen, run = await _race_in_the_terminal(["themes=food", "cards=2"], "sg")
    keys.type("Scrambled Eggs")
    await clock.advance(0.5)
    text = "".join(screen)
    assert "✔ SCRAMBLED EGGS" in text and "You take" in text and "with SCRAMBLED EGGS" in text
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


async def test_a_german_race_in_the_terminal_takes_an_a_umlaut_card() -> None:
    manager, clock, keys, screen, run = await _race_in_the_terminal(["language=de", "cards=2"], "äb")
    keys.type("Bär")
    await clock.advance(0.5)
    text = "".join(screen)
    assert "moji race · German" in text and "No proper nouns, abbreviations or contractions." in text
    assert "✔ BÄR" in text and "You take Ä B with BÄR (+9 points" in text  # Ä is worth 6, B 3
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


def test_command_hints_read_as_the_terminal_takes_them() -> None:
    from adapters.terminal.render import commands_as_typed

    said = "Your lobby: `go` starts it, or `start board bots=1`. Start (or /moji go). Type `H8 across WORD`."
    assert commands_as_typed(said) == (
        "Your lobby: `/go` starts it, or `/start board bots=1`. Start (or /go). Type `H8 across WORD`."
    )


async def test_define_prints_the_meaning_in_the_terminal() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="toy", options=["target=9"])
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    assert "/define WORD" in "".join(screen)  # the welcome names it
    keys.type("/define zebra")
    await clock.advance(0.2)
    text = "".join(screen)
    assert "ZEBRA" in text and "any of several fleet black-and-white striped African equines" in text
    keys.type("/define two words")
    await clock.advance(0.2)
    assert "one word at a time" in "".join(screen)
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


async def test_chatter_typed_at_the_terminal_is_dropped_unstored_by_the_one_rule() -> None:
    """The terminal goes through the same runtime as Discord and Slack: a line the game does not
    read as an answer never reaches the game nor its log; an answer does."""
    clock = FakeClock()
    screen: list[str] = []
    log = MemoryLog()
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY]), outbox, log, clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="toy", options=["target=1"])
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    engine = next(iter(manager.sessions.values())).engine
    assert isinstance(engine, ToyEngine)
    keys.type("call me at +1 555 0100")
    await eventually(lambda: adapter.runtime.dropped["chatter"] == 1)
    keys.type(engine.letter + "ox")
    await clock.advance(0.2)
    assert "game over" in "".join(screen)
    (actions,) = log.actions.values()
    assert "555" not in repr(actions) and engine.letter + "ox" in repr(actions)
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


# ------------------------------------------------------------ the language it speaks


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "es_ES.UTF-8", "LANG": "nl_NL.UTF-8"}, "es"),
        ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "nl_BE.UTF-8"}, "nl"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "POSIX", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "pt_BR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_terminal_speaks_the_system_locale(environ: dict[str, str], code: str) -> None:
    assert system_language(environ) == code


async def test_a_german_system_makes_the_terminal_speak_german(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="toy", options=["target=1"])
    assert adapter.language == "de" and adapter.you.locale == "de"
    with speaking("de"):
        you, go, again = _p("player", "You"), _("Go!"), _("Press Enter to play again, or type /quit.")
    assert adapter.you.display_name == you
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    assert go + "\n" in screen
    keys.type("/quit")
    assert await run == 0
    assert local_game_banner({"LANG": "de_DE.UTF-8"}) == speaking_de(LOCAL_GAME)
    assert again not in "".join(screen)  # (quit during the game: never asked)
    await manager.shutdown()


def speaking_de(message: str) -> str:
    with speaking("de"):
        return _(message)


async def test_the_terminal_s_own_words_come_through_the_catalogue() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager, outbox, keys.lines(), screen.append, game="toy", options=["target=1"], language="qps"
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    keys.type("/nonsense")
    await clock.advance(0.2)
    keys.type("/quit")
    assert await run == 0
    welcome = screen[0]
    unknown = next(line for line in screen if line.startswith("✖"))
    thanks = screen[-1]
    assert "⟦Go!⟧\n" in screen and thanks == "⟦Thanks for playing moji!⟧\n"
    for text in (welcome, unknown, thanks):
        assert unmarked(text, {"skip", "why", "define", "WORD", "rules", "help", "quit", "nonsense"}) == [], (
            text
        )
    table = render(
        View(kind="table", cards=(CardFace("A", "red", 1),), deadline=10.0, locale="qps"),
        colour=False,
        now=0.0,
    )
    assert unmarked(table) == [], table
    await manager.shutdown()
