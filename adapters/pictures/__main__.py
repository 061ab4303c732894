"""``python -m adapters.pictures DIR``: write the sample pictures the docs show."""

from __future__ import annotations

import sys
from pathlib import Path

from adapters.pictures import render_cards
from games.common.protocol import CardFace

#: name → (title, cards): the pictures in docs/images/.
SAMPLES: dict[str, tuple[str, tuple[CardFace, ...]]] = {
    "cards-colours.png": (
        "Four colours, four shapes",
        (
            CardFace("R", "red", 1),
            CardFace("B", "blue", 3),
            CardFace("Y", "yellow", 4),
            CardFace("G", "green", 2),
        ),
    ),
    "table-race.png": (
        "",
        (
            CardFace("M", "red", 3),
            CardFace("O", "blue", 1),
            CardFace("J", "yellow", 8),
            CardFace("I", "green", 1),
            CardFace("T", "red", 1, under=2),
        ),
    ),
}


def main(argv: list[str]) -> int:
    """Write every sample into the directory given (default: docs/images)."""
    out = Path(argv[0] if argv else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    for name, (title, cards) in SAMPLES.items():
        (out / name).write_bytes(render_cards(cards, title=title))
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
