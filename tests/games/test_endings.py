"""Every game ends, whatever legal inputs its players choose.

For each game (race and its variations, board, dice, paths, shed) hypothesis picks the options,
the seed and an *adversary*: how often it lets the computer player's move stand, how often it
types a stalling move instead (shed: draws, action cards aimed anywhere, lines that only
rearrange table words; board: passes and swaps; dice: challenges and accepts; paths: passes,
discards, blanks; race: skip votes and junk claims), lets the turn run out, or has a player leave.
From every state the game reaches, the game must end, and within the bound its docs state
(docs/SHED.md "Every round ends", docs/BOARD.md "Turns, time and the end", docs/DICE.md,
docs/PATHS.md, docs/RACE.md). Every seat is a computer player so that a progress move exists
for whoever is on turn; the adversary's stalling moves are typed for that seat.

`MOJI_FUZZ=long` runs many more examples.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.registry import load_default
from games.board.engine import BoardGame
from games.board.trie import Trie
from games.common.options import parse_options
from games.common.protocol import Action, Claim, Engine, GameInfo, Notice, Seat, Setup
from games.dice.engine import LetterDice
from games.paths.engine import PathsEngine
from games.race.eagle import EagleEyes
from games.race.engine import FlipRace
from games.race.grid import OffTheGrid
from games.shed.engine import ShedGame
from tests.games.fake_lexicons import FakeLexicon

LONG = os.environ.get("MOJI_FUZZ") == "long"
#: A small English word list for shed and board (their computer players index the whole
#: dictionary once per process, 10-20 s on a busy machine): few words make for long, stalled
#: games, the hard case for an end rule. Anagrams let a shed line only rearrange a table word.
_WORD_TEXT = """
    act cat tac arc car care race acre ear era are art rat tar tea eat ate eta sea tan ant nat
    ten net note tone stone notes onset set sent nest tens rest tres stop pots tops spot post opts
    evil live vile veil lives elvis rose sore ores eros roes tide edit diet tied dote toed dear read
    dare stare tears rates aster tread trade rated dates sated stead lead deal dale lade mane name
    mean amen mate meat team tame time item emit mite smite items ride dire ired side dies ides
    lane lean near earn nose ones eons snore tenor toner trone hose shoe hoes shot host hots
    who how own won now row owe woe ewe wet tow two hot the then than that this his him her here
    shock sock hock shack sack back lack pack tack rack hack dock rock lock mock cock deck neck
    and end den dean dane den red bed bad bat tab but tub rub bun nub sun nun run urn gun dug bug
    big gig dig fig pig wig win in inn ion tin nit sin sit its tis nip pin pit tip lip pal lap
    zoo quiz jazz fox box wax tax six mix fix yak key yes yet yew jaw jab job jot joy kit kin ink
    pen pet ape pea pat tap apt pan nap gap tag rag gag hag ham map mat man men hen pen peg leg
