"""The board in every language: tile sets, letters beyond A-Z in moves and the move generator,
whole games of computer players, and the tables docs/BOARD.md prints."""

from __future__ import annotations

import itertools
import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.board import GAME
from games.board.__main__ import main
from games.board.core import Board, Play, Scored, Swap, parse_move
from games.board.engine import BoardGame
from games.board.layout import Layout, LayoutError
from games.board.options import BoardConfig
from games.board.tilesets import CLASSIC, MOJO, MOJO_FACTOR, scaled
from games.board.trie import Trie
from games.common.languages import LANGUAGE_CODES, language
from games.common.options import parse_options
from games.common.protocol import Action, Seat, Setup
from tests.games.board.helpers import give, plays, reason, say
from tests.games.board.test_movegen import _brute_force

DOCS = Path(__file__).resolve().parents[3] / "docs" / "BOARD.md"
GERMAN = language("de")

#: Documented totals (letter tiles and blanks) of each layout's set, by language.
TOTALS = {
    "classic": {"en": 100, "nl": 102, "fr": 102, "de": 102, "es": 102},
    "mojo": {"en": 120, "nl": 122, "fr": 122, "de": 122, "es": 122},
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    code=st.sampled_from(LANGUAGE_CODES),
    layout=st.sampled_from(["mojo", "classic"]),
    players=st.integers(GAME.min_players, GAME.max_players),
    seed=st.integers(0, 10_000),
)
def test_every_tile_set_is_made_of_its_language_letters(
    code: str, layout: str, players: int, seed: int
) -> None:
    shipped = Layout.named(layout, code)
    letters = set(language(code).alphabet.upper())
    tiles = set(shipped.counts) - {"?"}
    assert tiles == letters  # every letter of the alphabet, and nothing else
    assert set(shipped.points) == set(shipped.counts)
    assert all(shipped.counts[t] > 0 and shipped.points[t] > 0 for t in tiles)
    assert shipped.counts["?"] == 2 and shipped.points["?"] == 0
    assert sum(shipped.counts.values()) == TOTALS[layout][code]
    # the bag fills every rack, for as many players as the game takes
    seats = tuple(Seat(f"s{i}", f"P{i}", "hard") for i in range(players))
    game = BoardGame(Setup({"layout": layout, "language": code}, seats, seed), check=lambda word: True)
    game.apply(Action("begin", 0.0))
    assert all(len(rack) == shipped.rack for rack in game.racks.values())
    assert game.total_tiles() == TOTALS[layout][code]
    assert {t for rack in game.racks.values() for t in rack} <= letters | {"?"}


def test_mojo_sets_are_the_classic_sets_grown_by_the_documented_rule() -> None:
    for code, classic in CLASSIC.items():
        grown = MOJO[code]
        assert grown == scaled(classic)
        letters = sum(n for k, (n, _) in classic.items() if k != "?")
        assert sum(n for k, (n, _) in grown.items() if k != "?") == round(MOJO_FACTOR * letters)
        for letter, (count, points) in classic.items():
            assert grown[letter][1] == points  # values unchanged
            if count == 1 or letter == "?":
                assert grown[letter][0] == count  # the rare letters (and the blanks) stay as they are
            else:
                share = MOJO_FACTOR * count
                assert share - 1 < grown[letter][0] <= share + 1
    # English keeps its own hand-made files exactly
    assert Layout.named("mojo", "en") is Layout.named("mojo")
    assert Layout.named("classic", "en").counts["E"] == 12


