"""``treebuild eval``: measure retrieval on your own questions.

- :mod:`.questions`: the JSON-lines questions file (evidence pages or answer strings);
- :mod:`.run`: :func:`evaluate`, the configured navigator, BM25 over whole pages and the hybrid of the two,
  each at the same page budget; :func:`prepare_documents` builds the documents from a corpus folder;
- :mod:`.report`: the text table and the self-contained HTML report.
"""

from __future__ import annotations

from .questions import EvalQuestion, Evidence, load_questions, parse_question, question_type
from .report import html_report, text_lines
from .run import METHODS, EvalReport, EvalRow, MethodResult, PageTexts, answer_found, evaluate, prepare_documents

__all__ = ["EvalQuestion", "Evidence", "load_questions", "parse_question", "question_type", "METHODS", "EvalReport",
           "EvalRow", "MethodResult", "PageTexts", "answer_found", "evaluate", "prepare_documents", "html_report",
           "text_lines"]
