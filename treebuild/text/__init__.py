"""The text layer: what structure detection and summaries both read in a page's text.

Below ``structure`` and ``summarize`` (it imports neither):

- ``patterns``: folios and page references, dot leaders, Roman numerals, the contents word;
- ``numbering``: section labels (``1.2.3``, ``Part II``, ``Item 1A.``, ``Article IV``, ``(a)``);
- ``normalize``: title keys and their comparison, text on one line;
- ``furniture``: running headers, footers and folios, decided once per document.
"""

from __future__ import annotations

from .furniture import PageFurniture, mask_line
from .normalize import normalize_title, one_line

__all__ = ["PageFurniture", "mask_line", "normalize_title", "one_line"]
