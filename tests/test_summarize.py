"""Summaries: the offline extractive default, and bottom-up model summaries through the real
litellm path against a loopback OpenAI-compatible server, on a realistic generated annual
report (PDF with an outline, running headers, page numbers, sections from one line to several
pages): economy (input tokens against the document's), reuse across versions, failures and
budgets."""

from __future__ import annotations

import json
import random
import re
import string
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import given
from hypothesis import settings as settings_
from hypothesis import strategies as st
from openai_server import OpenAIServer, Reply, Request, asked_ids, echo_summaries, server_config, summary_for

from treebuild.llm.tokens import count_tokens
from treebuild.model import Node, Tree
from treebuild.pipeline import build
from treebuild.settings import BuildSettings, ModelConfig
from treebuild.summarize import (
    ECONOMY_TARGET,
    PROMPT_VERSION,
    document_title,
    economy_floor,
    economy_ratio,
    summary_key,
)
from treebuild.summarize.bottomup import SummaryAnswer
from treebuild.summarize.compact import compact_text
from treebuild.summarize.extractive import clean_own_texts
from treebuild.summarize.prompts import ECONOMY_FLOOR_REQUESTS, POLICY, request_overhead, summary_chars
from treebuild.text.normalize import one_line

MODEL = "openai/test"
WORDS = 45  # the loopback model's summaries are about as long as a real model's

COMMON = """the company its our we operations during year fiscal period results compared increase decrease primarily
due higher lower million billion percent net total revenue sales cost expenses income customers products market
business management financial reported segment quarter growth related certain including approximately amounts
continued impact factors significant changes effect levels expect future may could would our plans current prior
""".split()


@dataclass(frozen=True)
class Sec:
    level: int
    title: str
    sentences: int
    topic: tuple[str, ...] = ()
    text: str | None = None  # fixed body instead of generated sentences
    lines: tuple[str, ...] = ()  # printed as they are, one per line, after the body (tables, contents)


REPORT = [
    Sec(1, "PART I", 1, ("annual", "report")),
    Sec(2, "Item 1. Business", 5, ("enterprise", "platform")),
    Sec(3, "Overview", 14, ("headquarters", "founded", "subscribers")),
    Sec(3, "Products and Services", 22, ("photonics", "lithography", "wafers")),
    Sec(3, "Competition", 16, ("rivals", "pricing", "differentiation")),
    Sec(3, "Human Capital", 12, ("employees", "retention", "diversity")),
    Sec(2, "Item 1A. Risk Factors", 3, ("uncertainties", "investors")),
    Sec(3, "Risks Related to Our Supply Chain", 34, ("suppliers", "shortages", "logistics")),
    Sec(3, "Risks Related to Cybersecurity", 30, ("breaches", "ransomware", "encryption")),
    Sec(3, "Risks Related to Regulation", 28, ("regulators", "antitrust", "compliance")),
    Sec(2, "Item 1B. Unresolved Staff Comments", 0, text="None."),
    Sec(2, "Item 2. Properties", 5, ("campus", "leased", "square")),
    Sec(2, "Item 3. Legal Proceedings", 9, ("litigation", "plaintiffs", "settlement")),
    Sec(1, "PART II", 1, ("financial", "information")),
    Sec(2, "Item 5. Market for Common Equity", 10, ("dividends", "repurchases", "shareholders")),
    Sec(2, "Item 7. Management's Discussion and Analysis", 4, ("discussion", "analysis")),
    Sec(3, "Results of Operations", 190, ("backlog", "bookings", "gross-margin")),
    Sec(3, "Liquidity and Capital Resources", 40, ("liquidity", "borrowings", "covenants")),
    Sec(3, "Critical Accounting Estimates", 30, ("estimates", "impairment", "goodwill")),
    Sec(2, "Item 8. Financial Statements", 2, ("statements", "audited")),
    Sec(3, "Note 1. Accounting Policies", 36, ("consolidation", "policies", "recognition")),
    Sec(3, "Note 2. Revenue", 26, ("contracts", "obligations", "deferred")),
    Sec(3, "Note 3. Leases", 20, ("lessee", "right-of-use", "leases")),
    Sec(3, "Note 4. Income Taxes", 24, ("taxes", "deferred-tax", "jurisdictions")),
    Sec(3, "Note 5. Debt", 22, ("notes", "maturities", "indenture")),
    Sec(1, "PART III", 1, ("governance", "proxy")),
    Sec(2, "Item 10. Directors and Executive Officers", 12, ("directors", "officers", "board")),
    Sec(2, "Item 11. Executive Compensation", 3, ("compensation", "awards")),
    Sec(1, "PART IV", 0, text="Exhibits and financial statement schedules are listed in the index."),
]


