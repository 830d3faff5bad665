"""OCR across processes: each build process's share of the OCR threads, and the progress a worker keeps in files
for ``treebuild backfill`` to draw as bars (no OCR engine needed)."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress, TaskID, TextColumn

from treebuild.cli.backfill import ocr_bars
from treebuild.orchestrate.pool import BuildPool
from treebuild.readers.ocr import WORKERS_ENV, ocr_threads, thread_share
from treebuild.readers.ocr_pages import PROGRESS_ENV, _hook, progress_files


def test_build_processes_share_the_cores_for_ocr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert ocr_threads() == 8  # one process: a thread per core
    assert thread_share(4) == {WORKERS_ENV: "2"} and thread_share(8) == {WORKERS_ENV: "1"}
    assert thread_share(16) == {WORKERS_ENV: "1"}  # never none
    monkeypatch.setenv(WORKERS_ENV, "3")
    assert thread_share(4) == {} and ocr_threads() == 3  # the user's choice stands


def test_a_build_pool_gives_each_worker_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    pool = BuildPool(2)
    try:
        assert pool.defaults == {WORKERS_ENV: "1"}
        assert pool.call(ocr_threads) == 1  # in the worker process, through its environment
        monkeypatch.setenv(WORKERS_ENV, "2")
        assert pool.call(ocr_threads) == 2  # the caller's variable wins
    finally:
        pool.close()


def test_progress_kept_in_files_is_read_and_removed_when_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROGRESS_ENV, str(tmp_path))
    hook = _hook()
    assert hook is not None
    hook("/scans/a.pdf", 1, 5)
    hook("/scans/b.pdf", 2, 9)
    hook("/scans/a.pdf", 3, 5)
    assert sorted(progress_files(tmp_path)) == [("/scans/a.pdf", 3, 5), ("/scans/b.pdf", 2, 9)]
    hook("/scans/a.pdf", 5, 5)
    assert progress_files(tmp_path) == [("/scans/b.pdf", 2, 9)]
    (tmp_path / "broken.json").write_text("{")  # caught half-written: skipped
    assert progress_files(tmp_path) == [("/scans/b.pdf", 2, 9)]


def test_backfill_draws_a_bar_per_document_being_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROGRESS_ENV, str(tmp_path))
    hook = _hook()
    assert hook is not None
    progress = Progress(TextColumn("{task.description}"), console=Console(file=io.StringIO()))
    stop = threading.Event()
    seen: list[set[tuple[str, float, float | None]]] = []
    original_update, original_remove = progress.update, progress.remove_task

    def update(task: TaskID, **fields: object) -> None:
        original_update(task, **fields)  # type: ignore[arg-type]
        seen.append({(t.description, t.completed, t.total) for t in progress.tasks})
        if len(progress.tasks) == 2:
            hook("/scans/a.pdf", 4, 4)  # the document is read: its file goes, and so must its bar

    def remove(task: TaskID) -> None:
        original_remove(task)
        seen.append({(t.description, t.completed, t.total) for t in progress.tasks})
        stop.set()

    monkeypatch.setattr(progress, "update", update)
    monkeypatch.setattr(progress, "remove_task", remove)
    hook("/scans/a.pdf", 2, 4)
    hook("/scans/b.pdf", 1, 3)
    ocr_bars(progress, tmp_path, stop)
    assert {("OCR a.pdf", 2, 4), ("OCR b.pdf", 1, 3)} in seen
    assert seen[-2] == {("OCR b.pdf", 1, 3)}  # a.pdf's bar went when its file did
    assert progress.tasks == []  # every bar removed at the end
