"""The one 256-colour palette every picture is composed in, and the cheap PNG it allows.

A picture is put together from parts drawn once (a card's face, a board's square) and kept
as palette images on this palette, so composing a table is copying bytes, and encoding it is
one byte a pixel at a low zlib level: about a tenth of the CPU of an RGB PNG squeezed by
``optimize`` (docs/PERFORMANCE.md, "Table pictures from parts").

The palette holds every flat colour a part is drawn with exactly (:func:`palette` is given
them), and for the rest the antialiased edges between them, chosen once from samples of
every kind of part: a card's letter or a square's label looks as it did in RGB, its edges
within a few shades.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Sequence

from PIL import Image

__all__ = ["Colour", "encode", "on_palette", "palette", "register"]

Colour = tuple[int, int, int]

#: zlib's level for the PNG: 3 costs a third of 6 on a palette image for 25 % more bytes
#: (measured by bench/bench_pictures.py), and a picture is drawn far more often than it is big.
COMPRESS_LEVEL = 3

_lock = threading.Lock()
_flat: list[Colour] = []
_samples: list[Callable[[], Image.Image]] = []
_made: Image.Image | None = None


def register(flat: Sequence[Colour], sample: Callable[[], Image.Image]) -> None:
    """Add a kind of part: the flat colours it is drawn with, and a function drawing a sample
    of it in RGB with every edge it can have (called once, when the palette is first made)."""
    global _made
    with _lock:
        _flat.extend(colour for colour in flat if colour not in _flat)
        _samples.append(sample)
        _made = None


def palette() -> Image.Image:
    """The palette, as a 1×1 palette image (what ``Image.quantize(palette=...)`` takes)."""
    global _made
    made = _made
    if made is not None:
        return made
    with _lock:
        if _made is None:
            _made = _make(list(_flat), [sample() for sample in _samples])
        return _made


def _make(flat: list[Colour], samples: list[Image.Image]) -> Image.Image:
    width = max(sample.width for sample in samples)
    height = sum(sample.height for sample in samples)
    sheet = Image.new("RGB", (width, height), flat[0])
    top = 0
    for sample in samples:
        sheet.paste(sample, (0, top))
        top += sample.height
    edges = sheet.quantize(256 - len(flat), method=Image.Quantize.MEDIANCUT)
    shades: list[int] = []
    for index in range(256 - len(flat)):
        colour = tuple(edges.getpalette()[3 * index : 3 * index + 3])  # type: ignore[index]
        if len(colour) == 3 and colour not in flat:
            shades.extend(colour)
    values = [channel for colour in flat for channel in colour] + shades
    values += [0] * (768 - len(values))
    made = Image.new("P", (1, 1), 0)
    made.putpalette(values)
    return made


def on_palette(image: Image.Image) -> Image.Image:
    """An RGB drawing as a palette image on the palette (each pixel its nearest colour)."""
    return image.quantize(palette=palette(), dither=Image.Dither.NONE)


def blank(size: tuple[int, int], colour: Colour) -> Image.Image:
    """A palette image of ``size`` filled with ``colour`` (one of the registered flat ones)."""
    made = palette()
    index = _flat.index(colour)
    image = Image.new("P", size, index)
    image.putpalette(made.getpalette() or [])
    return image


def encode(image: Image.Image) -> bytes:
    """A palette image as PNG bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