def _sentences(rng: random.Random, topic: tuple[str, ...], n: int) -> str:
    out = []
    for _ in range(n):
        words = [rng.choice(topic) if topic and rng.random() < 0.25 else rng.choice(COMMON)
                 for _ in range(rng.randint(10, 20))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def write_report(path: Path, sections: list[Sec] = REPORT, *, edits: dict[str, str] | None = None,
                 seed: int = 7, page_footer: str = "Page {n}") -> tuple[Path, dict[str, str]]:
    """A PDF annual report with an outline; returns it and each section's body text."""
    rng = random.Random(seed)
    doc = pymupdf.open()
    toc: list[list[object]] = []
    bodies: dict[str, str] = {}
    state = {"page": None, "y": 0.0}

    def footer() -> None:
        if state["page"] is not None:
            state["page"].insert_text((290, 770), page_footer.format(n=doc.page_count), fontsize=8, fontname="helv")

    def new_page() -> None:
        footer()
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 40), "ACME Photonics Inc. | Annual Report 2025", fontsize=8, fontname="helv")
        state["page"], state["y"] = page, 90.0

    def line(text: str, size: float, bold: bool, gap: float) -> None:
        if state["page"] is None or state["y"] > 740:
            new_page()
        state["page"].insert_text((72, state["y"]), text, fontsize=size, fontname="hebo" if bold else "helv")
        state["y"] += gap

    for sec in sections:
        body = sec.text if sec.text is not None else _sentences(rng, sec.topic, sec.sentences)
        if edits and sec.title in edits:
            body = f"{body} {edits[sec.title]}"
        bodies[sec.title] = body
        if state["page"] is not None and state["y"] > 700:
            new_page()
        state["y"] += 14
        line(sec.title, 14, True, 24)
        page = state["page"]
        toc.append([sec.level, sec.title, page.number + 1,
                    {"kind": pymupdf.LINK_GOTO, "page": page.number, "to": pymupdf.Point(72, state["y"] - 40)}])
        for paragraph in textwrap.wrap(body, 700):
            for text in textwrap.wrap(paragraph, 92):
                line(text, 10, False, 13)
            state["y"] += 8
        for text in sec.lines:
            line(text, 10, False, 13)
    footer()
    doc.set_toc(toc)
    doc.set_metadata({"title": "ACME Photonics Annual Report 2025"})
    doc.save(path)
    doc.close()
    return path, bodies


class DictCache(dict[str, str]):
    """The store's SummaryCache, kept in memory: summary_key -> summary."""

    @classmethod
    def of(cls, tree: Tree) -> DictCache:
        cache = cls({n.summary_key: n.summary for n in tree.walk() if n.summary_key and n.summary is not None})
        if tree.description_key and tree.description:
            cache[tree.description_key] = tree.description
        return cache


def settings(**kw: object) -> BuildSettings:
    return BuildSettings(model=MODEL, **kw)  # type: ignore[arg-type]


def config(server: OpenAIServer, **kw: Any) -> ModelConfig:
    return server_config(server, **{"model": MODEL, "timeout": 5.0, **kw})


def doc_tokens(tree: Tree) -> int:
    return count_tokens("\n".join(u.text for u in tree.doc.units))


def by_title(tree: Tree, title: str) -> Node:
    return next(n for n in tree.walk() if n.title == title)


def asking(server: OpenAIServer, node_id: str) -> list[Request]:
    return [r for r in server.chat_requests if node_id in asked_ids(r)]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return write_report(tmp_path_factory.mktemp("report") / "report.pdf")


@pytest.fixture(autouse=True)
def _fresh(server: OpenAIServer) -> None:
    server.reset()
    server.responder = echo_summaries


@pytest.fixture(scope="module")
def model_run(report: tuple[Path, dict[str, str]], server: OpenAIServer) -> tuple[Tree, list[Request]]:
    """One model build of the report, with the requests it made."""
    server.reset()
    server.responder = lambda request: echo_summaries(request, words=WORDS)
    tree = build(report[0], settings(), model_config=config(server))
    return tree, server.chat_requests


# -- offline ---------------------------------------------------------------------------------

def test_offline_summaries_are_extractive_deterministic_and_complete(report: tuple[Path, dict[str, str]]) -> None:
    path, bodies = report
    tree = build(path)
    again = build(path)
    assert tree.model == "extractive"
    assert tree.usage.calls == 0 and tree.usage.prompt_tokens == 0
    nodes = list(tree.walk())
    assert [n.title for n in nodes] == [s.title for s in REPORT]
    assert [(n.summary, n.summary_key) for n in nodes] == [(n.summary, n.summary_key) for n in again.walk()]
    assert tree.description == again.description
    for node in nodes:
        assert node.summary and node.summary_key and node.text_sha256
        assert node.summary_origin in ("extractive", "text")
    # a section of a line keeps its own text
    staff = by_title(tree, "Item 1B. Unresolved Staff Comments")
    assert (staff.summary_origin, staff.summary) == ("text", "Item 1B. Unresolved Staff Comments None.")
    # a leaf: its lead sentence and words distinctive of it
    competition = by_title(tree, "Competition")
    assert competition.summary_origin == "extractive"
    first_sentence = bodies["Competition"].split(". ")[0]
    assert one_line(competition.summary).startswith(first_sentence)
    terms = competition.summary.split("Key terms:")[1]
    assert sum(t in terms for t in ("rivals", "pricing", "differentiation")) >= 2
    assert "photonics" not in terms.casefold()  # another section's topic
    # a parent names its subsections
    risks = by_title(tree, "Item 1A. Risk Factors")
    assert "Subsections: Risks Related to Our Supply Chain; Risks Related to Cybersecurity" in risks.summary
    assert tree.description is not None
    assert tree.description.startswith("ACME Photonics Annual Report 2025.")
    assert "Sections: PART I; PART II; PART III; PART IV." in tree.description


