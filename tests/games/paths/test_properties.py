"""Properties over whole games: tiles are conserved, replays rebuild the state, moves parse back."""

from __future__ import annotations

import os
import random
from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.options import OptionValue
from games.common.protocol import Action, Seat, Setup
from games.paths.engine import PathsEngine
from games.paths.finder import WordList
from games.paths.grid import BLANK, EMPTY, square_name
from games.paths.moves import Discard, Free, Knock, MoveError, Pass, Place, PlaceBlank, parse_move
from games.paths.tiles import BLANKS, LETTER_COUNTS, TOTAL_TILES

LONG = os.environ.get("MOJI_FUZZ") == "long"
GAMES = settings(max_examples=100 if LONG else 12, deadline=None)
PARSE = settings(max_examples=400 if LONG else 80, deadline=None)


@cache
def words() -> WordList:
    from games.common.words import WordRules
    from games.paths.options import DEFAULT_BANS
    from games.paths.wordlists import allowed_words, game_words

    return allowed_words(game_words(WordRules(dictionary="tournament", bans=frozenset(DEFAULT_BANS))))


def letters_everywhere(game: PathsEngine) -> tuple[Counter[str], int]:
    letters: Counter[str] = Counter()
    blanks = game.spare_blanks + sum(game.blanks.values())
    for cell in game.squares:
        if cell == BLANK:
            blanks += 1
        elif cell != EMPTY:
            letters[cell] += 1
    for rack in game.racks.values():
        letters.update(rack)
    letters.update(game.pile)
    letters.update(game.box)
    return letters, blanks


def random_move(game: PathsEngine, seat: str, rng: random.Random) -> str:
    """A move a careless player might type: sometimes good, often wrong."""
    size = game.size
    square = square_name(rng.randrange(size * size), size)
    letter = rng.choice("abcdefghijklmnopqrstuvwxyz").upper()
    word = rng.choice(game.words.words[:2000]).upper()
    moves = [
        f"{square} {letter} {word}",
        f"{square} {letter}",
        f"blank {square}",
        f"discard {letter}",
        f"free {letter} {square} {word}",
        f"knock {word}",
        "pass",
        "nonsense here",
    ]
    rack = game.racks[seat]
    if rack:
        moves.append(f"discard {rng.choice(rack)}")
    empty = [i for i, cell in enumerate(game.squares) if cell == EMPTY]
    if game.pile and empty:
        # a free tile on any empty square: usually a mistake, which costs the penalty tile
        moves.append(f"free {rng.choice(game.pile)} {square_name(rng.choice(empty), size)} {word}")
    blanks = [i for i, cell in enumerate(game.squares) if cell == BLANK]
    if blanks and rack:
        target, mine = rng.choice(blanks), rng.choice(rack)
        found = game.board.new_words_through(target, mine)
        named = found[0][0] if found else word.lower()
        moves.append(f"swap {square_name(target, size)} {mine} {named}")
    return rng.choice(moves)


def play(
    seed: int, players: int, options: dict[str, OptionValue], steps: int
) -> tuple[PathsEngine, list[Action]]:
    seats = [Seat(f"bot:{i}", f"B{i}", "hard" if i % 2 else "easy") for i in range(players)]
    game = PathsEngine(Setup({"knock": 5, **options}, seats, seed), words=words())
    log = [Action("begin", 0.0)]
    game.apply(log[0])
    rng = random.Random(seed)
    now = 0.0
    for _ in range(steps):
        if game.finished:
            break
        now += rng.choice([0.5, 3.0, 7.0])
        if rng.random() < 0.5:
            due = game.next_bot_time()
            if due is not None:
                now = max(now, due)
                claims = game.bot_claims(now)
                actions = [Action("say", now, seat=c.seat, text=c.text) for c in claims]
            else:
                actions = [Action("tick", max(now, game.next_deadline() or now))]
        else:
            seat = game.seat_id if rng.random() < 0.6 else rng.choice(game.seats).id
            actions = [Action("say", now, seat=seat, text=random_move(game, seat, rng))]
        for action in actions:
            game.apply(action)
            log.append(action)
        letters, blanks = letters_everywhere(game)
        assert letters == Counter(LETTER_COUNTS) and blanks == BLANKS
        assert game.tile_count() == TOTAL_TILES
    return game, log


@GAMES
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    free=st.booleans(),
    blanks=st.booleans(),
    size=st.sampled_from([5, 8, 12]),  # a small grid fills up: blanks, discards and free tiles
)
def test_tiles_are_conserved_and_a_replay_rebuilds_the_game(
    seed: int, players: int, free: bool, blanks: bool, size: int
) -> None:
    options: dict[str, OptionValue] = {"free-pile": free, "blanks": blanks, "size": size}
    game, log = play(seed, players, options, steps=80)
    again = PathsEngine(Setup({"knock": 5, **options}, game.seats, seed), words=words())
    for action in log:
        again.apply(action)
    assert again.squares == game.squares and again.racks == game.racks and again.pile == game.pile
    assert again.scores == game.scores and again.board.recordings == game.board.recordings
    assert again.seat_id == game.seat_id and again.next_deadline() == game.next_deadline()
    assert again.finished == game.finished


