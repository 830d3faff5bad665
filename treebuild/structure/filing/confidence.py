"""Confidence of the marks the filing source lays out (a heading found by the type scan keeps the
typography's: ``typography.headings.NUMBERED_CONFIDENCE`` and ``HEADING_CONFIDENCE``)."""

from __future__ import annotations

__all__ = ["FORM", "LAID_OUT", "SCHEDULE_PART"]

FORM = 0.9
"""A Part or an Item found by the form's own wording, and the signature page: the filing's skeleton."""
LAID_OUT = 0.8
"""A block the filing source lays out: the financial statements, the exhibits and each exhibit, the
schedules and each schedule or auditor's report among them."""
SCHEDULE_PART = 0.7
"""A schedule's part (its statements, its notes) read from the page's title block."""
