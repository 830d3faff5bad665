"""DOCX reader (python-docx + lxml): block units in body order with declared heading levels.

A paragraph is a heading when its outline level says so: set directly in the paragraph, or
inherited from its style (built-in "Heading N", a style's own ``w:outlineLvl``, or the
``basedOn`` chain). Word's navigation pane works the same way, so documents whose headings are
plain paragraphs with an outline level (common in converted files) keep their structure.
Table-of-contents lines (TOC styles, a TOC content control or a TOC field) never count as
headings: they repeat the heading titles and would double the tree.

Style levels are resolved once per style and cached; paragraphs are walked with plain lxml,
so an 800-page handbook reads in well under a second.
"""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml.ns import qn

from ..errors import ReadError
from ..model import Format, SourceDoc, Table, Unit, UnitKind
from ..settings import Limits
from .common import file_digest
from .limits import check_unpacked
from .tables import labels_rows, title_line
from .titles import metadata_title

__all__ = ["DocxReader", "BODY_TEXT_LEVEL"]

BODY_TEXT_LEVEL = 9
"""``w:outlineLvl`` value that means body text (levels 0..8 are headings 1..9)."""

_HEADING_NAME = re.compile(r"heading\s*([1-9])", re.IGNORECASE)
_HEADING_ID = re.compile(r"heading([1-9])", re.IGNORECASE)
_TOC_NAME = re.compile(r"(toc|contents)\s*(\d|heading)", re.IGNORECASE)
_TOC_GALLERY = "table of contents"

_P, _TBL, _SDT, _SDT_CONTENT, _CUSTOM_XML = qn("w:p"), qn("w:tbl"), qn("w:sdt"), qn("w:sdtContent"), qn("w:customXml")
_TR, _TC = qn("w:tr"), qn("w:tc")
_TBL_LOOK = f"{qn('w:tblPr')}/{qn('w:tblLook')}"
_TBL_HEADER = f"{qn('w:trPr')}/{qn('w:tblHeader')}"
_GRID_SPAN = f"{qn('w:tcPr')}/{qn('w:gridSpan')}"
_LOOK_FIRST_ROW, _LOOK_FIRST_COLUMN = 0x0020, 0x0080  # bits of the legacy hex w:tblLook/@w:val
_CAPTION = "caption"  # the built-in style of table and figure captions
_PPR, _OUTLINE_LVL = qn("w:pPr"), qn("w:outlineLvl")
_P_STYLE_PATH = f"{_PPR}/{qn('w:pStyle')}"
_T, _TAB, _BR, _CR, _NB_HYPHEN = qn("w:t"), qn("w:tab"), qn("w:br"), qn("w:cr"), qn("w:noBreakHyphen")
_FLD_CHAR, _INSTR, _FLD_SIMPLE = qn("w:fldChar"), qn("w:instrText"), qn("w:fldSimple")
_VAL, _TYPE, _FLD_TYPE, _INSTR_ATTR = qn("w:val"), qn("w:type"), qn("w:fldCharType"), qn("w:instr")
# Subtrees whose text is not part of the paragraph's reading text: properties, deleted and
# moved-away text, drawings and text boxes (their copies in mc:Fallback would double them).
_SKIP = frozenset(qn(t) for t in (
    "w:pPr", "w:rPr", "w:del", "w:moveFrom", "w:drawing", "w:pict", "w:object", "w:delText",
    "w:footnoteReference", "w:endnoteReference", "w:commentReference", "w:sdtPr", "w:sdtEndPr",
    "w:rPrChange", "w:pPrChange",
)) | {"{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent"}
_OLE2_MAGIC = bytes.fromhex("d0cf11e0a1b11ae1")  # the header of an encrypted DOCX (and of a legacy .doc)
_CORE_FIELDS = ("title", "author", "subject", "keywords", "category", "comments", "content_status",
                "identifier", "language", "version", "last_modified_by", "created", "modified", "last_printed")


