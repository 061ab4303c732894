"""Computer players' vocabularies: easy and normal players play only words a person of their
level would know, in every game and language, and their games still end."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.board import GAME as BOARD
from games.board.core import Play, parse_move
from games.board.engine import BoardGame
from games.common.languages import language
from games.common.options import parse_options
from games.common.protocol import Action, Claim, Engine, GameInfo, Seat, Setup
from games.dice import GAME as DICE
from games.lexicon import load
from games.lexicon.vocabulary import LEVEL_ZIPF, knows, min_zipf, vocabulary
from games.paths import GAME as PATHS
from games.race import GAME as RACE
from games.shed import GAME as SHED
from games.shed.engine import ShedGame
from games.shed.notation import Form, parse

LANGUAGES = ("en", "de", "fr", "es", "nl")


# ------------------------------------------------------------ the vocabularies


def test_the_words_players_complained_about_are_left_to_hard_players() -> None:
    normal, easy = knows("normal"), knows("easy")
    assert normal is not None and easy is not None and knows("hard") is None
    for rare in ("jiao", "peba", "muset", "dite", "qi", "za"):
        assert not normal(rare) and not easy(rare), rare
    for common in ("cat", "house", "water", "friend"):
        assert normal(common) and easy(common), common
    assert normal("ewe") and not easy("ewe")  # a farm word: normal, not everyday


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_level_knows_the_common_words_of_its_language_only(code: str) -> None:
    lex = load("casual", code)
    for level, least in LEVEL_ZIPF.items():
        words = vocabulary(level, code)
        known = knows(level, code)
        assert words is not None and known is not None
        assert 10_000 < len(words) < 60_000, (level, len(words))  # a vocabulary, not a dictionary
        assert all(lex.zipf(w) >= least and lex.contains(w) and known(w) for w in words[::97])
        zipfs = [lex.zipf(w) for w in words[::97]]
        assert zipfs == sorted(zipfs, reverse=True)  # most common first
    easy, normal = vocabulary("easy", code), vocabulary("normal", code)
    assert easy is not None and normal is not None and set(easy) < set(normal)
    assert vocabulary("hard", code) is None and min_zipf("hard") is None


# ------------------------------------------------------------ whole games of computer players


def words_of(engine: Engine, claim: Claim) -> list[str]:
    """The words ``claim`` plays (cross-words and words left after a take included)."""
    text = claim.text
    if isinstance(engine, BoardGame):
        move = parse_move(text, engine.board.size, engine.language)
        if not isinstance(move, Play):
            return []
        scored = engine.board.evaluate(
            move,
            engine.racks[claim.seat],
            engine.check,
            rack_size=engine.layout.rack,
            bingo=engine.layout.bingo,
            dictionary=engine.config.dictionary,
        )
        assert not isinstance(scored, str), scored
        return [w.lower() for w, _ in scored.words]
    if isinstance(engine, ShedGame):
        return [
            w.replace("*", "")
            for op in parse(text, engine.language)
            if isinstance(op, Form)
            for w in op.words
        ]
    tokens = text.split()
    if not tokens or tokens[0].lower() in {"challenge", "accept", "concede", "pass", "blank", "discard"}:
        return []
    if engine.__class__.__module__.startswith("games.paths"):
        return [t.lower() for t in (tokens[1:] if tokens[0].lower() == "knock" else tokens[2:])]
    return [tokens[0].lower()]  # dice (STONe 3 2) and race (the word itself)


def in_the_draw_two_exchange(engine: Engine) -> bool:
    """A Shed round whose deck and discard pile are empty: where the endless Draw Two exchange
    happens (its end rule is made in the engine apart); such games are left out."""
    return (
        isinstance(engine, ShedGame)
        and not engine.finished
        and not engine.round.deck
        and not engine.round.discard
    )


def play_out(
    info: GameInfo, level: str, code: str, seed: int, extra: tuple[str, ...] = ()
) -> list[str] | None:
    """A whole game of computer players of ``level``: every word they play, in order (None: a Shed
    game caught in the Draw Two exchange, see :func:`in_the_draw_two_exchange`)."""
    options = parse_options(info.options, (f"language={code}", *extra))
    seats = [Seat(f"bot:{i}", f"Bot {i}", level) for i in (1, 2, 3)][: max(2, info.min_players)]
    if info.max_players < 3:
        seats = seats[:2]
    engine = info.create(Setup(options=options, seats=seats, seed=seed))
    engine.apply(Action("begin", 0.0))
    played: list[str] = []
    now = 0.0
    exchanging = 0
    for _ in range(3000):
        if engine.finished:
            break
        exchanging = exchanging + 1 if in_the_draw_two_exchange(engine) else 0
        if exchanging > 200:
            return None
        times = [t for t in (engine.next_deadline(), engine.next_bot_time()) if t is not None]
        assert times, "a running game always has a timer"
        now = max(now, min(times))
        claims = engine.bot_claims(now)
        if not claims:
            engine.apply(Action("tick", now))
        elif info.realtime:
            for claim in claims:
                played += words_of(engine, claim)
            engine.apply(Action("claims", now, claims=tuple(claims)))
        else:
            for claim in claims:
                played += words_of(engine, claim)
                engine.apply(Action("say", now, seat=claim.seat, text=claim.text))
    assert engine.finished, f"{info.name} {level} {code} seed {seed} did not end"
    return played


GAMES: dict[str, tuple[GameInfo, tuple[str, ...]]] = {
    "race": (RACE, ("cards=3",)),
    "board": (BOARD, ("dict=casual",)),
    "dice": (DICE, ()),
    "paths": (PATHS, ("size=8", "dictionary=casual")),
    "shed": (SHED, ("hand=5",)),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000), level=st.sampled_from(("easy", "normal")), code=st.sampled_from(LANGUAGES)
)
def test_easy_and_normal_players_never_play_a_word_below_their_level(
    game: str, seed: int, level: str, code: str
) -> None:
    info, extra = GAMES[game]
    known: Callable[[str], bool] | None = knows(level, code)
    assert known is not None
    lang = language(code)
    played = play_out(info, level, code, seed, extra)
    assume(played is not None)
    assert played is not None
    rare = [w for w in played if not known(lang.fold(w) or w)]
    assert not rare, f"{game} {level} {code}: {rare}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hard_players_still_play_the_whole_dictionary(game: str) -> None:
    info, extra = GAMES[game]
    played = [play_out(info, "hard", "en", seed, extra) for seed in range(3)]
    assert any(played)  # they play, and the games end