"""
WORDS = frozenset(_WORD_TEXT.split())
REGISTRY = load_default()
LEVELS = ("easy", "normal", "hard")


def examples(normal: int, long: int) -> settings:
    return settings(max_examples=long if LONG else normal, deadline=None, derandomize=not LONG)


@dataclass(frozen=True)
class Adversary:
    """How the inputs are chosen at each step (relative weights)."""

    bot: int  # the computer player's own move (progress, usually)
    stall: int  # a legal move that makes as little progress as the rules allow
    timeout: int  # let the turn (or hourglass) run out
    leave: int  # a player leaves (0 or 1)


ADVERSARIES = st.builds(
    Adversary,
    bot=st.integers(0, 4),
    stall=st.integers(1, 8),
    timeout=st.integers(0, 3),
    leave=st.sampled_from((0, 0, 1)),
)


# ------------------------------------------------------------------ stalling moves, per game


def _shed_stalls(g: Engine, seat: str, rng: random.Random) -> list[str]:
    assert isinstance(g, ShedGame)
    moves = ["draw", "pass"]
    others = [str(g.numbers[s]) for s in g.active if s != seat]
    hand = g.round.hands.get(seat, [])
    letters = sorted({c.letter for c in hand if c.kind == "letter"}) or ["*"]
    for card in hand:
        if card.kind != "action" or not others:
            continue
        who = rng.choice(others)
        give = rng.choice(letters)
        moves += {
            "draw-two": [f"+2 {who}"],
            "all-draw-two": ["+2 all"],
            "skip": [f"skip {who}"],
            "swap-hands": [f"swap {who}"],
            "deck-trade": [f"trade {give}"],
            "trade": [f"trade {give} {who}"],
        }[card.action]
    # a line that only rearranges a table word into another word of the same letters
    for n, word in enumerate(g.round.table, start=1):
        if len(word.text) > 6 or any(card.kind == "joker" for card, _ in word.cards):
            continue
        for perm in itertools.permutations(word.text):
            other = "".join(perm)
            if other != word.text and g.check_word(other) is None:
                moves.append(f"#{n} -> {other}")
                break
    return moves


def _board_stalls(g: Engine, seat: str, rng: random.Random) -> list[str]:
    assert isinstance(g, BoardGame)
    rack = g.racks.get(seat, [])
    moves = ["pass"]
    if rack and len(g.bag) >= g.layout.rack:
        tiles = rng.sample(rack, rng.randint(1, len(rack)))
        moves.append("swap " + "".join("?" if t == "?" or not t.isalpha() else t for t in tiles))
    return moves


def _dice_stalls(g: Engine, seat: str, rng: random.Random) -> list[str]:
    return ["challenge", "accept", "challenge"]


def _paths_stalls(g: Engine, seat: str, rng: random.Random) -> list[str]:
    assert isinstance(g, PathsEngine)
    moves = ["pass"]
    rack = g.racks.get(seat, [])
    if rack:
        moves.append(f"discard {rng.choice(rack).upper()}")
    empty = [i for i, square in enumerate(g.squares) if not square]
    if empty and g.blanks.get(seat):
        i = rng.choice(empty)
        moves.append(f"blank {chr(ord('A') + i % g.size)}{i // g.size + 1}")
    return moves


def _race_stalls(g: Engine, seat: str, rng: random.Random) -> list[str]:
    return ["skip", "skip", "qqq", "pass"]


# ------------------------------------------------------------------ bounds, per game


def _shed_bound(g: Engine) -> tuple[int, int]:
    """(turns so far, the bound): 3 × players × (cards + 1) turns a round (docs/SHED.md)."""
    assert isinstance(g, ShedGame)
    per_round = 3 * len(g.seats) * (len(g.round.all_cards()) + 1)
    return g.turn_no, g.config.rounds * (per_round + 1)


def _board_bound(g: Engine) -> tuple[int, int]:
    """3 × players × (tiles + 2) turns (docs/BOARD.md)."""
    assert isinstance(g, BoardGame)
    return g.moves + len(g.out), 3 * len(g.order) * (g.total_tiles() + 2)


def _dice_bound(g: Engine) -> tuple[int, int]:
    """2 × words turns, each a word or a missed turn (docs/DICE.md)."""
    assert isinstance(g, LetterDice)
    return len(g.history), g.total


def _paths_bound(g: Engine) -> tuple[int, int]:
    """players × (3 × letter tiles + blanks + squares + 1) turns (docs/PATHS.md)."""
    assert isinstance(g, PathsEngine)
    return g.turns, len(g.seats) * (3 * g.tile_count() + len(g.seats) + g.size * g.size + 1)


def _race_bound(g: Engine) -> tuple[int, int]:
    """Tables (race), turns (Off the Grid) or rounds (Eagle Eyes) (docs/RACE.md)."""
    if isinstance(g, OffTheGrid):
        cards = len(g.deck) + len(g.cards_on_grid()) + sum(len(w) for w in g.won.values())
        return g.turns, len(g.order) * (cards // 2 + 1)
    if isinstance(g, EagleEyes):
        return g.round, g.cfg.rounds
    assert isinstance(g, FlipRace)
    cards = sum(len(s) for s in g.stacks.values()) + len(g.face_up_cards())
    cards += sum(len(w) for w in g.won.values()) + len(g.discard)
    return g.version, 2 * cards + 3


@dataclass(frozen=True)
class Spec:
    options: st.SearchStrategy[list[str]]
    players: st.SearchStrategy[int]
    stalls: Callable[[Engine, str, random.Random], list[str]]
    bound: Callable[[Engine], tuple[int, int]]
    #: builds the engine (None: the registry's, with the real lexicon)
    create: Callable[[Setup], Engine] | None = None


def _small_shed(setup: Setup) -> Engine:
    return ShedGame(replace(setup, judge=FakeLexicon("en", WORDS)))


def _small_board(setup: Setup) -> Engine:
    return BoardGame(setup, check=WORDS.__contains__, trie=Trie(WORDS))


SPECS: dict[str, Spec] = {
    "shed": Spec(
        st.tuples(
            st.sampled_from(("cards=auto", "cards=two", "cards=group")),
            st.sampled_from(("min=3", "min=3", "min=5")),
            st.sampled_from(("hand=3", "hand=5", "hand=7")),
            st.sampled_from(("rounds=1", "rounds=2")),
            st.sampled_from(("reshuffle=letters", "reshuffle=letters", "reshuffle=off")),
            st.sampled_from(("actions=alone", "actions=last")),
        ).map(list),
        st.integers(2, 4),
        _shed_stalls,
        _shed_bound,
        _small_shed,
    ),
    "board": Spec(
        st.tuples(
            st.sampled_from(("layout=mojo", "layout=classic")),
            st.sampled_from(("scoreless=1", "scoreless=2", "scoreless=3")),
        ).map(list),
        st.integers(2, 3),
        _board_stalls,
        _board_bound,
        _small_board,
    ),
    "dice": Spec(
        st.tuples(
            st.sampled_from(("words=1", "words=2", "words=4")),
            st.sampled_from(("strict=off", "strict=on")),
        ).map(list),
        st.integers(2, 3),
        _dice_stalls,
        _dice_bound,
    ),
    "paths": Spec(
        st.tuples(
            st.sampled_from(("size=5", "size=6", "size=8")),
            st.sampled_from(("knock=0", "knock=5")),
            st.sampled_from(("free-pile=on", "free-pile=off")),
            st.sampled_from(("misplaced=pile", "misplaced=retry")),
            st.just("turn=30"),
        ).map(list),
        st.integers(2, 3),
        _paths_stalls,
        _paths_bound,
    ),
    "race": Spec(
        st.tuples(
            st.sampled_from(("cards=3", "cards=5", "cards=8")),
            st.sampled_from(
                ("variation=", "variation=stack-em-up", "variation=off-the-grid", "variation=eagle-eyes")
            ),
        ).map(lambda opts: [o for o in opts if o != "variation="]),
        st.integers(1, 3),
        _race_stalls,
        _race_bound,
    ),
}


def play(
    info: GameInfo, spec: Spec, tokens: list[str], players: int, seed: int, adv: Adversary
) -> tuple[int, int, str]:
    """Drive one game with the adversary until it ends; check the bound all along.

    Returns the turns (or tables, rounds) played, the bound and the game's summary."""
    options = dict(parse_options(info.options, tokens))
    rng = random.Random(seed)
    seats = [Seat(f"bot:{i}", f"P{i}", rng.choice(LEVELS)) for i in range(players)]
    engine = (spec.create or info.create)(Setup(options, seats, seed))
    now = 0.0
    engine.apply(Action("begin", now))
    weights = (adv.bot, adv.stall, adv.timeout, adv.leave)
    count, bound = spec.bound(engine)
    steps = 0
    cap = 40 * bound + 400
    while not engine.finished:
        steps += 1
        assert steps <= cap, f"{info.name} {tokens}: still going after {steps} inputs ({count}/{bound})"
        kind = rng.choices(("bot", "stall", "timeout", "leave"), weights)[0] if any(weights) else "timeout"
        notices: list[Notice] = []
        if kind == "leave" and rng.random() < 0.05:
            notices = engine.apply(Action("leave", now, seat=rng.choice(seats).id))
        elif kind == "stall":
            seat = _on_turn(engine, seats, rng)
            now += 0.5
            notices = _say(engine, info, seat, rng.choice(spec.stalls(engine, seat, rng)), now)
        elif kind == "bot" and (when := engine.next_bot_time()) is not None:
            now = max(now, when)
            for claim in engine.bot_claims(now):
                notices += _say(engine, info, claim.seat, claim.text, now, claim.sent_at)
        if not engine.finished and all(n.kind == "rejected" for n in notices):
            # nothing legal was played (or the adversary chose to wait): time runs on to the
            # next deadline, where the turn runs out (and a computer player due then moves)
            deadline = engine.next_deadline()
            when = engine.next_bot_time()
            now = max(now, min(t for t in (deadline, when, now + 1.0) if t is not None))
            notices = engine.apply(Action("tick", now))
            if when is not None and when <= now and not engine.finished:
                for claim in engine.bot_claims(now):
                    notices += _say(engine, info, claim.seat, claim.text, now, claim.sent_at)
        count, bound_now = spec.bound(engine)
        bound = max(bound, bound_now) if info.name == "race" else bound
        assert count <= bound, f"{info.name} {tokens} seed {seed}: {count} > bound {bound}"
        for n in notices:
            if n.kind == "rejected":
                assert n.text.strip()
    return count, bound, engine.result().summary