def test_offline_build_never_imports_litellm(report: tuple[Path, dict[str, str]]) -> None:
    code = (
        "import sys\nfrom treebuild.pipeline import build\n"
        f"tree = build({str(report[0])!r})\n"
        "assert all(n.summary for n in tree.walk())\n"
        "print('litellm' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- with a model ----------------------------------------------------------------------------

def test_model_summaries_fill_every_section_not_short(model_run: tuple[Tree, list[Request]]) -> None:
    tree, requests = model_run
    assert tree.model == MODEL
    assert tree.usage.calls == len(requests) and tree.usage.failures == {} and tree.usage.reused == 0
    asked = [i for r in requests for i in asked_ids(r)]
    assert len(asked) == len(set(asked))  # nothing asked twice
    for node in tree.walk():
        if node.summary_origin == "text":
            assert node.node_id not in asked
            assert count_tokens(node.text()) <= 100
            continue
        assert node.summary_origin == MODEL, node.title
        (request,) = [r for r in requests if node.node_id in asked_ids(r)]
        assert node.summary == summary_for(node.node_id, request, WORDS)
        assert len(node.summary.split()) == WORDS
    (described,) = [r for r in requests if "document" in asked_ids(r)]
    assert tree.description == summary_for("document", described, WORDS)
    assert {n.summary_origin for n in tree.walk()} == {MODEL, "text"}


def test_usage_adds_up_what_the_server_counted(model_run: tuple[Tree, list[Request]]) -> None:
    tree, requests = model_run

    def tokens(r: Request) -> int:
        return sum(count_tokens(m["content"]) + 4 for m in r.messages)

    assert tree.usage.prompt_tokens == sum(tokens(r) for r in requests)
    assert tree.usage.completion_tokens > 0


def test_each_token_is_read_about_once(model_run: tuple[Tree, list[Request]],
                                       report: tuple[Path, dict[str, str]]) -> None:
    tree, requests = model_run
    ratio = tree.usage.prompt_tokens / doc_tokens(tree)
    print(f"\ninput tokens {tree.usage.prompt_tokens} / document tokens {doc_tokens(tree)} = {ratio:.2f}, "
          f"{len(requests)} requests for {tree.doc.page_count} pages and {len(list(tree.walk()))} nodes")
    assert ratio <= 1.1
    assert len(requests) < len(list(tree.walk())) / 2  # sections share requests
    # no section's text is shown twice: every body is in at most one prompt
    prompts = [one_line(r.prompt) for r in requests]
    for title, body in report[1].items():
        probe = " ".join(body.split()[:12])
        assert sum(probe in p for p in prompts) <= 1, title


def test_long_sections_are_read_from_their_head_and_parents_from_children(
        model_run: tuple[Tree, list[Request]], report: tuple[Path, dict[str, str]]) -> None:
    tree, _ = model_run
    results = by_title(tree, "Results of Operations")
    assert count_tokens(results.text()) > 3000
    (request,) = asking_in(model_run, results.node_id)
    words = report[1]["Results of Operations"].split()
    assert " ".join(words[:12]) in one_line(request.prompt)
    assert " ".join(words[-12:]) not in one_line(request.prompt)  # the tail is not read...
    assert "backlog" in request.prompt.split("mentions:")[-1] or "bookings" in request.prompt.split("mentions:")[-1]
    mdna = by_title(tree, "Item 7. Management's Discussion and Analysis")
    (parent_request,) = asking_in(model_run, mdna.node_id)
    for child in mdna.children:  # ...the parent reads its children's summaries (their lead), not their text
        lead = " ".join((child.summary or "").split()[:20])
        assert f"- [{child.node_id}] {child.title}: {lead} …\n" in parent_request.user
        assert " ".join(report[1][child.title].split()[:12]) not in one_line(parent_request.prompt)


def asking_in(run: tuple[Tree, list[Request]], node_id: str) -> list[Request]:
    return [r for r in run[1] if node_id in asked_ids(r)]


def test_small_document_takes_one_request(tmp_path: Path, server: OpenAIServer) -> None:
    path, _ = write_report(tmp_path / "small.pdf", [
        Sec(1, "Introduction", 8, ("scope",)), Sec(1, "Installation", 10, ("packages",)),
        Sec(2, "Requirements", 6, ("python",)), Sec(1, "Glossary", 0, text="Terms used in this guide."),
    ])
    tree = build(path, settings(), model_config=config(server))
    (request,) = server.chat_requests
    modelled = [n.node_id for n in tree.walk() if n.summary_origin == MODEL]
    assert [by_title(tree, t).node_id in modelled for t in ("Introduction", "Installation", "Requirements")] == \
        [True] * 3
    assert asked_ids(request) == [*modelled, "document"]
    assert tree.description == summary_for("document", request)
    assert by_title(tree, "Glossary").summary_origin == "text"


# -- economy on many small sections -----------------------------------------------------------

DIRECTORIES = ["bin", "boot", "dev", "etc", "home", "lib", "media", "mnt", "opt", "run", "sbin", "srv", "tmp",
               "usr", "var", "proc", "sys", "cache", "spool", "games", "local", "share", "include", "libexec"]


def standard(chapters: int = 5, entries: int = 12, seed: int = 11) -> list[Sec]:
    """A filesystem-standard-like document: a printed contents listing with dot leaders, then
    chapters of a dozen directory entries, each with one to three short subsections (Purpose,
    Requirements with a command table, Specific Options with a figures table): about 200 sections
    of 20 to 200 tokens, chapters too long to show whole."""
    rng = random.Random(seed)
    body: list[Sec] = []
    for c in range(1, chapters + 1):
        body.append(Sec(1, f"{c}. The /{DIRECTORIES[c]} Hierarchy", 2, ("hierarchy", DIRECTORIES[c])))
        for k in range(1, entries + 1):
            name = DIRECTORIES[(c * entries + k) % len(DIRECTORIES)]
            topic = (f"/{name}", f"{name}-files", rng.choice(["shareable", "static", "variable", "optional"]))
            body.append(Sec(2, f"{c}.{k}. /{DIRECTORIES[c]}/{name} : {name.capitalize()} data", 1, topic))
            for j, sub in enumerate(("Purpose", "Requirements", "Specific Options")[: 1 + k % 3], 1):
                table: tuple[str, ...] = ()
                if sub == "Requirements":
                    table = ("Command", "Description", f"{name}ctl", f"Control the {name} service (optional)",
                             f"{name}stat", f"Report {name} usage")
                elif sub == "Specific Options":
                    table = ("Quota", "$", f"{rng.randint(1, 99)},{rng.randint(100, 999)}", "$",
                             f"{rng.randint(1, 99)},{rng.randint(100, 999)}")
                body.append(Sec(3, f"{c}.{k}.{j}. {sub}", rng.randint(4, 9), topic, lines=table))
    contents = tuple(f"{sec.title} {'.' * max(4, 80 - len(sec.title))} {i // 6 + 1}" for i, sec in enumerate(body))
    return [Sec(1, "Preface", 5, ("standard", "interoperability"), lines=("Table of Contents", *contents)), *body]


@pytest.fixture(scope="module")
def standard_run(tmp_path_factory: pytest.TempPathFactory,
                 server: OpenAIServer) -> tuple[Tree, list[Request], dict[str, str]]:
    path, bodies = write_report(tmp_path_factory.mktemp("standard") / "standard.pdf", standard())
    server.reset()
    server.responder = lambda request: echo_summaries(request, words=WORDS)
    tree = build(path, settings(), model_config=config(server))
    return tree, server.chat_requests, bodies


def test_many_small_sections_are_read_about_once(standard_run: tuple[Tree, list[Request], dict[str, str]]) -> None:
    tree, requests, bodies = standard_run
    nodes = list(tree.walk())
    assert len(nodes) > 150 and tree.usage.failures == {}
    tokens = doc_tokens(tree)
    assert tokens > economy_floor(document_title(tree))  # measured on its own tokens
    ratio = economy_ratio(tree.usage.prompt_tokens, tokens, document_title(tree))
    print(f"\nmany small sections: input {tree.usage.prompt_tokens} / document {tokens} = {ratio:.2f}, "
          f"{len(requests)} requests for {len(nodes)} nodes")
    assert ratio <= ECONOMY_TARGET
    assert len(requests) <= 1 + tokens // 2000  # requests are full, not one per section
    prompts = [one_line(r.prompt) for r in requests]
    for title, body in bodies.items():  # every section's text at most once
        if body:
            assert sum(" ".join(body.split()[:12]) in p for p in prompts) <= 1, title
    asked = [i for r in requests for i in asked_ids(r)]
    assert len(asked) == len(set(asked))
    assert all(n.summary_origin in (MODEL, "text") for n in nodes)


def test_contents_listing_and_tables_are_shown_compactly(
        standard_run: tuple[Tree, list[Request], dict[str, str]]) -> None:
    tree, requests, _ = standard_run
    preface = by_title(tree, "Preface")
    (request,) = [r for r in requests if preface.node_id in asked_ids(r)]
    shown = request.user.split(f"[{preface.node_id}]", 1)[1].split("\n# [", 1)[0]
    assert "...." not in shown  # no dot leaders
    chapters = [r.title for r in tree.roots[1:]]
    assert [line for line in shown.splitlines() if line in chapters] == chapters  # top-level entries kept
    assert "1.1. /boot/" not in shown
    entries = sum(1 for n in tree.walk()) - 1
    assert f"[{entries - len(chapters)} more entries]" in shown
    # a command table keeps a row per line; a figures table reads as one row
    prompt = "\n".join(r.user for r in requests)
    assert re.search(r"^Quota \$ \d+,\d{3} \$ \d+,\d{3}$", prompt, re.MULTILINE)
    assert re.search(r"^Command\nDescription\n\w+ctl\nControl the \w+ service \(optional\)$", prompt, re.MULTILINE)


def test_a_parent_of_many_reads_fewer_words_of_each_child(
        standard_run: tuple[Tree, list[Request], dict[str, str]]) -> None:
    tree, requests, _ = standard_run
    chapter = tree.roots[1]
    assert len(chapter.children) == 12 and chapter.summary_origin == MODEL
    (request,) = [r for r in requests if chapter.node_id in asked_ids(r)]
    words = POLICY.listing_words // len(chapter.children)
    assert POLICY.min_child_words <= words < POLICY.child_words
    for child in chapter.children:  # the first `words` of each child's summary, no more
        lead = " ".join((child.summary or "").split()[:words])
        assert f"- [{child.node_id}] {child.title}: {lead} …\n" in request.user + "\n"
        assert child.summary_origin == MODEL and not any(child.node_id in asked_ids(r) for r in [request])
    # the description lists the chapters the same way
    (described,) = [r for r in requests if "document" in asked_ids(r)]
    assert all(f"- [{r.node_id}] {r.title}" in described.user for r in tree.roots)


def test_a_tiny_document_is_measured_on_the_floor(tmp_path: Path, server: OpenAIServer) -> None:
    import docx

    document = docx.Document()
    document.core_properties.title = "Release notes"
    document.add_heading("Changes", level=1)  # two sections just long enough to be summarised
    document.add_paragraph("The importer now reads nested tables and keeps their captions with the rows they "
                           "describe. Dates in page headers are parsed in the locale of the document, so a "
                           "German report dated 3. Mai 2024 sorts after one dated 30 April 2024. Footnotes that "
                           "continue on the next page are joined into one note, and their numbering restarts "
                           "with each chapter as printed. Scanned pages without a text layer are reported by "
                           "page number instead of being skipped without a word.")
    document.add_heading("Fixes", level=1)
    document.add_paragraph("A crash on empty footnotes is fixed, and so is a slow path in very long bulleted "
                           "lists that made exports of large manuals take minutes instead of seconds. Exports "
                           "to PDF/A no longer drop the document language, and links to bookmarks inside "
                           "tables now point to the right page when the table breaks across pages. Fonts that "
                           "embed only a subset of their glyphs are no longer reported as missing, and empty "
                           "table cells no longer shift the cells after them one column to the left.")
    path = tmp_path / "notes.docx"
    document.save(str(path))
    tree = build(path, settings(), model_config=config(server))
    (request,) = server.chat_requests
    assert asked_ids(request) == [*(r.node_id for r in tree.roots), "document"]
    tokens = doc_tokens(tree)
    title = document_title(tree)
    assert title == "Release notes"
    overhead = request_overhead(title)
    assert economy_floor(title) == ECONOMY_FLOOR_REQUESTS * overhead > tokens
    assert overhead > 0.1 * tokens  # one request's instructions exceed a tenth of the document...
    assert tree.usage.prompt_tokens > ECONOMY_TARGET * tokens  # ...so its own ratio cannot be met
    assert tree.usage.prompt_tokens < tokens + 3 * overhead  # the text once, the instructions once
    assert economy_ratio(tree.usage.prompt_tokens, tokens, title) <= ECONOMY_TARGET


def test_compact_text_drops_layout_not_words() -> None:
    text = textwrap.dedent("""\
        Contents
        1. Scope ............................................. 1
        1.1. Terms . . . . . . . . . . . . . . . . . . . . . . . 2
        2. Layout ……………… iv
        The   importer reads every table of the document and keeps the captions with the
        rows they describe, so that a reader finds the figures again.
        Net revenue
        $
        11,715
        $
        18,353
        Notes:
        • first item of a list that is long enough to look like a wrapped line of prose text
        • second item
        A word broken by hyphen-
        ation at the end of a line that is as wide as the others in this section of text.
        """)
    assert compact_text(text).splitlines() == [
        "Contents", "1. Scope", "1.1. Terms", "2. Layout",
        "The importer reads every table of the document and keeps the captions with the rows they describe, "
        "so that a reader finds the figures again.",
        "Net revenue $ 11,715 $ 18,353",
        "Notes:",
        "• first item of a list that is long enough to look like a wrapped line of prose text",
        "• second item",
        "A word broken by hyphen-ation at the end of a line that is as wide as the others in this section of text.",
    ]
    assert count_tokens(compact_text(text)) < 0.8 * count_tokens(text)


def test_compact_text_shortens_a_long_contents_listing_to_its_top_level() -> None:
    entries = [f"{c}. Chapter {c} {'.' * 40} {c * 10}" for c in range(1, 4)]
    listing = [line for c, entry in enumerate(entries, 1)
               for line in (entry, *(f"{c}.{k}. Part {k} {'. ' * 20} {c * 10 + k}" for k in range(1, 8)))]
    shown = compact_text("\n".join(["Table of Contents", *listing[:12], "iii", *listing[12:]]))
    assert shown == "Table of Contents\n1. Chapter 1\n2. Chapter 2\n3. Chapter 3\n[21 more entries]"
    short = compact_text("\n".join(listing[:8]))  # a short listing stays whole
    assert short.splitlines() == ["1. Chapter 1", *(f"1.{k}. Part {k}" for k in range(1, 8))]


def test_bare_page_numbers_are_furniture_but_table_figures_are_not(tmp_path: Path) -> None:
    cells = {f"Note {i}": str(200 + i) for i in range(1, 9)}
    sections = [Sec(1, title, 30, ("interest",), lines=("Interest income", "$", cell, "$", "47"))
                for title, cell in cells.items()]
    path, _ = write_report(tmp_path / "bare.pdf", sections, page_footer="{n}")
    tree = build(path)
    pages = tree.doc.page_count or 0
    assert pages >= 4 and all(u.text.split()[-1] == str(u.page) for u in tree.doc.units)  # footers are bare
    own = clean_own_texts(tree)
    lines = [line.strip() for node in tree.walk() for line in own[node.node_id].splitlines()]
    assert [line for line in lines if line in cells.values()] == list(cells.values())  # table cells kept...
    assert lines.count("47") == lines.count("Interest income") == len(cells) and lines.count("$") == 2 * len(cells)
    assert not {str(n) for n in range(1, pages + 1)} & set(lines)  # ...page numbers dropped


@settings_(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=string.ascii_letters + string.digits + " $,()%", max_size=90), max_size=30))
def test_compact_text_keeps_every_word_in_order(lines: list[str]) -> None:
    """Without leaders or hyphens there is nothing to drop: only white space and line breaks change."""
    text = "\n".join(lines)
    assert compact_text(text).split() == text.split()


