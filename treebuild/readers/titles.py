"""A document's title: the one its metadata gives, unless that says nothing to a reader.

Producers fill the metadata title with whatever they have: an SEC accession number (``0001018724-20-000004``),
the name of the file it was made from (``amsclass.dvi``), nothing. Such a title is worse than none: a navigator
choosing documents by their titles, and a person reading a list, learn nothing from it. It is dropped, and for a
PDF the title printed largest on its first page stands in (``AMAZON.COM, INC.``), when one stands out from the
page's text; otherwise the file name is shown, as for a document without a title.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import PurePath

from ..model import Line

__all__ = ["metadata_title", "printed_title", "RUNNING_PAGES"]

_ACCESSION = re.compile(r"^\d{10}-\d{2}-\d{6}$")
"""An SEC accession number: filer id, year, sequence."""
_FILE_NAME = re.compile(r"\.(pdf|docx?|dvi|e?ps|indd|qxp|rtf|txt|html?|xlsx?|pptx?|tex|md|odt)$", re.I)
_WORD = re.compile(r"[^\W\d_]{3,}")
"""A word of three letters or more: a title with none (``12.26.2020``, ``A-1``) is an identifier."""
MAX_TITLE_LINES = 3
"""Lines of the largest type that make a printed title (a registrant's name over two lines, a form name)."""
MAX_TITLE_CHARS = 150
RUNNING_PAGES = 3
"""Pages after the first that tell a running head (printed on most of them) from a title."""
SAME_PLACE = 6.0
"""Points: lines of one text this close in height on two pages are printed at one place."""
PROMINENT = 1.2
"""A printed title is set at least this much larger than the page's most common type."""


def metadata_title(title: str | None, path: str | PurePath) -> str | None:
    """``title`` stripped, or None when it is empty, an identifier or a file name (its own or another's;
    a title that reads like the file's name without its extension is a title, ``Flat`` of ``flat.docx``)."""
    text = " ".join((title or "").split())
    if not text:
        return None
    if _ACCESSION.match(text) or not _WORD.search(text) or _FILE_NAME.search(text) \
            or text.casefold() == PurePath(path).name.casefold():
        return None
    return text


def printed_title(first: Sequence[Line], following: Sequence[Sequence[Line]] = ()) -> str | None:
    """The lines set in the largest type on a first page (up to :data:`MAX_TITLE_LINES`, in reading order),
    when that type stands out from the page's text. A line printed at one place on most of the ``following``
    pages (a running head, a ``Table of Contents`` link) is not the title; a name the text repeats elsewhere is."""
    seen: Counter[tuple[str, int]] = Counter()
    for page in following:
        seen.update({(ln.text, round(ln.y0 / SAME_PLACE)) for ln in page})
    running = {text for (text, _), n in seen.items() if n * 2 > len(following)}
    lines = [ln for ln in first if _WORD.search(ln.text) and ln.size > 0 and ln.text not in running]
    if not lines:
        return None
    chars: Counter[float] = Counter()
    for ln in first:
        chars[round(ln.size, 1)] += len(ln.text)
    body = chars.most_common(1)[0][0]
    top = max(round(ln.size, 1) for ln in lines)
    if top < body * PROMINENT:
        return None
    picked = [ln.text for ln in lines if round(ln.size, 1) == top][:MAX_TITLE_LINES]
    title = " ".join(" ".join(picked).split())
    return title[:MAX_TITLE_CHARS] or None
