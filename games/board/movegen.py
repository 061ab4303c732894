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

The left parts are walked once per generation and grouped by the letters that
can follow them (:func:`_left_parts`); at an anchor just left of tiles, only the
parts that one rack letter joins to those tiles are tried (:meth:`LeftParts.bridging`).
docs/BOARD.md has the measurements behind these choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul
from typing import NamedTuple

from games.board.core import Board, Play
from games.board.layout import BLANK, MULTIPLIERS
from games.board.trie import Trie

ALL = (1 << 26) - 1
UPPER = tuple(chr(65 + i) for i in range(26))
LOWER = tuple(chr(97 + i) for i in range(26))


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


def _cross(trie: Trie, perp: list[str], k: int, values: list[int], known: dict[str, int]) -> tuple[int, int]:
    """The cross-check of square ``k`` of the line ``perp`` across the play's direction.

    (letter mask, points of the cross tiles). The mask depends only on the letters
    around the square, so it is kept in ``known`` for the rest of the generation.
    """
    j = k
    while j > 0 and perp[j - 1]:
        j -= 1
    e = k + 1
    while e < len(perp) and perp[e]:
        e += 1
    around = [*perp[j:k], "_", *perp[k + 1 : e]]
    points = sum(values[ord(t) - 65] for t in around if "A" <= t <= "Z")
    key = "".join(around).upper()
    mask = known.get(key)
    if mask is None:
        before, after = key.split("_")
        node = trie.walk(before)
        mask = 0
        if node >= 0:
            bits = trie.mask[node]
            while bits:
                low = bits & -bits
                bits ^= low
                nxt = trie.walk(after, trie.child(node, low.bit_length() - 1))
                if nxt >= 0 and trie.term[nxt]:
                    mask |= low
        known[key] = mask
    return mask, points


#: A left part: (letters, trie node, rack slots used (26: the blank), the points of
#: each letter (0: a blank), their sum, the most rack letters that can follow it
#: along the trie, the real letters left on the rack (a mask)).
Part = tuple[str, int, tuple[int, ...], tuple[int, ...], int, int, int]

#: One step from a left part along a next letter: (the letters after the node it
#: reaches (a mask), that node, the part's number, the letter's bit).
Step = tuple[int, int, int, int]

#: Left parts of one length sharing the same two masks (see :func:`_left_parts`):
#: (finishing letters, next letters, the longest reach among them, the parts).
Group = tuple[int, int, int, list[Part]]


def _letters(counts: list[int]) -> int:
    """The real letters (not the blank) a rack, as counts, still holds: a mask."""
    return sum(1 << li for li in range(26) if counts[li])


