"""Numbers as a claim and a passage print them, compared by value.

``16,388``, ``$16,388`` and ``16388`` are the same number; so are ``36.8%`` and ``36.8 %``, and
``12.0`` and ``12``. A comma is a thousands separator only before exactly three digits (``1,2`` is
two numbers). Signs, currency and units are not compared: a claim's number is found in a passage
when the passage prints the same digits, wherever they stand.
"""

from __future__ import annotations

import re

__all__ = ["NUMBER", "numbers", "normal_number"]

NUMBER = re.compile(r"(?<![\d.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\d)")
"""A number as printed: thousands groups with commas (``1,234,567.8``) or plain digits (``2022``, ``36.8``)."""


def normal_number(printed: str) -> str:
    """The number's value as text: no thousands commas, no trailing decimal zeros (``1,200.50`` -> ``1200.5``)."""
    whole, _, fraction = printed.replace(",", "").partition(".")
    whole, fraction = whole.lstrip("0") or "0", fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def numbers(text: str) -> list[tuple[str, str]]:
    """Every number in ``text`` as (printed, value), in order."""
    return [(m.group(0), normal_number(m.group(0))) for m in NUMBER.finditer(text)]
