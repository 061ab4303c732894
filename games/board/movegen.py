"""Every legal play for a rack: anchor squares and cross-checks over the lexicon trie.

The classic Appel–Jacobson generator. For each line (a row for plays across, a
column for plays down) it computes, for every empty square, the *cross-check*
(a mask of the letters that make a valid word in the other direction, a bit per letter,
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

A blank multiplies the plays (about 19,000 for the richest mid-game racks, nine in
ten with the blank), and many differ only in which tile is the blank. So each
word is spelled once, the *canonical* way: a letter goes down as a real tile
while the rack has one, and as a blank only when it has none left. When a play
is found, its other spellings are added at once by arithmetic on its squares
(the blank instead of any tile while it is still on the rack; or on any of the
tiles of the letter it stands for), which costs far less than searching for them.
docs/BOARD.md has the measurements behind these choices.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import combinations
from operator import mul
from typing import NamedTuple

from games.board.core import Board, Play
from games.board.layout import BLANK, MULTIPLIERS
from games.board.trie import Trie

#: A legal play as :func:`generate` finds it: (score, row, col, down, the whole word
#: with a blank as a lower-case letter, the tiles it takes from the rack). Plain
#: tuples, because a mid-game rack with a blank has up to about 20,000 plays;
#: ``Candidate(*found)`` names the fields.
Found = tuple[int, int, int, bool, str, int]


class Candidate(NamedTuple):
    """A legal play (geometry and words by the trie) and its score: a :data:`Found` with names."""

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
    index = trie.index
    points = sum(values[index[t]] for t in around if t.isupper())
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


#: A left part: (letters, trie node, the rack left after it (counts by letter, the last:
#: the blank), the points of each letter (0: a blank), their sum, the most rack letters
#: that can follow it along the trie, the real letters left on the rack (a mask),
#: whether a blank in it stands for a letter the rack also holds (see :func:`generate`)).
Part = tuple[str, int, list[int], tuple[int, ...], int, int, int, bool]

#: One step from a left part along a next letter: (the node it reaches, the part's
#: number, the letter's bit). Kept by the letters that can follow that node (a mask).
Step = tuple[int, int, int]

#: Left parts of one length sharing the same two masks (see :func:`_left_parts`):
#: (finishing letters, next letters, the longest reach among them, the parts).
Group = tuple[int, int, int, list[Part]]


def _letters(counts: list[int]) -> int:
    """The real letters (not the blank, the last count) a rack, as counts, still holds: a mask."""
    return sum(1 << li for li in range(len(counts) - 1) if counts[li])


def _left_parts(trie: Trie, counts: list[int], values: list[int], longest: int) -> LeftParts:
    """Every trie prefix the rack can spell, up to ``longest`` tiles, grouped by length.

    Squares left of an anchor have no cross-checks and are scored only once the
    word is known, so the same left parts serve every anchor of every line; the
    walk is done once per generation. Each prefix is spelled once, the canonical
    way (a real tile while the rack has one, else a blank). Two masks describe a
    part: the *next* letters (children of its node that the rest of the rack can
    put down) and the *finishing* letters (next letters after which the rest of the
    rack alone can end a word). Parts are grouped by the pair of masks, so an anchor
    skips a whole group with one AND against its cross-check; parts with no next
    letter are dropped (they can never reach an anchor).
    """
    mask, first, term = trie.mask, trie.first, trie.term
    ALL, UPPER, LOWER, BL = trie.all, trie.upper, trie.lower, len(trie.alphabet)
    # by length, then by (finishing, next letters): [the longest reach, the parts]
    found: list[dict[tuple[int, int], tuple[list[int], list[Part]]]] = [{} for _ in range(longest + 1)]
    numbered: list[Part] = []
    steps: list[dict[int, list[Step]]] = [{} for _ in range(longest + 1)]
    vals: list[int] = []
    real = _letters(counts)
    full = counts[:]
    twin = False

    def grow(node: int, word: str, depth: int, vsum: int) -> tuple[int, int]:
        nonlocal real, twin
        m = mask[node]
        blanks = counts[BL]
        bits = m if blanks else m & real
        if not bits:
            return 0, 0
        ok = 0
        reach = 1
        base = first[node]
        b = bits
        me = len(numbered)
        numbered.append(("", 0, [], (), 0, 0, 0, False))  # filled in once its subtree is known
        out = steps[depth]
        if depth == longest:
            # the last tile of the rack: only whether it ends a word matters
            while b:
                low = b & -b
                b ^= low
                nxt = base + (m & (low - 1)).bit_count()
                kind = out.get(mask[nxt])
                if kind is None:
                    out[mask[nxt]] = [(nxt, me, low)]
                else:
                    kind.append((nxt, me, low))
                if term[nxt]:
                    ok |= low
        else:
            while b:
                low = b & -b
                b ^= low
                li = low.bit_length() - 1
                nxt = base + (m & (low - 1)).bit_count()
                kind = out.get(mask[nxt])
                if kind is None:
                    out[mask[nxt]] = [(nxt, me, low)]
                else:
                    kind.append((nxt, me, low))
                have = counts[li]
                if have:
                    if have == 1:
                        real ^= low
                    # a part with no letter to follow it is of no use: not walked
                    if mask[nxt] & (ALL if blanks else real):
                        counts[li] = have - 1
                        vals.append(values[li])
                        ok_next, reach_next = grow(nxt, word + UPPER[li], depth + 1, vsum + values[li])
                        vals.pop()
                        counts[li] = have
                        if ok_next:
                            ok |= low
                        if reach_next >= reach:
                            reach = reach_next + 1
                    if have == 1:
                        real ^= low
                elif mask[nxt] & (ALL if blanks > 1 else real):
                    was = twin
                    twin = was or full[li] > 0
                    counts[BL] = blanks - 1
                    vals.append(0)
                    ok_next, reach_next = grow(nxt, word + LOWER[li], depth + 1, vsum)
                    vals.pop()
                    counts[BL] = blanks
                    twin = was
                    if ok_next:
                        ok |= low
                    if reach_next >= reach:
                        reach = reach_next + 1
                if term[nxt]:
                    ok |= low
        part = (word, node, counts[:], tuple(vals), vsum, reach, real, twin)
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
        sum(counts),
    )


class LeftParts:
    """The left parts of one rack (from :func:`_left_parts`), with the bridges to tiles found so far."""

    __slots__ = ("_bridges", "_numbered", "_steps", "_tiles", "_trie", "groups")

    def __init__(
        self,
        trie: Trie,
        groups: list[list[Group]],
        numbered: list[Part],
        steps: list[dict[int, list[Step]]],
        tiles: int,
    ) -> None:
        self._trie = trie
        self._tiles = tiles
        self.groups = groups
        self._numbered = numbered
        self._steps = steps  # by the length of the part they start from
        self._bridges: dict[tuple[tuple[int, ...], int], list[tuple[Part, int]]] = {}

    def bridging(self, run: tuple[int, ...], length: int) -> list[tuple[Part, int]]:
        """The parts of ``length`` that one rack letter joins to the tiles ``run`` (trie letter bits).

        Each comes with the mask of those joining letters. For an anchor just left of
        tiles already on the board (most anchors), every word goes through the
        tiles, and only a few of the thousands of left parts can reach them: they are
        found once per run of tiles and length, and shared by every such anchor. A
        join is kept only if the word can end right after the tiles, or go on with
        what is left on the rack.
        """
        key = (run, length)
        found = self._bridges.get(key)
        if found is not None:
            return found
        head, *rest = run
        mask, first, term = self._trie.mask, self._trie.first, self._trie.term
        every = self._trie.all
        numbered = self._numbered
        more = length + 1 < self._tiles  # a rack tile can follow the tiles
        joins: dict[int, int] = {}
        for after, kind in self._steps[length].items():
            if not after & head:
                continue
            # the steps whose node the run's first tile can follow, and the node after it
            skip = (after & (head - 1)).bit_count()
            for node, number, low in kind:
                nd = first[node] + skip
                for bit in rest:
                    tm = mask[nd]
                    if not tm & bit:
                        break
                    nd = first[nd] + (tm & (bit - 1)).bit_count()
                else:
                    if not term[nd]:
                        if not more:
                            continue
                        part = numbered[number]
                        if not mask[nd] & (every if part[2][-1] else part[6]):
                            continue
                    joins[number] = joins.get(number, 0) | low
        found = [(numbered[number], letters) for number, letters in joins.items()]
        self._bridges[key] = found
        return found


def _runs(
    cells: list[str], values: list[int], index: dict[str, int]
) -> list[tuple[tuple[int, ...], int, str] | None]:
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
            tuple(1 << index[t] for t in run),
            sum(values[index[t]] for t in run if t.isupper()),
            "".join(run),
        )
    return out


def _scan_line(
    trie: Trie,
    rack: list[int],
    values: list[int],
    lefts: LeftParts,
    line: tuple[list[str], list[int], list[int], list[int], list[int]],
    anchors: list[int],
    where: tuple[bool, int],
    bingo: tuple[int, int],
    out: list[Found],
) -> None:
    """Add to ``out`` every play along one line that covers one of its ``anchors``."""
    mask, first, term, ends = trie.mask, trie.first, trie.term, trie.ends
    UPPER, LOWER, BL, index = trie.upper, trie.lower, len(trie.alphabet), trie.index
    cells, lms, wms, cross, cross_pts = line
    down, k = where
    rack_size, bonus = bingo
    n = len(cells)
    tiles = sum(rack)
    runs = _runs(cells, values, index)
    # per square: its letter multiplier and word multiplier, the points its cross word
    # adds (its tiles times the word multiplier, 0 without one) and what a letter adds
    # to the cross word (its letter multiplier times the word multiplier, 0 without
    # one), the tiles after it (trie bits, points, text), the next empty square ``q``
    # and its cross-check, and the letters whose node may take a tile on ``q`` (those
    # that end a word when nothing can follow ``q``)
    spots: list[tuple[int, int, int, int, tuple[int, ...], int, str, int, int, array[int]]] = []
    for pos in range(n):
        chain, fixed, text = runs[pos] or ((), 0, "")
        q = pos + 1 + len(chain)
        nq = cross[q] if q < n else 0
        last = q + 1 >= n or (runs[q] is None and not cross[q + 1])
        lm, wm, cp = lms[pos], wms[pos], cross_pts[pos]
        crossed = cp >= 0
        spots.append(
            (
                lm,
                wm,
                cp * wm if crossed else 0,
                lm * wm if crossed else 0,
                chain,
                fixed,
                text,
                q,
                nq,
                ends if last else mask,
            )
        )
    tile_pts = [values[index[t]] if t and t.isupper() else 0 for t in cells]
    is_anchor = [False] * n
    for a in anchors:
        is_anchor[a] = True
    groups = lefts.groups
    bon = [0] * (tiles + 1)  # the bonus by the number of tiles played
    if rack_size <= tiles:
        bon[rack_size] = bonus
    everything = _letters(rack)
    # the rack being played from (by letter, the last: the blank) and its real letters as a
    # mask, kept in step by the steps below; ``twin``: a blank in the word so far
    # stands for a letter the rack also had (so the word has other tile assignments)
    counts, real, twin = rack, everything, False
    full = rack[:]  # the whole rack (``rack`` itself is played from at tiles left of an anchor)
    row0, col0, start = 0, 0, 0  # where the word starts (and its index along the line)
    cross_mult = [spot[3] for spot in spots]

    def spread(word: str, placed: int, score: int, mult: int) -> None:
        # Every way to play ``word`` (its canonical spelling, scoring ``score``) with
        # the rack's blanks: a blank may stand in for any tile, as long as the real
        # tiles left are on the rack. The search spells each word once, with real
        # tiles first (see below); the other ways are found here. This is the general
        # case; :func:`spare` and :func:`swap` are the quick ones for a single blank.
        squares = [i for i in range(len(word)) if not cells[start + i]]
        chars = list(word)
        need = [0] * BL
        worth: list[int] = []  # what each tile scores, real
        for i in squares:
            li = index[chars[i]]
            sq = start + i
            value = values[li] * (lms[sq] * mult + cross_mult[sq])
            worth.append(value)
            if chars[i].islower():
                chars[i] = UPPER[li]
                score += value
            need[li] += 1
        letters = [index[chars[i]] for i in squares]
        for li in set(letters):
            need[li] = max(0, need[li] - full[li])  # the blanks that letter needs
        least = sum(need)
        for size in range(least, min(full[BL], len(squares)) + 1):
            for chosen in combinations(range(len(squares)), size):
                if least:
                    got = need[:]
                    for c in chosen:
                        got[letters[c]] -= 1
                    if max(got) > 0:
                        continue
                spelled = chars[:]
                value = score
                for c in chosen:
                    spelled[squares[c]] = LOWER[letters[c]]
                    value -= worth[c]
                out.append((value, row0, col0, down, "".join(spelled), placed))

    def spare(word: str, placed: int, score: int, mult: int) -> None:
        # one blank, still on the rack: the play as spelled, and the blank instead of each tile
        out.append((score, row0, col0, down, word, placed))
        sq = start
        for i, ch in enumerate(word):
            if not cells[sq]:
                li = index[ch]
                out.append(
                    (
                        score - values[li] * (lms[sq] * mult + cross_mult[sq]),
                        row0,
                        col0,
                        down,
                        word[:i] + LOWER[li] + word[i + 1 :],
                        placed,
                    )
                )
            sq += 1

    def swap(word: str, placed: int, score: int, mult: int) -> None:
        # one blank, played as a letter the rack also had: it may be any of that letter's tiles
        out.append((score, row0, col0, down, word, placed))
        c = next(i for i, ch in enumerate(word) if ch.islower() and not cells[start + i])
        letter = word[c].upper()
        value = values[index[letter]]
        score += value * (lms[start + c] * mult + cross_mult[start + c])
        real_word = word[:c] + letter + word[c + 1 :]
        sq = start
        for i, ch in enumerate(real_word):
            if ch == letter and i != c and not cells[sq]:
                out.append(
                    (
                        score - value * (lms[sq] * mult + cross_mult[sq]),
                        row0,
                        col0,
                        down,
                        real_word[:i] + word[c] + real_word[i + 1 :],
                        placed,
                    )
                )
            sq += 1

    if full[BL] > 1:
        spare = swap = spread

    # Two versions of one step, so the hot loop tests nothing it need not: ``place_r``
    # while the rack holds no blank, ``place_b`` while it holds one or more. Each puts
    # one rack tile on the empty square ``pos`` (one of the letters ``bits``, which the
    # caller has already checked against the trie, the cross-check and the rack), runs
    # over the tiles after it, and goes on to the next empty square. ``main`` is the
    # word's points so far before word multipliers, ``mult`` their product so far and
    # ``extra`` the cross words' points. A letter goes down as a real tile while the
    # rack has one, else as a blank, so each word is spelled once; :func:`spread` adds
    # the other ways to play it.

    def place_r(
        pos: int, node: int, word: str, placed: int, main: int, mult: int, extra: int, bits: int
    ) -> None:
        nonlocal real
        m = mask[node]
        lm, wm, cpw, vm, chain, fixed, text, q, nq, after = spots[pos]
        placed += 1
        mult *= wm
        extra += cpw
        main += fixed
        # a tile of value v on this square: the play scores (main + v * lm) * mult + extra + v * vm
        if not (nq or chain):
            # the word must end on this square: only letters that end a word
            bits &= ends[node]
            flat = main * mult + extra + bon[placed]
            vk = lm * mult + vm
            while bits:
                low = bits & -bits
                bits ^= low
                li = low.bit_length() - 1
                if twin:
                    swap(word + UPPER[li], placed, flat + values[li] * vk, mult)
                else:
                    out.append((flat + values[li] * vk, row0, col0, down, word + UPPER[li], placed))
            return
        base = first[node]
        while bits:
            low = bits & -bits
            bits ^= low
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
            goes = after[nd] & nq & real
            if not (done or goes):
                continue
            li = low.bit_length() - 1
            v = values[li]
            spelled = word + UPPER[li] + text
            if done:
                score = (main + v * lm) * mult + extra + v * vm + bon[placed]
                if twin:
                    swap(spelled, placed, score, mult)
                else:
                    out.append((score, row0, col0, down, spelled, placed))
            if goes:
                have = counts[li]
                if have == 1:
                    goes &= ~low
                    if goes:
                        counts[li] = 0
                        real ^= low
                        place_r(q, nd, spelled, placed, main + v * lm, mult, extra + v * vm, goes)
                        real ^= low
                        counts[li] = 1
                else:
                    counts[li] = have - 1
                    place_r(q, nd, spelled, placed, main + v * lm, mult, extra + v * vm, goes)
                    counts[li] = have

    def place_b(
        pos: int, node: int, word: str, placed: int, main: int, mult: int, extra: int, bits: int
    ) -> None:
        # while a blank is left, every play found is spread over the blanks' other squares
        nonlocal real, twin
        m = mask[node]
        blanks = counts[BL]
        lm, wm, cpw, vm, chain, fixed, text, q, nq, after = spots[pos]
        placed += 1
        mult *= wm
        extra += cpw
        main += fixed
        flat = main * mult + extra + bon[placed]  # a blank scores flat, a real tile flat + v * vk
        vk = lm * mult + vm
        if not (nq or chain):
            bits &= ends[node]
            while bits:
                low = bits & -bits
                bits ^= low
                li = low.bit_length() - 1
                if real & low:
                    spare(word + UPPER[li], placed, flat + values[li] * vk, mult)
                elif blanks > 1:
                    spread(word + LOWER[li], placed, flat, mult)
                elif twin or full[li]:
                    swap(word + LOWER[li], placed, flat, mult)
                else:
                    out.append((flat, row0, col0, down, word + LOWER[li], placed))
            return
        base = first[node]
        while bits:
            low = bits & -bits
            bits ^= low
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
            li = low.bit_length() - 1
            if real & low:
                v = values[li]
                spelled = word + UPPER[li] + text
                if done:
                    spare(spelled, placed, flat + v * vk, mult)
                if goes:
                    have = counts[li]
                    counts[li] = have - 1
                    if have == 1:
                        real ^= low
                        place_b(q, nd, spelled, placed, main + v * lm, mult, extra + v * vm, goes)
                        real ^= low
                    else:
                        place_b(q, nd, spelled, placed, main + v * lm, mult, extra + v * vm, goes)
                    counts[li] = have
                continue
            # the rack has no such tile: the blank stands for it
            spelled = word + LOWER[li] + text
            if blanks > 1:
                was = twin
                twin = was or full[li] > 0
                if done:
                    spread(spelled, placed, flat, mult)
                if goes:
                    counts[BL] = blanks - 1
                    place_b(q, nd, spelled, placed, main, mult, extra, goes)
                    counts[BL] = blanks
                twin = was
            elif twin or full[li]:
                # for a letter the rack had: any of that letter's tiles could be the blank
                was = twin
                twin = True
                if done:
                    swap(spelled, placed, flat, mult)
                if goes & real:  # the last blank is down: on with the real tiles
                    place_r(q, nd, spelled, placed, main, mult, extra, goes & real)
                twin = was
            else:
                if done:
                    out.append((flat, row0, col0, down, spelled, placed))
                if goes & real:
                    place_r(q, nd, spelled, placed, main, mult, extra, goes & real)

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
            row0, col0 = (j, k) if down else (k, j)
            start = j
            counts, real, twin = rack, everything, False
            bits = mask[node] & cross[anchor]
            if counts[BL]:
                if bits:
                    place_b(anchor, node, prefix, 0, sum(tile_pts[j:anchor]), 1, 0, bits)
            elif bits & real:
                place_r(anchor, node, prefix, 0, sum(tile_pts[j:anchor]), 1, 0, bits & real)
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
            # each part brings the rack left after it (its own list, which the steps
            # change and restore) and the letters that may go on the anchor: children
            # of its node that this rack can put down, so the first step needs no check
            if bridge is not None:
                # tiles right after the anchor: only parts that join them
                for part, joins in lefts.bridging(bridge[0], length):
                    allow = joins & need
                    if not allow:
                        continue
                    lead, node, counts, vals, vsum, _, real, twin = part
                    lead_main = vsum if plain else sum(map(mul, vals, seg))
                    if counts[BL]:
                        place_b(anchor, node, lead, length, lead_main, lead_mult, 0, allow)
                    else:
                        place_r(anchor, node, lead, length, lead_main, lead_mult, 0, allow)
                continue
            for ok, nxt, most, parts in groups[length]:
                finish = ok & need
                wide = nxt & need if gap and most >= gap else 0
                if not (finish or wide):
                    continue
                for part in parts:
                    allow = finish | wide if part[5] >= gap else finish
                    if not allow:
                        continue
                    lead, node, counts, vals, vsum, _, real, twin = part
                    lead_main = vsum if plain else sum(map(mul, vals, seg))
                    if counts[BL]:
                        place_b(anchor, node, lead, length, lead_main, lead_mult, 0, allow)
                    else:
                        place_r(anchor, node, lead, length, lead_main, lead_mult, 0, allow)


def generate(
    board: Board, rack: Sequence[str], trie: Trie, *, rack_size: int = 7, bingo: int = 50
) -> list[Found]:
    """Every play the rack allows on ``board`` (words checked against ``trie``), scored.

    Each play once, in no particular order; a blank is a lower-case letter in the word.
    """
    letters = len(trie.alphabet)
    counts = [0] * (letters + 1)  # by letter, the last: the blank
    index = trie.index
    for tile in rack:
        counts[letters if tile == BLANK else index[tile]] += 1
    values = [board.points.get(ch, 0) for ch in trie.upper]
    n = board.size
    empty = board.count == 0
    out: list[Found] = []
    lefts = _left_parts(trie, counts, values, max(0, len(rack) - 1))

    rows = board.tiles
    columns = [list(col) for col in zip(*rows, strict=True)]
    known: dict[str, int] = {}
    for down in (False, True):
        across = rows if down else columns  # the line through each square the other way
        for k in range(n):
            cells, lms, wms = _line(board, down, k)
            cross = [trie.all] * n
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
