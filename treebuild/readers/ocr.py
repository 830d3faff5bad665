"""OCR engines behind one small seam: a page image in, text lines with boxes and confidences out.

An engine is named (``tesseract``, ``rapidocr``), imported on first use and made once
per process (its model loaded once). Every engine runs offline from what a registry installs:
Tesseract's trained data from Debian's ``tesseract-ocr-eng`` (read by the ``tesserocr`` wheel, which
bundles libtesseract), RapidOCR's models from inside the
``rapidocr-onnxruntime`` wheel. Nothing is downloaded at run time; an engine that is not installed
raises :class:`OcrUnavailable`, whose message says exactly what to install.

Boxes are in pixels of the image given; the caller scales them to page points.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from enum import StrEnum
from importlib import import_module
from pathlib import Path
from typing import Protocol

from ..errors import TreebuildError
from ..settings import BuildSettings, Limits, resolve_settings

__all__ = ["Box", "OcrMode", "OcrRequest", "OcrWord", "OcrLine", "OcrEngine", "OcrUnavailable", "ENGINES",
           "DEFAULT_ENGINE", "DEFAULT_LANG", "engine", "tessdata_dir", "PageImage", "WORKERS_ENV", "ocr_threads",
           "thread_share"]

DEFAULT_ENGINE = "tesseract"
"""The engine used unless ``TREEBUILD_OCR_ENGINE`` names another (measured in ``bench/README.md``, "Issue 28,
OCR": the best character error rate on rasterised born-digital pages, at the speed of the others or better)."""
DEFAULT_LANG = "eng"
"""Tesseract's language code(s), ``+``-joined (``eng+deu``); each needs Debian's ``tesseract-ocr-LANG``."""

Box = tuple[float, float, float, float]

WORKERS_ENV = "TREEBUILD_OCR_WORKERS"
"""Threads reading pages by OCR in one process (libtesseract releases the GIL); default: one per core."""


def ocr_threads() -> int:
    """How many OCR threads this process runs: ``TREEBUILD_OCR_WORKERS``, else one per core."""
    try:
        return max(1, int(os.environ.get(WORKERS_ENV) or 0) or (os.cpu_count() or 1))
    except ValueError:
        return os.cpu_count() or 1


def thread_share(processes: int) -> dict[str, str]:
    """The ``TREEBUILD_OCR_WORKERS`` each of ``processes`` build processes gets so that, together, their OCR
    threads use each core once (one per core each would start processes x cores threads); empty when the
    variable is set (the user's choice stands)."""
    if os.environ.get(WORKERS_ENV):
        return {}
    return {WORKERS_ENV: str(max(1, (os.cpu_count() or 1) // max(1, processes)))}


class OcrMode(StrEnum):
    """Which pages OCR reads: those without usable text (``auto``), every page (``force``), none (``off``)."""

    auto = "auto"
    off = "off"
    force = "force"


@dataclass(frozen=True)
class OcrRequest:
    """What the reader was asked to do: the mode, the engine and its language, and the limits."""

    mode: OcrMode = OcrMode.auto
    engine: str = DEFAULT_ENGINE
    lang: str = DEFAULT_LANG
    max_pages: int = 2_000
    page_seconds: float = 120.0

    @classmethod
    def from_settings(cls, settings: BuildSettings, limits: Limits | None = None) -> OcrRequest:
        limits = limits if limits is not None else Limits()
        return cls(OcrMode(settings.ocr), settings.ocr_engine, settings.ocr_lang, limits.ocr_max_pages,
                   limits.ocr_page_seconds)

    @classmethod
    def from_env(cls, limits: Limits | None = None) -> OcrRequest:
        """The request of a build with default settings: ``TREEBUILD_OCR*`` where set."""
        return cls.from_settings(resolve_settings(None, None)[0], limits)


@dataclass(frozen=True, slots=True)
class PageImage:
    """A page rendered for OCR: 8-bit grey pixels, row by row, at ``dpi``."""

    samples: bytes
    width: int
    height: int
    dpi: int


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    box: Box  # x0, y0, x1, y1 in pixels
    confidence: float  # 0..1
    ink: tuple[int, int] = (0, 0)
    """Ink pixels and runs of ink along the rows of ``box`` on the image read (their ratio is the width of the
    strokes: bold type's are wider); measured after the engine read the page, (0, 0) when not measured."""


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One text line as the engine read it: its words (some engines give none: then the line is one
    word), the engine's block number (lines of one block form one paragraph or column piece)."""

    text: str
    box: Box
    confidence: float  # 0..1
    block: int
    words: tuple[OcrWord, ...] = ()


class OcrEngine(Protocol):
    """Recognises the text of one page image. ``identity`` names the engine, its version and its
    language/model (recorded on the tree and part of the cache key)."""

    @property
    def identity(self) -> str: ...

    def recognize(self, image: PageImage, seconds: float) -> list[OcrLine] | None:
        """The page's lines in reading order; ``None`` when reading took longer than ``seconds``."""
        ...

    def read_lines(self, image: PageImage, boxes: list[Box], seconds: float) -> list[list[OcrWord]] | None:
        """The words of each box of ``image`` (pixels), each box read as one line of text: a line read again
        without what garbled it (a dot leader); ``None`` when reading took longer than ``seconds``."""
        ...


class OcrUnavailable(TreebuildError):
    """The OCR engine asked for is not installed (or its language data is missing)."""


# name -> (module, class)
ENGINES: dict[str, tuple[str, str]] = {
    "tesseract": (".ocr_tesseract", "TesseractEngine"),
    "rapidocr": (".ocr_rapid", "RapidEngine"),
}
_made: dict[tuple[str, str], OcrEngine] = {}


def engine(name: str = DEFAULT_ENGINE, lang: str = DEFAULT_LANG) -> OcrEngine:
    """The engine ``name`` for ``lang``, made once per process; :class:`OcrUnavailable` when it is missing."""
    if name not in ENGINES:
        raise OcrUnavailable(f"unknown OCR engine {name!r}",
                             hint=f"TREEBUILD_OCR_ENGINE takes one of: {', '.join(ENGINES)}")
    key = (name, lang)
    if key not in _made:
        module, cls = ENGINES[name]
        _made[key] = getattr(import_module(module, __package__), cls)(lang)
    return _made[key]


TESSDATA_ENV = "TESSDATA_PREFIX"
_DEBIAN_TESSDATA = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                    "/usr/share/tessdata")


def tessdata_dir(lang: str) -> Path:
    """The folder holding Tesseract's ``LANG.traineddata`` for every language of ``lang``: ``TESSDATA_PREFIX``,
    else Debian's folders, else the one the ``tesseract`` program reports."""
    langs = lang.split("+")
    candidates = [os.environ[TESSDATA_ENV]] if os.environ.get(TESSDATA_ENV) else []
    candidates.extend(_DEBIAN_TESSDATA)
    for folder in map(Path, candidates):
        if all((folder / f"{code}.traineddata").is_file() for code in langs):
            return folder
    program = shutil.which("tesseract")
    if program is not None:
        try:
            out = subprocess.run([program, "--list-langs"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        first = out.splitlines()[0] if out else ""
        if '"' in first:  # List of available languages in "/usr/share/tesseract-ocr/5/tessdata/" (2):
            folder = Path(first.split('"')[1])
            if all((folder / f"{code}.traineddata").is_file() for code in langs):
                return folder
    packages = " ".join(f"tesseract-ocr-{code}" for code in langs)
    raise OcrUnavailable(f"no Tesseract language data for {lang!r}",
                         hint=f"install it with `apt-get install {packages}` (or set {TESSDATA_ENV} to the folder "
                              f"holding {langs[0]}.traineddata)")
