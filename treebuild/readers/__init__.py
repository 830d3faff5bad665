"""One reader per format, chosen by file suffix (docling-style backends).

Each reader turns a file into a :class:`~treebuild.model.SourceDoc`: ordered units with text
and a source anchor, plus whatever structure the format itself declares. ``read`` checks the
file first (exists, regular, not empty, content matching its suffix, under the size cap), so
every reader starts from a plausible file, and the unit and character caps after reading,
before any structure work.

Readers are entry points of the ``treebuild.readers`` group (:mod:`treebuild.plugins`): treebuild's
own register a :class:`ReaderSpec` (format, suffixes, the class imported on first use, so reading a
Markdown file never imports PyMuPDF); a plug-in package may register a spec or a :class:`Reader`
class. A suffix or a format two readers claim is an error naming both, never a race of install order.
"""

from __future__ import annotations

import errno
import functools
import os
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import ReadError, UnsupportedFormat
from ..model import SourceDoc
from ..plugins import PluginError, load_group
from .limits import check_file_size, check_text

if TYPE_CHECKING:
    from ..settings import Limits
    from .ocr import OcrRequest

__all__ = ["Reader", "ReaderSpec", "READERS", "reader_for", "format_for", "read", "preflight", "check_path",
           "SUPPORTED_SUFFIXES", "FORMATS", "PASSWORD_ENV", "ENTRY_POINT_GROUP", "PDF", "DOCX", "MARKDOWN", "HTML",
           "TEXT"]


class Reader(Protocol):
    """A format backend: which suffixes it takes, the format name it records, and ``read``."""

    @property
    def suffixes(self) -> tuple[str, ...]: ...

    @property
    def format(self) -> str: ...

    def read(self, path: Path, limits: Limits, password: str | None = None) -> SourceDoc: ...


@dataclass(frozen=True)
class ReaderSpec:
    """A reader by its format and suffixes, its class (``"module:Class"``) imported on first use."""

    format: str
    suffixes: tuple[str, ...]
    target: str

    def load(self) -> Reader:
        module, _, cls = self.target.partition(":")
        reader: Reader = getattr(import_module(module), cls)()
        return reader


PDF = ReaderSpec("pdf", (".pdf",), "treebuild.readers.pdf:PdfReader")
DOCX = ReaderSpec("docx", (".docx",), "treebuild.readers.docx:DocxReader")
MARKDOWN = ReaderSpec("markdown", (".md", ".markdown"), "treebuild.readers.markdown:MarkdownReader")
HTML = ReaderSpec("html", (".htm", ".html", ".xhtml"), "treebuild.readers.html:HtmlReader")
TEXT = ReaderSpec("text", (".txt", ".text"), "treebuild.readers.text:TextReader")

ENTRY_POINT_GROUP = "treebuild.readers"
"""The entry-point group readers register under (treebuild's own too)."""
_BUILT_IN = ("pdf", "docx", "markdown", "html", "text")


@dataclass(frozen=True)
class _Registry:
    by_format: dict[str, Any]  # format -> ReaderSpec or Reader
    by_suffix: dict[str, str]  # suffix -> format
    clashes: dict[str, list[str]]  # suffix or format -> the entry points claiming it (two or more)
    broken: list[str]


def _is_reader(obj: Any) -> bool:
    return isinstance(getattr(obj, "format", None), str) and isinstance(getattr(obj, "suffixes", None), tuple) \
        and (callable(getattr(obj, "read", None)) or callable(getattr(obj, "load", None)))


@functools.cache
def _registry() -> _Registry:
    loaded = load_group(ENTRY_POINT_GROUP, check=_is_reader, required=_BUILT_IN)
    claims: dict[str, list[str]] = {}
    by_format: dict[str, Any] = {}
    by_suffix: dict[str, str] = {}
    for name, obj in loaded.plugins:
        fmt = str(obj.format)
        claims.setdefault(f"format {fmt!r}", []).append(name)
        by_format.setdefault(fmt, obj)
        for suffix in obj.suffixes:
            claims.setdefault(f"suffix {suffix.lower()!r}", []).append(name)
            by_suffix.setdefault(suffix.lower(), fmt)
    clashes = {what: names for what, names in claims.items() if len(names) > 1}
    return _Registry(by_format, by_suffix, clashes, loaded.broken)


_loaded: dict[str, Reader] = {}
PASSWORD_ENV = "TREEBUILD_PDF_PASSWORD"  # password for encrypted PDFs and DOCX files when none is passed

# Magic bytes of the binary formats we take, or that are often mislabelled as ours.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "PDF"),
    (b"PK\x03\x04", "ZIP"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE2"),
)
_DESCRIBE = {"PDF": "a PDF", "ZIP": "a ZIP package (DOCX, XLSX, ODT ...)",
             "OLE2": "an OLE2 container (legacy .doc/.xls, or an encrypted Office file)"}
_EXPECTED = {"pdf": "PDF", "docx": "ZIP"}
_TEXT_FORMATS = {"markdown": "Markdown text", "html": "HTML", "text": "plain text"}
_SNIFF_BYTES = 1024  # PDF allows junk before %PDF- within the first kilobyte


