"""Typographic lines of a PDF page from MuPDF's own JSON and HTML writers.

PyMuPDF's ``extractDICT`` builds a Python dict for every span, and MuPDF starts a span at every
space it inserts between glyphs, so a TeX page costs a dict per word and one per space. MuPDF also
writes the same text page as JSON (a line each: its box, baseline, text, and the type of its first
character) and as HTML (a line each, split into runs wherever the type changes), in C. Read side by
side they give every line its box and text (JSON) and its runs (HTML): the run holding most of the
line's characters gives its size and font, the line is bold when every run is, and a larger first
run is a run-in head. A run's exact size and font name come from the JSON of lines that open with
its type; a type that never opens a line takes its family and printed size. Two writings that do
not match line for line leave the page to ``extractDICT`` (:func:`page_styles` returns ``None``).

Measured with ``bench/layout_paths.py`` (each document's best of two, side by side): over 128
development documents the layout pass takes 16% less CPU than through ``extractDICT``, up to half
on TeX manuals, and about 4% more on filings, whose table rows are a span each either way. On the
five evaluation folders the lines agree with ``extractDICT``'s in text, size, weight and box for
all but lines of several fonts (about 5% of a TeX manual's lines), where the main type is now the
longest run rather than the longest word; the structure scores are unchanged.
"""

from __future__ import annotations

import functools
import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

import pymupdf
from pymupdf import mupdf

from .fonts import FONT_CACHE

__all__ = ["FontBook", "Piece", "StyledLine", "StyledBlock", "page_styles", "typed_line", "base_font", "bold_font"]

SCALE = 1000.0
"""MuPDF's JSON writer prints coordinates and sizes as integers after multiplying them by the scale it
is given: 1000 keeps them to 0.001 pt, so sizes round to the 0.01 pt the layout keeps as they would from floats."""
_BUFFER = 16_384
"""Initial bytes of a writer's buffer (a dense page's JSON is 20-60 KB; the buffer grows as needed)."""

_P = re.compile(r"<p style=[^>]*>(.*?)</p>", re.S)
"""An HTML line: MuPDF writes one ``<p>`` per text line, in the JSON's order."""
_RUN = re.compile(r"((?:<(?:b|i|tt|sup)>)*)<span style=\"font-family:([^;\"]*);font-size:([\d.]+)pt[^\"]*\">"
                  r"([^<]*)</span>")
"""A run of one type: the tags MuPDF opens before it (bold, italic, monospaced, superscript), its
family and size (one decimal), its escaped text. Each run closes all its tags after its span."""

StyleKey = tuple[str, str, str]
"""A run's type as HTML shows it: family, size as printed, the opening tags."""


@dataclass(slots=True)
class FontBook:
    """What a document's lines have shown of each HTML type: the exact size and font name of the
    first character of lines opening with it (from JSON); also each family-and-tags' font name and
    each printed size's exact size, for a type only seen inside lines (pdfTeX's font expansion sets
    one face at many sizes). ``None`` marks a type or family seen with two fonts."""

    types: dict[StyleKey, tuple[float, str] | None] = field(default_factory=dict)
    names: dict[tuple[str, str], str | None] = field(default_factory=dict)
    sizes: dict[str, float] = field(default_factory=dict)

    def learn(self, key: StyleKey, size: float, font: str) -> None:
        seen = self.types.get(key, (size, font))
        self.types[key] = (size, font) if seen == (size, font) else None
        face = key[0], key[2]
        self.names[face] = font if self.names.get(face, font) == font else None
        self.sizes.setdefault(key[1], size)

    def look(self, key: StyleKey) -> tuple[float, str] | None:
        known = self.types.get(key)
        if known is not None:
            return known
        name = self.names.get((key[0], key[2]))
        return None if name is None else (self.sizes.get(key[1], float(key[1])), name)


@dataclass(slots=True)
class StyledLine:
    """A text line with its main type (the run holding most characters) and the run opening it
    when that run is set larger (``lead``: its characters, ``lead_size``)."""

    text: str
    size: float
    bold: bool
    font: str
    box: tuple[float, float, float, float]
    lead: int = 0
    lead_size: float = 0.0


