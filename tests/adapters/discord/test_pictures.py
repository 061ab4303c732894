"""Card pictures (adapters.pictures): PNGs, colour-blind-safe shapes, the docs' samples."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from adapters.pictures import CARD_SIZE, STYLES, render_card, render_cards, render_table, render_view
from adapters.pictures.__main__ import SAMPLES, main
from bot.core import views
from games.common.protocol import CardFace, Snapshot


def image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png))


def test_a_row_of_cards_and_wrapping() -> None:
    one = image(render_card(CardFace("A", "red", 1)))
    five = image(render_cards([CardFace(c, "blue", 1) for c in "ABCDE"]))
    twelve = image(render_cards([CardFace(c, "green", 1) for c in "ABCDEFGHIJKL"]))
    assert one.width > CARD_SIZE[0] and one.height > CARD_SIZE[1]
    assert five.width > 4 * one.width
    assert twelve.height > 2 * CARD_SIZE[1]  # wrapped onto a second row


def test_every_colour_has_its_own_shape_and_fill() -> None:
    colours = ["red", "blue", "yellow", "green"]
    assert len({STYLES[c].shape for c in colours}) == 4
    assert len({STYLES[c].fill for c in colours}) == 4
    # the ink on each card stays readable: light ink on dark cards, dark ink on light ones
    for colour in colours:
        style = STYLES[colour]
        luminance = sum(w * v for w, v in zip((0.299, 0.587, 0.114), style.fill, strict=True))
        ink = sum(w * v for w, v in zip((0.299, 0.587, 0.114), style.ink, strict=True))
        assert abs(luminance - ink) > 70, colour


def test_views_and_snapshots_draw_alike() -> None:
    cards = (CardFace("M", "red", 3), CardFace("O", "blue", 1), CardFace("", "", 0))
    snapshot = Snapshot(title="table", cards=cards)
    view = views.table(snapshot, "race", realtime=True)
    assert render_table(view) == render_table(snapshot)
    assert render_view(views.message("no cards here")) is None


def test_docs_samples_are_generated_by_the_renderer(tmp_path: Path) -> None:
    assert main([str(tmp_path)]) == 0
    for name in SAMPLES:
        assert image((tmp_path / name).read_bytes()).width > 0
        assert (Path(__file__).parents[3] / "docs" / "images" / name).is_file(), (
            "run python -m adapters.pictures"
        )
