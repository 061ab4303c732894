"""Every legal play for a rack: anchor squares and cross-checks over the lexicon trie.

The classic Appel–Jacobson generator. For each line (a row for plays across, a
column for plays down) it computes, for every empty square, the *cross-check*
(a 26-bit mask of the letters that make a valid word in the other direction,
and the points of that word's tiles already on the board) and whether it is an
*anchor* (an empty square next to a tile, or a star on an empty board). Every
play covers an anchor: the generator builds the part left of the anchor from
the rack (or takes the tiles already there), then extends right through the
trie, placing only letters the cross-checks allow. Scores are added up as the
tiles go down (letter multipliers first, word multipliers after, each cross
word scored with the square's multipliers), so the strongest player can take
the best play without scoring each one again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.board.core import Board, Play
from games.board.layout import BLANK, MULTIPLIERS
from games.board.trie import Trie

ALL = (1 << 26) - 1


class Candidate(NamedTuple):
    """A legal play (geometry and words by the trie) and its score.

    A named tuple: a mid-game rack with a blank has thousands of plays.
    """

    score: int
    row: int
    col: int
    down: bool
    word: str  # the whole word, a blank as a lower-case letter
    tiles: int  # tiles it takes from the rack

    @property
    def play(self) -> Play:
        """The play in the engine's terms."""
        return Play(self.row, self.col, self.down, self.word)


def _line(board: Board, down: bool, k: int) -> tuple[list[str], list[int], list[int]]:
    """Tiles, letter and word multipliers along row (or column) ``k``."""
    n = board.size
    prem = board.squares.premium
    if down:
        cells = [board.tiles[i][k] for i in range(n)]
        kinds = [prem[i][k] for i in range(n)]
    else:
        cells = list(board.tiles[k])
        kinds = list(prem[k])
    return cells, [MULTIPLIERS[x][0] for x in kinds], [MULTIPLIERS[x][1] for x in kinds]


def _cross(board: Board, trie: Trie, down: bool, k: int, i: int) -> tuple[int, int]:
    """The cross-check of square ``i`` of line ``k``: (letter mask, points of the cross tiles; -1: none)."""
    r, c = (i, k) if down else (k, i)
    dr, dc = (0, 1) if down else (1, 0)  # the perpendicular direction
    at = board.at
    before: list[str] = []
    sr, sc = r - dr, c - dc
    while at(sr, sc):
        before.append(at(sr, sc))
        sr, sc = sr - dr, sc - dc
    before.reverse()
    after: list[str] = []
    sr, sc = r + dr, c + dc
    while at(sr, sc):
        after.append(at(sr, sc))
        sr, sc = sr + dr, sc + dc
    if not before and not after:
        return ALL, -1
    points = sum(board.value(t) for t in before) + sum(board.value(t) for t in after)
    node = trie.walk("".join(before))
    mask = 0
    if node >= 0:
        bits = trie.mask[node]
        while bits:
            low = bits & -bits
            bits ^= low
            letter = low.bit_length() - 1
            nxt = trie.walk("".join(after), trie.child(node, letter))
            if nxt >= 0 and trie.term[nxt]:
                mask |= low
    return mask, points


def _avail(counts: list[int]) -> int:
    """The letters a rack (as counts; slot 26 is the blank) can put down, as a mask."""
    if counts[26]:
        return ALL
    return sum(1 << li for li in range(26) if counts[li])


