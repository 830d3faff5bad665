"""Printed page references to physical pages: page labels, printed folios, voted offsets."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from treebuild.model import SourceDoc, Unit
from treebuild.structure.toc.pagemap import PageMap, parse_page_ref, roman_value


def _doc(texts: list[str], labels: Sequence[str | None] | None = None) -> SourceDoc:
    units = [Unit(index=i, kind="page", text=t, page=i + 1, label=labels[i] if labels else None)
             for i, t in enumerate(texts)]
    return SourceDoc(path="mem.pdf", format="pdf", units=units, sha256="0" * 64, size=0, page_count=len(units))


@pytest.mark.parametrize(("ref", "parsed"), [
    ("12", ("", 12)), ("iv", ("roman", 4)), ("XIV", ("roman", 14)), ("F-3", ("F-", 3)), ("A-12", ("A-", 12)),
    ("2-15", ("2-", 15)), ("iiv", None), ("Page", None), ("", None),
])
def test_parse_page_ref(ref: str, parsed: tuple[str, int] | None) -> None:
    assert parse_page_ref(ref) == parsed


def test_roman_values() -> None:
    assert [roman_value(s) for s in ("i", "iv", "ix", "xl", "mcmxc", "IIII", "vx")] == [1, 4, 9, 40, 1990, None, None]


def test_pdf_labels_prefer_the_occurrence_after_the_toc() -> None:
    labels = ["1", "2", "i", "ii", "iii", "1", "2", "3", "A-1"]
    doc = _doc(["cover", "title", "Contents", "more", "Preface", "Body", "x", "y", "Annex"], labels)
    pm = PageMap(doc, after=3)
    assert pm.source == "labels"
    assert [pm.resolve(r) for r in ("1", "3", "iii", "A-1", "99")] == [5, 7, 4, 8, None]


def _body(n: int, folio: str | None, extra: str = "") -> str:
    head = f"Running header\n{extra}" if extra else "Running header\n"
    return head + "Some paragraph of text that goes on.\nAnother line of it.\n" + (f"{folio}\n" if folio else "")


def test_printed_folios_need_agreeing_neighbours() -> None:
    texts = ["Annual Report", "Table of Contents\nBusiness 1\nRisks 3"]
    texts += [_body(i, str(i - 1)) for i in range(2, 10)]  # unit 2 prints "1", unit 9 prints "8"
    # a list of officers whose ages look like folios 51 and 52 on consecutive pages
    texts[4] = "David Wadhwani\n51\nPresident\n" + texts[4]
    texts[5] = "Mark Garfield\n52\nSenior Vice President\n" + texts[5]
    texts += [_body(i, str(i - 1)) for i in range(10, 60)]
    doc = _doc(texts)
    pm = PageMap(doc, after=1)
    assert pm.source == "folios"
    assert pm.resolve("1") == 2 and pm.resolve("8") == 9
    assert pm.resolve("52") == 53  # not unit 5, where an age happens to read 52


def test_folios_fill_gaps_and_page_of_forms() -> None:
    texts = ["cover", "Contents"] + [f"Body text\nPage {i} of 20\n" for i in range(3, 12)]
    texts[6] = "A full-page figure without any folio"
    doc = _doc(texts)
    pm = PageMap(doc, after=1)
    assert pm.resolve("5") == 4
    assert pm.resolve("7") == 6  # unit 6 prints nothing: extrapolated from its neighbours


def test_offset_voted_from_titles() -> None:
    doc = _doc(["cover", "Contents", "a", "b", "c", "d"])
    pm = PageMap(doc, after=1)
    assert pm.source == "none" and pm.resolve("1") is None
    assert pm.needs_offset(["1", "2", "ii"]) == {"", "roman"}
    found = {"1": 2, "2": 3, "3": 4}

    def finder(ref: str) -> Callable[[], int | None]:
        return lambda: found.get(ref)

    pm.vote_offsets((ref, finder(ref)) for ref in ("1", "2", "3"))
    assert pm.offsets == {"": 1}
    assert pm.resolve("4") == 5
    pm2 = PageMap(doc, after=1)
    pm2.vote_offsets([("1", lambda: 2), ("2", lambda: 5), ("3", lambda: None)])  # no two votes agree
    assert pm2.offsets == {}


def test_running_heads_numbers_map_printed_pages() -> None:
    """A filing printed from HTML numbers its pages only in a running head beside the company's name,
    at either end by the side of the sheet (``The Widget Company 1``, ``2 The Widget Company``); the sheets
    Chromium adds where a page overflowed print none, so an offset would drift."""
    texts = ["Cover", "Contents\nBusiness 1\nRisks 4"]
    for n in range(1, 12):
        head = f"The Widget Company {n}" if n % 2 else f"{n} The Widget Company"
        texts.append(f"{head}\nBody text of page {n}.\nMore text.")
        if n in (3, 7):
            texts.append("An overflowing table's last rows\n1,234\n5,678")  # a sheet without a folio
    pm = PageMap(_doc(texts), after=1)
    assert pm.source == "folios"
    assert pm.resolve("1") == 2 and pm.resolve("4") == 6 and pm.resolve("9") == 12
