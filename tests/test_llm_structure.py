"""The opt-in model fallback for structure, through litellm against the loopback server: the
model is shown page windows, proposes sections as JSON, and only titles verified on their page
become marks (invented titles, far-off pages and running headers are dropped)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from docgen import Text, write_pdf
from openai_server import OpenAIServer, Reply, Request, server_config

from treebuild.llm.tokens import count_tokens
from treebuild.model import Pos, SourceDoc, Usage
from treebuild.readers import read
from treebuild.settings import ModelConfig
from treebuild.structure.assemble import assemble
from treebuild.structure.model_fallback import model_marks, model_structure
from treebuild.structure.prompt import StructurePolicy

HEADER = "Widget Manual v2"
BODY = ("The widget controller reads its settings at start and keeps them for the session.",
        "Operators should check the supply voltage before connecting any peripheral device.",
        "Each module reports its state on the bus once a second while it is running.")

# (page, title, level) of the real headings; bold 14 pt lines in the PDF
HEADINGS = [(1, "1 Introduction", 1), (3, "2 Installation", 1), (3, "2.1 Requirements", 2),
            (5, "3 Configuration", 1), (7, "4 Troubleshooting", 1)]


def manual(path: Path) -> Path:
    """Eight pages, a running header, headings in bold 14 pt and paragraphs of three lines (one block each)."""
    pages: list[list[Text | str]] = []
    for page in range(1, 9):
        lines: list[Text | str] = [Text(HEADER, 50, 8)]
        y = 100.0
        for p, title, _ in HEADINGS:
            if p == page:
                lines.append(Text(title, y, 14, bold=True))
                y += 28
        k = 0
        while y < 640:
            k += 1
            for body in BODY:  # lines 13 pt apart: one text block per paragraph
                lines.append(Text(f"({page}.{k}) {body}", y))
                y += 13
            y += 20
        pages.append(lines)
    return write_pdf(path, pages)


def shown_pages(request: Request) -> list[int]:
    return [int(p) for p in re.findall(r"^=== page (\d+) ===$", request.user, re.MULTILINE)]


def proposer(proposals: list[tuple[int, str, int]], *, broken_page: int | None = None) -> Callable[[Request], Reply]:
    """Answer each window with the proposals whose page it shows (a proposal's page may be wrong:
    it is listed where ``shown`` says)."""
    def respond(request: Request) -> Reply:
        pages = shown_pages(request)
        if broken_page in pages:
            return Reply(content="The sections are listed above.")
        sections = [{"title": t, "page": p, "level": lv} for shown, (p, t, lv) in proposals if shown in pages]
        return Reply(content=json.dumps({"sections": sections}))
    return respond  # type: ignore[return-value]


TRUE = [(p, (p, t, lv)) for p, t, lv in HEADINGS]
PROPOSALS = [
    (1, (1, "1 Introduction", 1)),
    (1, (1, HEADER, 1)),  # a running header: on every page, not a section
    (3, (3, "2 Installation", 1)),
    (3, (3, "2.1 Requirement", 2)),  # misspelt: still verified by fuzzy match
    (5, (6, "3 Configuration", 1)),  # one page off: found on the neighbouring page
    (6, (6, "5 Appendix", 1)),  # invented
    (7, (2, "4 Troubleshooting", 1)),  # far-off page: dropped
]


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> SourceDoc:
    return read(manual(tmp_path_factory.mktemp("manual") / "manual.pdf"))


@pytest.fixture(autouse=True)
def _fresh(server: OpenAIServer) -> None:
    server.reset()


def config(server: OpenAIServer, **kw: Any) -> ModelConfig:
    return server_config(server, **kw)


def heading_pos(doc: SourceDoc, page: int, title: str) -> Pos:
    return Pos(page - 1, doc.units[page - 1].text.index(title))


def test_verified_titles_become_model_marks(doc: SourceDoc, server: OpenAIServer) -> None:
    server.responder = proposer(PROPOSALS)
    usage = Usage()
    result = model_structure(doc, config(server), usage, policy=StructurePolicy(window_tokens=200))
    assert [(m.title, m.level, m.pos, m.origin) for m in result.marks] == [
        ("1 Introduction", 1, heading_pos(doc, 1, "1 Introduction"), "model"),
        ("2 Installation", 1, heading_pos(doc, 3, "2 Installation"), "model"),
        ("2.1 Requirement", 2, heading_pos(doc, 3, "2.1 Requirements"), "model"),
        ("3 Configuration", 1, heading_pos(doc, 5, "3 Configuration"), "model"),
    ]
    assert sorted(result.dropped) == sorted([f"{HEADER} (page 1)", "5 Appendix (page 6)", "4 Troubleshooting (page 2)"])
    assert result.proposed == len(PROPOSALS)
    # several windows, every page shown exactly once, every request counted
    requests = server.chat_requests
    assert result.windows == len(requests) > 1
    assert sorted(p for r in requests for p in shown_pages(r)) == list(range(1, 9))
    assert usage.calls == len(requests) and usage.failures == {}
    assert all(r.body.get("response_format") == {"type": "json_object"} for r in requests)


def test_model_marks_assemble_into_a_tree(doc: SourceDoc, server: OpenAIServer) -> None:
    server.responder = proposer(TRUE)
    marks = model_marks(doc, config(server), Usage())
    assert len(server.chat_requests) == 1  # eight short pages fit one window
    roots, clamped = assemble(doc, marks)
    assert clamped == 0
    assert roots[0].text() == f"{HEADER}\n"  # the running header above the first heading
    assert [(n.title, n.depth, n.start_page) for r in roots for n in r.walk()] == [
        ("Preface", 1, 1), ("1 Introduction", 1, 1), ("2 Installation", 1, 3), ("2.1 Requirements", 2, 3),
        ("3 Configuration", 1, 5), ("4 Troubleshooting", 1, 7)]


def test_structure_requests_show_less_than_the_document(doc: SourceDoc, server: OpenAIServer) -> None:
    server.responder = proposer(TRUE)
    usage = Usage()
    model_marks(doc, config(server), usage)
    document = count_tokens("\n".join(u.text for u in doc.units))
    assert usage.prompt_tokens < document  # first lines of blocks, not every line
    prompt = server.chat_requests[0].user
    assert "1 Introduction" in prompt and "4 Troubleshooting" in prompt


def test_a_failed_window_keeps_the_others(doc: SourceDoc, server: OpenAIServer) -> None:
    server.responder = proposer(TRUE, broken_page=5)
    usage = Usage()
    result = model_structure(doc, config(server), usage, policy=StructurePolicy(window_tokens=200))
    broken = next(r for r in server.chat_requests if 5 in shown_pages(r))
    lost = {t for p, t, _ in HEADINGS if p in shown_pages(broken)}
    assert {m.title for m in result.marks} == {t for _, t, _ in HEADINGS} - lost
    assert usage.failures == {"malformed": 1}


def test_offline_model_asks_nothing(doc: SourceDoc, server: OpenAIServer) -> None:
    assert model_marks(doc, ModelConfig(), Usage()) == []
    assert server.chat_requests == []