# -- reuse across versions -------------------------------------------------------------------

def test_unchanged_document_makes_no_request(model_run: tuple[Tree, list[Request]],
                                             report: tuple[Path, dict[str, str]], server: OpenAIServer) -> None:
    first, _ = model_run
    tree = build(report[0], settings(), model_config=config(server), cache=DictCache.of(first))
    assert server.chat_requests == []
    assert tree.usage.calls == 0
    modelled = [n for n in first.walk() if n.summary_origin == MODEL]
    assert tree.usage.reused == len(modelled) + 1  # and the description
    assert [(n.summary, n.summary_origin, n.summary_key) for n in tree.walk()] == \
        [(n.summary, n.summary_origin, n.summary_key) for n in first.walk()]
    assert tree.description == first.description


def test_editing_one_section_resummarises_it_and_its_ancestors_only(
        model_run: tuple[Tree, list[Request]], server: OpenAIServer, tmp_path: Path) -> None:
    first, _ = model_run
    for title in ("Competition", "Note 3. Leases"):
        server.reset()
        path, _ = write_report(tmp_path / "edited.pdf", edits={title: "A newly added sentence about tariffs."})
        tree = build(path, settings(), model_config=config(server), cache=DictCache.of(first))
        edited = by_title(tree, title)
        expected = {n.node_id for n in edited.path()} | {"document"}
        assert {i for r in server.chat_requests for i in asked_ids(r)} == expected
        assert tree.usage.reused == sum(1 for n in first.walk() if n.summary_origin == MODEL) - len(expected) + 1
        changed = {n.node_id for n in tree.walk() if n.summary_key != first.node(n.node_id).summary_key}
        assert changed == expected - {"document"}