def _left_parts(
    trie: Trie, counts: list[int], longest: int
) -> list[list[tuple[str, int, tuple[int, ...], int, int, int]]]:
    """Every trie prefix the rack can spell, up to ``longest`` tiles, grouped by length.

    Squares left of an anchor have no cross-checks and are scored only once the
    word is known, so the same left parts serve every anchor of every line.
    Each entry is (letters, trie node, rack slots used (26 is the blank), mask of
    the letters the rest of the rack can still put down, mask of the next letters
    after which the rest of the rack alone can finish a word, the most rack letters
    that can follow along the trie). The last two prune anchors: most left parts
    lead nowhere.
    """
    mask, first, term = trie.mask, trie.first, trie.term
    parts: list[list[tuple[str, int, tuple[int, ...], int, int, int]]] = [[] for _ in range(longest + 1)]
    word: list[str] = []
    slots: list[int] = []
    deepest = longest + 1

    def grow(node: int) -> tuple[int, int]:
        depth = len(word)
        ok = 0
        reach = 0
        if depth < deepest:
            m = mask[node]
            base = first[node]
            bits = m
            while bits:
                low = bits & -bits
                bits ^= low
                li = low.bit_length() - 1
                nxt = base + (m & (low - 1)).bit_count()
                for slot, ch in ((li, chr(65 + li)), (26, chr(97 + li))):
                    if counts[slot]:
                        counts[slot] -= 1
                        word.append(ch)
                        slots.append(slot)
                        ok_next, reach_next = grow(nxt)
                        if ok_next or term[nxt]:
                            ok |= low
                        reach = max(reach, reach_next + 1)
                        slots.pop()
                        word.pop()
                        counts[slot] += 1
        if depth <= longest:
            parts[depth].append(("".join(word), node, tuple(slots), _avail(counts), ok, reach))
        return ok, reach

    grow(0)
    return parts


def _scan_line(
    trie: Trie,
    counts: list[int],
    values: list[int],
    lefts: list[list[tuple[str, int, tuple[int, ...], int, int, int]]],
    line: tuple[list[str], list[int], list[int], list[int], list[int]],
    anchors: list[int],
    where: tuple[bool, int],
    bingo: tuple[int, int],
    out: list[Candidate],
) -> None:
    """Add to ``out`` every play along one line that covers one of its ``anchors``."""
    mask, first, term = trie.mask, trie.first, trie.term
    cells, lms, wms, cross, cross_pts = line
    down, k = where
    rack_size, bonus = bingo
    n = len(cells)
    tiles = sum(counts)
    distinct = [li for li in range(26) if counts[li]]
    # the tiles already on the line: trie letter bit and points (0 for a blank), by square
    tile_bit = [1 << (ord(t.upper()) - 65) if t else 0 for t in cells]
    tile_pts = [values[ord(t) - 65] if t and t.isupper() else 0 for t in cells]
    is_anchor = [False] * n
    for a in anchors:
        is_anchor[a] = True
    lead_main, lead_mult = 0, 1  # the rack's left part of the word, scored on its squares

    def place(pos: int, node: int, word: str, placed: int, main: int, mult: int, extra: int) -> None:
        # put one rack tile on the empty square ``pos``, then run over the tiles after it
        m = mask[node]
        if counts[26]:
            bits = m & cross[pos]
        else:
            avail = 0
            for li in distinct:
                if counts[li]:
                    avail |= 1 << li
            bits = m & cross[pos] & avail
        lm, wm, cp = lms[pos], wms[pos], cross_pts[pos]
        base = first[node]
        placed += 1
        more = placed < tiles
        mult *= wm
        bingo_now = bonus if placed == rack_size else 0
        while bits:
            low = bits & -bits
            bits ^= low
            li = low.bit_length() - 1
            real, blank = counts[li], counts[26]
            if not (real or blank):
                continue
            nd = base + (m & (low - 1)).bit_count()
            q = pos + 1
            fixed = 0
            while q < n and cells[q]:
                bit = tile_bit[q]
                tm = mask[nd]
                if not tm & bit:
                    nd = -1
                    break
                nd = first[nd] + (tm & (bit - 1)).bit_count()
                fixed += tile_pts[q]
                q += 1
            if nd < 0:
                continue
            ends = term[nd]
            goes = more and q < n and mask[nd] & cross[q]
            if not (ends or goes):
                continue
            run = "".join(cells[pos + 1 : q]) if q > pos + 1 else ""
            if real:
                v = values[li] * lm
                add = extra + ((cp + v) * wm if cp >= 0 else 0)
                spelled = word + chr(65 + li) + run
                if ends:
                    start = q - len(spelled)
                    total = (main + v + fixed + lead_main) * mult * lead_mult + add + bingo_now
                    row, col = (start, k) if down else (k, start)
                    out.append(Candidate(total, row, col, down, spelled, placed))
                if goes:
                    counts[li] -= 1
                    place(q, nd, spelled, placed, main + v + fixed, mult, add)
                    counts[li] += 1
            if blank:
                add = extra + (cp * wm if cp >= 0 else 0)
                spelled = word + chr(97 + li) + run
                if ends:
                    start = q - len(spelled)
                    total = (main + fixed + lead_main) * mult * lead_mult + add + bingo_now
                    row, col = (start, k) if down else (k, start)
                    out.append(Candidate(total, row, col, down, spelled, placed))
                if goes:
                    counts[26] -= 1
                    place(q, nd, spelled, placed, main + fixed, mult, add)
                    counts[26] += 1

    for anchor in anchors:
        if anchor > 0 and cells[anchor - 1]:
            # the tiles already left of the anchor are the fixed start of the word
            j = anchor
            while j > 0 and cells[j - 1]:
                j -= 1
            prefix = "".join(cells[j:anchor])
            node = trie.walk(prefix)
            if node < 0:
                continue
            lead_main, lead_mult = 0, 1
            place(anchor, node, prefix, 0, sum(tile_pts[j:anchor]), 1, 0)
            continue
        limit = 0
        j = anchor - 1
        while j >= 0 and not cells[j] and not is_anchor[j] and limit < tiles - 1:
            limit += 1
            j -= 1
        need = cross[anchor]
        # the first tile to the right: a word either stops before it (the rest of the
        # rack alone finishes it) or reaches it with rack letters on every square between
        gap = next((q - anchor for q in range(anchor + 1, min(n, anchor + tiles + 1)) if cells[q]), 0)
        for length in range(limit + 1):
            start = anchor - length
            for lead, node, used, avail, ok, reach in lefts[length]:
                if not ok & need and not (gap and reach >= gap and mask[node] & avail & need):
                    continue
                lead_main, lead_mult = 0, 1
                for i, ch in enumerate(lead):
                    if ch < "a":
                        lead_main += values[ord(ch) - 65] * lms[start + i]
                    lead_mult *= wms[start + i]
                for slot in used:
                    counts[slot] -= 1
                place(anchor, node, lead, length, 0, 1, 0)
                for slot in used:
                    counts[slot] += 1