def test_computer_players_finish_a_whole_game() -> None:
    for level in ("easy", "normal", "hard"):
        seats = [Seat("bot:1", "One", level), Seat("bot:2", "Two", level), Seat("bot:3", "Three", level)]
        game = PathsEngine(Setup({"knock": 10}, seats, 42), words=words())
        game.apply(Action("begin", 0.0))
        now = 0.0
        for _ in range(400):
            if game.finished:
                break
            due = game.next_bot_time()
            if due is None:
                deadline = game.next_deadline()
                assert deadline is not None
                now = deadline
                game.apply(Action("tick", now))
                continue
            now = max(now, due)
            for claim in game.bot_claims(now):
                notes = game.apply(Action("say", now, seat=claim.seat, text=claim.text))
                assert not [n.text for n in notes if n.kind == "rejected"], claim.text
        assert game.finished, level
        assert sum(game.scores.values()) > 0 and game.tile_count() == TOTAL_TILES


# ------------------------------------------------------------ the move notation

squares = st.builds(lambda c, r: f"{chr(65 + c)}{r + 1}", st.integers(0, 11), st.integers(0, 11))
letters = st.sampled_from("abcdefghijklmnopqrstuvwxyz")
word_lists = st.lists(st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8), max_size=4)


def index(name: str) -> int:
    return (int(name[1:]) - 1) * 12 + ord(name[0]) - 65


@PARSE
@given(squares, letters, word_lists, st.booleans(), st.booleans())
def test_placements_parse_back(square: str, letter: str, words: list[str], flip: bool, lower: bool) -> None:
    head = f"{letter.upper()} {square}" if flip else f"{square} {letter.upper()}"
    text = f"{head} {', '.join(w.upper() for w in words)}"
    move = parse_move(text.lower() if lower else text, 12, 12)
    assert move == Place(index(square), letter, tuple(words))


@PARSE
@given(
    st.lists(st.tuples(letters, squares), min_size=1, max_size=3), st.text("abcdefg", min_size=2, max_size=6)
)
def test_free_moves_parse_back(tiles: list[tuple[str, str]], word: str) -> None:
    text = "free " + " ".join(f"{ch.upper()} {sq}" for ch, sq in tiles) + f" {word.upper()}"
    assert parse_move(text, 12, 12) == Free(tuple((ch, index(sq)) for ch, sq in tiles), word)


@PARSE
@given(st.text(max_size=40))
def test_any_text_parses_or_says_why(text: str) -> None:
    try:
        parse_move(text, 12, 12)
    except MoveError as exc:
        assert str(exc)


def test_the_other_moves() -> None:
    assert parse_move("pass", 12, 12) == Pass()
    assert parse_move("blank e5", 12, 12) == PlaceBlank(index("E5"))
    assert parse_move("discard q", 12, 12) == parse_move("pile Q", 12, 12) == Discard("q")
    assert parse_move("knock tea, eat", 12, 12) == Knock(("tea", "eat"))
    assert parse_move("swap E5 T ATE", 12, 12) == Place(index("E5"), "t", ("ate",), swap=True)
    assert parse_move("play E5: T ATE", 12, 12) == Place(index("E5"), "t", ("ate",))


def test_prepare_builds_the_list_default_games_share() -> None:
    from games.paths.wordlists import prepare

    assert prepare() is words()
    game = PathsEngine(Setup({}, [Seat("a", "Ann"), Seat("b", "Bob")], 1))
    assert game.words is words() and "cat" in game.words
    # The rulebook allows geographical terms and bans first and surnames.
    assert "london" in game.words and "mary" not in game.words


def test_options_read_back_from_storage_give_the_same_game() -> None:
    import json

    from games.common.options import parse_options
    from games.paths.options import OPTIONS, PathsConfig

    typed = parse_options(OPTIONS, ["rules=none", "scoring=letter", "size=9", "blanks=off", "turn=90"])
    stored = json.loads(json.dumps(typed))  # what the game log gives back after a restart
    assert stored["rules"] == [] and PathsConfig.from_options(stored) == PathsConfig.from_options(typed)
    config = PathsConfig.from_options(typed)
    assert (config.bans, config.scoring, config.size, config.blanks, config.turn) == (
        frozenset(),
        "letter",
        9,
        False,
        90.0,
    )
    as_text = {"rules": "proper,abbrev", "size": "7", "knock": "nonsense", "level": "medium"}
    read = PathsConfig.from_options(as_text)
    assert read.bans == {"proper", "abbrev"} and (read.size, read.knock, read.level) == (7, 20.0, "normal")
