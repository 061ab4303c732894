"""Board pictures: any view with a board (MOJO, dice crossings, paths) is drawn square by square."""

from __future__ import annotations

import io

from PIL import Image

from adapters.discord.render import render
from adapters.pictures import render_view
from adapters.pictures.board import CELL, render_board
from bot.core import views
from games.common.protocol import CardFace, Cell, Snapshot

ORANGE = (230, 159, 0)
STAR = (240, 228, 66)


def image(png: bytes | None) -> Image.Image:
    assert png is not None and png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


def board(rows: int = 5, cols: int = 6) -> tuple[tuple[Cell, ...], ...]:
    out = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if (r, c) == (2, 2):
                row.append(Cell(premium="star"))
            elif r == 1 and c < 3:
                row.append(Cell("CAT"[c], (3, 1, 1)[c], blank=c == 1, recent=True))
            else:
                row.append(Cell(shade="blue" if (r + c) % 2 else "pink"))
        out.append(tuple(row))
    return tuple(out)


def test_a_board_picture_has_a_square_per_cell_and_labels() -> None:
    plain = image(render_board(board(), labels=False))
    labelled = image(render_board(board(), labels=True))
    assert plain.width >= 6 * CELL and plain.height >= 5 * CELL
    assert labelled.width > plain.width and labelled.height > plain.height  # room for A… and 1…


def test_the_last_move_is_framed_and_the_star_is_marked() -> None:
    picture = image(render_board(board(), labels=False))
    pixels = {picture.getpixel((x, y)) for x in range(picture.width) for y in range(0, picture.height, 3)}
    assert ORANGE in pixels  # recent tiles framed (not by colour alone: also drawn as tiles)
    assert STAR in pixels


def test_a_view_with_a_board_and_a_rack_stacks_them() -> None:
    snap = Snapshot(title="MOJO", board=board(), cards=tuple(CardFace(c, "", 1) for c in "QUIZ"))
    alone = image(render_view(views.table(Snapshot(title="MOJO", board=board()), "board", realtime=False)))
    both = image(render_view(views.table(snap, "board", realtime=False)))  # dice: a board and dice
    assert both.height > alone.height
    rack = views.private(snap, "board")
    assert not rack.board and not rack.grid, "`hand` shows the rack without the whole board"


def test_discord_attaches_a_picture_to_a_board_table() -> None:
    view = views.table(Snapshot(title="MOJO", board=board(), grid=("C A T",)), "board", realtime=False)
    rendered = render(view)
    assert rendered.picture
    # the text rows wrap badly on phones: with the picture attached they are its description
    assert rendered.embed is not None and "C A T" not in (rendered.embed.description or "")
    bare = render(view, with_picture=False)
    assert bare.embed is not None and "C A T" in (bare.embed.description or "")