def generate(
    board: Board, rack: Sequence[str], trie: Trie, *, rack_size: int = 7, bingo: int = 50
) -> list[Candidate]:
    """Every play the rack allows on ``board`` (words checked against ``trie``), scored."""
    counts = [0] * 27
    for tile in rack:
        counts[26 if tile == BLANK else ord(tile) - 65] += 1
    values = [board.points.get(chr(65 + i), 0) for i in range(26)]
    n = board.size
    empty = board.count == 0
    out: list[Candidate] = []
    lefts = _left_parts(trie, counts, max(0, len(rack) - 1))

    for down in (False, True):
        for k in range(n):
            cells, lms, wms = _line(board, down, k)
            cross = [ALL] * n
            cross_pts = [-1] * n
            anchors: list[int] = []
            for i in range(n):
                if cells[i]:
                    continue
                r, c = (i, k) if down else (k, i)
                if empty:
                    if (r, c) in board.squares.stars:
                        anchors.append(i)
                    continue
                cross[i], cross_pts[i] = _cross(board, trie, down, k, i)
                near = cross_pts[i] >= 0 or (i > 0 and cells[i - 1]) or (i + 1 < n and cells[i + 1])
                if near:
                    anchors.append(i)
            if not anchors:
                continue
            _scan_line(
                trie,
                counts,
                values,
                lefts,
                (cells, lms, wms, cross, cross_pts),
                anchors,
                (down, k),
                (rack_size, bingo),
                out,
            )
    return out


def best(
    board: Board, rack: Sequence[str], trie: Trie, *, rack_size: int = 7, bingo: int = 50
) -> Candidate | None:
    """The highest-scoring play (ties: the first in board order), or None when there is none."""
    found = generate(board, rack, trie, rack_size=rack_size, bingo=bingo)
    return max(found, key=lambda c: c.score, default=None)
