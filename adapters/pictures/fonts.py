"""The one bold font every picture uses: DejaVu Sans Bold, shipped inside the package.

``fonts/DejaVuSans-Bold.ttf`` (licence: ``fonts/NOTICE``) is part of the wheel, so a
card looks the same on every host, a slim container included. Should the file be
missing (a broken install), the same face is looked up on the host and, failing that,
Pillow's own font is used — and a warning says so, once: a picture is never drawn in
some other face without a word.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from importlib import resources
from pathlib import Path

from PIL import ImageFont

__all__ = ["FONT_FILE", "font", "font_path"]

log = logging.getLogger(__name__)

#: The face's file name, inside ``adapters/pictures/fonts/``.
FONT_FILE = "DejaVuSans-Bold.ttf"


def font_path() -> Path:
    """Where the shipped font file is (whether or not it is there)."""
    return Path(str(resources.files(__package__ or "adapters.pictures").joinpath("fonts", FONT_FILE)))


@lru_cache(maxsize=1)
def _source() -> str | None:
    """The file to load: the shipped one, else the host's copy of the same face, else None."""
    shipped = font_path()
    if shipped.is_file():
        return str(shipped)
    try:
        ImageFont.truetype(FONT_FILE, 12)  # the host's DejaVu, found by Pillow's font search
    except OSError:
        log.warning(
            "%s is missing from the package and the host has no %s: pictures use Pillow's own font",
            shipped,
            FONT_FILE,
        )
        return None
    log.warning("%s is missing from the package: pictures use the host's %s", shipped, FONT_FILE)
    return FONT_FILE


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The bold font at ``size`` pixels."""
    source = _source()
    if source is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(source, size)