def _left_parts(trie: Trie, counts: list[int], values: list[int], longest: int) -> LeftParts:
    """Every trie prefix the rack can spell, up to ``longest`` tiles, grouped by length.

    Squares left of an anchor have no cross-checks and are scored only once the
    word is known, so the same left parts serve every anchor of every line; the
    walk is done once per generation. Two masks describe a part: the *next*
    letters (children of its node that the rest of the rack can put down) and the
    *finishing* letters (next letters after which the rest of the rack alone can
    end a word). Parts are grouped by the pair of masks, so an anchor skips a whole
    group with one AND against its cross-check; parts with no next letter are
    dropped (they can never reach an anchor).
    """
    mask, first, term = trie.mask, trie.first, trie.term
    # by length, then by (finishing, next letters): [the longest reach, the parts]
    found: list[dict[tuple[int, int], tuple[list[int], list[Part]]]] = [{} for _ in range(longest + 1)]
    numbered: list[Part] = []
    steps: list[list[Step]] = [[] for _ in range(longest + 1)]
    slots: list[int] = []
    vals: list[int] = []
    real = _letters(counts)

    def grow(node: int, word: str, depth: int, vsum: int) -> tuple[int, int]:
        nonlocal real
        m = mask[node]
        bits = m if counts[26] else m & real
        if not bits:
            return 0, 0
        ok = 0
        reach = 1
        base = first[node]
        b = bits
        me = len(numbered)
        numbered.append(("", 0, (), (), 0, 0, 0))  # filled in once its subtree is known
        out = steps[depth]
        if depth == longest:
            # the last tile of the rack: only whether it ends a word matters
            while b:
                low = b & -b
                b ^= low
                nxt = base + (m & (low - 1)).bit_count()
                out.append((mask[nxt], nxt, me, low))
                if term[nxt]:
                    ok |= low
        else:
            while b:
                low = b & -b
                b ^= low
                li = low.bit_length() - 1
                nxt = base + (m & (low - 1)).bit_count()
                out.append((mask[nxt], nxt, me, low))
                ends = term[nxt]
                if counts[li]:
                    counts[li] -= 1
                    if not counts[li]:
                        real ^= low
                    slots.append(li)
                    vals.append(values[li])
                    ok_next, reach_next = grow(nxt, word + chr(65 + li), depth + 1, vsum + values[li])
                    vals.pop()
                    slots.pop()
                    if not counts[li]:
                        real ^= low
                    counts[li] += 1
                    if ok_next or ends:
                        ok |= low
                    if reach_next >= reach:
                        reach = reach_next + 1
                if counts[26]:
                    counts[26] -= 1
                    slots.append(26)
                    vals.append(0)
                    ok_next, reach_next = grow(nxt, word + chr(97 + li), depth + 1, vsum)
                    vals.pop()
                    slots.pop()
                    counts[26] += 1
                    if ok_next or ends:
                        ok |= low
                    if reach_next >= reach:
                        reach = reach_next + 1
        part = (word, node, tuple(slots), tuple(vals), vsum, reach, real)
        numbered[me] = part
        group = found[depth].get((ok, bits))
        if group is None:
            found[depth][ok, bits] = ([reach], [part])
        else:
            group[1].append(part)
            if reach > group[0][0]:
                group[0][0] = reach
        return ok, reach

    if longest >= 0 and any(counts):
        grow(0, "", 0, 0)
    return LeftParts(
        trie,
        [[(ok, nxt, most[0], ps) for (ok, nxt), (most, ps) in groups.items()] for groups in found],
        numbered,
        steps,
    )


class LeftParts:
    """The left parts of one rack (from :func:`_left_parts`), with the bridges to tiles found so far."""

    __slots__ = ("_bridges", "_numbered", "_steps", "_trie", "groups")

    def __init__(
        self, trie: Trie, groups: list[list[Group]], numbered: list[Part], steps: list[list[Step]]
    ) -> None:
        self._trie = trie
        self.groups = groups
        self._numbered = numbered
        self._steps = steps  # by the length of the part they start from
        self._bridges: dict[tuple[tuple[int, ...], int], list[tuple[Part, int]]] = {}

    def bridging(self, run: tuple[int, ...], length: int) -> list[tuple[Part, int]]:
        """The parts of ``length`` that one rack letter joins to the tiles ``run`` (trie letter bits).

        Each comes with the mask of those joining letters. For an anchor just left of
        tiles already on the board (most anchors), every word goes through the
        tiles, and only a few of the thousands of left parts can reach them: they are
        found once per run of tiles and length, and shared by every such anchor.
        """
        key = (run, length)
        found = self._bridges.get(key)
        if found is not None:
            return found
        mask, first = self._trie.mask, self._trie.first
        head, *rest = run
        joins: dict[int, int] = {}
        for after, node, number, low in self._steps[length]:
            if not after & head:
                continue
            if rest:
                nd = first[node] + (after & (head - 1)).bit_count()
                for bit in rest:
                    tm = mask[nd]
                    if not tm & bit:
                        break
                    nd = first[nd] + (tm & (bit - 1)).bit_count()
                else:
                    joins[number] = joins.get(number, 0) | low
            else:
                joins[number] = joins.get(number, 0) | low
        numbered = self._numbered
        found = [(numbered[number], letters) for number, letters in joins.items()]
        self._bridges[key] = found
        return found


