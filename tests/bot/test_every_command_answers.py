"""Every command gets an answer, in every game and state: none goes unanswered, a command at
the wrong time says why and what to do instead, and an answer never echoes a whole paste back."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, MessageRef, Player, Post, Private, PrivateText, Text
from bot.core.registry import Registry, load_default
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.sessions.gamelog import StoreGameLog
from bot.sessions.moves import MOVE_LIMIT
from bot.sessions.state import Phase
from storage import open_store
from tests.doubles import FakeOutbox, MemoryLog

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")
BOB = Player("test", "bob", "Bob")
CAT = Player("test", "cat", "Cat")  # never joins
GAMES = ("race", "board", "dice", "paths", "shed")
#: Commands that don't change who is at the table, with typical arguments.
VERBS: tuple[tuple[str, ...], ...] = (
    ("join",),
    ("go",),
    ("skip",),
    ("vote", "yes"),
    ("vote", "no"),
    ("why",),
    ("hand",),
    ("board",),
    ("play", "zzqq"),
    ("list", "cat", "act"),
    ("define", "cat"),
    ("rules",),
    ("help",),
    ("leaderboard",),
    ("stats",),
    ("privacy",),
)
LONG = "Q" * 2000


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_default()


@pytest.fixture
async def table(registry: Registry) -> AsyncIterator[tuple[GameManager, FakeOutbox, FakeClock]]:
    clock, outbox = FakeClock(), FakeOutbox()
    manager = GameManager(registry, outbox, MemoryLog(), clock, rng=random.Random(3))
    yield manager, outbox, clock
    await manager.shutdown()


async def said(manager: GameManager, outbox: FakeOutbox, who: Player, *words: str) -> list[str]:
    """What the command ``words`` by ``who`` brought: the texts sent to them or to the channel."""
    before = len(outbox.sent)
    await manager.handle(Command(words[0], words[1:], CHAT, who))
    new = outbox.sent[before:]
    return [
        m.view.plain() for m in new if isinstance(m, Post) or (isinstance(m, Private) and m.player == who)
    ]


async def open_lobby(manager: GameManager, game: str) -> None:
    await manager.handle(Command("start", (game, "bots=1"), CHAT, ANN))
    await manager.handle(Command("join", (), CHAT, BOB))


@pytest.mark.parametrize("game", GAMES)
async def test_every_command_in_every_state_gets_an_answer(
    table: tuple[GameManager, FakeOutbox, FakeClock], game: str
) -> None:
    manager, outbox, _ = table
    for verb in VERBS:  # no game here
        assert await said(manager, outbox, ANN, *verb), f"no game: {verb} went unanswered"
    await open_lobby(manager, game)
    for who in (ANN, BOB, CAT):
        for verb in VERBS:
            if verb == ("go",) and who == ANN:
                continue  # (starts the game)
            if verb == ("join",) and who == CAT:
                continue  # (takes a seat)
            assert await said(manager, outbox, who, *verb), f"lobby: {verb} by {who.display_name}"
    await manager.handle(Command("go", (), CHAT, ANN))
    assert manager.sessions[CHAT].phase is Phase.RUNNING
    for who in (ANN, BOB, CAT):
        for verb in VERBS:
            answer = await said(manager, outbox, who, *verb)
            assert answer, f"{game} running: {verb} by {who.display_name} went unanswered"
            if CHAT not in manager.sessions:
                return  # (a move ended the game: nothing more to ask)


@pytest.mark.parametrize("game", ["board", "dice", "paths", "shed"])
async def test_skip_and_vote_in_a_turn_based_game_say_there_are_none_and_what_to_do(
    table: tuple[GameManager, FakeOutbox, FakeClock], game: str
) -> None:
    manager, outbox, _ = table
    await open_lobby(manager, game)
    await manager.handle(Command("go", (), CHAT, ANN))
    actions = len(manager.game_log.actions[manager.sessions[CHAT].game_id])  # type: ignore[attr-defined]
    (skip,) = await said(manager, outbox, ANN, "skip")
    assert "no skip vote" in skip and f"`rules {game}`" in skip
    (vote,) = await said(manager, outbox, ANN, "vote", "yes")
    assert "nothing to vote on" in vote
    (listed,) = await said(manager, outbox, ANN, "list", "cat")
    assert "Eagle Eyes" in listed
    if game in {"board", "paths"}:
        assert "`pass`" in skip  # the turn buttons' moves
    if game == "shed":
        assert "`skip NAME`" in skip  # shed's own Skip card
    # nothing reached the game's log
    assert len(manager.game_log.actions[manager.sessions[CHAT].game_id]) == actions  # type: ignore[attr-defined]


async def test_a_race_vote_is_confirmed_or_explained(
    table: tuple[GameManager, FakeOutbox, FakeClock],
) -> None:
    manager, outbox, _ = table
    await open_lobby(manager, "race")
    await manager.handle(Command("go", (), CHAT, ANN))
    (first,) = await said(manager, outbox, ANN, "skip")
    assert "Ann votes to skip (1/2)" in first
    (again,) = await said(manager, outbox, ANN, "skip")
    assert "already voted to skip (1/2)" in again and "hourglass" in again
    (vote,) = await said(manager, outbox, BOB, "vote", "yes")
    assert "no answer waiting for a vote" in vote


async def test_a_lobby_too_small_to_start_shows_the_way_out(
    table: tuple[GameManager, FakeOutbox, FakeClock],
) -> None:
    manager, outbox, _ = table
    await manager.handle(Command("start", ("board", "bots=0"), CHAT, ANN))
    lobby = manager.sessions[CHAT]
    (refused,) = await said(manager, outbox, ANN, "go")
    assert "needs at least 2 players" in refused and "`start board bots=1` reopens this lobby" in refused
    # the host, alone, starts again with other options: the same lobby takes them (no dead end)
    (again,) = await said(manager, outbox, ANN, "start", "board", "bots=1")
    assert "lobby takes the new options" in again and "`go`" in again
    assert manager.sessions[CHAT] is lobby and lobby.options["bots"] == 1
    await manager.handle(Command("go", (), CHAT, ANN))
    assert lobby.phase is Phase.RUNNING


async def test_a_lobby_with_players_is_not_taken_over(
    table: tuple[GameManager, FakeOutbox, FakeClock],
) -> None:
    manager, outbox, _ = table
    await manager.handle(Command("start", ("board", "bots=0", "language=de"), CHAT, ANN))
    await manager.handle(Command("start", ("race",), CHAT, ANN))  # alone: another game replaces it
    assert manager.sessions[CHAT].info.name == "race"
    await manager.handle(Command("join", (), CHAT, BOB))
    (other,) = await said(manager, outbox, CAT, "start")
    assert "lobby is open" in other and "`join`" in other
    (host,) = await said(manager, outbox, ANN, "start", "race", "bots=1")
    assert "with other players in it" in host and "`stop`" in host
    assert manager.sessions[CHAT].options.get("bots") == 0


@pytest.mark.parametrize("game", GAMES)
async def test_a_pasted_wall_of_text_is_never_echoed_back_or_stored(
    table: tuple[GameManager, FakeOutbox, FakeClock], game: str
) -> None:
    manager, outbox, clock = table
    await open_lobby(manager, game)
    await manager.handle(Command("go", (), CHAT, ANN))
    session = manager.sessions[CHAT]
    for text in (LONG, "H8 across " + LONG, "G5 D " + " ".join(["QI"] * 700)):
        answers = await said(manager, outbox, ANN, "play", *text.split())
        answers += await said(manager, outbox, ANN, "why")
        assert answers and all(len(a) < 300 for a in answers), answers
        assert all("QQQQQQQQQQ" not in a and "QI QI QI QI QI" not in a for a in answers)
    logged = manager.game_log.actions[session.game_id]  # type: ignore[attr-defined]
    assert all(len(a.text or "") <= MOVE_LIMIT for a in logged)
    await clock.advance(1.0)


@pytest.mark.parametrize(
    "line",
    ["start " + LONG, "start race cards=" + LONG, "rules " + LONG, "start race " + LONG],
)
async def test_a_command_error_quotes_a_bounded_excerpt(
    table: tuple[GameManager, FakeOutbox, FakeClock], line: str
) -> None:
    manager, outbox, _ = table
    (answer,) = await said(manager, outbox, ANN, *line.split())
    assert len(answer) < 400 and "(2,000 characters)" in answer, answer
    (unknown,) = await said(manager, outbox, ANN, LONG)
    assert "I don't know the command" in unknown and len(unknown) < 200


async def test_dice_says_game_over_and_the_concession_once(
    table: tuple[GameManager, FakeOutbox, FakeClock],
) -> None:
    manager, outbox, clock = table
    await manager.handle(Command("start", ("dice", "bots=1"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    for _ in range(20):
        session = manager.sessions[CHAT]
        if ANN.seat_id in {s.seat for s in session.snapshot(None).seats if s.active}:
            break
        await clock.advance(5.0)
    before = len(outbox.sent)
    await manager.handle(Command("play", ("concede",), CHAT, ANN))
    texts = [m.view.plain() for m in outbox.sent[before:] if isinstance(m, Post)]
    whole = "\n".join(texts)
    assert whole.count("game over") == 1, whole
    assert whole.count("Ann concedes") == 1, whole


async def test_purging_a_workspace_that_kept_nothing_says_so(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    registry = load_default()
    clock, outbox = FakeClock(), FakeOutbox()
    manager = GameManager(
        registry,
        outbox,
        StoreGameLog(store),
        clock,
        workspace=Workspace(store, registry),
        rng=random.Random(1),
    )
    admin = Player("test", "boss", "Boss", is_admin=True)
    try:
        (nothing,) = await said(manager, outbox, admin, "purge", "confirm")
        assert nothing.startswith("There was nothing to delete") and "Done" not in nothing
        await said(manager, outbox, admin, "words", "add", "selfie")
        (done,) = await said(manager, outbox, admin, "purge", "confirm")
        assert done.startswith("Done: everything moji kept")
        (again,) = await said(manager, outbox, admin, "purge", "confirm")
        assert again.startswith("There was nothing to delete")
    finally:
        await manager.shutdown()
        await store.close()


@pytest.mark.parametrize("game", ["race", "paths"])
async def test_private_words_outside_eagle_eyes_are_explained(
    table: tuple[GameManager, FakeOutbox, FakeClock], game: str
) -> None:
    manager, outbox, _ = table
    await open_lobby(manager, game)
    await manager.handle(Command("go", (), CHAT, ANN))
    before = len(outbox.sent)
    await manager.handle(PrivateText(CHAT, ANN, "cat act", 1.0))
    (reply,) = [m for m in outbox.sent[before:] if isinstance(m, Private) and m.player == ANN]
    assert "Eagle Eyes" in reply.view.plain()


async def test_an_eagle_eyes_list_sent_privately_still_counts(
    table: tuple[GameManager, FakeOutbox, FakeClock],
) -> None:
    manager, outbox, _ = table
    await manager.handle(Command("start", ("race", "bots=1", "variation=eagle-eyes"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    assert manager.sessions[CHAT].takes_lists()
    before = len(outbox.sent)
    await manager.handle(PrivateText(CHAT, ANN, "cat act", 1.0))
    texts = [m.view.plain() for m in outbox.sent[before:] if isinstance(m, Private) and m.player == ANN]
    assert texts and not any("Eagle Eyes list;" in t for t in texts), texts


async def test_skip_with_a_name_in_shed_plays_a_skip_card(
    table: tuple[GameManager, FakeOutbox, FakeClock],
) -> None:
    manager, outbox, _ = table
    await open_lobby(manager, "shed")
    await manager.handle(Command("go", (), CHAT, ANN))
    actions = manager.game_log.actions[manager.sessions[CHAT].game_id]  # type: ignore[attr-defined]
    before = len(actions)
    answer = await said(manager, outbox, ANN, "skip", "Bob")
    assert answer and not any("no skip vote" in a for a in answer), answer
    assert actions[before:] and actions[-1].text == "skip Bob"  # the move reached the game


CHATTER = "my salary is too low, call me at +1 555 0100"


@pytest.mark.parametrize("game", GAMES)
async def test_chatter_is_neither_played_nor_stored_in_any_game(
    table: tuple[GameManager, FakeOutbox, FakeClock], game: str
) -> None:
    """Typed in the channel, it is dropped unread; played (`play …`), it is refused
    with a reason; either way the game's log never holds it."""
    manager, outbox, clock = table
    await open_lobby(manager, game)
    await manager.handle(Command("go", (), CHAT, ANN))
    session = manager.sessions[CHAT]
    logged = list(manager.game_log.actions[session.game_id])  # type: ignore[attr-defined]
    for who in (ANN, BOB):
        before = len(outbox.sent)
        await manager.handle(Text(CHAT, who, CHATTER, clock.now(), MessageRef(CHAT, f"m-{who.user_id}")))
        assert outbox.sent[before:] == [], "chatter gets no answer"
        (answer,) = await said(manager, outbox, who, "play", *CHATTER.split())
        assert answer  # a reason, to them alone
    await clock.advance(1.0)
    stored = manager.game_log.actions[session.game_id]  # type: ignore[attr-defined]
    assert all("555" not in (a.text or "") and "salary" not in (a.text or "") for a in stored)
    assert all("555" not in c.text for a in stored for c in a.claims)
    assert len([a for a in stored if a.seat in {ANN.seat_id, BOB.seat_id}]) == len(
        [a for a in logged if a.seat in {ANN.seat_id, BOB.seat_id}]
    )
