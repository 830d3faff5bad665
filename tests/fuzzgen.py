"""Hostile documents for the fuzz harness (``tests/test_fuzz.py`` and ``bench/fuzz.py``).

PDFs are written object by object (so every number is under control): text in a standard font and in Type3
fonts whose ToUnicode map makes any text extractable (right-to-left, CJK, ligatures, soft hyphens, control
characters), sizes of 0 and of thousands of points, degenerate, rotated and mirrored text matrices, invisible
text (render mode 3, as OCR'd scans have), the same text drawn twice over itself, text outside the page, pages of
zero area, inverted or huge boxes, image-only pages, pages of financial statements (columns of figures, which the
PDF table pass reads) with those numbers, thousands of tiny pages, and outlines with cycles and destinations
out of range. DOCX files come from python-docx with random headings and text. Mutations cut,
flip bytes of, or delete objects (PDF) or parts (DOCX) from a document.

Every generator is a hypothesis strategy; :func:`check` builds one file and says whether it ended in a tree or
in a clear error (a :class:`~treebuild.errors.TreebuildError`), raising :class:`Unexpected` otherwise.
"""

from __future__ import annotations

import io
import random
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docx
from hypothesis import strategies as st

__all__ = ["Piece", "PageSpec", "OutlineSpec", "DocSpec", "render_pdf", "pdf_specs", "tiny_pages_specs",
           "statement_page", "statement_pages", "statement_specs", "GUARDED",
           "docx_specs", "render_docx", "Mutation", "mutations", "mutate_pdf", "mutate_docx", "random_mutations",
           "Outcome", "Unexpected", "check", "SAMPLES"]

# Texts that have broken text tools: scripts written right to left, CJK, ligatures, soft hyphens, combining
# marks, control characters, private-use and astral characters, numbering and filing words that heading
# detection looks for.
SAMPLES = [
    "Item 7. Management's Discussion", "PART II", "1.2.3 Scope of the Standard", "Table of Contents",
    "שלום עולם ספר ראשון", "مرحبا بالعالم الفصل الأول", "第一章 总则 第二条", "목차 제1장 서론", "ｆｕｌｌ ｗｉｄｔｈ",
    "ﬁnancial ﬂows and ﬃciency", "in\u00adter\u00adna\u00adtion\u00adal", "e\u0301te\u0301 cafe\u0301",
    "tab\there\x0bvertical\x0cform", "\u200bzero\u200dwidth\u200e", "\U0001d400\U0001f600 astral", "\ue000private",
    "...........................  12", "Contents 1 Introduction 3 2 Scope 7", "", "   ", "Ⅳ. Roman Ⅻ",
]
WORDS = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FFF, blacklist_categories=("Cs",)),
                min_size=0, max_size=24)
TEXT = st.one_of(st.sampled_from(SAMPLES), WORDS)
SIZE = st.one_of(st.sampled_from([0.0, 1e-4, 0.5, 6.0, 11.0, 14.0, 72.0, 1000.0, 20000.0, -12.0]),
                 st.floats(0.0, 400.0))
# a, b, c, d of the text matrix: upright, rotated 90/180/270, mirrored both ways, skewed, squashed to nothing
MATRIX = st.sampled_from([(1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0), (-1, 0, 0, 1), (1, 0, 0, -1),
                          (1, 0.4, 0.3, 1), (0, 0, 0, 0), (1e-6, 0, 0, 1e-6), (1, 0, 0, 1), (1, 0, 0, 1)])
COORD = st.one_of(st.floats(0.0, 612.0), st.floats(-5000.0, 20000.0))
NORMAL_BOX = (0.0, 0.0, 612.0, 792.0)
BOX = st.one_of(st.just(NORMAL_BOX), st.sampled_from([
    (0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 612.0, 0.0), (612.0, 792.0, 0.0, 0.0), (0.0, 0.0, 3.0, 3.0),
    (100.0, 100.0, 712.0, 892.0), (0.0, 0.0, 14400.0, 14400.0), (-300.0, -300.0, 300.0, 300.0)]))


