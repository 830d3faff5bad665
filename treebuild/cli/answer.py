"""``treebuild ask``: navigate, then answer from the passages with numbered claims whose citations are checked."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

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
)

if TYPE_CHECKING:
    from ..answer import Answer

__all__ = ["ask"]


def _usage_line(label: str, who: str, usage: Any, seconds: float) -> str:
    return (f"{label}: {who}; {usage.calls} calls, {usage.input_tokens}+{usage.output_tokens} tokens, "
            f"${usage.cost_usd:.4f}; {seconds:.2f} s")


def _print_plain(answer: Answer) -> None:
    from ..answer import AnswerStatus

    audit = answer.audit
    if audit.is_language_model:
        out.print(f"Answer by {audit.answerer} (a language model; prompt {audit.prompt_version}, "
                  f"{audit.schema or 'no request'}):", markup=False, highlight=False)
    else:
        out.print("Extractive answer (not a language model: the passages' sentences that best match the "
                  "question):", markup=False, highlight=False)
    if answer.status is AnswerStatus.NOT_FOUND:
        out.print(f"  {answer.text}", markup=False, highlight=False)
    elif answer.status is AnswerStatus.FAILED:
        out.print(f"  no answer: {audit.outcome}", markup=False, highlight=False)
    for c in answer.claims:
        cites = ", ".join(c.citations) or "no citation"
        out.print(f"  {c.n}. {c.text} [{cites}]", markup=False, highlight=False)
        if c.flags:
            detail = [f.value for f in c.flags]
            if c.unknown_citations:
                detail.append(f"not given: {', '.join(c.unknown_citations)}")
            if c.unsupported_numbers:
                detail.append(f"not in its passages: {', '.join(c.unsupported_numbers)}")
            out.print(f"     flagged: {'; '.join(detail)}", markup=False, highlight=False)
    if answer.passages:
        out.print("Passages:", markup=False, highlight=False)
    for p in answer.passages:
        cite = p.citation()
        where = f"p. {cite['pages']}" if cite["pages"] else "no pages"
        if cite["printed_pages"] and cite["printed_pages"] != cite["pages"]:
            where += f" (printed {cite['printed_pages']})"
        shown = "" if p.shown_chars == len(p.passage.text) else \
            " [not shown: no room]" if not p.shown_chars else " [shown in part]"
        out.print(f"  {p.id} {p.passage.doc_id} v{p.passage.version} [{p.passage.node_id}] {' > '.join(cite['path'])}, "
                  f"{where}{shown}", markup=False, highlight=False)
    nav = answer.navigation
    kind = "a language model" if nav.is_language_model else "not a language model"
    err.print(_usage_line("navigation", f"{nav.navigator} ({kind})", nav.usage, nav.seconds), markup=False,
              highlight=False)
    err.print(_usage_line("answer", audit.answerer, audit.usage, audit.seconds), markup=False, highlight=False)
    for note in audit.notes:
        err.print(f"note: {note}", markup=False, highlight=False)
    for d in nav.documents:
        if d.error:
            err.print(f"warning   {d.doc_id}: {d.error}", markup=False, highlight=False)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question to answer from the documents.")],
    doc: DocsOpt = None,
    filter_: FilterOpt = None,
    navigator: NavigatorOpt = None,
    model: ModelOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    max_pages: Annotated[int | None, typer.Option("--max-pages", min=1, help="Pages of text to answer from, at "
                                                  "most.")] = None,
    max_documents: MaxDocumentsOpt = None,
    max_seconds: Annotated[float | None, typer.Option("--answer-seconds", min=0.001, help="Seconds of model work "
                                                      "for the answer (default 120).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the answer, its checked claims, the passages and "
                                           "the audit of navigation and answer as JSON.")] = False,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Answer QUESTION from the stored documents: numbered claims citing passages, each citation checked.

    Without --model the answer is extractive (not a language model): the passages' sentences that best match
    the question. Exits 0 with an answer or "not found", 1 when the model gave no usable answer."""
    from ..answer import AnswerStatus
    from ..answer import ask as ask_question
    from ..query.access import parse_filter_items
    from ..store import Store

    try:
        config = model_config(model, api_base=api_base, api_key=api_key)
        limits: dict[str, Any] = {k: v for k, v in {"max_pages": max_pages, "max_documents": max_documents}.items()
                                  if v is not None}
        answer = ask_question(question, Store(store, create=False, catalog=catalog), docs=doc or None,
                              filter=parse_filter_items(filter_ or []), navigator=navigator,
                              config=None if config.offline else config,
                              answer={"max_seconds": max_seconds}, **limits)
    except TreebuildError as exc:
        fail(exc)
    if json_out:
        sys.stdout.write(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False, default=str) + "\n")
    else:
        _print_plain(answer)
    if answer.status is AnswerStatus.FAILED:
        err.print(f"error: no answer: {answer.audit.outcome}", markup=False, highlight=False)
        raise typer.Exit(1)
