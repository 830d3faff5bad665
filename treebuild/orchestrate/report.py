"""What a backfill did, per document and in total, as Prefect artifacts and for the CLI.

One :class:`Report` collects a row per document (created, unchanged or failed); it becomes a
table artifact (every row), a markdown summary artifact (totals, pages/s, failures) and the
failure message of the run; a progress artifact follows documents as they finish.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

__all__ = ["COLUMNS", "Report", "Progress", "ARTIFACT_KEY"]

COLUMNS = ("document", "status", "version", "pages", "nodes", "method", "seconds", "calls", "tokens", "error",
           "warnings")
ARTIFACT_KEY = "treebuild-backfill"
"""Artifact key prefix: runs of one flow share keys, so the UI shows each key's history."""
MAX_FAILURES_IN_MESSAGE = 10
"""Failures named in a run's state message; the table artifact lists every one."""


def row(result: dict[str, Any]) -> dict[str, Any]:
    """A table row from an ``IngestResult`` dict (status ``error`` is shown as ``failed``)."""
    status = "failed" if result["status"] in ("error", "failed") else result["status"]
    seconds = result.get("seconds")
    return {
        "document": result["path"],
        "status": status,
        "version": result.get("version"),
        "pages": result.get("pages"),
        "nodes": result.get("nodes") or None,
        "method": result.get("method"),
        "seconds": round(seconds, 2) if seconds is not None else None,
        "calls": result.get("calls", 0),
        "tokens": result.get("tokens", 0),
        "error": result.get("error"),
        "warnings": _warnings(result),  # the build's findings, one line each
    }


def _warnings(result: dict[str, Any]) -> list[str]:
    """The text lines of an ``IngestResult`` dict's findings (``warnings`` lines from an older worker)."""
    from treebuild.findings import Finding

    found = result.get("findings")
    if found is not None:
        return [Finding.from_record(f).text for f in found]
    return [str(w) for w in result.get("warnings") or []]


@dataclass
class Report:
    """Rows in the order documents finished, and the run's wall-clock time."""

    total: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    seconds: float = 0.0

    def add(self, result: dict[str, Any]) -> dict[str, Any]:
        r = row(result)
        self.rows.append(r)
        self.seconds = time.perf_counter() - self.started
        return r

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r["status"] == status)

    @property
    def failures(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if r["status"] == "failed"]

    @property
    def pages(self) -> int:
        """Pages built in this run (unchanged documents are not rebuilt, so they add none)."""
        return sum(r["pages"] or 0 for r in self.rows if r["status"] == "created")

    def totals(self) -> dict[str, Any]:
        secs = max(self.seconds, 1e-9)
        return {"documents": len(self.rows), "created": self.count("created"), "unchanged": self.count("unchanged"),
                "failed": self.count("failed"), "pages": self.pages, "seconds": round(self.seconds, 2),
                "documents_per_second": round(len(self.rows) / secs, 2),
                "pages_per_second": round(self.pages / secs, 1),
                "calls": sum(r["calls"] or 0 for r in self.rows),
                "tokens": sum(r["tokens"] or 0 for r in self.rows),
                "warnings": sum(len(r["warnings"]) for r in self.rows)}

    def failure_message(self) -> str:
        """``2 of 10 document(s) failed: a.pdf (cause); b.pdf (cause)`` for the run's Failed state."""
        bad = self.failures
        named = "; ".join(f"{PurePosixPath(r['document']).name} ({_first_line(r['error'])})"
                          for r in bad[:MAX_FAILURES_IN_MESSAGE])
        more = f"; and {len(bad) - MAX_FAILURES_IN_MESSAGE} more" if len(bad) > MAX_FAILURES_IN_MESSAGE else ""
        return f"{len(bad)} of {len(self.rows)} document(s) failed: {named}{more}"

    def markdown(self, title: str) -> str:
        t = self.totals()
        lines = [f"# {title}", "",
                 "| documents | created | unchanged | failed | pages built | seconds | documents/s | pages/s "
                 "| model calls | tokens | warnings |",
                 "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                 f"| {t['documents']} | {t['created']} | {t['unchanged']} | {t['failed']} | {t['pages']} "
                 f"| {t['seconds']} | {t['documents_per_second']} | {t['pages_per_second']} | {t['calls']} "
                 f"| {t['tokens']} | {t['warnings']} |", ""]
        if self.failures:
            lines += ["## Failures", ""]
            lines += [f"- `{r['document']}`: {_md(r['error'])}" for r in self.failures]
        else:
            lines.append("No failures.")
        return "\n".join(lines) + "\n"

    def as_dict(self) -> dict[str, Any]:
        return {"totals": self.totals(), "rows": self.rows}

    def publish(self, title: str) -> None:
        """The table and summary artifacts of the current run."""
        from prefect.artifacts import create_markdown_artifact, create_table_artifact

        table = [{c: "; ".join(r[c]) if c == "warnings" else r[c] for c in COLUMNS} for r in self.rows]
        create_table_artifact(table=table, key=ARTIFACT_KEY,
                              description=f"{title}: one row per document")
        create_markdown_artifact(markdown=self.markdown(title), key=f"{ARTIFACT_KEY}-summary",
                                 description=f"{title}: totals and failures")


class Progress:
    """A progress artifact, updated at most every ``interval`` seconds and at the end."""

    def __init__(self, total: int, title: str, interval: float) -> None:
        from prefect.artifacts import create_progress_artifact

        self.total = max(total, 1)
        self.interval = interval
        self._last = 0.0
        self._id: Any = create_progress_artifact(progress=0.0, key=f"{ARTIFACT_KEY}-progress",
                                            description=f"{title}: percent of documents finished")

    def update(self, done: int, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return
        from prefect.artifacts import update_progress_artifact

        self._last = now
        update_progress_artifact(artifact_id=self._id, progress=round(100.0 * done / self.total, 1))


def _first_line(text: str | None) -> str:
    return (text or "unknown error").strip().splitlines()[0][:200]


def _md(text: str | None) -> str:
    return _first_line(text).replace("|", "\\|")