def test_summary_key_is_a_pure_function_of_text_model_and_prompt_version() -> None:
    key = summary_key("abc", MODEL, "1", "whole", title="T")
    assert key == summary_key("abc", MODEL, "1", "whole", title="T")
    assert len({key, summary_key("abd", MODEL, "1", "whole", title="T"),
                summary_key("abc", "openai/other", "1", "whole", title="T"),
                summary_key("abc", MODEL, "2", "whole", title="T")}) == 4


def test_new_prompt_version_reuses_nothing(model_run: tuple[Tree, list[Request]],
                                           report: tuple[Path, dict[str, str]], server: OpenAIServer) -> None:
    first, requests = model_run
    assert first.settings["prompt_version"] == PROMPT_VERSION
    tree = build(report[0], settings(prompt_version=PROMPT_VERSION + ".next"), model_config=config(server),
                 cache=DictCache.of(first))
    assert tree.usage.reused == 0 and len(server.chat_requests) == len(requests)
    assert not {n.summary_key for n in tree.walk()} & {n.summary_key for n in first.walk()}


# -- failures and budgets --------------------------------------------------------------------

def fail_for(node_id: str, reply: Reply) -> Callable[[Request], Reply]:
    """Answer normally, except the request asking ``node_id``."""
    return lambda request: reply if node_id in asked_ids(request) else echo_summaries(request)


