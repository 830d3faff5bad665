"""What a page image shows before and around OCR, read from its pixels (numpy): light text on dark boxes,
dot leaders, the width of strokes, an empty page.

Tesseract takes a dark box holding light text (``Note 4 :`` set white on a filled bar, a table's dark header row)
for a picture and leaves it unread, and it reads a dense dot leader as letters (``cccceeee``) that garble the
words they touch. Both are found here from the rendering: :func:`invert_dark_boxes` turns such boxes into dark
text on white before OCR, and :func:`find_leader` finds the leader in a line the engine read, so the words before
it can be read again without it (``ocr_pages``). All measures are in points (converted with the image's dpi), so
they hold at any render resolution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .ocr import Box, PageImage

__all__ = ["DarkBox", "Leader", "dark_boxes", "invert_dark_boxes", "find_leader", "ink_end", "ink_box",
           "looks_like_bullet", "bullet_before", "stroke_counts", "dark_pixels"]

INK = 128
"""Pixels darker than this (of 255) are ink."""
PAPER = 224
"""Pixels at least this light are paper (the rim of a filled box, blurred by the scan, is darker)."""
CELL_PT = 2.0
"""Dark boxes are looked for on a grid of cells this many points square (8 pixels at 300 dpi) ..."""
SOLID_CELL = 0.85
"""... a cell with at least this share of ink is solid (fill, or the stem of very large bold type) ..."""
MIN_BOX_PT = 8.0
"""... and a run of touching solid cells at least this high and wide is a box (type in a box is at least 6 points
with some room above and below; rules and underlines are thinner) ..."""
MIN_FILL = 0.5
"""... whose solid cells cover at least this share of its bounding rectangle (a box holding light letters: the
letters' cells are not solid; a dark photograph's outline is ragged) ..."""
LIGHT_SHARE = (0.03, 0.6)
"""... holding light pixels (text) for a share of its rectangle within these bounds (a plain dark bar holds none) ..."""
MIN_LIGHT_STROKES = 5
"""... crossed by at least this many light strokes along one of its middle rows (light text: ``No`` crosses five;
a letter of very large bold type also makes a run of solid cells with light inside it, but crosses at most three
light gaps: ``m``, ``W``) ..."""
FILL_UNIFORM = 0.8
"""... and whose ink is of one tone: at least this share of its dark pixels within :data:`FILL_TONE` grey levels of
their median (a flat fill; a photograph's shades spread wider)."""
FILL_TONE = 24


@dataclass(frozen=True, slots=True)
class DarkBox:
    """A dark box holding light text, in pixels of the image (x0, y0 inclusive; x1, y1 exclusive), and the grey
    level of its fill."""

    x0: int
    y0: int
    x1: int
    y1: int
    fill: int


def _grey(image: PageImage) -> np.ndarray:
    return np.frombuffer(image.samples, dtype=np.uint8).reshape(image.height, image.width)


RULE_LINE = 0.25
"""A pixel row (column) inked across at least this share of the page's width (height) is part of a rule ..."""
RULE_THICK_PT = 3.0
"""... when the run of such rows (columns) is at most this many points thick (a dark picture or a grey scan is
inked across whole bands of rows, and stays)."""


def dark_pixels(image: PageImage) -> int:
    """How many pixels of ``image`` are ink, rules' rows and columns left out (what could be text)."""
    ink = _grey(image) < INK
    thick = RULE_THICK_PT * image.dpi / 72
    rows = ~_thin_runs(ink.sum(axis=1) >= RULE_LINE * image.width, thick)
    cols = ~_thin_runs(ink.sum(axis=0) >= RULE_LINE * image.height, thick)
    return int(np.count_nonzero(ink[rows][:, cols]))


def _runs(solid: np.ndarray) -> list[tuple[int, int, int]]:
    """Horizontal runs of True cells as (row, first, last + 1)."""
    padded = np.zeros((solid.shape[0], solid.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = solid
    edges = np.diff(padded, axis=1)
    starts = np.argwhere(edges == 1)
    ends = np.argwhere(edges == -1)
    return [(int(r), int(a), int(b)) for (r, a), (_, b) in zip(starts, ends, strict=True)]


def _components(solid: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """Groups of touching solid cells (runs of neighbouring rows that overlap) as (cells, row0, col0, row1, col1),
    inclusive bounds. Union-find over runs: a page of thousands of solid cells has only hundreds of runs."""
    runs = _runs(solid)
    parent = list(range(len(runs)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_row: dict[int, list[int]] = {}
    for k, (r, _, _) in enumerate(runs):
        by_row.setdefault(r, []).append(k)
    for k, (r, a, b) in enumerate(runs):
        for j in by_row.get(r - 1, ()):
            _, a2, b2 = runs[j]
            if a2 < b and a < b2:
                parent[root(k)] = root(j)
    groups: dict[int, list[int]] = {}
    for k, (r, a, b) in enumerate(runs):
        g = groups.setdefault(root(k), [0, r, a, r, b - 1])
        g[0] += b - a
        g[1], g[2], g[3], g[4] = min(g[1], r), min(g[2], a), max(g[3], r), max(g[4], b - 1)
    return [(g[0], g[1], g[2], g[3], g[4]) for g in groups.values()]


def _grow(ink: np.ndarray, box: list[int], limit: int) -> None:
    """Move each side of ``box`` (x0, y0, x1, y1; end exclusive) outward while the pixel line just past it is mostly
    not paper (``ink``), by at most ``limit`` pixels: the grid's cells cut the fill's edge, and its blurred rim
    would be left as a thin rule."""
    h, w = ink.shape
    for _ in range(limit):
        if box[1] > 0 and ink[box[1] - 1, box[0]:box[2]].mean() >= 0.5:
            box[1] -= 1
        if box[3] < h and ink[box[3], box[0]:box[2]].mean() >= 0.5:
            box[3] += 1
        if box[0] > 0 and ink[box[1]:box[3], box[0] - 1].mean() >= 0.5:
            box[0] -= 1
        if box[2] < w and ink[box[1]:box[3], box[2]].mean() >= 0.5:
            box[2] += 1


def dark_boxes(image: PageImage) -> list[DarkBox]:
    """Boxes of one flat dark tone holding light text (see the constants above for what counts)."""
    grey = _grey(image)
    cell = max(2, round(CELL_PT * image.dpi / 72))
    rows, cols = image.height // cell, image.width // cell
    if rows == 0 or cols == 0:
        return []
    ink = grey < INK
    share = ink[:rows * cell, :cols * cell].reshape(rows, cell, cols, cell).mean(axis=(1, 3))
    solid = share >= SOLID_CELL
    if not solid.any():
        return []
    least = MIN_BOX_PT / CELL_PT
    rim = grey < PAPER
    found: list[DarkBox] = []
    for cells, r0, c0, r1, c1 in sorted(_components(solid), key=lambda c: (c[3] - c[1] + 1) * (c[4] - c[2] + 1),
                                        reverse=True):  # a box first, then what lies inside it is skipped
        if any(b.x0 < (c1 + 1) * cell and c0 * cell < b.x1 and b.y0 < (r1 + 1) * cell and r0 * cell < b.y1
               for b in found):
            continue
        height, width = r1 - r0 + 1, c1 - c0 + 1
        if height < least or width < least or cells < MIN_FILL * height * width:
            continue
        box = [c0 * cell, r0 * cell, (c1 + 1) * cell, (r1 + 1) * cell]
        _grow(rim, box, cell)
        patch = grey[box[1]:box[3], box[0]:box[2]]
        light = patch >= INK
        if not LIGHT_SHARE[0] <= np.count_nonzero(light) / light.size <= LIGHT_SHARE[1]:
            continue
        middle = light[light.shape[0] // 4:max(light.shape[0] // 4 + 1, 3 * light.shape[0] // 4)]
        strokes = np.count_nonzero(middle[:, 1:] & ~middle[:, :-1], axis=1) + middle[:, 0]
        if int(strokes.max()) < MIN_LIGHT_STROKES:
            continue
        tones = patch[patch < INK]
        fill = int(np.median(tones))
        if np.count_nonzero(np.abs(tones.astype(np.int16) - fill) <= FILL_TONE) < FILL_UNIFORM * tones.size:
            continue
        found.append(DarkBox(box[0], box[1], box[2], box[3], fill))
    return found


EDGE_PT = 0.75
"""The outer ring of a turned box this many points wide is made white: the fill's blurred edge would otherwise
turn into a thin dark frame, which the engine takes for a table's rule or a picture's border."""


def invert_dark_boxes(image: PageImage) -> tuple[PageImage, list[DarkBox]]:
    """``image`` with each of its :func:`dark_boxes` turned to dark text on white (the fill's tone becomes
    white, white becomes black), and the boxes turned."""
    boxes = dark_boxes(image)
    if not boxes:
        return image, boxes
    grey = _grey(image).copy()
    edge = max(1, round(EDGE_PT * image.dpi / 72))
    for b in boxes:
        patch = grey[b.y0:b.y1, b.x0:b.x1].astype(np.float32)
        light = np.clip((patch - b.fill) / max(1, 255 - b.fill), 0.0, 1.0)
        turned = (255 * (1 - light)).astype(np.uint8)
        turned[:edge], turned[-edge:], turned[:, :edge], turned[:, -edge:] = 255, 255, 255, 255
        grey[b.y0:b.y1, b.x0:b.x1] = turned
    return PageImage(grey.tobytes(), image.width, image.height, image.dpi), boxes


# ---------------------------------------------------------------------- dot leaders
LEADER_DOT_HEIGHT = 0.3
"""A column of a line is part of a dot leader when its ink lies within this share of the line's height above the
baseline (a period; letters, digits and dashes reach higher) ..."""
LEADER_MIN_DOTS = 8
"""... and a leader is a stretch of such columns holding at least this many separate dots ..."""
LEADER_MIN_LENGTH = 3.0
"""... at least this many line heights long, with no taller ink inside it."""
BASELINE_SLACK = 0.1
"""Ink may reach this share of the line's height below the baseline and still sit on it (the scan's blur)."""


@dataclass(frozen=True, slots=True)
class Leader:
    """A dot leader inside a line: from ``x0`` to ``x1`` (pixels of the image), ``dots`` dots; the taller ink before
    it (the title) ends at ``after`` (the line's start when there is none)."""

    x0: int
    x1: int
    dots: int
    after: int


def find_leader(image: PageImage, box: Box) -> Leader | None:
    """The longest dot leader in the line of ``box`` (pixels), if there is one: a stretch where every column with
    ink holds only a dot on the baseline (the line's most common ink bottom)."""
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(image.width, int(box[2]) + 1), min(image.height, int(box[3]) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    ink = _grey(image)[y0:y1, x0:x1] < INK
    height = ink.shape[0]
    inked = ink.any(axis=0)
    if not inked.any():
        return None
    top = np.where(inked, ink.argmax(axis=0), height)
    bottom = np.where(inked, height - 1 - ink[::-1].argmax(axis=0), -1)
    values, counts = np.unique(bottom[inked], return_counts=True)
    base = int(values[counts.argmax()])
    low = inked & (top >= base - LEADER_DOT_HEIGHT * height) & (bottom <= base + BASELINE_SLACK * height)
    tall = np.flatnonzero(inked & ~low)
    edges = np.concatenate(([-1], tall, [inked.size]))
    best: Leader | None = None
    for a, b in zip(edges[:-1] + 1, edges[1:], strict=True):
        if b - a < LEADER_MIN_LENGTH * height:
            continue
        stretch = low[a:b]
        dots = int(np.count_nonzero(stretch[1:] & ~stretch[:-1])) + int(stretch[0])
        if dots < LEADER_MIN_DOTS or (best is not None and dots <= best.dots):
            continue
        cols = np.flatnonzero(stretch)  # from the first dot to the last
        best = Leader(x0 + int(a + cols[0]), x0 + int(a + cols[-1]) + 1, dots, x0 + int(a))
    return best


def ink_end(image: PageImage, box: Box, gap: float) -> float | None:
    """Where the ink in the rows of ``box`` that starts within ``gap`` pixels of its left edge ends (pixels), going
    right until a gap wider than ``gap`` or the box's right edge; ``None`` when there is none."""
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(image.width, int(box[2]) + 1), min(image.height, int(box[3]) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    cols = np.flatnonzero((_grey(image)[y0:y1, x0:x1] < INK).any(axis=0))
    if cols.size == 0 or cols[0] > gap:
        return None
    breaks = np.flatnonzero(np.diff(cols) > gap)
    last = cols[breaks[0]] if breaks.size else cols[-1]
    return float(x0 + last + 1)


# ---------------------------------------------------------------------- word boxes
RULE_TONE = 192
"""Pixels of a word's box darker than this are marked (about where the engine's own binarisation puts it: a thin
rule, blurred, is lighter than ink) ..."""
RULE_SHARE = 0.95
"""... and a row marked across at least this share of the box's width is part of a rule (letters leave gaps between
them) ..."""
RULE_HEIGHT = 0.2
"""... when it belongs to a run of such rows at most this share of the box high (a shaded table row makes every
row of its cells darker than paper)."""


def _thin_runs(rows: np.ndarray, limit: float) -> np.ndarray:
    """``rows`` (booleans) keeping only the runs of True at most ``limit`` long."""
    out = np.zeros_like(rows)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], rows.astype(np.int8), [0]))))
    for a, b in zip(edges[::2], edges[1::2], strict=True):
        if b - a <= max(2.0, limit):
            out[a:b] = True
    return out


def ink_box(image: PageImage, box: Box) -> Box:
    """``box`` (pixels) without the rows above and below its letters that hold no ink or only a thin rule. At 150 dpi
    a rule close to a table cell's words joins them, and the engine's box reaches down to it (``Total`` over a
    rule read half again as tall as it is, a 10-point header cell sized 15 points); its boxes are otherwise tight
    (the size estimate's ratios are measured on them), and are left as they are."""
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(image.width, int(box[2]) + 1), min(image.height, int(box[3]) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return box
    marked = _grey(image)[y0:y1, x0:x1] < RULE_TONE
    share = marked.mean(axis=1)
    letters = (share > 0) & ~_thin_runs(share >= RULE_SHARE, RULE_HEIGHT * marked.shape[0])
    rows = np.flatnonzero(letters)
    if rows.size == 0 or (rows[0] == 0 and rows[-1] == letters.size - 1):
        return box
    return (box[0], float(y0 + rows[0]), box[2], float(y0 + rows[-1] + 1))


# ---------------------------------------------------------------------- bullets
BULLET_FILL = 0.4
"""A list bullet is a solid blob: at least this share of its box is ink (a round bullet about 0.75, a square one
1; letters and digits stay below 0.35, a degree sign or quote mark near 0.15) ..."""
BULLET_ASPECT = (0.75, 1.33)
"""... about as wide as high ..."""
BULLET_HEIGHT = 0.5
"""... at most this share of its line's height ..."""
BULLET_MIDDLE = (0.25, 0.65)
"""... and centred within this band of the line's height, from the top (a period sits on the baseline, a
footnote mark at the top)."""


def looks_like_bullet(image: PageImage, box: Box,
                      line: Box) -> bool:
    """The ink in ``box`` (pixels; a line's first word) is a list bullet, whatever the engine read it as
    (``«``, ``¢``, ``=``, ``*``: Tesseract has no good reading for a solid dot)."""
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(image.width, int(box[2]) + 1), min(image.height, int(box[3]) + 1)
    height = line[3] - line[1]
    if x1 - x0 < 2 or y1 - y0 < 2 or height <= 0:
        return False
    ink = _grey(image)[y0:y1, x0:x1] < INK
    middle = ((y0 + y1) / 2 - line[1]) / height
    return (float(ink.mean()) >= BULLET_FILL and BULLET_ASPECT[0] <= (x1 - x0) / (y1 - y0) <= BULLET_ASPECT[1]
            and (y1 - y0) <= BULLET_HEIGHT * height and BULLET_MIDDLE[0] <= middle <= BULLET_MIDDLE[1])


BULLET_REACH = 3.0
"""A bullet the engine left out (it drops a lone solid dot as noise) is looked for within this many line heights
left of the line's first word."""


def bullet_before(image: PageImage, line: Box) -> Box | None:
    """The box (pixels) of a list bullet just left of the line ``line`` (pixels) when the only ink there is one
    blob that :func:`looks_like_bullet`."""
    height = line[3] - line[1]
    x0, x1 = max(0, int(line[0] - BULLET_REACH * height)), max(0, int(line[0]) - 1)
    y0, y1 = max(0, int(line[1])), min(image.height, int(line[3]) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    ink = _grey(image)[y0:y1, x0:x1] < INK
    cols = np.flatnonzero(ink.any(axis=0))
    if cols.size == 0 or cols[-1] - cols[0] + 1 > 2 * cols.size:  # nothing, or more than one blob
        return None
    if np.any(np.diff(cols) > 1):
        return None
    rows = np.flatnonzero(ink.any(axis=1))
    box = (float(x0 + cols[0]), float(y0 + rows[0]), float(x0 + cols[-1] + 1), float(y0 + rows[-1] + 1))
    return box if looks_like_bullet(image, box, line) else None


# ---------------------------------------------------------------------- strokes
def stroke_counts(image: PageImage, box: Box) -> tuple[int, int]:
    """Ink pixels and runs of ink along the rows of ``box`` (pixels): their ratio is the mean width of the strokes
    crossed (vertical stems mostly), which bold type makes about 1.5 times wider."""
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(image.width, int(box[2]) + 1), min(image.height, int(box[3]) + 1)
    if x1 <= x0 or y1 <= y0:
        return 0, 0
    ink = _grey(image)[y0:y1, x0:x1] < INK
    runs = int(np.count_nonzero(ink[:, 1:] & ~ink[:, :-1])) + int(np.count_nonzero(ink[:, 0]))
    return int(np.count_nonzero(ink)), runs
