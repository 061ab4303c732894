"""Small engines with a known word list, for rule tests that don't need the whole lexicon."""

from __future__ import annotations

from games.common.options import OptionValue
from games.common.protocol import Action, Notice, Seat, Setup
from games.paths.engine import PathsEngine
from games.paths.finder import WordList
from games.paths.grid import parse_square

_WORD_TEXT = (
    "at ta ate eat tea eta ten net nee one eon no on not ton tone note to toe tow two cat act "
    "tan ant ox cart oxcart art rat tar knot new knew ne en"
)
WORDS = tuple(_WORD_TEXT.split())

ANN, BOB, CAL = "a", "b", "c"


def engine(
    options: dict[str, OptionValue] | None = None,
    seats: int = 2,
    words: tuple[str, ...] | list[str] = WORDS,
    seed: int = 1,
    bots: str | None = None,
) -> PathsEngine:
    """A begun game on a 6×6 grid (unless ``size`` is given), without knocking unless asked."""
    ids = [ANN, BOB, CAL, "d", "e", "f"][:seats]
    names = {ANN: "Ann", BOB: "Bob", CAL: "Cal"}
    opts: dict[str, OptionValue] = {"size": 6, "knock": 0, **(options or {})}
    game = PathsEngine(
        Setup(opts, [Seat(i, names.get(i, i), bots) for i in ids], seed), words=WordList(words)
    )
    game.apply(Action("begin", 0.0))
    return game


def give(game: PathsEngine, seat: str, letters: str, blanks: int | None = None) -> None:
    """Replace ``seat``'s rack (tests choose the tiles)."""
    game.racks[seat] = sorted(letters)
    if blanks is not None:
        game.blanks[seat] = blanks


def put(game: PathsEngine, layout: dict[str, str]) -> None:
    """Put tiles straight onto squares (``{"B2": "c"}``), as if played earlier."""
    for name, letter in layout.items():
        index = parse_square(name, game.size, game.size)
        assert index is not None
        game.squares[index] = letter


def say(game: PathsEngine, seat: str, text: str, now: float = 1.0) -> list[Notice]:
    """Apply one move."""
    return game.apply(Action("say", now, seat=seat, text=text))


def refused(notices: list[Notice]) -> str | None:
    """The reason a move was refused, or None."""
    return next((n.text for n in notices if n.kind == "rejected"), None)


def skip_first_round(game: PathsEngine) -> None:
    """Mark the first round as played (tests then set the board up themselves)."""
    game.turns = len(game.seats)
