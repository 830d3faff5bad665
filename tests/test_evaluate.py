"""``treebuild eval``: the questions file (evidence pages or answer strings, every error naming its line), the
three retrievers at one page budget over a store of generated PDFs (the navigator, BM25 over whole pages, the
hybrid), totals by question type, the model navigator's calls and tokens against the loopback server, the CLI
(--corpus, --json, --html, exit codes) and the HTML report opened in headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, chromium_path
from docgen import toc_row, write_pdf
from openai_server import OpenAIServer, Reply, Request

from treebuild import Store, TreebuildError, ingest
from treebuild.evaluate import (
    EvalQuestion,
    answer_found,
    evaluate,
    html_report,
    load_questions,
    parse_question,
    question_type,
    text_lines,
)

HOSTILE = "<script>window.__pwned = 1</script> What was the effective tax rate?"

PAGES = {
    "ACME_2022_10K": [
        ["Acme Corp Annual Report 2022", "Form 10-K"],
        ["Revenue", "Total revenue was 17,606 million dollars in fiscal 2022.", "Subscriptions made most of it."],
        ["Income Taxes", "The effective tax rate was 21.5 percent in fiscal 2022."],
        ["Risk Factors", "Competition and regulation are the main risks to the business."],
        ["Legal Proceedings", "No material litigation is pending against the company."],
    ],
    "GLOBEX_2022_10K": [
        ["Globex Annual Report 2022", "Form 10-K"],
        ["Employees", "Globex employs 3,100 engineers in four countries."],
        ["Properties", "The headquarters campus covers forty acres."],
    ],
}


def write_reports(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for doc_id, pages in PAGES.items():
        toc = [toc_row(1, page[0], i + 1) for i, page in enumerate(pages) if i]
        out[doc_id] = write_pdf(folder / f"{doc_id}.pdf", pages, toc=toc)
    return out


QUESTIONS = [
    {"id": "tax", "question": "What was the effective tax rate?", "doc_name": "ACME_2022_10K",
     "evidence": [{"doc_name": "ACME_2022_10K", "evidence_page": 3, "evidence_text": "The effective tax rate\n21.5"}]},
    {"id": "revenue", "question": "What was total revenue?", "docs": ["ACME_2022_10K"], "answers": ["17606"],
     "type": "table"},
    {"id": "risks", "question": "What was the effective tax rate?", "doc_id": "ACME_2022_10K",
     "evidence_pages": [4], "type": "text"},  # asked wrong: its evidence is the risks page, which nothing returns
    {"id": "engineers", "question": "How many engineers are employed?", "answer_figures": ["3,100"]},  # all docs
]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("eval")
    write_reports(root / "pdf")
    (root / "questions.jsonl").write_text("".join(json.dumps(q) + "\n\n" for q in QUESTIONS))
    return root


@pytest.fixture(scope="module")
def store(corpus: Path) -> Store:
    st = Store(corpus / "store")
    for doc_id in PAGES:
        ingest(corpus / "pdf" / f"{doc_id}.pdf", st, doc_id=doc_id)
    return st


# -- the questions -----------------------------------------------------------------------------------------


def test_questions_read_evidence_answers_documents_and_types(corpus: Path) -> None:
    tax, revenue, risks, engineers = load_questions(corpus / "questions.jsonl")
    assert (tax.id, tax.docs, [(e.doc_id, e.page) for e in tax.evidence], tax.line) == (
        "tax", ("ACME_2022_10K",), [("ACME_2022_10K", 3)], 1)
    assert tax.qtype == "table"  # half of its evidence lines are figures only
    assert revenue.answers == ("17606",) and revenue.evidence == () and revenue.qtype == "table"
    assert [e.page for e in risks.evidence] == [4] and risks.qtype == "text"
    assert engineers.docs == () and engineers.answers == ("3,100",) and engineers.qtype == ""
    assert question_type({"source_chunk_type": "Table"}) == "table"
    long = parse_question({"question": "q", "answer": "a paragraph"}, 1, "f:1")
    assert long.answers == ("a paragraph",) and long.id == "line 1"


@pytest.mark.parametrize("line, message", [
    ("{not json", "q.jsonl:2: not JSON"),
    ('["a list"]', "q.jsonl:2: expected a JSON object, got list"),
    ('{"question": ""}', 'q.jsonl:2: no "question"'),
    ('{"question": "q"}', "q.jsonl:2: nothing to measure"),
    ('{"question": "q", "evidence_pages": [0]}', "q.jsonl:2: an evidence page must be a page number of 1 or more"),
    ('{"id": "a", "question": "q", "answers": ["x"]}', "q.jsonl:2: id 'a' is already used on line 1"),
])
def test_a_bad_line_is_an_error_naming_it(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a", "question": "q", "answers": ["x"]}\n' + line + "\n")
    with pytest.raises(TreebuildError, match="^" + str(tmp_path).replace("\\", "\\\\") + "/" + message.replace(
            "(", r"\(").replace("[", r"\[")):
        load_questions(path)


def test_answer_strings_match_case_spacing_and_figures_by_value() -> None:
    assert answer_found("17606", "Total revenue was 17,606 million")
    assert answer_found("$17,606", "17606")
    assert answer_found("Total  REVENUE", "total revenue was")
    assert not answer_found("17,60", "17,606") and not answer_found("1760", "17,606")
    assert not answer_found("revenue grew", "revenue fell")


# -- the measurement ---------------------------------------------------------------------------------------


def test_each_method_is_measured_at_the_page_budget(corpus: Path, store: Store) -> None:
    questions = load_questions(corpus / "questions.jsonl")
    report = evaluate(questions, store, max_pages=1, source="questions.jsonl")
    rows = {r.question.id: r for r in report.rows}
    tax = rows["tax"].methods
    assert tax["nav"].hit and tax["bm25"].hit and tax["hybrid"].hit  # page 3 is the only one naming the rate
    assert tax["bm25"].returned == ["3"] and tax["nav"].pages == 1 and tax["nav"].returned[0].endswith(":3-3")
    assert all(m.pages <= 1 for r in report.rows for m in r.methods.values())  # the budget, for every method
    revenue = rows["revenue"].methods
    assert revenue["nav"].hit and revenue["bm25"].hit  # "17606" is printed as 17,606 on page 2
    risks = rows["risks"].methods
    assert not risks["nav"].hit and not risks["bm25"].hit and not risks["hybrid"].hit
    engineers = rows["engineers"]
    assert engineers.methods["bm25"].returned == ["GLOBEX_2022_10K:2"]  # every document's pages, one ranking
    assert engineers.methods["bm25"].hit and engineers.methods["nav"].hit
    assert engineers.methods["nav"].returned[0].startswith("GLOBEX_2022_10K:")
    assert all(r.calls == 0 and r.tokens == 0 and r.error is None for r in report.rows)
    totals = report.by_type()
    assert list(totals) == ["table", "text", "all"]
    assert totals["all"]["questions"] == 4 and totals["all"]["bm25"]["hits"] == 3
    assert totals["all"]["bm25"]["rate"] == 0.75 and totals["text"]["nav"]["hits"] == 0
    assert totals["table"]["questions"] == 2 and totals["table"]["nav"]["mean_pages"] == 1.0
    lines = text_lines(report)
    assert lines[0].startswith("navigator=lexical (not a language model) max_pages=1")
    assert lines[-1].startswith("all      nav 3/4 = 0.750 (1.0 p)   bm25 3/4 = 0.750 (1.0 p)")
    assert any(line.startswith("tax ") and " hit  hit  hit " in line for line in lines)
    data = report.to_dict()
    json.dumps(data)
    assert data["rows"][0]["nav"]["hit"] is True and data["totals"]["all"]["questions"] == 4


def test_a_question_about_an_unknown_document_is_a_recorded_miss(store: Store) -> None:
    q = parse_question({"id": "x", "question": "What was revenue?", "doc_id": "NOPE", "evidence_pages": [2]}, 1, "f")
    (row,) = evaluate([q], store, methods=("bm25",)).rows
    assert row.error is not None and "NOPE" in row.error and not row.methods["bm25"].hit


def test_the_model_navigator_reports_calls_and_tokens(store: Store, server: OpenAIServer) -> None:
    from treebuild.settings import ModelConfig

    def read_taxes(request: Request) -> Reply:
        body = request.user.split("<<<DATA\n", 1)[1].split("\nDATA>>>", 1)[0]
        ids = [json.loads(line)["id"] for line in body.splitlines() if "Income Taxes" in line]
        return Reply(content=json.dumps({"read": ids, "reasoning": "the tax note"}))

    server.reset()
    server.responder = read_taxes
    cfg = ModelConfig(model="openai/test", api_base=server.url, api_key="x", timeout=5.0)
    tax = EvalQuestion("tax", "What was the effective tax rate?", ("ACME_2022_10K",), (), ("21.5",), "", 1)
    report = evaluate([tax], store, navigator="litellm", config=cfg, max_pages=2, methods=("nav", "bm25"))
    (row,) = report.rows
    assert report.is_language_model and report.navigator == "litellm"
    assert row.methods["nav"].hit and row.calls == 1 and row.tokens > 0 and row.seconds > 0
    assert report.totals()["calls"] == 1 and len(server.chat_requests) == 1


# -- the CLI and the HTML report ------------------------------------------------------------------------------


def test_cli_eval_builds_the_corpus_prints_json_and_writes_html(corpus: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from treebuild.cli import app

    runner = CliRunner()
    fresh = tmp_path / "fresh-store"
    html = tmp_path / "report.html"
    args = ["eval", str(corpus / "questions.jsonl"), "--store", str(fresh), "--corpus", str(corpus / "pdf"),
            "--max-pages", "1"]
    out = runner.invoke(app, [*args, "--json", "--html", str(html)])
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["totals"]["all"]["bm25"]["hits"] == 3 and len(data["rows"]) == 4
    assert "store: ACME_2022_10K v1 created" in out.stderr and "[4/4] engineers: nav hit" in out.stderr
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and 'id=questions' in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "<script" not in page
    again = runner.invoke(app, args)  # unchanged documents are reused
    assert again.exit_code == 0 and "store: ACME_2022_10K v1 unchanged" in again.stderr
    assert "all      nav 3/4 = 0.750" in again.stdout

    missing = runner.invoke(app, ["eval", str(corpus / "questions.jsonl"), "--store", str(tmp_path / "empty"),
                                  "--corpus", str(tmp_path)])
    assert missing.exit_code == 1 and "not in" in missing.stderr and "ACME_2022_10K" in missing.stderr
    no_docs = runner.invoke(app, ["eval", str(corpus / "questions.jsonl"), "--store", str(fresh), "--limit", "x"])
    assert no_docs.exit_code != 0 and "--limit expects name=value" in no_docs.stderr
    absent = runner.invoke(app, ["eval", str(tmp_path / "none.jsonl"), "--store", str(fresh)])
    assert absent.exit_code == 1 and "none.jsonl: file not found" in absent.stderr
    assert "Traceback" not in missing.output + no_docs.output + absent.output


@pytest.mark.skipif(chromium_path() is None, reason="no Chromium: install it with `TREEBUILD_SETUP_BROWSER=1 "
                    "./scripts/setup` (Debian package chromium)")
def test_the_html_report_opens_in_chromium(corpus: Path, store: Store, tmp_path: Path) -> None:
    questions = [*load_questions(corpus / "questions.jsonl"),
                 parse_question({"id": "hostile", "question": HOSTILE, "doc_id": "ACME_2022_10K",
                                 "evidence_pages": [3]}, 9, "f")]
    report = evaluate(questions, store, max_pages=1)
    path = tmp_path / "report.html"
    path.write_text(html_report(report, title="eval <b>test</b>"), encoding="utf-8")
    with Browser(path.as_uri()) as b:
        b.wait_for("document.querySelector('#questions tbody') !== null")
        assert b.evaluate("document.title") == "eval <b>test</b>"
        ids = b.evaluate("[...document.querySelectorAll('#questions tbody tr')].map(r => r.dataset.id)")
        assert ids == [r.question.id for r in report.rows]
        cells = b.evaluate("[...document.querySelectorAll('#questions tbody tr')].map(r => "
                           "[...r.querySelectorAll('td')].slice(5, 8).map(c => c.textContent))")
        assert cells == [["hit" if r.methods[m].hit else "-" for m in ("nav", "bm25", "hybrid")] for r in report.rows]
        bars: list[dict[str, Any]] = b.evaluate(
            "[...document.querySelectorAll('svg rect.bar')].map(r => ({group: r.dataset.group, method: "
            "r.dataset.method, rate: +r.dataset.rate, height: r.getBBox().height}))")
        totals = report.by_type()
        assert [(x["group"], x["method"]) for x in bars] == [(g, m) for g in totals for m in report.methods]
        for bar in bars:
            assert bar["rate"] == pytest.approx(totals[bar["group"]][bar["method"]]["rate"], abs=1e-4)
            assert bar["height"] == pytest.approx(180 * bar["rate"], abs=0.2)  # drawn to scale
        assert b.evaluate("typeof window.__pwned") == "undefined"  # a question is text, never markup
        assert HOSTILE in b.evaluate("document.querySelector('#questions').textContent")
        assert b.evaluate("performance.getEntriesByType('resource').length") == 0  # nothing fetched
        shot = b.screenshot(tmp_path / "report.png")
    assert shot.stat().st_size > 10_000