@dataclass(slots=True)
class StyledBlock:
    y0: float
    y1: float
    lines: list[StyledLine]




@functools.lru_cache(maxsize=FONT_CACHE)
def base_font(name: str) -> str:
    """A font name without its subset prefix (``ABCDEF+Arial-BoldMT`` -> ``Arial-BoldMT``), as PyMuPDF
    reports it."""
    plus = name.find("+")
    return name[plus + 1:] if plus == 6 else name


@functools.lru_cache(maxsize=FONT_CACHE)
def bold_font(name: str) -> bool:
    """A bold face by its name (``...-Bold``, ``...Black``)."""
    low = name.lower()
    return "bold" in low or "black" in low


def _written(tp: pymupdf.TextPage, writer: str, arg: float) -> bytes:
    """What MuPDF's ``writer`` (``fz_print_stext_page_as_json`` or ``..._html``) writes of ``tp``."""
    buf = mupdf.FzBuffer(_BUFFER)
    out = mupdf.FzOutput(buf)
    getattr(mupdf, writer)(out, tp.this, arg)
    out.fz_close_output()
    data: bytes = buf.fz_buffer_extract()
    return data


GLYPHLESS = (0.9, -0.1)
"""Ascender and descender PyMuPDF gives a font without an ascender (an OCR layer's glyphless font)."""
_TOLERANCE = 2 / SCALE
"""Two units of the JSON writer's integers: a box this close to the type size is not stretched."""
_HALF = 0.5
"""The writer cuts each scaled value down to an integer: its middle is the value plus a half unit, so
a size rounded to 0.01 pt lands where rounding the float would."""


def _box(box: dict[str, int], base: float, size: float) -> tuple[float, float, float, float]:
    """The line's box as PyMuPDF's ``extractDICT`` gives it. MuPDF's box spans the font's ascender
    to its descender; where the two add up to less than the type size (the box is shorter than the
    size), PyMuPDF stretches them to the size in proportion, about the baseline ``base``."""
    x, y = box["x"], box["y"]
    x0, y0 = (x + _HALF) / SCALE, (y + _HALF) / SCALE
    x1, y1 = (x + box["w"] + _HALF) / SCALE, (y + box["h"] + _HALF) / SCALE
    height = y1 - y0
    if height >= size - _TOLERANCE or size <= 0 or not y0 - _TOLERANCE <= base <= y1 + _TOLERANCE:
        return x0, y0, x1, y1
    if base - y0 < _TOLERANCE:
        asc, dsc = GLYPHLESS
        return x0, base - asc * size, x1, base - dsc * size
    stretch = size / height
    return x0, base - (base - y0) * stretch, x1, base + (y1 - base) * stretch


_Run = tuple[StyleKey, str, bool]  # type, unescaped text, bold tag


def _runs(line_html: str) -> list[_Run]:
    """A line's runs. A superscript is the same font raised: its tag is left out of the type."""
    return [((family, size, tags.replace("<sup>", "") if "<sup>" in tags else tags),
             html.unescape(text) if "&" in text else text, "<b>" in tags)
            for tags, family, size, text in _RUN.findall(line_html)]


