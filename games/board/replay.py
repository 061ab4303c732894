"""Check and score a game written down move by move (``python -m games.board replay``).

Each move line is JSON: ``{"player": "ann", "rack": "AEINRS?", "move": "H8 across RETAINs"}``
(the rack before the move; ``?`` is a blank). Every line gets one JSON answer:
``ok``, ``score``, ``words`` (each word formed, with its own score), ``bingo``,
``reason`` (why a move is illegal) and the player's running ``total``. An
illegal move leaves the board as it was. Racks are taken as written (there is
no bag), so a swap is checked only against the rack.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from games.board.core import Board, Pass, Resign, Scored, Swap, WordCheck, parse_move, rack_text, read_tiles
from games.board.layout import BLANK, Layout
from games.common.grammar import excerpt
from games.common.languages import ENGLISH, Language


def read_rack(text: str, language: Language = ENGLISH) -> list[str] | str:
    """``"AEIN?"`` (spaces allowed, ``?``/``_``/``*`` a blank) -> tiles in ``language``'s
    letters, or the reason it is not a rack."""
    tiles: list[str] = []
    for ch in text:
        if ch.isspace():
            continue
        letter = BLANK if ch in "?_*" else read_tiles(ch, language)
        if letter is None or len(letter) != 1:
            letters = " ".join(language.alphabet.upper())
            return f"{excerpt(text)} is not a rack: use the letters {letters} and ? for a blank."
        tiles.append(letter.upper() if letter != BLANK else BLANK)
    return tiles


def replay(
    layout: Layout,
    lines: Iterable[str],
    check: WordCheck | None,
    *,
    seed: int = 0,
    dictionary: str = "tournament",
    language: Language = ENGLISH,
) -> Iterator[dict[str, Any]]:
    """Apply each move line in turn (words and racks in ``language``'s letters) and describe
    what it did."""
    board = Board(layout.realise(seed), layout.points)
    totals: Counter[str] = Counter()
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        answer: dict[str, Any] = {"n": number, "ok": False, "score": 0, "words": [], "bingo": 0, "reason": ""}
        try:
            data = json.loads(raw)
            player, rack_raw, text = str(data["player"]), str(data.get("rack", "")), str(data["move"])
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            answer["reason"] = f"line {number} is not a move line ({exc}); see --help"
            yield answer
            continue
        answer.update(player=player, move=text)
        rack = read_rack(rack_raw, language)
        move = parse_move(text, board.size, language)
        if isinstance(rack, str):
            answer["reason"] = rack
        elif isinstance(move, str):
            answer["reason"] = move
        elif isinstance(move, Pass | Resign):
            answer["ok"] = True
        elif isinstance(move, Swap):
            missing = Counter(move.tiles) - Counter(rack)
            if missing:
                answer["reason"] = f"can't swap {' '.join(sorted(missing.elements()))} from {rack_text(rack)}"
            else:
                answer["ok"] = True
        else:
            scored = board.evaluate(
                move, rack, check, rack_size=layout.rack, bingo=layout.bingo, dictionary=dictionary
            )
            if isinstance(scored, Scored):
                board.place(scored)
                totals[player] += scored.score
                answer.update(
                    ok=True,
                    score=scored.score,
                    words=[{"word": w, "score": s} for w, s in scored.words],
                    bingo=scored.bingo,
                )
            else:
                answer["reason"] = scored
        answer["total"] = totals[player]
        yield answer