@dataclass(frozen=True)
class Piece:
    """One thing drawn on a page: a line of ``text`` (``font`` "std": Helvetica; "t3": a Type3 font whose
    ToUnicode map gives the text back; "t3zero": the same with a zero font matrix) or, for ``kind`` "image",
    a grey image scaled to ``size``."""

    kind: str = "text"
    text: str = ""
    font: str = "std"
    size: float = 11.0
    matrix: tuple[float, float, float, float] = (1, 0, 0, 1)
    x: float = 72.0
    y: float = 700.0
    render: int = 0  # text render mode; 3 = invisible
    copies: int = 1  # drawn this many times, each 0.3 pt to the right (fake bold, duplicated layers)


@dataclass(frozen=True)
class PageSpec:
    box: tuple[float, float, float, float] = NORMAL_BOX
    rotate: int = 0
    pieces: tuple[Piece, ...] = ()
    garbage: bool = False  # an operator with unparsable operands before the text


@dataclass(frozen=True)
class OutlineSpec:
    """Bookmarks: (level, title, target page index, which may be out of range) and how they are broken."""

    entries: tuple[tuple[int, str, int], ...] = ()
    cycle: bool = False  # the last top-level entry's /Next points back at the first
    self_parent: bool = False  # the first entry's /First points at itself


@dataclass(frozen=True)
class DocSpec:
    pages: tuple[PageSpec, ...]
    outline: OutlineSpec = field(default_factory=OutlineSpec)
    labels: bool = False  # page labels (roman then arabic)


# ------------------------------------------------------------------------------- strategies

@st.composite
def pieces(draw: st.DrawFn) -> Piece:
    if draw(st.integers(0, 9)) == 0:
        return Piece(kind="image", size=draw(st.sampled_from([0.0, 1.0, 200.0, 612.0, 5000.0])),
                     x=draw(COORD), y=draw(COORD))
    return Piece(text=draw(TEXT), font=draw(st.sampled_from(["std", "std", "t3", "t3zero"])), size=draw(SIZE),
                 matrix=draw(MATRIX), x=draw(COORD), y=draw(COORD),
                 render=draw(st.sampled_from([0, 0, 0, 3, 3, 1, 7])), copies=draw(st.sampled_from([1, 1, 1, 2, 4])))


@st.composite
def pages(draw: st.DrawFn) -> PageSpec:
    kind = draw(st.integers(0, 9))
    if kind == 0:  # an image-only page, as a scan without OCR
        content: list[Piece] = [Piece(kind="image", size=612.0, x=0.0, y=0.0)]
    elif kind == 1:  # a dense page: many lines, most of them ordinary
        n = draw(st.integers(100, 1500))
        content = [Piece(text=f"line {i} of a dense page", size=4.0, x=36.0, y=780.0 - (i % 390) * 2.0)
                   for i in range(n)]
    elif kind == 2:  # a page of a financial statement: the PDF table pass reads it
        return draw(statement_pages())
    else:
        content = draw(st.lists(pieces(), max_size=12))
    return PageSpec(box=draw(BOX), rotate=draw(st.sampled_from([0, 0, 0, 90, 180, 270, 45, -90])),
                    pieces=tuple(content), garbage=draw(st.integers(0, 14)) == 0)


LABELS = st.one_of(st.sampled_from(["Revenue", "Cost of sales", "Total current assets", "Current assets:",
                                    "LIABILITIES AND EQUITY", "net of tax of $12", "(In millions)", "", "Total"]),
                   WORDS)
FIGURES = st.one_of(st.sampled_from(["1,234", "(56)", "—", "-", "$", "$ 4,236", "2022", "2021", "12.5%", "0",
                                     "(1,024.50)", "n/a", "1", "2", "3"]),
                    st.integers(-10**12, 10**12).map(lambda v: f"{v:,}"))


