"""``treebuild query``: navigate the store and print the sections that answer a question, with their pages."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from ..errors import TreebuildError
from .options import (
    ApiBaseOpt,
    ApiKeyOpt,
    CatalogOpt,
    DocsOpt,
    FilterOpt,
    MaxDocumentsOpt,
    ModelOpt,
    NavigatorOpt,
    StoreOpt,
    app,
    err,
    fail,
    model_config,
    out,
    print_warnings,
    unknown_document,
)

__all__ = ["query"]

FIRST_LINES = 3
"""Lines of each passage shown by the plain output (``--json`` prints the whole text)."""


def _pages(p: Any) -> str:
    if p.start_page is None:
        return "no pages"
    pages = f"p. {p.start_page}" if p.end_page in (None, p.start_page) else f"pp. {p.start_page}-{p.end_page}"
    if p.start_label and p.start_label != str(p.start_page):
        label = p.start_label if p.end_label in (None, p.start_label) else f"{p.start_label}-{p.end_label}"
        pages += f" (printed {label})"
    return pages


def _print_plain(result: Any) -> None:
    if not result.passages:
        out.print("no passage found", markup=False)
    for i, p in enumerate(result.passages, 1):
        path = " > ".join(e.title for e in p.path)
        cut = " [truncated]" if p.truncated else ""
        out.print(f"{i}. {p.doc_id} v{p.version} [{p.node_id}] {path}", markup=False, highlight=False)
        out.print(f"   {_pages(p)}{cut}", markup=False, highlight=False)
        lines = [line.strip() for line in p.text.splitlines() if line.strip()][:FIRST_LINES]
        for line in lines:
            out.print(f"   | {line[:160]}", markup=False, highlight=False)
    kind = "a language model" if result.is_language_model else "not a language model"
    modes = sorted({d.mode for d in result.documents if d.mode})
    u = result.usage
    summary = (f"navigator {result.navigator} ({kind}); {len(result.documents)} document(s), mode "
               f"{'/'.join(modes) or '-'}; {u.calls} calls, {u.input_tokens}+{u.output_tokens} tokens, "
               f"${u.cost_usd:.4f}; {result.seconds:.2f} s")
    if result.selection is not None:
        summary += f"; selected {', '.join(result.selection.selected) or 'none'} of {result.selection.candidates}"
    err.print(summary, markup=False, highlight=False)
    for d in result.documents:
        if d.error:
            print_warnings(d.doc_id, [d.error])


@app.command()
def query(
    question: Annotated[str, typer.Argument(help="The question to navigate the documents for.")],
    doc: DocsOpt = None,
    filter_: FilterOpt = None,
    navigator: NavigatorOpt = None,
    model: ModelOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    max_pages: Annotated[int | None, typer.Option("--max-pages", min=1, help="Pages of text returned, at most.")]
    = None,
    max_documents: MaxDocumentsOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print passages and the full audit record as JSON.")]
    = False,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Navigate stored trees and print the sections that answer QUESTION, with their pages."""
    from ..query import navigate
    from ..query.access import parse_filter_items
    from ..store import Store

    try:
        config = model_config(model, api_base=api_base, api_key=api_key)
        name = navigator or ("lexical" if config.offline else "litellm")
        limits: dict[str, Any] = {k: v for k, v in {"max_pages": max_pages, "max_documents": max_documents}.items()
                                  if v is not None}
        st = Store(store, create=False, catalog=catalog)
        for doc_id in doc or []:  # an unknown id is the same error as for `show` and `text` (exit 1)
            if not st.versions(doc_id):
                raise unknown_document(doc_id, st)
        result = navigate(question, st, docs=doc or None, filter=parse_filter_items(filter_ or []),
                          navigator=name, config=config, **limits)
    except TreebuildError as exc:
        fail(exc)
    if json_out:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2, ensure_ascii=False, default=str) + "\n")
    else:
        _print_plain(result)