def _joined(rs: list[_Run]) -> str:
    return rs[0][1] if len(rs) == 1 else "".join(r[1] for r in rs)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters, which the HTML writer leaves out of a line or writes as another character."""


def _same(rs: list[_Run], text: str) -> bool:
    """The runs spell the JSON line's text, but for its control characters (which the HTML writer
    drops, or maps as Windows-1252 does: ``\\x88`` as ``ˆ``)."""
    joined = _joined(rs)
    if joined == text:
        return True
    if len(joined) == len(text):
        return all(a == b or _CONTROL.match(a) for a, b in zip(text, joined, strict=True))
    return joined == _CONTROL.sub("", text)


def page_styles(tp: pymupdf.TextPage, book: FontBook, lead_step: float) -> list[StyledBlock] | None:
    """The page's text blocks and styled lines, or ``None`` when the two writers cannot be matched
    line for line (the caller then uses ``extractDICT``)."""
    try:
        page = json.loads(_written(tp, "fz_print_stext_page_as_json", SCALE))
    except ValueError:  # text the writer could not encode as JSON (a broken font's code points)
        return None
    lines_html = _P.findall(_written(tp, "fz_print_stext_page_as_html", 0).decode("utf-8", "replace"))
    blocks = [b for b in page["blocks"] if b.get("type") == "text"]
    jlines = [jl for b in blocks for jl in b["lines"]]
    if len(jlines) != len(lines_html):
        return None
    runs = [_runs(h) for h in lines_html]
    opened: set[StyleKey] = set()
    for jl, rs in zip(jlines, runs, strict=True):  # the book first learns the types lines open with
        if not rs or not _same(rs, jl["text"]):
            return None
        if rs[0][0] not in opened:  # once a page: a type's lines repeat its font
            opened.add(rs[0][0])
            font = jl["font"]
            book.learn(rs[0][0], (font["size"] + _HALF) / SCALE, base_font(font["name"]))
    out: list[StyledBlock] = []
    k = 0
    for b in blocks:
        styled: list[StyledLine] = []
        for jl in b["lines"]:
            line = _styled(jl, runs[k], book, lead_step)
            k += 1
            if line.text.strip():
                styled.append(line)
        bb = b["bbox"]
        out.append(StyledBlock((bb["y"] + _HALF) / SCALE, (bb["y"] + bb["h"] + _HALF) / SCALE, styled))
    return out


def _styled(jl: dict[str, Any], rs: list[_Run], book: FontBook, lead_step: float) -> StyledLine:
    """A line whose runs spell its text: typed from its first character (JSON) and its runs."""
    text: str = jl["text"]
    font = jl["font"]
    first_size, first_name = (font["size"] + _HALF) / SCALE, base_font(font["name"])
    bbox = _box(jl["bbox"], (jl["y"] + _HALF) / SCALE, first_size)
    first_bold = font["weight"] == "bold" or bold_font(first_name)
    if len(rs) == 1 or all(r[0] == rs[0][0] for r in rs):
        return StyledLine(text, first_size, first_bold, first_name, bbox)
    return _mixed(text, rs, book, lead_step, bbox, first_size, first_name, first_bold)


def _unseen(key: StyleKey) -> tuple[float, str]:
    """Size and a font name for a type no line of the document has opened with (a maths or symbol
    face inside lines): its family, marked bold or italic as its tags say, at its printed size."""
    family, size, tags = key
    name = family.split(",")[0] + ("-Bold" if "<b>" in tags else "") + ("-Italic" if "<i>" in tags else "")
    return float(size), name


Piece = tuple[str, float, str, bool]
"""A piece of a line in one type: its text, size, font name, and whether that face is bold."""


def typed_line(text: str, pieces: list[Piece], box: tuple[float, float, float, float],
               lead_step: float) -> StyledLine:
    """A line of several pieces (HTML runs, or ``extractDICT`` spans): the first piece holding most
    characters gives its size and font, it is bold when every non-blank piece is, and a first piece
    set ``lead_step`` larger than that is its lead (a run-in head)."""
    main, longest, bold = 0, 0, True
    for i, (piece, _size, _font, piece_bold) in enumerate(pieces):
        n = len(piece.strip())
        if not n:
            continue
        if n > longest:
            main, longest = i, n
        bold = bold and piece_bold
    first, top = pieces[0], pieces[main]
    lead = len(first[0].strip()) if main != 0 and first[1] >= top[1] * lead_step else 0
    return StyledLine(text, top[1], bold, top[2], box, lead, first[1] if lead else 0.0)


def _mixed(text: str, rs: list[_Run], book: FontBook, lead_step: float, bbox: tuple[float, float, float, float],
           first_size: float, first_name: str, first_bold: bool) -> StyledLine:
    """A line of several HTML runs: the first run's type is its first character's (JSON), the others'
    as the book knows them (or as :func:`_unseen` guesses); bold is the face's or the run's tag."""
    pieces: list[Piece] = [(rs[0][1], first_size, first_name, first_bold)]
    for key, piece, tag in rs[1:]:
        size, name = book.look(key) or _unseen(key)
        pieces.append((piece, size, name, tag or bold_font(name)))
    return typed_line(text, pieces, bbox, lead_step)