def statement_page(cells: Sequence[Sequence[str]], *, title: str | None = "CONSOLIDATED BALANCE SHEETS",
                   years: bool = True, size: float = 9.0, lead: float = 12.0, pitch: float = 70.0,
                   matrix: tuple[float, float, float, float] = (1, 0, 0, 1), copies: int = 1, top: float = 740.0,
                   box: tuple[float, float, float, float] = NORMAL_BOX, rotate: int = 0) -> PageSpec:
    """A page of a financial statement as the PDF table pass looks for it: each row a label at the left and
    its figures in columns ``pitch`` apart (a blank cell draws nothing), under a title and a row of years."""
    columns = max((len(r) - 1 for r in cells), default=0)
    content: list[Piece] = []
    if title is not None:
        content.append(Piece(text=title, size=size * 1.3, matrix=matrix, x=72.0, y=top + 2 * lead))
    if years:
        content += [Piece(text=str(2022 - k), size=size, matrix=matrix, x=300.0 + k * pitch, y=top + lead)
                    for k in range(columns)]
    for r, row in enumerate(cells):
        y = top - r * lead
        for k, cell in enumerate(row):
            if cell:
                content.append(Piece(text=cell, size=size, matrix=matrix, x=72.0 if k == 0 else 300.0 + (k - 1) * pitch,
                                     y=y, copies=copies))
    return PageSpec(box=box, rotate=rotate, pieces=tuple(content))


@st.composite
def statement_pages(draw: st.DrawFn) -> PageSpec:
    """A statement page (:func:`statement_page`) with the same hostility as the rest: sizes of 0 and of
    thousands of points, rows at one height or climbing, columns on top of each other or in reverse, rotated
    and mirrored matrices, rows drawn twice, odd boxes; figures of any length, blank cells."""
    columns = draw(st.integers(1, 6))
    cells = draw(st.lists(st.tuples(LABELS, st.lists(st.one_of(FIGURES, st.just("")), min_size=columns,
                                                                max_size=columns)),
                          min_size=3, max_size=60))
    return statement_page(
        [(label, *figures) for label, figures in cells], title=draw(st.one_of(st.none(), TEXT)),
        years=draw(st.booleans()), size=draw(st.one_of(st.just(9.0), SIZE)),
        lead=draw(st.sampled_from([12.0, 12.0, 12.0, 2.0, 0.0, -12.0, 0.01, 40.0])),
        pitch=draw(st.sampled_from([70.0, 70.0, 70.0, 20.0, 0.0, -70.0, 1.0])),
        matrix=draw(st.one_of(st.just((1, 0, 0, 1)), MATRIX)), copies=draw(st.sampled_from([1, 1, 1, 2])),
        top=draw(st.one_of(st.just(740.0), COORD)), box=draw(BOX), rotate=draw(st.sampled_from([0, 0, 0, 90, 180])))


@st.composite
def statement_specs(draw: st.DrawFn) -> DocSpec:
    """A document of 1-4 statement pages (:func:`statement_pages`), the PDF table pass's ground."""
    return DocSpec(tuple(draw(st.lists(statement_pages(), min_size=1, max_size=4))))


@st.composite
def outlines(draw: st.DrawFn, n_pages: int) -> OutlineSpec:
    entries = draw(st.lists(st.tuples(st.integers(1, 4), TEXT, st.integers(-3, n_pages + 4)), max_size=10))
    return OutlineSpec(tuple(entries), cycle=draw(st.booleans()) and len(entries) > 1,
                       self_parent=draw(st.integers(0, 4)) == 0 and bool(entries))


@st.composite
def pdf_specs(draw: st.DrawFn) -> DocSpec:
    """A document of 1-6 hostile pages, maybe with a broken outline and page labels."""
    page_list = draw(st.lists(pages(), min_size=1, max_size=6))
    return DocSpec(tuple(page_list), draw(outlines(len(page_list))), labels=draw(st.booleans()))