@pytest.mark.parametrize(("reply", "kind"), [
    (Reply(content="Here are the summaries you asked for."), "malformed"),
    (Reply(content="I'm sorry, I can't help with that."), "refusal"),
    (Reply(refusal="declined"), "refusal"),
    (Reply(content="late", delay=3.0), "timeout"),
    (Reply(status=500), "server_error"),
])
def test_a_failed_request_keeps_extractive_summaries(report: tuple[Path, dict[str, str]], server: OpenAIServer,
                                                     model_run: tuple[Tree, list[Request]], reply: Reply,
                                                     kind: str) -> None:
    offline = build(report[0])
    target = by_title(offline, "Competition").node_id
    server.responder = fail_for(target, reply)
    tree = build(report[0], settings(), model_config=config(server, timeout=0.5, max_retries=1))
    failed = {i for r in asking(server, target) for i in asked_ids(r)}
    assert target in failed
    assert tree.usage.failures == {kind: 1}
    for node in tree.walk():
        if node.node_id in failed:
            assert (node.summary_origin, node.summary) == ("extractive", offline.node(node.node_id).summary)
        else:
            assert node.summary_origin in (MODEL, "text")
    # the nearest ancestor outside the failed request was still summarised, from the extractive
    # summary its failed child kept
    ancestor = next(n for n in reversed(tree.node(target).path()) if n.node_id not in failed)
    assert ancestor.summary_origin == MODEL
    (request,) = asking(server, ancestor.node_id)
    child = next(c for c in ancestor.children if c.node_id in failed)
    lead = " ".join((offline.node(child.node_id).summary or "").split()[:10])
    assert f"[{child.node_id}] {child.title}: {lead}" in request.prompt
    assert any("stay extractive after model failures" in w and kind in w for w in tree.warnings)


def test_missing_ids_in_an_answer_are_incomplete(report: tuple[Path, dict[str, str]], server: OpenAIServer,
                                                 model_run: tuple[Tree, list[Request]]) -> None:
    target = by_title(model_run[0], "Human Capital").node_id

    def respond(request: Request) -> Reply:
        answer = {i: summary_for(i, request) for i in asked_ids(request) if i != target}
        return Reply(content=json.dumps({"summaries": [{"id": k, "summary": v} for k, v in answer.items()]}))

    server.responder = respond
    tree = build(report[0], settings(), model_config=config(server))
    assert tree.usage.failures == {"incomplete": 1}
    assert tree.node(target).summary_origin == "extractive"
    assert sum(n.summary_origin == MODEL for n in tree.walk()) == \
        sum(n.summary_origin == MODEL for n in model_run[0].walk()) - 1


