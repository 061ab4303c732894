"""One verdict per word: in every game and language, the move check, the finders, the hints and
the computer players agree with the game's judge on every word.

For each game and playing language, hypothesis draws a word, either from a sample of the
game's dictionary (spread from its most common words to its rarest, with the names, places and
abbreviations its bans are about) or made up from the language's letters, and sets up a position
where the word can be played: laid along a path on a Mark My Words grid but for its last tile,
across the MOJO stars with the rest on the rack, rolled on the dice, held in a Shed hand, face
up on the race's table. Then, against the game's own verdict (``GameWords``):

- the move check accepts the word exactly when the verdict allows it (and ``define`` agrees);
- every word a finder reports there is one the verdict allows, and the finder reports the word
  there when the verdict allows it (the grid's words through a square, the move generator's
  plays, the dice solver, Shed's anagram index, the race's hints; a made-up word the verdict
  allows counts when the sample holds it, the only words the cut-down finders were given);
- every word a computer player would play there, at every level, is one the verdict allows.

The games build their finders from their verdict as always, over a judge that is the real
lexicon with its word list cut to the sample (:class:`SampleLexicon`), so a finder is built in
milliseconds; the shared word lists built from whole dictionaries are checked once, in English.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable
from functools import cache
from math import isqrt
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.common.languages import LANGUAGE_CODES, language
from games.common.letter_tables import points as letter_points
from games.common.options import BOT_LEVELS, OptionValue
from games.common.protocol import Action, Notice, Seat, Setup
from games.common.words import Verdict, WordRules
from games.lexicon import Lexicon, load

LONG = os.environ.get("MOJI_FUZZ") == "long"
EXAMPLES = settings(
    max_examples=150 if LONG else 10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SEATS = [Seat("a", "Ann"), Seat("b", "Bob")]


class SampleLexicon:
    """The real lexicon, whose word list is cut to ``entries``: it judges every word as the
    lexicon does (its other queries too), but a game's finders, built from ``words``, hold only
    the sample."""

    def __init__(self, lexicon: Lexicon, entries: Iterable[str]) -> None:
        self.lexicon = lexicon
        self.entries = list(dict.fromkeys(entries))

    def judge(self, word: str, rules: WordRules) -> Verdict:
        return self.lexicon.judge(word, rules)

    def words(self, dictionary: str | None = None) -> list[str]:
        return list(self.entries)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.lexicon, name)


@cache
def sample(code: str, dictionary: str) -> tuple[str, ...]:
    """About 300 words of ``dictionary`` in ``code`` spelled in the language's letters: spread
    from the most common to the rarest, plus the common entries the name bans are about."""
    lex = load(dictionary, code)
    alphabet = language(code).alphabet
    words = [w for w in lex.words() if language(code).is_word(w) and set(w) <= set(alphabet)]
    spread = words[:: max(1, len(words) // 240)]
    names = [w for w in words[:20_000] if lex.name_kind(w) is not None][:60]
    return tuple(dict.fromkeys([*spread, *names, "le"]))


@cache
def judge_of(code: str, dictionary: str) -> SampleLexicon:
    """The real lexicon with its word list cut to :func:`sample` (one per language and dictionary,
    so the word lists games keep per judge are built once)."""
    return SampleLexicon(load(dictionary, code), sample(code, dictionary))


def word_of(data: st.DataObject, code: str, dictionary: str, longest: int, shortest: int = 2) -> str:
    """A word of the sample, or letters of the language that may or may not be a word."""
    listed = [w for w in sample(code, dictionary) if shortest <= len(w) <= longest]
    made = st.text(language(code).alphabet, min_size=shortest, max_size=min(7, longest))
    return data.draw(st.one_of(st.sampled_from(listed), made), label="word")


def rejected(notices: list[Notice]) -> str | None:
    return next((n.text for n in notices if n.kind == "rejected"), None)


def the_move_agrees(game: Any, seat: str, text: str, word: str, allowed: bool) -> None:
    """``seat`` playing ``text`` (which names ``word``) is accepted exactly when the verdict
    ``allowed`` it, and ``define`` says the same."""
    notices: list[Notice] = game.apply(Action("say", 1.0, seat=seat, text=text))
    assert (rejected(notices) is None) == allowed, (word, rejected(notices))
    assert game.word_verdict(word).ok == allowed


# ---------------------------------------------------------------- Mark My Words


def snake(length: int, size: int) -> list[int]:
    """Squares of a path of ``length`` edge-adjacent squares, row by row, turning at the edges."""
    out = []
    for k in range(length):
        row, col = divmod(k, size)
        out.append(row * size + (col if row % 2 == 0 else size - 1 - col))
    return out


@pytest.mark.parametrize("code", LANGUAGE_CODES)
@EXAMPLES
@given(data=st.data())
def test_mark_my_words_claims_finder_and_computer_players_agree(code: str, data: st.DataObject) -> None:
    from games.paths import bots
    from games.paths.engine import PathsEngine
    from games.paths.grid import square_name

    word = word_of(data, code, "tournament", longest=25)
    size = max(5, isqrt(len(word) - 1) + 1)
    judge = judge_of(code, "tournament")
    listed = word in judge.entries  # (a finder can find no word its list was cut short of)
    options: dict[str, OptionValue] = {"size": size, "knock": 0, "misplaced": "retry", "language": code}
    game = PathsEngine(Setup(options, SEATS, 1, judge=judge))
    game.apply(Action("begin", 0.0))
    game.turns = len(SEATS)  # past the first round
    verdict = game.game_words
    allowed = verdict.allows(word)
    path = snake(len(word), size)
    for square, letter in zip(path[:-1], word, strict=False):
        game.squares[square] = letter
    last, letter = path[-1], word[-1]

    # the finder, as the computer players and the end-of-game solver ask it
    through = dict(game.board.new_words_through(last, letter))
    assert all(verdict.allows(w) for w in through)
    assert (word in through) == (allowed and listed)
    for level in BOT_LEVELS:
        for _square, _letter, found in bots._options(game, {letter}, level):
            assert all(verdict.allows(w) for w, _path in found), level

    # the claim
    game.racks["a"] = [letter]
    the_move_agrees(game, "a", f"{square_name(last, size)} {letter.upper()} {word.upper()}", word, allowed)

    # every word on the board (the end of the game, knocks)
    assert all(verdict.allows(hit.word) for hit in game.board.finder.all_paths(game.squares))
    assert all(verdict.allows(w) for w in bots.knock_words(game, "b"))


# ---------------------------------------------------------------- MOJO


@pytest.mark.parametrize("code", LANGUAGE_CODES)
@EXAMPLES
@given(data=st.data())
def test_mojo_moves_move_generator_and_computer_players_agree(code: str, data: st.DataObject) -> None:
    from games.board.core import Play, Scored, parse_move
    from games.board.engine import BoardGame
    from games.board.movegen import generate
    from games.board.player import BotRules, choose
    from games.board.trie import verdict_trie
    from games.board.words import game_words

    word = word_of(data, code, "tournament", longest=16)
    judge = judge_of(code, "tournament")
    listed = word in judge.entries
    trie = verdict_trie(game_words("tournament", code, judge))
    game = BoardGame(Setup({"language": code}, SEATS, 1, judge=judge), trie=trie)
    game.apply(Action("begin", 0.0))
    assert game.game_words is not None
    verdict = game.game_words
    allowed = verdict.allows(word)

    # across row 8, over the stars; the first letters already on the board when the rack can't
    # hold them all
    seat, size, rack_size = game.current, game.board.size, game.layout.rack
    col = min(8, size - len(word))
    before = max(0, len(word) - rack_size)
    for i, ch in enumerate(word[:before]):
        game.board.tiles[7][col + i] = ch.upper()
    game.board.count += before
    rack = [ch.upper() for ch in word[before:]]
    game.racks[seat] = list(rack)

    # the move generator: every play it finds is a legal move, and it finds the word when allowed
    found = generate(game.board, rack, trie, rack_size=rack_size, bingo=game.layout.bingo)
    for play in found:
        where = f"{chr(65 + play[2])}{play[1] + 1} {'down' if play[3] else 'across'}"
        move = parse_move(f"{where} {play[4]}", size, game.language)
        assert isinstance(move, Play), move
        assert isinstance(game.board.evaluate(move, rack, game.check, rack_size=rack_size), Scored), play
    spot = (7, col, False, word.upper())
    assert any(play[1:5] == spot for play in found) == (allowed and listed)

    # the computer players: whatever they play is a legal move
    rules = BotRules(rack_size, game.layout.bingo, len(game.bag), "tournament", trie)
    for level in BOT_LEVELS:
        text = choose(game.board, rack, game.check, level, random.Random(1), rules)
        move = parse_move(text, size, game.language)
        if isinstance(move, Play):
            assert isinstance(game.board.evaluate(move, rack, game.check, rack_size=rack_size), Scored), text
        elif level == "hard":
            assert not found, text  # a legal play was there: hard finds one

    # the move
    the_move_agrees(game, seat, f"{chr(65 + col)}8 across {word.upper()}", word, allowed)


# ---------------------------------------------------------------- letter dice


@pytest.mark.parametrize("code", LANGUAGE_CODES)
@EXAMPLES
@given(data=st.data())
def test_dice_words_solver_and_computer_players_agree(code: str, data: st.DataObject) -> None:
    from games.dice.dice import Face
    from games.dice.engine import DICTIONARY, LetterDice
    from games.dice.rules import Fit, fit_word
    from games.dice.solver import any_word, best_word, scored

    word = word_of(data, code, DICTIONARY, longest=10)
    judge = judge_of(code, DICTIONARY)
    listed = word in judge.entries
    game = LetterDice(Setup({"language": code, "strict": True}, SEATS, 1, judge=judge))
    game.apply(Action("begin", 0.0))
    verdict = game.game_words
    allowed = verdict.allows(word)
    values = letter_points(code)
    game.rolled = [(n, Face(ch, values[ch])) for n, ch in enumerate(word)]
    # (the first roll, with only the sample's words, may have lost the game at once: roll again)
    game.phase, game.loser, game.ending, game.stuck = "play", None, "", False

    # the solver: the automatic loss, the word shown on a concession, the computer players' words
    found = {f.word for f in scored(game.wordlist, game.rolled, game.mat)}
    assert all(verdict.allows(w) for w in found)
    assert (word in found) == (allowed and listed)
    if found:
        assert any_word(game.wordlist, game.rolled, game.mat) is not None
    best = best_word(game.wordlist, game.rolled, game.mat)
    assert best is None or verdict.allows(best.word)
    seat = game.roller()
    assert seat is not None
    for level in BOT_LEVELS:
        game.levels[seat] = level
        text = game._bot_move(seat)
        if text != "concede":
            fit = fit_word(text.split()[0].lower(), game.rolled, game.mat)
            assert isinstance(fit, Fit) and verdict.allows(fit.word), (level, text)
        elif level == "hard":
            assert not found, text

    # the word, in a strict game
    the_move_agrees(game, seat, "=" + word.upper(), word, allowed)  # (= plays CONCEDE as a word)


# ---------------------------------------------------------------- Shed


@pytest.mark.parametrize("code", LANGUAGE_CODES)
@EXAMPLES
@given(data=st.data())
def test_shed_words_anagram_index_and_computer_players_agree(code: str, data: st.DataObject) -> None:
    from games.shed.bots import plan_turn, word_index
    from games.shed.cards import Card
    from games.shed.engine import ShedGame
    from games.shed.notation import Form, parse
    from games.shed.turn import Round

    word = word_of(data, code, "tournament", longest=12, shortest=3)
    judge = judge_of(code, "tournament")
    listed = word in judge.entries
    game = ShedGame(Setup({"language": code}, SEATS, 1, judge=judge))
    game.apply(Action("begin", 0.0))
    assert game.game_words is not None and game.current is not None
    verdict = game.game_words
    allowed = verdict.allows(word)
    assert (game.check_word(word) is None) == allowed

    seat, other = game.current, next(s.id for s in SEATS if s.id != game.current)
    letters = [Card(1000 + n, "letter", ch, "blue") for n, ch in enumerate(word + "e")]
    spare = [Card(2000 + n, "letter", "e", "red") for n in range(6)]
    game.round = Round(spare[1:], hands={seat: letters, other: spare[:1]})

    # the computer players' anagram index: built from the verdict, it holds the word's letters
    index = word_index(game, "hard")
    assert all(verdict.allows(w) for w in index.values())
    if allowed and listed:
        assert "".join(sorted(word)) in index
    for level in BOT_LEVELS:
        text = plan_turn(game, seat, level, random.Random(1))
        made = [w for op in parse(text, game.language) if isinstance(op, Form) for w in op.words]
        assert all(verdict.allows(w) for w in made), (level, text)
        if level == "hard" and allowed and listed:
            assert made, text  # a word was there: hard plays one

    # the word from the hand
    the_move_agrees(game, seat, f"play {word.upper()}", word, allowed)


# ---------------------------------------------------------------- the race


@pytest.mark.parametrize("code", LANGUAGE_CODES)
@EXAMPLES
@given(data=st.data())
def test_race_claims_hints_and_computer_players_agree(code: str, data: st.DataObject) -> None:
    from games.race import create
    from games.race.cards import Card
    from games.race.engine import FlipRace

    word = word_of(data, code, "casual", longest=12)
    added = frozenset({word}) if data.draw(st.booleans(), label="a workspace word") else frozenset()
    game = create(Setup({"language": code}, SEATS, 1, added_words=added))
    assert isinstance(game, FlipRace)
    referee, planner = game.referee, game.planner
    allowed = referee.game_words.allows(word)
    values = letter_points(code)
    cards = [Card(n, ch, "red", values[ch]) for n, ch in enumerate(word)]

    # the claim (every letter of the word is face up)
    assert referee.rule(word, [cards]).ok == allowed
    assert game.word_verdict(word).ok == allowed
    # the hint after a discard and the computer players' words
    for level in BOT_LEVELS:
        offered = planner.candidates([cards], (), 5, level)
        assert all(referee.rule(w, [cards]).ok for w in offered), level
        if level == "hard" and allowed:
            assert offered  # "no word would have worked" is never said when one would have
        plan = planner.plan(level, [cards], (), 0.0)
        assert plan is None or referee.rule(plan[1], [cards]).ok


# ---------------------------------------------------------------- the shared word lists


def test_the_shared_word_lists_hold_exactly_what_the_verdict_allows() -> None:
    """The lists built once per process from a whole dictionary (English, the default rules):
    Mark My Words' word list and MOJO's trie, against the verdict on the sample's words."""
    from games.board.trie import MAX_LENGTH, trie_for
    from games.board.words import game_words as board_words
    from games.paths.wordlists import allowed_words, game_words, word_rules

    paths = game_words(word_rules({}))
    listed = allowed_words(paths)
    board = board_words("tournament")
    trie = trie_for("tournament")
    words = [*sample("en", "tournament"), "le", "paris", "mary", "nato", "xe", "qi", "zzz"]
    for word in words:
        assert (word in listed) == paths.allows(word), word
        if len(word) <= MAX_LENGTH:
            assert (word in trie) == board.allows(word), word
