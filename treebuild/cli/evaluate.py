"""``treebuild eval``: hit rates of the navigator, of BM25 over whole pages and of the two together on your own
questions, per question and in total, as a table, JSON or a self-contained HTML report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import TreebuildError
from .options import (
    ApiBaseOpt,
    ApiKeyOpt,
    CatalogOpt,
    FilterOpt,
    ModelOpt,
    NavigatorOpt,
    StoreOpt,
    app,
    err,
    fail,
    model_config,
    out,
)

__all__ = ["eval_cmd", "parse_limits"]


def parse_limits(items: list[str]) -> dict[str, Any]:
    """``--limit name=value`` items as query limits (numbers; ``none`` for unbounded)."""
    limits: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise TreebuildError(f"--limit expects name=value, got {item!r}", hint="e.g. --limit max_nodes=10")
        if value.casefold() == "none":
            limits[name] = None
            continue
        try:
            limits[name] = float(value) if "." in value else int(value)
        except ValueError:
            raise TreebuildError(f"--limit {name} expects a number, got {value!r}") from None
    return limits


@app.command("eval")
def eval_cmd(
    questions: Annotated[Path, typer.Argument(help="Questions as JSON lines: a question, optional documents, and "
                                              "evidence pages or answer strings.")],
    corpus: Annotated[Path | None, typer.Option("--corpus", help="Folder holding the documents the questions "
                                                "name (<doc_id>.pdf ...): each is built into the store first "
                                                "(reused when unchanged).")] = None,
    navigator: NavigatorOpt = None,
    model: ModelOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    max_pages: Annotated[int, typer.Option("--max-pages", min=1, help="The page budget every method gets.")] = 10,
    limit: Annotated[list[str] | None, typer.Option("--limit", metavar="NAME=VALUE", help="Another query limit, "
                                                    "e.g. --limit max_nodes=10; repeatable.")] = None,
    filter_: FilterOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the settings, totals and every question's "
                                           "figures as JSON.")] = False,
    html: Annotated[Path | None, typer.Option("--html", help="Write a self-contained HTML report (a table and a "
                                              "bar chart) to this file.")] = None,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Measure retrieval on QUESTIONS: for each, whether the navigator, BM25 over whole pages and the hybrid
    return an evidence page (or a text printing an answer) within --max-pages pages, with pages, calls, tokens
    and seconds; totals by question type."""
    from ..answer import default_navigator
    from ..evaluate import evaluate, html_report, load_questions, prepare_documents, text_lines
    from ..query.access import parse_filter_items
    from ..store import Store

    try:
        config = model_config(model, api_base=api_base, api_key=api_key)
        config_or_none = None if config.offline else config
        limits = parse_limits(limit or [])
        access = parse_filter_items(filter_ or [])
        asked = load_questions(questions)
        st = Store(store, create=corpus is not None, catalog=catalog)

        def built(doc_id: str, result: Any) -> None:
            err.print(f"store: {doc_id} v{result.version} {result.status}", markup=False, highlight=False)

        prepare_documents(asked, st, corpus, on_ingest=built)

        def progress(row: Any) -> None:
            marks = ", ".join(f"{m} {'hit' if r.hit else '-'}" for m, r in row.methods.items())
            err.print(f"[{len(done) + 1}/{len(asked)}] {row.question.id}: {row.error or marks}", markup=False,
                      highlight=False)
            done.append(row)

        done: list[Any] = []
        report = evaluate(asked, st, navigator=navigator or default_navigator(config_or_none), config=config_or_none,
                          max_pages=max_pages, limits=limits, filter=access, source=str(questions), on_row=progress)
        if html is not None:
            html.write_text(html_report(report, title=f"treebuild eval: {questions.name}"), encoding="utf-8")
    except (TreebuildError, OSError) as exc:
        fail(exc)
    if json_out:
        sys.stdout.write(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        for line in text_lines(report):
            out.print(line, markup=False, highlight=False)
    if html is not None:
        err.print(f"wrote {html}", markup=False, highlight=False)