def _on_turn(engine: Engine, seats: list[Seat], rng: random.Random) -> str:
    current = getattr(engine, "current", None)
    if isinstance(engine, BoardGame):
        return engine.current
    if isinstance(engine, PathsEngine):
        return engine.seat_id
    if isinstance(engine, LetterDice):
        return engine.roller() or rng.choice(seats).id
    if isinstance(current, str):
        return current
    return rng.choice(seats).id


def _say(
    engine: Engine, info: GameInfo, seat: str, text: str, now: float, sent: float | None = None
) -> list[Notice]:
    if info.realtime:
        if text in ("skip", "pass", "yes", "no"):
            return engine.apply(Action("say", now, seat=seat, text=text))
        return engine.apply(Action("claims", now, claims=(Claim(seat, text, sent or now),)))
    return engine.apply(Action("say", now, seat=seat, text=text))


def _game(name: str) -> GameInfo:
    return REGISTRY.get(name)


def _check(name: str, data: st.DataObject) -> None:
    spec = SPECS[name]
    tokens = data.draw(spec.options, label="options")
    players = data.draw(spec.players, label="players")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    adv = data.draw(ADVERSARIES, label="adversary")
    play(_game(name), spec, tokens, players, seed, adv)


@examples(normal=12, long=200)
@given(data=st.data())
def test_shed_always_ends(data: st.DataObject) -> None:
    _check("shed", data)


@examples(normal=8, long=150)
@given(data=st.data())
def test_board_always_ends(data: st.DataObject) -> None:
    _check("board", data)


@examples(normal=12, long=200)
@given(data=st.data())
def test_dice_always_ends(data: st.DataObject) -> None:
    _check("dice", data)


@examples(normal=6, long=200)
@given(data=st.data())
def test_paths_always_ends(data: st.DataObject) -> None:
    _check("paths", data)


@examples(normal=12, long=200)
@given(data=st.data())
def test_race_always_ends(data: st.DataObject) -> None:
    _check("race", data)


def test_every_registered_game_has_an_ending_check() -> None:
    assert set(SPECS) == set(REGISTRY.names())
