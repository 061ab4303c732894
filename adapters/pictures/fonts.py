"""The one bold font every picture uses (DejaVu where installed, else Pillow's own)."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

__all__ = ["font"]


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A bold font of ``size`` pixels."""
    for name in ("DejaVuSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)
