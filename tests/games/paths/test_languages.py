"""Mark My Words in every language: letter tiles, letters beyond A-Z in moves and grids, the
English-only bans refused, a whole game of computer players, and the table's title."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from math import floor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.board.tilesets import CLASSIC
from games.common.languages import LANGUAGE_CODES, language
from games.common.options import OptionError, parse_options
from games.common.protocol import Action, Seat, Setup
from games.common.words import GameWords
from games.paths import GAME, __main__
from games.paths.engine import PathsEngine
from games.paths.finder import Finder, WordList
from games.paths.grid import GridError, read_grid
from games.paths.moves import Discard, Free, Knock, Place, parse_move
from games.paths.options import PathsConfig
from games.paths.tiles import BLANKS, LETTER_COUNTS, MAX_PLAYERS, TOTAL_TILES, deal, letter_counts
from tests.games.paths.helpers import ANN, BOB, give, put, refused, say, skip_first_round

DOCS = Path(__file__).resolve().parents[3] / "docs" / "PATHS.md"
SPANISH = language("es")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    code=st.sampled_from(LANGUAGE_CODES),
    players=st.integers(GAME.min_players, MAX_PLAYERS),
    seed=st.integers(0, 10_000),
)
def test_every_letter_tile_set_is_made_of_its_language_letters(code: str, players: int, seed: int) -> None:
    counts = letter_counts(code)
    assert list(counts) == list(language(code).alphabet)  # every letter, in alphabet order, no other
    assert all(n > 0 for n in counts.values())
    assert sum(counts.values()) + BLANKS == TOTAL_TILES == 81
    # the box fills every rack for as many players as the game takes
    seats = [f"s{i}" for i in range(players)]
    dealt = deal(seats, random.Random(seed), language=code)
    held = [t for rack in dealt.racks.values() for t in rack]
    assert len({len(rack) for rack in dealt.racks.values()}) == 1 and held
    assert len(held) + len(dealt.box) == sum(counts.values())
    assert set(held) | set(dealt.box) <= set(counts)
    assert sum(dealt.blanks.values()) == min(players, BLANKS)


def _by_the_rule(classic: dict[str, tuple[int, int]], total: int = 75) -> dict[str, int]:
    """One tile of each letter, the rest in proportion to the Scrabble tiles beyond the first."""
    letters = {k.lower(): n for k, (n, _) in classic.items() if k != "?"}
    beyond = sum(letters.values()) - len(letters)
    spare = total - len(letters)
    quota = {k: Fraction(spare * (n - 1), beyond) for k, n in letters.items()}
    counts = {k: 1 + floor(q) for k, q in quota.items()}
    order = sorted(letters, key=lambda k: (-(quota[k] - floor(quota[k])), -letters[k], k))
    for k in order[: total - sum(counts.values())]:
        counts[k] += 1
    return counts


def test_other_languages_tiles_follow_the_documented_rule_and_english_the_rulebook() -> None:
    for code, classic in CLASSIC.items():
        assert letter_counts(code) == _by_the_rule(dict(classic)), code
    assert letter_counts("en") is LETTER_COUNTS and LETTER_COUNTS["e"] == 6
    text = DOCS.read_text("utf-8")
    for code in CLASSIC:
        line = " ".join(f"{k.upper()}{n}" for k, n in letter_counts(code).items())
        assert f"| {language(code).name} | {line} |" in text, code


# ---------------------------------------------------------------- moves and grids

WORDS_ES = ["año", "años", "ño", "ñu", "sañas", "no", "on", "os", "so", "as", "sano", "ano", "nos"]


def _spanish(options: dict[str, object] | None = None) -> PathsEngine:
    setup = Setup(
        {"size": 6, "knock": 0, "language": "es", **(options or {})}, [Seat(ANN, "Ana"), Seat(BOB, "Beto")], 2
    )
    game = PathsEngine(setup, words=WordList(WORDS_ES, alphabet=SPANISH.alphabet))
    game.apply(Action("begin", 0.0))
    return game


def test_a_spanish_move_places_an_n_tilde_and_claims_its_words() -> None:
    game = _spanish()
    skip_first_round(game)
    put(game, {"A1": "a", "C1": "o"})
    give(game, ANN, "ñs")
    notes = say(game, ANN, "B1 Ñ AÑO")
    assert refused(notes) is None, notes
    assert game.squares[1] == "ñ" and game.scores[ANN] == 1
    assert any("AÑO" in n.text for n in notes if n.kind == "accepted")
    # typed in lower case, or as N + a combining tilde, it is the same tile and word
    put(game, {"A2": "a", "C2": "o"})
    give(game, BOB, "ñ")
    assert refused(say(game, BOB, "n\u0303 b2 an\u0303o")) is None
    assert game.squares[7] == "ñ" and game.scores[BOB] == 1
    # an N is not an Ñ: ANO is another word, and the rack has no N
    assert "no N tile" in (refused(say(game, ANN, "D1 N ANO")) or "")


def test_spanish_notation_reads_n_tilde_and_folds_accents() -> None:
    assert parse_move("B1 Ñ AÑO", 6, 6, SPANISH) == Place(1, "ñ", ("año",))
    assert parse_move("discard ñ", 6, 6, SPANISH) == Discard("ñ")
    assert parse_move("free Ñ B1 A C1 ÑAÁ", 6, 6, SPANISH) == Free((("ñ", 1), ("a", 2)), "ñaa")
    assert parse_move("knock Canción", 6, 6, SPANISH) == Knock(("cancion",))
    german = language("de")
    assert parse_move("Ä A1 ÄRA", 6, 6, german) == Place(0, "ä", ("ära",))
    # English has no Ñ tile: it reads as N
    assert parse_move("B1 Ñ AÑO", 6, 6) == Place(1, "n", ("ano",))


def test_grids_and_the_finder_read_the_language_letters() -> None:
    squares, width, height = read_grid("A Ñ O\n. U .\n", SPANISH)
    assert squares == ["a", "ñ", "o", "", "u", ""] and (width, height) == (3, 2)
    found = Finder(WordList(WORDS_ES, alphabet=SPANISH.alphabet), width, height).words(squares)
    assert set(found) == {"año", "ño", "ñu"}
    # in English the Ñ of the grid reads as N
    assert read_grid("AÑO\n")[0] == ["a", "n", "o"]
    with pytest.raises(GridError, match="not a letter"):
        read_grid("AßO\n", language("de"))


def test_a_word_list_keeps_words_past_z_in_their_own_slices() -> None:
    words = WordList(["bä", "bz", "bäume", "ba", "zü"], alphabet=language("de").alphabet)
    assert words.words == ["ba", "bz", "bä", "bäume", "zü"]
    finder = Finder(words, 3, 2)
    assert set(finder.words(["b", "ä", "u", "z", "e", "m"])) == {"bä", "bäume", "bz"}
    assert "bä" not in WordList(["bä"])  # English keeps a-z


def test_the_paths_cli_finds_words_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seen: list[str] = []

    def allowed(words: GameWords) -> WordList:
        seen.append(words.alphabet)
        return WordList(WORDS_ES, alphabet=words.alphabet)

    monkeypatch.setattr(__main__, "allowed_words", allowed)
    grid = tmp_path / "grid.txt"
    grid.write_text("A Ñ O\n. U .\n", "utf-8")
    assert __main__.main(["words", "--grid", str(grid), "--language", "es"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == [
        {"word": "año", "path": ["A1", "B1", "C1"]},
        {"word": "ño", "path": ["B1", "C1"]},
        {"word": "ñu", "path": ["B1", "B2"]},
    ]
    assert seen == [language("es").alphabet]


# ---------------------------------------------------------------- refusals, tables, whole games


def test_the_english_only_bans_are_refused_at_the_start_of_another_language_game() -> None:
    seats = [Seat(ANN, "Ana"), Seat(BOB, "Beto")]
    options = parse_options(GAME.options, ["language=fr", "rules=proper,plural-s,ing"])
    with pytest.raises(OptionError, match="English-only") as caught:
        GAME.create(Setup(options, seats, 1))
    assert "rules=plural-s,ing" in str(caught.value) and "French" in str(caught.value)
    assert PathsConfig.from_options(options).refusal() == str(caught.value)
    # English keeps them, and another language plays with the other bans
    assert PathsConfig.from_options({**options, "language": "en"}).refusal() is None
    assert PathsConfig.from_options({**options, "rules": ("proper", "abbrev")}).refusal() is None


def test_the_table_names_a_language_other_than_english() -> None:
    game = _spanish()
    assert game.snapshot(None).title == "Mark My Words · Spanish"
    english = PathsEngine(Setup({"size": 6}, [Seat(ANN, "A"), Seat(BOB, "B")], 1), words=WordList(WORDS_ES))
    assert english.snapshot(None).title == "Mark My Words"


def test_the_language_option_and_games_recorded_before_it() -> None:
    assert PathsConfig.from_options(parse_options(GAME.options, ["lang=de"])).language == "de"
    recorded = {
        spec.name: spec.default for spec in GAME.options if spec.name not in ("language", "misplaced")
    }
    assert PathsConfig.from_options(recorded).language == "en"


def _fake_words(alphabet: str) -> list[str]:
    """Every two- and three-letter string: plenty of words for computer players to find."""
    return ["".join(p) for n in (2, 3) for p in itertools.product(alphabet, repeat=n)]


@pytest.mark.parametrize("code", ["de", "es"])
def test_computer_players_play_a_whole_game_in_another_language(code: str) -> None:
    lang = language(code)
    seats = [Seat("a", "A", "hard"), Seat("b", "B", "normal"), Seat("c", "C", "easy")]
    setup = Setup({"size": 7, "language": code, "knock": 5}, seats, 4)
    game = PathsEngine(setup, words=WordList(_fake_words(lang.alphabet), alphabet=lang.alphabet))
    game.apply(Action("begin", 0.0))
    now = 0.0
    while not game.finished and now < 5000:
        now += 1.0
        for claim in game.bot_claims(now):
            notes = game.apply(Action("say", now, seat=claim.seat, text=claim.text))
            assert not any(n.kind == "rejected" for n in notes), (claim, notes)
        game.apply(Action("tick", now))
        assert game.tile_count() == TOTAL_TILES
    assert game.finished
    words = [r.word for r in game.board.recordings]
    assert len(words) > 20 and all(lang.is_word(w) for w in words)
    assert set(game.squares) - {"", "#"} <= set(lang.alphabet)
    assert game.result().winners
