"""What a font's name says of its face: weight, slant, spacing, family. Readers set these on every
``Line`` they make (``Line.bold``, ``italic``, ``mono``, ``family``), once, so the stages after them
never read a font's name. No PDF library here: the plain-text and HTML readers use it too.
"""

from __future__ import annotations

import functools
import re

__all__ = ["FONT_CACHE", "italic_font", "mono_font", "font_family", "font_traits"]

FONT_CACHE = 1024
"""Font names whose weight, slant, spacing, family and base name are remembered (a document uses tens;
subset prefixes differ per file)."""

_MONO = ("mono", "courier", "cmtt", "consol", "menlo", "sfmono", "lmmono", "anonymous", "typewriter", "txtt",
         "sourcecode", "firacode")
"""Monospace font families by name (code listings; MuPDF's own monospace flag is not read)."""
_ITALIC = ("italic", "oblique", "cmti", "cmsl", "-it", "lmroman10-italic")
"""Italic and slanted faces by name (TeX's ``cmti`` and ``cmsl`` among them)."""
_OBL = re.compile(r"(?:-|bold)obl$")
"""An oblique face abbreviated at the name's end (``HelveticaLTStd-Obl``, ``...-BoldObl``)."""


@functools.lru_cache(maxsize=FONT_CACHE)
def mono_font(name: str) -> bool:
    """A monospaced face by its name (``Courier``, ``CMTT10``, ``Consolas``)."""
    f = name.casefold()
    return any(m in f for m in _MONO)


@functools.lru_cache(maxsize=FONT_CACHE)
def italic_font(name: str) -> bool:
    """An italic or slanted face by its name (``...-Italic``, ``...Oblique``, ``HelveticaLTStd-Obl``, ``CMTI10``)."""
    f = name.casefold()
    return any(m in f for m in _ITALIC) or bool(_OBL.search(f))


@functools.lru_cache(maxsize=FONT_CACHE)
def font_family(name: str) -> str:
    """``TimesNewRoman-BoldItalic`` -> ``timesnewroman``; subset prefixes (``ABCDEF+``) dropped: the
    typeface, whatever its weight and style."""
    f = name.split("+", 1)[-1].casefold()
    f = re.split(r"[-,]", f, maxsplit=1)[0]
    f = re.sub(r"(bold|italic|oblique|regular|medium|light|black|semibold|mt|ps|psmt)+$", "", f)
    return re.sub(r"\d+$", "", f)


@functools.lru_cache(maxsize=FONT_CACHE)
def font_traits(name: str) -> tuple[bool, bool, str]:
    """``(italic, mono, family)`` of a face by its name: what a reader sets on each ``Line`` it makes (one
    cached call a line: a filing's table page has hundreds)."""
    return italic_font(name), mono_font(name), font_family(name)
