"""MuPDF's own messages, kept as findings of the document being read instead of printed.

MuPDF reports what it repairs or skips (``syntax error: invalid ICC colorspace``, ``cannot find object``) on
stderr, one line each and again for every page or object it meets, so a batch's log filled with lines that named
no document (15 of one message for one filing, with blank lines between). The PDF reader turns that printing off
(process-wide, once: ``pymupdf.TOOLS.mupdf_display_errors(False)``; call it with ``True`` to see them raw again)
and takes the messages PyMuPDF keeps for each document: equal messages become one finding with a count.
"""

from __future__ import annotations

import re

import pymupdf

from ..findings import Finding, Stage, merge

__all__ = ["silence", "take", "CODE"]

CODE = "mupdf"
MAX_CHARS = 200
"""A message is cut to this many characters (MuPDF quotes broken content in some)."""
_REPEATED = re.compile(r"^\.\.\. repeated (\d+) times?\.*$")
"""MuPDF folds a message repeated at once into one line plus ``... repeated N times...`` (N more)."""
_silenced = False


def silence() -> None:
    """Stop MuPDF printing its messages (they are collected by :func:`take` instead)."""
    global _silenced
    if not _silenced:
        pymupdf.TOOLS.mupdf_display_errors(False)
        pymupdf.TOOLS.mupdf_display_warnings(False)
        _silenced = True


def take() -> list[Finding]:
    """The messages MuPDF collected since the last call, as findings (equal ones merged, with their count)."""
    out: list[Finding] = []
    for raw in pymupdf.TOOLS.mupdf_warnings(reset=True).splitlines():
        line = " ".join(raw.split())
        if not line:
            continue
        repeated = _REPEATED.match(line)
        if repeated and out:
            last = out[-1]
            out[-1] = Finding(last.code, last.stage, last.message, last.page, last.count + int(repeated[1]))
        elif not repeated:
            out.append(Finding(CODE, Stage.read, f"MuPDF: {line[:MAX_CHARS]}"))
    return merge(out)