class DocxReader:
    """Reads ``.docx`` files into paragraph, heading and table units in document order."""

    suffixes: tuple[str, ...] = (".docx",)
    format: str = Format.docx

    def read(self, path: Path, limits: Limits | None = None, password: str | None = None) -> SourceDoc:
        sha, size = file_digest(path)
        package = _open_package(path, password)
        check_unpacked(path, _unpacked_size(path, package), limits or Limits())
        try:
            document = docx.Document(package)
        except Exception as exc:  # python-docx raises several types for broken or foreign files
            raise ReadError(f"cannot open DOCX: {exc}", path=str(path),
                            hint="check that the file is a complete Word .docx (not .doc, not password-protected)"
                            ) from exc
        try:
            styles = _Styles(document.styles.element)
            walker = _Walker(styles)
            units, title = walker.units(document.element.body)
            metadata = _metadata(document)
        except Exception as exc:
            raise ReadError(f"cannot extract text from DOCX: {exc}", path=str(path),
                            hint="the document XML may be damaged; try re-saving it in Word or LibreOffice") from exc
        return SourceDoc(
            path=str(path), format=Format.docx, units=units, sha256=sha, size=size,
            title=title or metadata_title(metadata.get("title"), path), metadata=metadata, page_count=None,
            tables=walker.tables,
        )


def _open_package(path: Path, password: str | None) -> str | IO[bytes]:
    """The DOCX package to parse: the file itself, or, for a password-protected document, the package
    decrypted in memory. Word encrypts the whole package into an OLE2 compound file (``EncryptionInfo``
    and ``EncryptedPackage`` streams); a legacy ``.doc`` is an OLE2 file too, but not encrypted OOXML."""
    with open(path, "rb") as fh:
        if fh.read(len(_OLE2_MAGIC)) != _OLE2_MAGIC:
            return str(path)
    import msoffcrypto
    from msoffcrypto.exceptions import DecryptionError, FileFormatError, InvalidKeyError, ParseError

    with open(path, "rb") as fh:
        try:
            office = msoffcrypto.OfficeFile(fh)
            encrypted_ooxml = office.format == "ooxml" and office.is_encrypted()
        except (FileFormatError, ParseError, OSError, ValueError):
            encrypted_ooxml = False
        if not encrypted_ooxml:
            raise ReadError("legacy Word file (an OLE2 container such as .doc), not a .docx", path=str(path),
                            hint="save it as .docx in Word or LibreOffice")
        if not password:
            raise ReadError("DOCX is password-protected", path=str(path),
                            hint="pass its password with --password or TREEBUILD_PDF_PASSWORD, or save it "
                                 "without a password in Word or LibreOffice")
        out = io.BytesIO()
        try:
            office.load_key(password=password)
            office.decrypt(out)
        except InvalidKeyError:
            raise ReadError("wrong password for this encrypted DOCX", path=str(path),
                            hint="check the --password value or TREEBUILD_PDF_PASSWORD") from None
        except (DecryptionError, ParseError, ValueError) as exc:
            raise ReadError(f"cannot decrypt DOCX: {exc}", path=str(path),
                            hint="save it without a password in Word or LibreOffice") from None
    out.seek(0)
    return out


