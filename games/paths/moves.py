"""The move notation of Mark My Words, parsed into :class:`Move` values.

=========================  ==================================================
``E5 T ATE TEA``           place your T on E5 and claim ATE and TEA (also
                           ``T E5 ATE TEA``; on a square holding a blank tile
                           this exchanges the blank for your T)
``swap E5 T ATE``          the same exchange, said explicitly
``blank E5``               place your blank tile on E5 (no word needed)
``free O F6 X G6 OXCART``  take O and X from the Free Letter Pile, place them
                           on F6 and G6, and claim the one word they make;
                           then take your regular turn
``discard Q``              put your Q on the Free Letter Pile (``pile Q``)
``knock OX CART``          claim new words anywhere, in the knock window
``pass``                   end your turn without playing
=========================  ==================================================

Commas and colons between words are ignored; case does not matter.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.common.grammar import excerpt
from games.common.languages import ENGLISH, Language
from games.common.speech import _
from games.common.text import user
from games.paths.grid import looks_like_square, parse_square, read_letter


@dataclass(frozen=True, slots=True)
class Place:
    """A letter tile from the rack onto a square (an exchange if the square holds a blank)."""

    square: int
    letter: str
    words: tuple[str, ...]
    swap: bool = False  # said ``swap``: the square must hold a blank tile


@dataclass(frozen=True, slots=True)
class PlaceBlank:
    """The player's blank tile onto an empty square."""

    square: int


@dataclass(frozen=True, slots=True)
class Free:
    """Tiles from the Free Letter Pile onto squares, forming one new word."""

    tiles: tuple[tuple[str, int], ...]  # (letter, square)
    word: str


@dataclass(frozen=True, slots=True)
class Discard:
    """A letter tile from the rack onto the Free Letter Pile."""

    letter: str


@dataclass(frozen=True, slots=True)
class Knock:
    """New words claimed in the knock window."""

    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """The turn ends without a tile played."""


Move = Place | PlaceBlank | Free | Discard | Knock | Pass

_DISCARD = {"discard", "pile", "drop"}
_PLACE = {"place", "play", "put"}


class MoveError(ValueError):
    """The text is not a move; the message says what was expected."""


def parse_move(text: str, width: int, height: int, language: Language = ENGLISH) -> Move:
    """Read one move for a ``width`` × ``height`` grid, letters and words in ``language``'s
    letters, or raise :class:`MoveError` with a reason."""
    tokens = text.replace(",", " ").replace(":", " ").replace(";", " ").split()
    if not tokens:
        raise MoveError(
            _("Say a move, like `E5 T ATE` (tile T on E5, claiming ATE), `pass` or `knock WORD`.")
        )
    head = tokens[0].lower()
    rest = tokens[1:]
    if head == "pass" and not rest:
        return Pass()
    if head == "knock":
        if not rest:
            raise MoveError(_("Knock with the new words you found, like `knock TEA EAT`."))
        return Knock(_words(rest, language))
    if head == "blank":
        if len(rest) != 1:
            raise MoveError(_("Place your blank tile with `blank E5` (one square)."))
        return PlaceBlank(_square(rest[0], width, height))
    if head in _DISCARD:
        letter = read_letter(rest[0], language) if len(rest) == 1 else None
        if letter is None:
            raise MoveError(
                _("Put one letter tile on the Free Letter Pile with `{command} Q`.", command=head)
            )
        return Discard(letter)
    if head == "free":
        return _free(rest, width, height, language)
    swap = head == "swap"
    if swap or head in _PLACE:
        tokens = rest
    return _place(tokens, width, height, swap, language)


def _place(tokens: list[str], width: int, height: int, swap: bool, language: Language) -> Place:
    if len(tokens) < 2:
        raise MoveError(
            _(
                "A move names a square, a letter and the new words: `E5 T ATE TEA` (your T on E5, "
                "claiming ATE and TEA)."
            )
        )
    a, b = tokens[0], tokens[1]
    if looks_like_square(a) and (letter := read_letter(b, language)) is not None:
        square = a
    elif looks_like_square(b) and (letter := read_letter(a, language)) is not None:
        square = b
    else:
        raise MoveError(
            _(
                "I couldn't read {text} as a square and a letter: try `E5 T ATE TEA` (your T on E5, "
                "claiming ATE and TEA).",
                text=excerpt(" ".join(tokens[:2])),
            )
        )
    words = _words(tokens[2:], language) if tokens[2:] else ()
    return Place(_square(square, width, height), letter, words, swap)


def _free(tokens: list[str], width: int, height: int, language: Language) -> Free:
    if len(tokens) < 3 or len(tokens) % 2 == 0:
        raise MoveError(
            _("Name each free tile and its square, then the one word they make: `free O F6 X G6 OXCART`.")
        )
    tiles: list[tuple[str, int]] = []
    for a, b in zip(tokens[:-1:2], tokens[1:-1:2], strict=True):
        if looks_like_square(b) and (letter := read_letter(a, language)) is not None:
            tiles.append((letter, _square(b, width, height)))
        elif looks_like_square(a) and (letter := read_letter(b, language)) is not None:
            tiles.append((letter, _square(a, width, height)))
        else:
            raise MoveError(
                _(
                    "I couldn't read {text} as a letter and a square: try `free O F6 X G6 OXCART`.",
                    text=excerpt(f"{a} {b}"),
                )
            )
    (word,) = _words(tokens[-1:], language)
    return Free(tuple(tiles), word)


def _square(token: str, width: int, height: int) -> int:
    index = parse_square(token, width, height)
    if index is None:
        last = f"{chr(64 + width)}{height}"
        raise MoveError(
            _("{square} is not a square of this grid (A1 to {last}).", square=user(token.upper()), last=last)
        )
    return index


def _words(tokens: list[str], language: Language) -> tuple[str, ...]:
    out: list[str] = []
    for token in tokens:
        word = language.fold(token)
        if word is None:
            raise MoveError(_("{text} is not a word: words are letters only.", text=excerpt(token)))
        out.append(word)
    return tuple(out)
