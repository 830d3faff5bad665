"""The README's examples as tests: a section's code blocks, run as written in a folder holding what they name
(a ``treestore`` of generated annual reports, ``ACME_2022_10K`` and ``ACME_2021_10K``)."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest
from docgen import toc_row, write_pdf

README = Path(__file__).resolve().parent.parent / "README.md"

RATES = {2022: "21.5", 2021: "18.0"}
"""The effective tax rate each generated report prints on its page 3 (printed label F-3)."""


def section(title: str) -> str:
    """The text of the README section headed ``title`` (a ``## `` line), up to the next one."""
    text = README.read_text(encoding="utf-8")
    assert f"\n{title}\n" in text, f"README.md has no section {title!r}"
    return text.split(f"\n{title}\n", 1)[1].split("\n## ", 1)[0]


def python_blocks(title: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", section(title), re.DOTALL)


def commands(title: str) -> list[list[str]]:
    """The ``treebuild ...`` command lines of the section's bash blocks, continuation lines joined, split as a
    shell would (comments dropped), without the leading ``treebuild``."""
    out = []
    for block in re.findall(r"```bash\n(.*?)```", section(title), re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            if line.startswith("treebuild "):
                out.append(shlex.split(line, comments=True)[1:])
    return out


def run_python(code: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run an example in ``folder``; the lines it printed."""
    monkeypatch.chdir(folder)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})
    return printed.getvalue().splitlines()


def annual_report(path: Path, year: int) -> Path:
    """A 10-K-like PDF: a cover, then one section a page (bookmarked), printed page labels F-1, F-2 ..."""
    pages = [
        [f"Acme Corp Annual Report {year}", "Form 10-K for the fiscal year"],
        ["Revenue", f"Total revenue was 17,606 million dollars in fiscal {year}.",
         "Subscriptions made most of the revenue."],
        ["Income Taxes", f"The effective tax rate was {RATES[year]} percent in fiscal {year}.",
         "The change came from foreign earnings and research credits."],
        ["Risk Factors", "Competition and regulation are the main risks."],
        ["Legal Proceedings", "No material litigation is pending."],
    ]
    toc = [toc_row(1, page[0], i + 1) for i, page in enumerate(pages) if i]
    labels = [{"startpage": 0, "prefix": "F-", "style": "D", "firstpagenum": 1}]
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_pdf(path, pages, toc=toc, labels=labels)