def _unpacked_size(path: Path, package: str | IO[bytes] | None = None) -> int:
    """Bytes the package's parts take once unzipped, from the zip directory (nothing inflated yet)."""
    try:
        with zipfile.ZipFile(package if package is not None else path) as zf:
            return sum(info.file_size for info in zf.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ReadError(f"cannot open DOCX: {exc}", path=str(path),
                        hint="the file is truncated or not a Word .docx; export or download it again") from exc


@dataclass
class _Style:
    name: str
    based_on: str | None
    outline: int | None  # the style's own w:outlineLvl, if set


class _Styles:
    """Paragraph styles with their heading level resolved through ``basedOn`` (cached)."""

    def __init__(self, root: Any) -> None:
        self._styles: dict[str, _Style] = {}
        self.default_id: str | None = None
        self._levels: dict[str, int | None] = {}
        for el in root.iterchildren(qn("w:style")):
            if el.get(_TYPE, "paragraph") != "paragraph":
                continue
            style_id = el.get(qn("w:styleId"))
            if not style_id:
                continue
            name_el, based_el = el.find(qn("w:name")), el.find(qn("w:basedOn"))
            outline_el = el.find(f"{qn('w:pPr')}/{qn('w:outlineLvl')}")
            self._styles[style_id] = _Style(
                name=_builtin_name(name_el.get(_VAL, "") if name_el is not None else style_id),
                based_on=based_el.get(_VAL) if based_el is not None else None,
                outline=_int(outline_el.get(_VAL)) if outline_el is not None else None,
            )
            if el.get(qn("w:default")) in ("1", "true", "on") and self.default_id is None:
                self.default_id = style_id

    def name(self, style_id: str | None) -> str | None:
        sid = style_id or self.default_id
        if sid is None:
            return None
        style = self._styles.get(sid)
        return style.name if style is not None else sid

    def is_toc(self, style_id: str | None) -> bool:
        name = self.name(style_id)
        return name is not None and _TOC_NAME.fullmatch(name.strip()) is not None

    def is_title(self, style_id: str | None) -> bool:
        name = self.name(style_id)
        return name is not None and name.strip().casefold() == "title"

    def level(self, style_id: str | None) -> int | None:
        """1-based heading level a style gives its paragraphs, or None for body text."""
        sid = style_id or self.default_id
        if sid is None:
            return None
        if sid not in self._levels:
            self._levels[sid] = self._resolve(sid, set())
        return self._levels[sid]

    def _resolve(self, sid: str, seen: set[str]) -> int | None:
        if sid in self._levels:
            return self._levels[sid]
        style = self._styles.get(sid)
        if style is None or sid in seen:
            m = _HEADING_ID.fullmatch(sid)
            return int(m.group(1)) if m else None
        seen.add(sid)
        if _TOC_NAME.fullmatch(style.name.strip()):
            return None
        m = _HEADING_NAME.fullmatch(style.name.strip()) or _HEADING_ID.fullmatch(sid)
        if m:
            return int(m.group(1))
        if style.outline is not None:
            return _level(style.outline)
        if style.based_on:
            return self._resolve(style.based_on, seen)
        return None


@dataclass
class _Walker:
    """Walks the body once, tracking open fields so TOC field results are recognised."""

    styles: _Styles
    fields: list[list[str]] = field(default_factory=list)  # instruction text of each open field
    in_toc_text: bool = False
    tables: list[Table] = field(default_factory=list)  # the body's tables as data, one per table unit

    def units(self, body: Any) -> tuple[list[Unit], str | None]:
        units: list[Unit] = []
        title: str | None = None
        for el, toc_block in _blocks(body, False):
            if el.tag == _TBL:
                text = self._table(el)
                if text:
                    units.append(Unit(index=len(units), kind=UnitKind.table, text=text))
                    self.tables.append(self._grid(el, units))
                continue
            text, in_toc = self._paragraph(el)
            if not text:
                continue
            style_id = _p_style(el)
            if units and units[-1].kind == UnitKind.table and (self.styles.name(style_id) or "").casefold() == _CAPTION:
                self.tables[-1] = dataclasses.replace(self.tables[-1], title=" ".join(text.split()))  # caption below
            level = None if toc_block or in_toc or self.styles.is_toc(style_id) else self._level(el, style_id)
            if title is None and level is None and self.styles.is_title(style_id):
                title = " ".join(text.split())
            units.append(Unit(index=len(units), kind=UnitKind.heading if level else UnitKind.paragraph, text=text,
                              heading_level=level, style=self.styles.name(style_id)))
        return units, title

    def _level(self, p: Any, style_id: str | None) -> int | None:
        ppr = p.find(_PPR)
        if ppr is not None:
            direct = ppr.find(_OUTLINE_LVL)
            if direct is not None:
                return _level(_int(direct.get(_VAL)))
        return self.styles.level(style_id)

    def _paragraph(self, p: Any) -> tuple[str, bool]:
        out: list[str] = []
        self.in_toc_text = False
        self._collect(p, out)
        return "".join(out).strip(), self.in_toc_text

    def _collect(self, el: Any, out: list[str]) -> None:
        for child in el:
            tag = child.tag
            if tag == _T:
                if child.text:
                    out.append(child.text)
                    if self.fields and not self.in_toc_text:
                        self.in_toc_text = any("".join(f).strip().upper().startswith("TOC") for f in self.fields)
            elif tag == _TAB:
                out.append("\t")
            elif tag == _BR or tag == _CR:
                if child.get(_TYPE) in (None, "textWrapping"):
                    out.append("\n")
            elif tag == _NB_HYPHEN:
                out.append("-")
            elif tag == _FLD_CHAR:
                kind = child.get(_FLD_TYPE)
                if kind == "begin":
                    self.fields.append([])
                elif kind == "end" and self.fields:
                    self.fields.pop()
            elif tag == _INSTR:
                if self.fields and child.text:
                    self.fields[-1].append(child.text)
            elif tag == _FLD_SIMPLE:
                self.fields.append([child.get(_INSTR_ATTR, "")])
                self._collect(child, out)
                self.fields.pop()
            elif tag in _SKIP or not isinstance(tag, str):
                continue
            else:
                self._collect(child, out)

    def _table(self, tbl: Any) -> str:
        rows: list[str] = []
        for tr in _wrapped(tbl, _TR):
            cells = [self._cell(tc) for tc in _wrapped(tr, _TC) if not _continues_merge(tc)]
            if any(cells):
                rows.append(" | ".join(cells))
        return "\n".join(rows)

    def _grid(self, tbl: Any, units: list[Unit]) -> Table:
        """The table unit just added (``units[-1]``) as data: a cell per grid column (a merged cell's text in
        its first column, the columns it spans blank; a cell continuing a vertical merge blank), header rows
        as the table declares them (rows repeated on each page, else the style's "Header Row" option), row
        labels by the "First Column" option, the title from a caption paragraph or the paragraph above."""
        rows: list[list[str]] = []
        repeated = 0
        for tr in _wrapped(tbl, _TR):
            cells: list[str] = []
            for tc in _wrapped(tr, _TC):
                cells.append("" if _continues_merge(tc) else self._cell(tc))
                cells.extend([""] * (_span(tc) - 1))
            if any(cells):
                rows.append(cells)
                if repeated == len(rows) - 1 and _on(tr.find(_TBL_HEADER)):
                    repeated += 1
        first_row, first_column = _look(tbl)
        header = repeated or int(first_row)
        unit = units[-1]
        above = units[-2] if len(units) > 1 else None
        title = None
        if above is not None and above.kind != UnitKind.table:
            title = title_line(above.text)
            if (above.style or "").casefold() != _CAPTION and above.kind != UnitKind.heading and title is not None \
                    and len(above.text.splitlines()) > 1:
                title = None  # the last line of a paragraph of several lines is prose, not a title
        table = Table.from_cells(rows, unit=unit.index, start=0, end=len(unit.text), title=title)
        header = min(header, max(len(table.rows) - 1, 0))
        labels = first_column if first_column is not None else labels_rows(table.rows[header:])
        return dataclasses.replace(table, header_rows=header, label_columns=int(labels and table.width > 1))

    def _cell(self, tc: Any) -> str:
        parts: list[str] = []
        for el, _ in _blocks(tc, False):
            text = self._table(el) if el.tag == _TBL else self._paragraph(el)[0]
            if text:
                parts.append(" ".join(text.split()))
        return " ".join(parts)


def _blocks(container: Any, toc: bool) -> Iterator[tuple[Any, bool]]:
    """Paragraphs and tables in order, looking through content controls and custom XML."""
    for el in container:
        tag = el.tag
        if tag == _P or tag == _TBL:
            yield el, toc
        elif tag == _SDT:
            content = el.find(_SDT_CONTENT)
            if content is not None:
                yield from _blocks(content, toc or _is_toc_sdt(el))
        elif tag == _CUSTOM_XML:
            yield from _blocks(el, toc)


def _is_toc_sdt(sdt: Any) -> bool:
    gallery = sdt.find(f"{qn('w:sdtPr')}/{qn('w:docPartObj')}/{qn('w:docPartGallery')}")
    return gallery is not None and gallery.get(_VAL, "").strip().casefold() == _TOC_GALLERY


def _wrapped(container: Any, tag: str) -> Iterator[Any]:
    """Children with ``tag`` (rows of a table, cells of a row), also inside content controls."""
    for el in container:
        if el.tag == tag:
            yield el
        elif el.tag == _SDT:
            content = el.find(_SDT_CONTENT)
            if content is not None:
                yield from _wrapped(content, tag)
        elif el.tag == _CUSTOM_XML:
            yield from _wrapped(el, tag)


def _continues_merge(tc: Any) -> bool:
    """A cell that continues a vertical merge repeats the cell above; its text is read once."""
    vmerge = tc.find(f"{qn('w:tcPr')}/{qn('w:vMerge')}")
    return vmerge is not None and vmerge.get(_VAL, "continue") != "restart"


def _span(tc: Any) -> int:
    el = tc.find(_GRID_SPAN)
    return max(1, _int(el.get(_VAL)) or 1) if el is not None else 1


def _on(el: Any) -> bool:
    """An OOXML on/off property: present and not switched off (``w:val`` of ``0``/``false``/``off``)."""
    return el is not None and el.get(_VAL, "true").casefold() not in ("0", "false", "off")


def _look(tbl: Any) -> tuple[bool, bool | None]:
    """A table's "Header Row" and "First Column" style options (``w:tblLook``): its attributes, or the bits
    of its legacy hex value; no ``w:tblLook`` means no header row and no say about the first column."""
    look = tbl.find(_TBL_LOOK)
    if look is None:
        return False, None
    bits = _hex(look.get(_VAL))
    return (_flag(look.get(qn("w:firstRow")), bits, _LOOK_FIRST_ROW),
            _flag(look.get(qn("w:firstColumn")), bits, _LOOK_FIRST_COLUMN))


def _flag(attr: str | None, bits: int, mask: int) -> bool:
    if attr is not None:
        return attr.casefold() in ("1", "true", "on")
    return bool(bits & mask)


def _hex(value: str | None) -> int:
    try:
        return int(value, 16) if value else 0
    except ValueError:
        return 0


def _p_style(p: Any) -> str | None:
    el = p.find(_P_STYLE_PATH)
    return el.get(_VAL) if el is not None else None


def _level(outline: int | None) -> int | None:
    if outline is None or not 0 <= outline < BODY_TEXT_LEVEL:
        return None
    return outline + 1


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _builtin_name(name: str) -> str:
    """Built-in style names are stored lower-case ("heading 1"); show them as Word does."""
    from docx.styles import BabelFish

    return str(BabelFish.internal2ui(name))


def _metadata(document: Any) -> dict[str, str]:
    """Core properties that are set; python-docx invents defaults when the part is missing."""
    try:
        document.part.package.part_related_by(RT.CORE_PROPERTIES)
    except KeyError:
        return {}
    core = document.core_properties
    meta: dict[str, str] = {}
    for name in _CORE_FIELDS:
        value = getattr(core, name, None)
        if isinstance(value, datetime):
            meta[name] = value.isoformat()
        elif value:
            meta[name] = " ".join(str(value).split())
    if core.revision:
        meta["revision"] = str(core.revision)
    return meta
