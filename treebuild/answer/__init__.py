"""Answers with citations that cannot lie: navigate, then answer from the returned passages only.

- :mod:`.ask`: :func:`ask` (and :func:`ask_async`), the service;
- :mod:`.model`: the answer written by a language model through the model seam;
- :mod:`.extractive`: the offline answer, NOT a language model (the passages' best-matching sentences);
- :mod:`.citations` and :mod:`.numbers`: every claim's citations and numbers checked against the passages;
- :mod:`.prompts`: the prompt and schema, versioned (``answer-*``), passages shown as quoted data;
- :mod:`.result`: :class:`Answer`, :class:`Claim` and the audit.
"""

from __future__ import annotations

from .ask import ask, ask_async, default_navigator
from .limits import AnswerLimits
from .prompts import PROMPT_VERSION
from .result import (
    EXTRACTIVE,
    NOT_FOUND_TEXT,
    Answer,
    AnswerAudit,
    AnswerPassage,
    AnswerStatus,
    Claim,
    ClaimFlag,
)

__all__ = ["ask", "ask_async", "default_navigator", "AnswerLimits", "Answer", "AnswerAudit", "AnswerPassage",
           "AnswerStatus", "Claim", "ClaimFlag", "EXTRACTIVE", "NOT_FOUND_TEXT", "PROMPT_VERSION"]
