"""``treebuild build`` (one tree, no store, PageIndex JSON) and ``treebuild ingest`` (documents into the store)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import TreebuildError, UsageError
from .options import (
    BuildOptions,
    CatalogOpt,
    StoreOpt,
    app,
    build_options,
    err,
    fail,
    parse_meta,
    print_result,
    print_summary,
    print_warnings,
)

if TYPE_CHECKING:
    from ..ingestion import IngestResult

__all__ = ["build", "ingest"]


@app.command()
@build_options
def build(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="PDF, DOCX or Markdown file.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write JSON here instead of stdout.")] = None,
    *,
    opts: BuildOptions,
) -> None:
    """Build one tree without a store and print it as PageIndex-format JSON."""
    from ..interop.export import to_pageindex
    from ..pipeline import build_doc
    from ..readers import read

    try:
        settings, config = opts.resolve()
        with err.status(f"building {file.name}…"):
            doc = read(file, password=opts.password)
            tree = build_doc(doc, settings, model_config=config)
    except TreebuildError as exc:
        fail(exc)
    print_warnings(str(file), tree.warnings)
    text = json.dumps(to_pageindex(tree), indent=2, ensure_ascii=False, default=str)
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        try:
            output.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            fail(TreebuildError(f"cannot write output: {exc.strerror}", path=str(output)))
        n = len(tree.warnings)
        err.print(f"wrote {output} ({tree.stats.get('nodes')} nodes, method {tree.method}, "
                  f"{n} warning{'' if n == 1 else 's'})", markup=False)


@app.command()
@build_options
def ingest(
    paths: Annotated[list[Path], typer.Argument(metavar="PATH", help="Files or folders (searched recursively).")],
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
    doc_id: Annotated[str | None, typer.Option("--doc-id", help="doc_id for a single file.")] = None,
    doc_id_from_path: Annotated[bool, typer.Option(
        "--doc-id-from-path",
        help="Derive doc_ids from each file's path relative to the folder given (a/b/x.pdf -> a--b--x), "
             "so equal file names in different folders stay separate documents.")] = False,
    meta: Annotated[list[str] | None, typer.Option("--meta", metavar="KEY=VALUE",
                                                   help="Tag as key=value; repeatable (a new version without "
                                                        "--meta keeps the previous version's tags).")] = None,
    clear_meta: Annotated[bool, typer.Option("--clear-meta", help="Record the new version without tags.")] = False,
    force: Annotated[bool, typer.Option("--force",
                                        help="Make a new version even if unchanged.")] = False,
    *,
    opts: BuildOptions,
) -> None:
    """Build documents and commit them to the store as new versions (unchanged ones are skipped)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    from ..ingestion import ingest_many, scan_paths
    from ..readers.ocr_pages import ocr_progress
    from ..store import Store

    if doc_id and doc_id_from_path:
        fail(UsageError("--doc-id and --doc-id-from-path exclude each other"))
    if meta and clear_meta:
        fail(UsageError("--meta and --clear-meta exclude each other"))
    try:
        st = Store(store, catalog=catalog)
        scan = scan_paths(paths, exclude=[st.root])
        tags = parse_meta(meta) if meta else ({} if clear_meta else None)
        settings, config = opts.resolve()
    except TreebuildError as exc:
        fail(exc)
    if not scan.files:
        extra = scan.skipped_line()
        fail(TreebuildError("no supported documents found" + (f" ({extra})" if extra else ""),
                             path=", ".join(map(str, paths))))
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("ingesting", total=len(scan.files))

        pages: list[TaskID] = []

        def report(res: IngestResult) -> None:
            progress.advance(task)
            print_result(res)

        def ocr_pages(path: str, done: int, total: int) -> None:  # a long scan: a bar of its pages
            if not pages:
                pages.append(progress.add_task(f"OCR {Path(path).name}", total=total))
            progress.update(pages[0], completed=done, total=total, description=f"OCR {Path(path).name}")
            if done == total:
                progress.remove_task(pages.pop())

        try:
            with ocr_progress(ocr_pages):
                results = ingest_many(scan, st, doc_id=doc_id, meta=tags, settings=settings, model_config=config,
                                      force=force, doc_id_from_path=doc_id_from_path, password=opts.password,
                                      on_result=report)
        except TreebuildError as exc:
            fail(exc)
    print_summary(results, scan)
    failed = sum(1 for r in results if r.status == "error")
    if failed:
        err.print(f"{failed} of {len(results)} document(s) failed")
        raise typer.Exit(1)