def test_failed_sections_are_retried_by_the_next_build(report: tuple[Path, dict[str, str]], server: OpenAIServer,
                                                       model_run: tuple[Tree, list[Request]]) -> None:
    target = by_title(model_run[0], "Note 2. Revenue").node_id
    server.responder = fail_for(target, Reply(status=500))
    first = build(report[0], settings(), model_config=config(server, max_retries=0))
    failed = {i for r in asking(server, target) for i in asked_ids(r)}
    server.reset()
    server.responder = echo_summaries
    tree = build(report[0], settings(), model_config=config(server), cache=DictCache.of(first))
    retried = {i for r in server.chat_requests for i in asked_ids(r)}
    ancestors = {n.node_id for n in tree.node(target).path() if n.node_id != target}
    assert failed <= retried <= failed | ancestors | {"document"}
    assert all(n.summary_origin in (MODEL, "text") for n in tree.walk())


def test_whole_model_outage_keeps_a_complete_extractive_tree(report: tuple[Path, dict[str, str]],
                                                             server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(status=503)
    tree = build(report[0], settings(), model_config=config(server, max_retries=0))
    offline = build(report[0])
    assert [(n.summary, n.summary_origin) for n in tree.walk()] == \
        [(n.summary, n.summary_origin) for n in offline.walk()]
    assert tree.description == offline.description
    assert tree.usage.failures == {"server_error": len(server.chat_requests)}


def test_max_calls_budget_stops_spending_and_says_so(report: tuple[Path, dict[str, str]],
                                                     server: OpenAIServer) -> None:
    tree = build(report[0], settings(), model_config=config(server, max_calls=2, concurrency=1))
    assert len(server.chat_requests) == 2 and tree.usage.calls == 2
    answered = {i for r in server.chat_requests for i in asked_ids(r)}
    for node in tree.walk():
        assert node.summary
        assert node.summary_origin == (MODEL if node.node_id in answered else node.summary_origin)
        if node.node_id not in answered:
            assert node.summary_origin in ("extractive", "text")
    assert tree.usage.failures["budget"] >= 1
    assert any(w.startswith("model budget spent (max_calls=2 reached)") for w in tree.warnings)


def test_slow_answers_beyond_max_seconds_stop_at_the_budget(report: tuple[Path, dict[str, str]],
                                                            server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(content=echo_summaries(request).content, delay=2.0)
    tree = build(report[0], settings(), model_config=config(server, max_seconds=0.5, timeout=30.0))
    assert tree.usage.failures.get("budget", 0) >= 1
    assert all(n.summary_origin in ("extractive", "text") for n in tree.walk())
    assert any("max_seconds=0.5" in w for w in tree.warnings)


def test_answer_shapes_are_validated() -> None:
    assert SummaryAnswer.model_validate({"0001": "a", "0002": {"summary": "b"}}).summaries() == \
        {"0001": "a", "0002": "b"}
    assert SummaryAnswer.model_validate({"summaries": {"[0003]": "c"}}).summaries() == {"0003": "c"}
    assert SummaryAnswer.model_validate([{"id": "0004", "summary": "d"}, "junk"]).summaries() == {"0004": "d"}
    assert SummaryAnswer.model_validate({"0005": "", "0006": 3}).summaries() == {}


def test_model_summary_is_cleaned_and_capped(report: tuple[Path, dict[str, str]], server: OpenAIServer) -> None:
    long = " ".join(["word"] * 400)
    server.responder = lambda request: Reply(content=json.dumps({i: f"  {long}\n" for i in asked_ids(request)}))
    tree = build(report[0], settings(), model_config=config(server))
    node = next(n for n in tree.walk() if n.summary_origin == MODEL)
    assert node.summary is not None
    assert re.fullmatch(r"(word ){150}…", node.summary)
    # a parent reads only the first words of each child's summary
    mdna = by_title(tree, "Item 7. Management's Discussion and Analysis")
    (request,) = asking(server, mdna.node_id)
    for child in mdna.children:
        assert f"- [{child.node_id}] {child.title}: {'word ' * 20}…\n" in request.user


# -- strict JSON-schema answers (issue 7, item 12) -----------------------------------------------


def test_summary_requests_send_a_strict_schema_of_the_asked_ids(model_run: tuple[Tree, list[Request]]) -> None:
    _, requests = model_run
    assert requests
    for request in requests:
        fmt = request.response_format
        assert fmt is not None and fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
        schema = request.json_schema
        assert schema is not None
        assert schema["required"] == asked_ids(request) == list(schema["properties"])
        assert schema["additionalProperties"] is False
        # a self-hosted server (the loopback one) is told the longest summary it may write
        assert all(p == {"type": "string", "minLength": 1, "maxLength": summary_chars()}
                   for p in schema["properties"].values())


def test_an_id_missing_from_a_packed_answer_is_asked_again_once_in_a_smaller_request(
        report: tuple[Path, dict[str, str]], server: OpenAIServer, model_run: tuple[Tree, list[Request]]) -> None:
    packed = next(r for r in model_run[1] if len(asked_ids(r)) >= 3)
    target = asked_ids(packed)[1]

    def respond(request: Request) -> Reply:
        ids = asked_ids(request)
        left_out = target if len(ids) > 1 else None  # a packed answer forgets it; asked alone, it is answered
        return Reply(content=json.dumps({i: summary_for(i, request) for i in ids if i != left_out}))

    server.responder = respond
    tree = build(report[0], settings(), model_config=config(server))
    first, again = asking(server, target)
    assert len(asked_ids(first)) >= 3 and asked_ids(again) == [target]
    assert again.json_schema is not None and again.json_schema["required"] == [target]
    assert len(again.user) < len(first.user)  # only the block that holds the id is shown again
    assert tree.node(target).summary_origin == MODEL
    assert tree.usage.failures == {} and tree.usage.retries == 1
    assert all(n.summary_origin in (MODEL, "text") for n in tree.walk())


def test_an_id_missing_twice_stays_extractive_and_is_counted(report: tuple[Path, dict[str, str]],
                                                             server: OpenAIServer,
                                                             model_run: tuple[Tree, list[Request]]) -> None:
    packed = next(r for r in model_run[1] if len(asked_ids(r)) >= 3)
    target = asked_ids(packed)[1]
    server.responder = lambda request: Reply(content=json.dumps(
        {i: summary_for(i, request) for i in asked_ids(request) if i != target}))
    tree = build(report[0], settings(), model_config=config(server))
    assert len(asking(server, target)) == 2  # asked again once, never a third time
    assert tree.usage.failures == {"incomplete": 1}
    assert tree.node(target).summary_origin == "extractive"
    assert any("incomplete: 1" in w for w in tree.warnings)


def test_a_server_without_schemas_gets_json_object_requests(report: tuple[Path, dict[str, str]],
                                                            server: OpenAIServer,
                                                            model_run: tuple[Tree, list[Request]]) -> None:
    server.accepts_schemas = False
    tree = build(report[0], settings(), model_config=config(server))
    requests = server.chat_requests
    refused = [r for r in requests if r.json_schema is not None]
    assert 1 <= len(refused) <= ModelConfig().concurrency  # requests already in flight are each refused once
    assert all(r.response_format == {"type": "json_object"} for r in requests if r.json_schema is None)
    assert len(requests) == len(model_run[1]) + len(refused)
    assert all(n.summary_origin in (MODEL, "text") for n in tree.walk())
    assert tree.usage.failures == {} and tree.usage.retries == len(refused)
    assert any("refused JSON-schema answers" in w for w in tree.warnings)


def test_schemas_can_be_turned_off(report: tuple[Path, dict[str, str]], server: OpenAIServer) -> None:
    tree = build(report[0], settings(), model_config=config(server, response_schema="never"))
    assert server.chat_requests
    assert all(r.response_format == {"type": "json_object"} for r in server.chat_requests)
    assert not any("refused" in w for w in tree.warnings)


# -- navigation aids in offline summaries ---------------------------------------------------------

STATEMENT_ROWS = ["Revenue", "Subscription", "Total revenue", "Cost of revenue", "Gross profit",
                  "Research and development", "Sales and marketing", "Total operating expenses",
                  "Operating income", "Interest expense", "Income before income taxes",
                  "Provision for income taxes", "Net income"]


def test_offline_summaries_name_table_rows_and_headings_within_their_bound(tmp_path: Path) -> None:
    from treebuild.summarize.extractive import SUMMARY_CHARS, label_lines

    pdf = pymupdf.open()
    page = pdf.new_page()
    prose = ("Our platform serves creative professionals and enterprises worldwide, and we sell it "
             "through subscriptions.\nWe compete on breadth of features, integration and price.\n"
             "Pricing and Packaging\nPlans are sold monthly or annually, with discounts for teams.")
    page.insert_textbox(pymupdf.Rect(50, 50, 550, 400), "Overview\n" + prose, fontsize=10)
    page = pdf.new_page()
    lines = ["Consolidated Statements of Income", "(In millions, except per share data)", "Years Ended", "2025", "2024"]
    for i, row in enumerate(STATEMENT_ROWS):  # a statement as PDF text comes out: label, then one figure a line
        lines += [row, f"{1000 + 37 * i:,}", f"{900 + 29 * i:,}"]
    page.insert_textbox(pymupdf.Rect(50, 40, 550, 800), "\n".join(lines), fontsize=7)
    pdf.set_toc([[1, "Overview", 1], [1, "Consolidated Statements of Income", 2]])
    path = tmp_path / "statement.pdf"
    pdf.save(path)
    tree = build(path)
    statement = by_title(tree, "Consolidated Statements of Income")
    assert statement.summary_origin == "extractive" and statement.summary
    listed = statement.summary.split("Contains:")[1].split("Key terms:")[0]
    assert all(row in listed for row in ("Gross profit", "Operating income", "Net income", "Total revenue"))
    assert not any(ch.isdigit() for ch in listed)  # figures are not labels
    assert len(statement.summary) <= SUMMARY_CHARS
    # a heading inside prose is a label; a sentence is not
    assert label_lines(prose) == ["Pricing and Packaging"]
    assert label_lines("Outlook––We expect revenue to grow.\n2024 2023\n$ 1,234") == ["Outlook"]


def test_a_listed_title_ending_with_a_full_stop_gets_no_second_one(tmp_path: Path) -> None:
    body = " ".join(f"The company leases {w} offices and plants in several countries and owns its headquarters."
                    for w in COMMON[:60]) + "\n\n"
    doc = tmp_path / "items.md"
    doc.write_text("# 13. Other Information\n\n" + body + "## 13.1. Legal Proceedings.\n\n" + body
                   + "## 13.2. Properties.\n\n" + body)
    tree = build(doc)
    parent = by_title(tree, "13. Other Information")
    assert parent.summary and "Subsections:" in parent.summary
    assert "Properties." in parent.summary
    assert all(".." not in n.summary for n in tree.walk() if n.summary), [n.summary for n in tree.walk()]