def _runs(cells: list[str], values: list[int]) -> list[tuple[tuple[int, ...], int, str] | None]:
    """For each square, the tiles right after it on the line: (trie letter bits, points, text), or None."""
    n = len(cells)
    out: list[tuple[tuple[int, ...], int, str] | None] = [None] * n
    for pos in range(n - 1):
        q = pos + 1
        if cells[pos] or not cells[q]:
            continue
        while q < n and cells[q]:
            q += 1
        run = cells[pos + 1 : q]
        out[pos] = (
            tuple(1 << (ord(t.upper()) - 65) for t in run),
            sum(values[ord(t) - 65] for t in run if t.isupper()),
            "".join(run),
        )
    return out


def _scan_line(
    trie: Trie,
    counts: list[int],
    values: list[int],
    lefts: LeftParts,
    line: tuple[list[str], list[int], list[int], list[int], list[int]],
    anchors: list[int],
    where: tuple[bool, int],
    bingo: tuple[int, int],
    out: list[Candidate],
) -> None:
    """Add to ``out`` every play along one line that covers one of its ``anchors``."""
    mask, first, term, ends = trie.mask, trie.first, trie.term, trie.ends
    cells, lms, wms, cross, cross_pts = line
    down, k = where
    rack_size, bonus = bingo
    n = len(cells)
    tiles = sum(counts)
    runs = _runs(cells, values)
    # per square: its multipliers and cross word points, the tiles after it (trie bits,
    # points, text), the next empty square ``q`` and its cross-check, whether a tile on
    # ``q`` would be the word's last (nothing after it) and whether ``q`` is the edge
    spots: list[tuple[int, int, int, tuple[int, ...], int, str, int, int, bool, bool]] = []
    for pos in range(n):
        chain, fixed, text = runs[pos] or ((), 0, "")
        q = pos + 1 + len(chain)
        free = q < n and runs[q] is None
        spots.append(
            (
                lms[pos],
                wms[pos],
                cross_pts[pos],
                chain,
                fixed,
                text,
                q,
                cross[q] if q < n else 0,
                free,
                q + 1 == n,
            )
        )
    tile_pts = [values[ord(t) - 65] if t and t.isupper() else 0 for t in cells]
    is_anchor = [False] * n
    for a in anchors:
        is_anchor[a] = True
    new = tuple.__new__
    groups = lefts.groups
    real = _letters(counts)  # the real letters left on the rack, kept in step with ``counts``
    lead_main, lead_mult = 0, 1  # the rack's left part of the word, scored on its squares
    row0, col0 = 0, 0  # where the word starts

    def place(
        pos: int, node: int, word: str, placed: int, main: int, mult: int, extra: int, allow: int
    ) -> None:
        # put one rack tile on the empty square ``pos``, then run over the tiles after it
        nonlocal real
        m = mask[node]
        blanks = counts[26]
        bits = m & cross[pos] & allow
        if not blanks:
            bits &= real
        if not bits:
            return
        lm, wm, cp, chain, fixed, text, q, nq, free, edge = spots[pos]
        base = first[node]
        placed += 1
        mult *= wm
        factor = mult * lead_mult
        if placed == tiles:
            nq = 0
        if not (nq or chain):
            # the word must end on this square: only letters that end a word
            bits &= ends[node]
        # the next tile, if one goes on ``q``, must end the word when nothing can follow it
        after = ends if nq and free and (edge or placed + 1 == tiles) else mask
        flat = (main + fixed + lead_main) * factor + (bonus if placed == rack_size else 0)
        crossed = cp >= 0
        while bits:
            low = bits & -bits
            bits ^= low
            li = low.bit_length() - 1
            nd = base + (m & (low - 1)).bit_count()
            if chain:
                for bit in chain:
                    tm = mask[nd]
                    if not tm & bit:
                        nd = -1
                        break
                    nd = first[nd] + (tm & (bit - 1)).bit_count()
                if nd < 0:
                    continue
            done = term[nd]
            goes = after[nd] & nq
            if not (done or goes):
                continue
            have = counts[li]
            if have:
                v = values[li] * lm
                add = extra + (cp + v) * wm if crossed else extra
                spelled = word + UPPER[li] + text
                if done:
                    out.append(new(Candidate, (flat + v * factor + add, row0, col0, down, spelled, placed)))
                if goes and (blanks or (real if have > 1 else real ^ low) & goes):
                    counts[li] = have - 1
                    if have == 1:
                        real ^= low
                    place(q, nd, spelled, placed, main + v + fixed, mult, add, ALL)
                    if have == 1:
                        real ^= low
                    counts[li] = have
            if blanks:
                add = extra + cp * wm if crossed else extra
                spelled = word + LOWER[li] + text
                if done:
                    out.append(new(Candidate, (flat + add, row0, col0, down, spelled, placed)))
                if goes and (blanks > 1 or real & goes):
                    counts[26] = blanks - 1
                    place(q, nd, spelled, placed, main + fixed, mult, add, ALL)
                    counts[26] = blanks

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
            row0, col0 = (j, k) if down else (k, j)
            place(anchor, node, prefix, 0, sum(tile_pts[j:anchor]), 1, 0, ALL)
            continue
        limit = 0
        j = anchor - 1
        while j >= 0 and not cells[j] and not is_anchor[j] and limit < tiles - 1:
            limit += 1
            j -= 1
        need = cross[anchor]
        # the first tile to the right: a word either stops before it (the rest of the
        # rack alone finishes it: a finishing letter) or reaches it with rack letters
        # on every square between (a next letter, and a long enough reach)
        gap = next((q - anchor for q in range(anchor + 1, min(n, anchor + tiles + 1)) if cells[q]), 0)
        bridge = runs[anchor]
        for length in range(min(limit, len(groups) - 1) + 1):
            start = anchor - length
            row0, col0 = (start, k) if down else (k, start)
            seg = lms[start:anchor]
            plain = seg.count(1) == length
            lead_mult = 1
            for wm in wms[start:anchor]:
                lead_mult *= wm
            if bridge is not None:
                # tiles right after the anchor: only parts that join them
                for part, joins in lefts.bridging(bridge[0], length):
                    allow = joins & need
                    if not allow:
                        continue
                    lead, node, used, vals, vsum, _, rest = part
                    lead_main = vsum if plain else sum(map(mul, vals, seg))
                    for slot in used:
                        counts[slot] -= 1
                    real = rest
                    place(anchor, node, lead, length, 0, 1, 0, allow)
                    for slot in used:
                        counts[slot] += 1
                real = _letters(counts)
                continue
            for ok, nxt, most, parts in groups[length]:
                finish = ok & need
                wide = nxt & need if gap and most >= gap else 0
                if not (finish or wide):
                    continue
                for lead, node, used, vals, vsum, reach, rest in parts:
                    allow = finish | wide if reach >= gap else finish
                    if not allow:
                        continue
                    lead_main = vsum if plain else sum(map(mul, vals, seg))
                    for slot in used:
                        counts[slot] -= 1
                    real = rest
                    place(anchor, node, lead, length, 0, 1, 0, allow)
                    for slot in used:
                        counts[slot] += 1
            real = _letters(counts)


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
    lefts = _left_parts(trie, counts, values, max(0, len(rack) - 1))

    rows = board.tiles
    columns = [list(col) for col in zip(*rows, strict=True)]
    known: dict[str, int] = {}
    for down in (False, True):
        across = rows if down else columns  # the line through each square the other way
        for k in range(n):
            cells, lms, wms = _line(board, down, k)
            cross = [ALL] * n
            cross_pts = [-1] * n
            anchors: list[int] = []
            for i in range(n):
                if cells[i]:
                    continue
                if empty:
                    if ((i, k) if down else (k, i)) in board.squares.stars:
                        anchors.append(i)
                    continue
                perp = across[i]
                if (k > 0 and perp[k - 1]) or (k + 1 < n and perp[k + 1]):
                    cross[i], cross_pts[i] = _cross(trie, perp, k, values, known)
                    anchors.append(i)
                elif (i > 0 and cells[i - 1]) or (i + 1 < n and cells[i + 1]):
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