@st.composite
def tiny_pages_specs(draw: st.DrawFn, low: int = 1000, high: int = 3000) -> DocSpec:
    """Thousands of tiny pages of a word or two each."""
    n = draw(st.integers(low, high))
    word = draw(st.sampled_from(SAMPLES[:6]))
    page_list = [PageSpec(box=(0.0, 0.0, 20.0, 20.0), pieces=(Piece(text=f"{word} {i}", size=2.0, x=1.0, y=10.0),))
                 for i in range(n)]
    return DocSpec(tuple(page_list), OutlineSpec(((1, "Start", 0), (1, "Middle", n // 2), (1, "End", n - 1))))


# ------------------------------------------------------------------------------- writing a PDF

def _num(v: float) -> str:
    """A PDF number (no exponent form): fixed point, trailing zeros dropped."""
    text = f"{v:.6f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-", "-0") else "0"


def _literal(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _utf16_hex(ch: str) -> str:
    return ch.encode("utf-16-be").hex().upper()


class _Writer:
    """Numbered objects, then a correct cross-reference table."""

    def __init__(self) -> None:
        self.objects: list[bytes] = []

    def reserve(self) -> int:
        self.objects.append(b"")
        return len(self.objects)

    def set(self, num: int, body: bytes) -> None:
        self.objects[num - 1] = body

    def add(self, body: bytes) -> int:
        num = self.reserve()
        self.set(num, body)
        return num

    def stream(self, data: bytes, extra: bytes = b"") -> int:
        return self.add(b"<< /Length " + str(len(data)).encode() + extra + b" >>\nstream\n" + data + b"\nendstream")

    def finish(self, root: int) -> bytes:
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(self.objects, start=1):
            offsets.append(len(out))
            out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(self.objects) + 1}\n0000000000 65535 f \n".encode()
        for off in offsets:
            out += f"{off:010d} 00000 n \n".encode()
        out += f"trailer\n<< /Size {len(self.objects) + 1} /Root {root} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
        return bytes(out)


def _type3_font(w: _Writer, chars: Sequence[str], zero_matrix: bool) -> int:
    """A Type3 font drawing every glyph as a box; codes 1..n map to ``chars`` through its ToUnicode CMap."""
    glyph = w.stream(b"600 0 0 0 500 700 d1 0 0 500 700 re f")
    names = " ".join(f"/g{i}" for i in range(1, len(chars) + 1))
    procs = " ".join(f"/g{i} {glyph} 0 R" for i in range(1, len(chars) + 1))
    lines = []
    for start in range(0, len(chars), 100):  # at most 100 mappings per bfchar block
        block = chars[start:start + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines += [f"<{start + i + 1:02X}> <{_utf16_hex(ch)}>" for i, ch in enumerate(block)]
        lines.append("endbfchar")
    cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n1 begincodespacerange <00> <FF> endcodespacerange\n"
            + "\n".join(lines) + "\nendcmap CMapName currentdict /CMap defineresource pop end end\n")
    to_unicode = w.stream(cmap.encode())
    matrix = "0 0 0 0 0 0" if zero_matrix else "0.001 0 0 0.001 0 0"
    n = max(1, len(chars))
    return w.add(f"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 750 750] /FontMatrix [{matrix}] "
                 f"/CharProcs << {procs} >> /Encoding << /Type /Encoding /Differences [1 {names}] >> "
                 f"/FirstChar 1 /LastChar {n} /Widths [{' '.join(['600'] * n)}] /ToUnicode {to_unicode} 0 R "
                 f"/Resources << >> >>".encode())


_IMAGE = b"BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\x80\xff\x40 EI"


def _page_content(page: PageSpec, codes: dict[str, int]) -> bytes:
    ops: list[bytes] = []
    if page.garbage:
        ops.append(b"1e400 nan 0 Td (x) Tj\n")  # MuPDF must shrug this off
    for p in page.pieces:
        if p.kind == "image":
            ops.append(f"q {_num(p.size)} 0 0 {_num(p.size)} {_num(p.x)} {_num(p.y)} cm ".encode() + _IMAGE + b" Q\n")
            continue
        if p.font == "std":
            font, shown = b"/F1", _literal(p.text)
        else:
            font = b"/T3" if p.font == "t3" else b"/T0"
            shown = b"<" + "".join(f"{codes[ch]:02X}" for ch in p.text[:200] if ch in codes).encode() + b">"
        a, b, c, d = p.matrix
        for k in range(p.copies):
            ops.append(b"BT " + font + f" {_num(p.size)} Tf {p.render} Tr {_num(a)} {_num(b)} {_num(c)} {_num(d)} "
                       f"{_num(p.x + 0.3 * k)} {_num(p.y)} Tm ".encode() + shown + b" Tj ET\n")
    return b"".join(ops)


def render_pdf(spec: DocSpec) -> bytes:
    """The bytes of a PDF drawn as ``spec`` says (a valid file: its hostility is in what it contains)."""
    w = _Writer()
    catalog, tree = w.reserve(), w.reserve()
    helvetica = w.add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    chars = sorted({ch for pg in spec.pages for p in pg.pieces if p.font != "std" for ch in p.text[:200]})[:250]
    codes = {ch: i for i, ch in enumerate(chars, start=1)}
    type3 = _type3_font(w, chars, zero_matrix=False)
    type3_zero = _type3_font(w, chars, zero_matrix=True)
    fonts = f"/Font << /F1 {helvetica} 0 R /T3 {type3} 0 R /T0 {type3_zero} 0 R >>"
    kids = []
    for pg in spec.pages:
        content = w.stream(_page_content(pg, codes))
        box = " ".join(_num(v) for v in pg.box)
        kids.append(w.add(f"<< /Type /Page /Parent {tree} 0 R /MediaBox [{box}] /Rotate {pg.rotate} "
                          f"/Resources << {fonts} >> /Contents {content} 0 R >>".encode()))
    w.set(tree, f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode())
    extra = ""
    if spec.outline.entries:
        extra += f" /Outlines {_outline(w, spec.outline, kids)} 0 R"
    if spec.labels and len(kids) > 1:
        extra += f" /PageLabels << /Nums [0 << /S /r >> {min(2, len(kids) - 1)} << /S /D /St 1 >>] >>"
    w.set(catalog, f"<< /Type /Catalog /Pages {tree} 0 R{extra} >>".encode())
    return w.finish(catalog)


def _outline(w: _Writer, spec: OutlineSpec, kids: list[int]) -> int:
    """Outline items nested by level (a deeper level than the previous + 1 nests one deeper)."""
    root = w.reserve()
    nums = [w.reserve() for _ in spec.entries]
    parents: list[int] = []  # index of the entry each entry hangs under (-1: the root)
    stack: list[tuple[int, int]] = []  # (level, index)
    for i, (level, _title, _page) in enumerate(spec.entries):
        while stack and stack[-1][0] >= level:
            stack.pop()
        parents.append(stack[-1][1] if stack else -1)
        stack.append((level, i))
    children: dict[int, list[int]] = {}
    for i, parent in enumerate(parents):
        children.setdefault(parent, []).append(i)
    for i, (_level, title, page) in enumerate(spec.entries):
        parent_ref = nums[parents[i]] if parents[i] >= 0 else root
        sibs = children[parents[i]]
        pos = sibs.index(i)
        parts = [f"/Title <FEFF{''.join(_utf16_hex(ch) for ch in title[:60])}>", f"/Parent {parent_ref} 0 R"]
        target = f"{kids[page]} 0 R" if 0 <= page < len(kids) else str(page)  # out of range: a bare number
        parts.append(f"/Dest [{target} /XYZ 0 700 0]")
        if pos > 0:
            parts.append(f"/Prev {nums[sibs[pos - 1]]} 0 R")
        if pos + 1 < len(sibs):
            parts.append(f"/Next {nums[sibs[pos + 1]]} 0 R")
        elif spec.cycle and parents[i] == -1 and len(sibs) > 1:
            parts.append(f"/Next {nums[sibs[0]]} 0 R")
        kids_of = children.get(i, [])
        if spec.self_parent and i == 0:
            parts.append(f"/First {nums[0]} 0 R /Last {nums[0]} 0 R /Count 1")
        elif kids_of:
            parts.append(f"/First {nums[kids_of[0]]} 0 R /Last {nums[kids_of[-1]]} 0 R /Count {len(kids_of)}")
        w.set(nums[i], f"<< {' '.join(parts)} >>".encode())
    top = children.get(-1, [])
    w.set(root, f"<< /Type /Outlines /First {nums[top[0]]} 0 R /Last {nums[top[-1]]} 0 R /Count {len(top)} >>"
          .encode())
    return root


# ------------------------------------------------------------------------------- DOCX

XML_SAFE = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FFF, blacklist_categories=("Cs",)),
                   max_size=40)


@st.composite
def docx_specs(draw: st.DrawFn) -> list[tuple[int, str]]:
    """Paragraphs as (heading level, text); level 0 is body text."""
    text = st.one_of(st.sampled_from([s for s in SAMPLES if "\x0b" not in s and "\x0c" not in s]), XML_SAFE)
    return draw(st.lists(st.tuples(st.integers(0, 9), text), min_size=1, max_size=25))


def render_docx(paragraphs: Sequence[tuple[int, str]]) -> bytes:
    d = docx.Document()
    for level, text in paragraphs:
        if 1 <= level <= 9:
            d.add_heading(text, level=level)
        else:
            d.add_paragraph(text)
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


# ------------------------------------------------------------------------------- mutations

@dataclass(frozen=True)
class Mutation:
    """``cut``: keep the first ``at`` share of the bytes; ``flip``: XOR ``value`` into the byte at ``at``;
    ``drop``: delete the object (PDF) or part (DOCX) found at ``at``; ``garble``: flip bytes inside the part
    at ``at`` of a DOCX and zip it again (the damage reaches the XML parser, not only the zip reader)."""

    kind: str
    at: float  # 0..1: where in the file (or in the list of objects or parts)
    value: int = 0xFF


def _kinds(docx_file: bool) -> list[str]:
    """Cuts mostly end in "truncated" at once, so flips and deleted objects (which MuPDF repairs, and the
    reader then reads) come more often."""
    return ["cut"] + ["flip"] * 3 + ["drop"] * 2 + (["garble"] * 3 if docx_file else [])


def mutations(docx_file: bool = False) -> st.SearchStrategy[list[Mutation]]:
    one = st.builds(Mutation, st.sampled_from(_kinds(docx_file)), st.floats(0.0, 1.0, exclude_max=True),
                    st.integers(1, 255))
    return st.lists(one, min_size=1, max_size=4)


def random_mutations(rng: random.Random, docx_file: bool = False) -> list[Mutation]:
    """The same mutations drawn from a seeded ``random.Random`` (``bench/fuzz.py`` on corpus files)."""
    kinds = _kinds(docx_file)
    return [Mutation(rng.choice(kinds), rng.random(), rng.randint(1, 255)) for _ in range(rng.randint(1, 4))]


_OBJ = re.compile(rb"\d+ 0 obj\b.*?endobj", re.S)


def mutate_pdf(data: bytes, ops: Sequence[Mutation]) -> bytes:
    out = bytearray(data)
    for op in ops:
        if not out:
            break
        if op.kind == "cut":
            del out[int(op.at * len(out)):]
        elif op.kind == "flip":
            out[int(op.at * len(out))] ^= op.value
        else:
            found = list(_OBJ.finditer(bytes(out)))
            if found:
                m = found[int(op.at * len(found))]
                del out[m.start():m.end()]
    return bytes(out)


def mutate_docx(data: bytes, ops: Sequence[Mutation]) -> bytes:
    out = data
    for op in ops:
        if op.kind in ("drop", "garble"):
            try:
                with zipfile.ZipFile(io.BytesIO(out)) as z:
                    parts = [(i, z.read(i)) for i in z.infolist()]
            except Exception:  # noqa: BLE001  (zipfile, zlib, struct: any damage the zip reader trips on)
                continue  # already damaged past the zip reader: the byte-level mutations still apply
            k = int(op.at * len(parts))
            if op.kind == "drop":
                del parts[k]
            else:
                info, body = parts[k]
                body = bytearray(body)
                if body:
                    for j in range(1, 4):
                        body[(j * len(body)) // 4 - 1 if len(body) > 4 else 0] ^= op.value
                parts[k] = (info, bytes(body))
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
                for info, body in parts:
                    z.writestr(info.filename, body)
            out = buf.getvalue()
        else:
            out = mutate_pdf(out, [op])  # cut and flip work on any bytes
    return out


# ------------------------------------------------------------------------------- the check

@dataclass(frozen=True)
class Outcome:
    kind: str  # "tree" or "error"
    detail: str  # node count and method, or the error's message
    pages: int | None = None
    tree: Any = field(default=None, repr=False, compare=False)


GUARDED = ("table_pass_failed", "source_failed")
"""Finding codes of a heuristic that failed behind its guard: the document still got a tree, and the harness
counts them (a guard that catches something points at a bug in what it guards)."""


class Unexpected(AssertionError):
    """A build ended in something other than a tree or a clear error."""


def check(path: Path, *, store: object | None = None) -> Outcome:
    """Build ``path`` (and commit the tree to ``store`` when given): a tree whose nodes are sane, or a clear
    error naming the file. Anything else raises :class:`Unexpected` with the input's name and the exception."""
    import treebuild
    from treebuild.errors import TreebuildError

    try:
        tree = treebuild.build(path)
        _check_tree(tree)
        if store is not None:
            from treebuild.store import Store

            assert isinstance(store, Store)
            store.commit(tree, doc_id="fuzz", settings_hash="fuzz", force=True)
    except TreebuildError as exc:
        if str(path) not in str(exc) and store is None:
            raise Unexpected(f"{path.name}: an error that does not name the file: {exc}") from exc
        return Outcome("error", str(exc))
    except Exception as exc:
        raise Unexpected(f"{path.name}: {type(exc).__name__}: {exc}") from exc
    return Outcome("tree", f"{len(list(tree.walk()))} nodes, {tree.method}", tree.doc.page_count, tree)


def _check_tree(tree: object) -> None:
    """Nodes that do not mislead: ids unique, spans and pages in order and inside the document."""
    from treebuild.model import Tree

    assert isinstance(tree, Tree)
    nodes = list(tree.walk())
    if not nodes:
        raise Unexpected(f"{tree.doc.path}: a tree without nodes")
    ids = [n.node_id for n in nodes]
    if len(set(ids)) != len(ids):
        raise Unexpected(f"{tree.doc.path}: node ids repeat")
    pages = tree.doc.page_count
    units = tree.doc.units
    for a, b in zip(tree.doc.tables, tree.doc.tables[1:], strict=False):
        if (b.unit, b.start) < (a.unit, a.end):
            raise Unexpected(f"{tree.doc.path}: tables out of order or overlapping on unit {b.unit}")
    for t in tree.doc.tables:
        if not (0 <= t.unit < len(units) and 0 <= t.start < t.end <= len(units[t.unit].text)):
            raise Unexpected(f"{tree.doc.path}: a table spans {t.start}-{t.end} of unit {t.unit}")
    for n in nodes:
        if (n.end.unit, n.end.char) < (n.start.unit, n.start.char):
            raise Unexpected(f"{tree.doc.path}: node {n.node_id} ends before it starts")
        if pages and n.start_page is not None and not (1 <= n.start_page <= (n.end_page or pages) <= pages):
            raise Unexpected(f"{tree.doc.path}: node {n.node_id} pages {n.start_page}-{n.end_page} of {pages}")
