"""The computer player at its three strengths, and the "best move you missed" after a game."""

from __future__ import annotations

import random

from games.board.core import Play, Scored, parse_move
from games.board.engine import BoardGame
from games.board.player import choose, missed_move, ranked
from games.common.protocol import Notice
from tests.games.board.helpers import new_game, say


def _midgame(seed: int = 3) -> BoardGame:
    game = new_game({"layout": "mojo"}, seed=seed)
    rng = random.Random(seed)
    for _ in range(6):
        rules = (7, 40, len(game.bag), "tournament")
        say(game, choose(game.board, game.racks[game.current], game.check, "hard", rng, rules))
    return game


def test_the_strongest_level_plays_the_highest_scoring_move() -> None:
    game = _midgame()
    rack = game.racks[game.current]
    rules = (7, 40, len(game.bag), "tournament")
    order = ranked(game.board, rack, rules)
    best = order[0]
    text = choose(game.board, rack, game.check, "hard", random.Random(0), rules)
    assert text == best.play.text()
    scored = game.board.evaluate(best.play, rack, game.check, rack_size=7, bingo=40)
    assert isinstance(scored, Scored) and scored.score == max(c.score for c in order)


def test_weaker_levels_play_legal_moves_that_score_no_more() -> None:
    game = _midgame(5)
    rack = game.racks[game.current]
    rules = (7, 40, len(game.bag), "tournament")
    top = ranked(game.board, rack, rules)[0].score
    for level in ("easy", "normal"):
        for seed in range(3):
            text = choose(game.board, rack, game.check, level, random.Random(seed), rules)
            move = parse_move(text, 16)
            assert isinstance(move, Play)
            scored = game.board.evaluate(move, rack, game.check, rack_size=7, bingo=40)
            assert isinstance(scored, Scored) and scored.score <= top


def test_with_no_play_a_computer_player_swaps_or_passes() -> None:
    game = new_game({"layout": "classic"})
    rules = (7, 50, len(game.bag), "tournament")
    assert choose(game.board, ["Q"], game.check, "hard", random.Random(0), rules).startswith("swap")
    assert choose(game.board, ["Q"], game.check, "hard", random.Random(0), (7, 50, 3, "tournament")) == "pass"


def test_players_see_the_best_move_they_missed_after_the_game() -> None:
    game = new_game({"layout": "classic", "missed": True})
    first = game.current
    rack = list(game.racks[first])
    best = missed_move(game.board, rack, game.check, (7, 50, len(game.bag), "tournament"))
    assert best is not None
    notes: list[Notice] = []
    for _ in range(5):  # pass, pass, pass, pass, pass: the first player's third pass ends it
        notes = say(game, "pass")
    assert game.finished
    privates = {n.seat: n.text for n in notes if n.kind == "private"}
    assert set(privates) == set(game.racks)
    assert f"turn 1: you played pass (0); best was {best[0]} ({best[1]})" in privates[first]