def test_docs_print_every_tile_table() -> None:
    text = DOCS.read_text("utf-8")
    for code in CLASSIC:
        name = language(code).name
        section = text.split(f"### {name} (`{code}`)", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
        rows = re.findall(r"^\| (\S+) \| (\d+) \| (\d+) \| (\d+) \|$", section, re.MULTILINE)
        printed = {("?" if r[0] == "blank" else r[0]): (int(r[2]), int(r[1]), int(r[3])) for r in rows}
        want = {k: (n, p, MOJO[code][k][0]) for k, (n, p) in CLASSIC[code].items()}
        assert printed == want, code
        assert f"**{TOTALS['classic'][code]}**" in section and f"**{TOTALS['mojo'][code]}**" in section


def test_layout_files_may_hold_the_letters_of_every_language() -> None:
    base = {"size": 5, "stars": ["C3"]}
    layout = Layout.from_dict({**base, "letters": {"ñ": {"count": 2, "points": 8}, "?": {"count": 1}}})
    assert layout.counts == {"Ñ": 2, "?": 1}
    with pytest.raises(LayoutError, match="not a letter"):
        Layout.from_dict({**base, "letters": {"ß": {"count": 1, "points": 1}}})


# ---------------------------------------------------------------- moves and words

WORDS_DE = ["ärger", "bär", "tür", "öl", "über", "rät", "ära", "tön", "ätzen", "grün", "er", "re", "ob", "ab"]


def _german(options: dict[str, object] | None = None, seed: int = 3) -> BoardGame:
    words = set(WORDS_DE)
    setup = Setup({"language": "de", **(options or {})}, (Seat("a", "Anna"), Seat("b", "Bernd")), seed)
    game = BoardGame(setup, check=words.__contains__, trie=Trie(words, alphabet=GERMAN.alphabet))
    game.apply(Action("begin", 0.0))
    return game


def test_a_german_move_lays_an_a_umlaut_tile_and_scores_its_points() -> None:
    game = _german({"layout": "classic"})
    seat = game.current
    give(game, seat, "ÄRGERN?")
    notes = say(game, "H8 across ÄRGER")
    accepted = next(n.text for n in notes if n.kind == "accepted")
    # Ä 6 + R 1 + G 2 + E 1 + R 1 (L8 a double letter: 2), doubled by the star on H8
    assert "H8 across ÄRGER for 24" in accepted
    assert game.board.at(7, 7) == "Ä" and game.board.value("Ä") == 6
    assert game.racks[seat].count("Ä") == 0
    # the next player adds a blank standing for Ü: a lower-case ü is a blank, worth nothing
    other = game.current
    give(game, other, "T?RBEIN")
    notes = say(game, "I6 down TüR")  # through the R of ÄRGER on I8
    assert any(n.kind == "accepted" and "I6 down TüR" in n.text for n in notes), notes
    assert (game.board.at(5, 8), game.board.at(6, 8), game.board.at(7, 8)) == ("T", "ü", "R")
    assert game.board.value("ü") == 0


def test_german_notation_reads_umlauts_and_refuses_what_is_no_letter() -> None:
    assert parse_move("h8 across äRGER", 15, GERMAN) == Play(7, 7, False, "äRGER")
    # a decomposed umlaut (A + combining diaeresis) is the same tile
    assert parse_move("H8 across A\u0308RGER", 15, GERMAN) == Play(7, 7, False, "ÄRGER")
    assert parse_move("swap äö?", 15, GERMAN) == Swap("ÄÖ?")
    assert isinstance(parse_move("H8 across STRAßE", 15, GERMAN), str)  # ß is two letters: SS
    # French accents fold to the plain tile; English never had an Ä tile to lay
    assert parse_move("H8 across ÉTÉ", 15, language("fr")) == Play(7, 7, False, "ETE")
    game = _german()
    give(game, game.current, "ARBCDEF")
    assert "missing Ä." in reason(say(game, "H8 across ÄRA"))


def test_a_spanish_rack_and_move_use_the_n_tilde_tile() -> None:
    words = {"año", "años", "ñu"}
    setup = Setup({"language": "es"}, (Seat("a", "Ana"), Seat("b", "Beto")), 5)
    game = BoardGame(setup, check=words.__contains__, trie=Trie(words, alphabet=language("es").alphabet))
    game.apply(Action("begin", 0.0))
    give(game, game.current, "AÑOSEIA")
    notes = say(game, "H8 down AÑOS")
    assert any(n.kind == "accepted" and "AÑOS" in n.text for n in notes), notes


LETTERS_DE = "ÄÖÜENRT"
SMALL_DE = Layout.from_dict(
    {
        "size": 8,
        "rack": 7,
        "bingo": 30,
        "stars": ["D4", "E5"],
        "premiums": {"TL": ["C3", "F6"], "DW": ["D4", "B7"], "DL": ["D2", "G4", "E5"], "TW": ["A1", "H8"]},
        "letters": {ch: {"count": 20, "points": i + 1} for i, ch in enumerate(LETTERS_DE)},
    }
)
SMALL_WORDS = sorted(
    "är ät ön nü ün ör rö tö et te en ne er re tür nör öre ten net rät tät ünt ärt ertön tönern rötet".split()  # noqa: SIM905
)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    letters=st.lists(st.sampled_from(LETTERS_DE), min_size=4, max_size=7),
    blanks=st.integers(0, 2),
    moves=st.integers(0, 5),
)
def test_the_move_generator_finds_exactly_the_legal_plays_over_a_german_alphabet(
    seed: int, letters: list[str], blanks: int, moves: int
) -> None:
    trie = Trie(SMALL_WORDS, alphabet=GERMAN.alphabet)
    rack = (letters + ["?"] * blanks)[:7]
    board = Board(SMALL_DE.realise(seed), SMALL_DE.points)
    rng = random.Random(seed)
    for _ in range(moves):
        found = plays(board, [*LETTERS_DE, "?"], trie, rack_size=7, bingo=30)
        if not found:
            break
        scored = board.evaluate(
            rng.choice(found).play, None, set(SMALL_WORDS).__contains__, rack_size=7, bingo=30
        )
        assert isinstance(scored, Scored)
        board.place(scored)
    got = [(c.play, c.score) for c in plays(board, rack, trie, rack_size=7, bingo=30)]
    assert len(got) == len(set(got))
    assert set(got) == _brute_force(board, rack, SMALL_WORDS)