def _reader(fmt: str) -> Reader:
    if fmt not in _loaded:
        entry = _registry().by_format[fmt]
        _loaded[fmt] = entry.load() if isinstance(entry, ReaderSpec) else entry
    return _loaded[fmt]


def __getattr__(name: str) -> Any:  # READERS, FORMATS, SUPPORTED_SUFFIXES: the installed readers, on first use
    if name == "READERS":  # every backend, imported on request
        return tuple(_reader(f) for f in _registry().by_format)
    if name == "FORMATS":  # the installed formats, in entry-point name order
        return tuple(_registry().by_format)
    if name == "SUPPORTED_SUFFIXES":
        return tuple(_registry().by_suffix)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def format_for(path: Path) -> str:
    """The format name for a file's suffix; raises :class:`UnsupportedFormat` naming the file."""
    suffix = path.suffix.lower()
    registry = _registry()
    fmt = registry.by_suffix.get(suffix)
    if fmt is None:
        broken = f"; readers that failed to load: {'; '.join(registry.broken)}" if registry.broken else ""
        raise UnsupportedFormat(
            f"unsupported file type {suffix or '(none)'!r}", path=str(path),
            hint=f"supported: {', '.join(registry.by_suffix)}{broken}",
        )
    for what in (f"suffix {suffix!r}", f"format {fmt!r}"):
        if what in registry.clashes:
            raise PluginError(f"{what} is claimed by more than one reader ({', '.join(registry.clashes[what])})",
                              path=str(path), hint="uninstall one of them; install order never picks a reader")
    return fmt


def reader_for(path: Path) -> Reader:
    return _reader(format_for(path))


def check_path(path: Path) -> None:
    """Raise a :class:`ReadError` naming the file unless it is an existing, non-empty regular file."""
    try:
        st = path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ReadError("symbolic link loop", path=str(path), hint="fix or remove the link") from None
        if path.is_symlink():
            raise ReadError("broken symbolic link", path=str(path),
                            hint=f"it points to {os.readlink(path)!r}, which does not exist") from None
        if exc.errno == errno.ENOENT:
            raise ReadError("file not found", path=str(path), hint="check the path") from None
        raise ReadError(f"cannot access file: {exc.strerror or exc}", path=str(path)) from None
    if path.is_dir():
        raise ReadError("is a directory, not a file", path=str(path),
                        hint="pass the folder to `treebuild ingest`, which reads the files inside it")
    if not path.is_file():
        raise ReadError("not a regular file", path=str(path))
    if st.st_size == 0:
        raise ReadError("file is empty (0 bytes)", path=str(path), hint="export or download it again")


def _sniff(path: Path, fmt: str) -> None:
    """Refuse content that is plainly another format than the suffix says (a PDF named .docx)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError as exc:
        raise ReadError(f"cannot read file: {exc.strerror or exc}", path=str(path)) from None
    found = next((name for magic, name in _MAGIC if (head.find(magic) >= 0 if magic == b"%PDF-"
                                                       else head.startswith(magic))), None)
    expected = _EXPECTED.get(fmt)
    if fmt in _TEXT_FORMATS:
        from .html import binary_kind

        what = binary_kind(head)
        if what is not None:
            raise ReadError(f"binary content ({what}), not {_TEXT_FORMATS[fmt]}", path=str(path),
                            hint="check the file's real type and rename it")
    elif found != expected:
        if found == "OLE2" and fmt == "docx":
            return  # a password-protected DOCX, or a legacy .doc: the DOCX reader tells which
        if found is None:
            header = "%PDF-" if fmt == "pdf" else "ZIP"
            raise ReadError(f"not a {fmt.upper()} file (no {header} header at its start)", path=str(path),
                            hint="the file is damaged or has the wrong extension")
        raise ReadError(f"content is {_DESCRIBE[found]}, but the name ends in {path.suffix}", path=str(path),
                        hint="rename it to its real extension")


def preflight(path: Path, limits: Limits | None = None) -> Limits:
    """The checks before any heavy work (hashing, parsing): a regular, non-empty file of a supported
    format whose content matches its suffix, under the size cap. Returns the limits in force."""
    from ..settings import Limits

    check_path(path)
    fmt = format_for(path)
    limits = limits if limits is not None else Limits()
    check_file_size(path, limits)
    _sniff(path, fmt)
    return limits


def read(path: str | Path, *, limits: Limits | None = None, password: str | None = None,
         ocr: OcrRequest | None = None) -> SourceDoc:
    """Read a document with the reader for its suffix; errors name the file, the cause and the cap.

    ``limits`` defaults to :class:`~treebuild.settings.Limits` from the environment; ``password``
    (default: ``TREEBUILD_PDF_PASSWORD``) opens an encrypted PDF or a password-protected DOCX; ``ocr``
    says which PDF pages OCR reads (default: ``TREEBUILD_OCR*``, else pages without usable text).
    """
    p = Path(path)
    limits = preflight(p, limits)
    fmt = format_for(p)
    if password is None:
        password = os.environ.get(PASSWORD_ENV)
    reader = _reader(fmt)
    if fmt == "pdf":  # the one format with pages to OCR
        doc = reader.read(p, limits, password, ocr=ocr)  # type: ignore[call-arg]
    else:
        doc = reader.read(p, limits, password)
    check_text(p, doc, limits)
    return doc
