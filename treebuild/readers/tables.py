"""What every reader decides the same way about a table it keeps as data (:class:`~treebuild.model.Table`):
whether its first column names the rows, and which line before it is its title.

Formats that declare these (a DOCX table's "First Column" option, a caption style) say so
themselves; these rules are for the ones that do not.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import is_figure

__all__ = ["labels_rows", "title_line", "TITLE_MAX_CHARS", "LABEL_SHARE"]

TITLE_MAX_CHARS = 150
"""A line above a table longer than this is a paragraph of prose, not the table's title."""
LABEL_SHARE = 0.6
"""The first column names the rows when at least this share of its non-empty body cells are words (not
figures) while the other columns hold figures or the table has only words: ``Total revenue | 1,234``."""


def labels_rows(body: Sequence[Sequence[str]]) -> bool:
    """Whether the first column of these body rows holds row labels: mostly words, in a table of two or
    more columns."""
    if not body or len(body[0]) < 2:
        return False
    first = [row[0] for row in body if row[0].strip()]
    if not first:
        return False
    words = sum(1 for cell in first if not is_figure(cell))
    return words >= LABEL_SHARE * len(first)


def title_line(text: str) -> str | None:
    """The last non-blank line of ``text`` (what stands just above a table) when it is short enough to be a
    title, with its spacing made single; else ``None``."""
    for line in reversed(text.splitlines()):
        line = " ".join(line.split())
        if line:
            return line if len(line) <= TITLE_MAX_CHARS and not is_figure(line) else None
    return None