def test_the_german_trie_gives_umlauts_their_own_bits() -> None:
    trie = Trie(["äb", "ab", "üb"], alphabet=GERMAN.alphabet)
    assert "äb" in trie and "ÄB" in trie and "ab" in trie and "ob" not in trie
    assert trie.mask[0] == (1 << 0) | (1 << 26) | (1 << 28)  # a, ä, ü
    assert "äb" not in Trie(["äb"])  # English keeps a-z


# ---------------------------------------------------------------- whole games and the table


def _fake_lexicon(alphabet: str, real: list[str]) -> set[str]:
    """Every string of two or three letters (so the board fills up), plus ``real``."""
    two = {"".join(p) for p in itertools.product(alphabet, repeat=2)}
    three = {"".join(p) for p in itertools.product(alphabet, repeat=3)}
    return two | three | set(real)


@pytest.mark.parametrize(("code", "layout"), [("de", "mojo"), ("es", "classic")])
def test_computer_players_play_a_whole_game_in_another_language(code: str, layout: str) -> None:
    lang = language(code)
    words = _fake_lexicon(lang.alphabet, WORDS_DE if code == "de" else ["año", "niño", "mañana"])
    seats = (Seat("a", "A", "hard"), Seat("b", "B", "normal"), Seat("c", "C", "easy"))
    setup = Setup({"layout": layout, "language": code}, seats, 8)
    game = BoardGame(setup, check=words.__contains__, trie=Trie(words, alphabet=lang.alphabet))
    game.apply(Action("begin", 0.0))
    total = game.total_tiles()
    now = 0.0
    laid: set[str] = set()
    while not game.finished and now < 1000:
        now += 3.0
        for claim in game.bot_claims(now):
            notes = game.apply(Action("say", now, seat=claim.seat, text=claim.text))
            assert not any(n.kind == "rejected" for n in notes), (claim, notes)
        laid |= {t.upper() for row in game.board.tiles for t in row if t}
        assert game.total_tiles() == total
    assert game.finished and not game.bag
    assert laid & set(lang.extra_letters.upper())  # Ä Ö Ü or Ñ tiles were played
    assert game.result().winners
    assert game.snapshot(None).title.startswith(f"{game.layout.title} · {lang.name}")


def test_the_table_names_a_language_other_than_english() -> None:
    assert _german().snapshot(None).title == "MOJO 16×16 · German"
    english = BoardGame(Setup({}, (Seat("a", "A"), Seat("b", "B")), 1), check=lambda word: True)
    assert english.snapshot(None).title == "MOJO 16×16"


def test_the_language_option_and_games_recorded_before_it() -> None:
    options = parse_options(GAME.options, ["lang=german"])
    assert options["language"] == "de" and BoardConfig.from_options(options).language == "de"
    recorded = {"layout": "mojo", "dict": "tournament", "turn": 72, "live": False, "bots": 1}
    assert BoardConfig.from_options(recorded).language == "en"


def test_replay_reads_racks_and_moves_in_the_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    moves = tmp_path / "moves.jsonl"
    lines = [
        {"player": "anna", "rack": "ÄRGERN?", "move": "H8 across ÄRGER"},
        {"player": "bernd", "rack": "ÖLTÜR?ß", "move": "pass"},
    ]
    moves.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines), "utf-8")
    args = ["replay", "--layout", "classic", "--moves", str(moves), "--dict", "none"]
    assert main([*args, "--language", "de"]) == 1  # the second rack holds ß: not a tile
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["ok"] and first["score"] == 24 and first["words"] == [{"word": "ÄRGER", "score": 24}]
    assert "not a rack" in second["reason"] and "Ä Ö Ü" in second["reason"]
    # in English the Ä of ÄRGER is an A, worth one point
    main([*args, "--language", "en"])
    assert json.loads(capsys.readouterr().out.splitlines()[0])["score"] == 14


def test_scaling_keeps_a_fraction_factor_exact() -> None:
    assert Fraction(6, 5) == MOJO_FACTOR
    assert scaled({"A": (5, 1), "B": (1, 9), "?": (2, 0)}) == {"A": (6, 1), "B": (1, 9), "?": (2, 0)}
