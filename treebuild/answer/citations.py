"""Every citation checked against the passages given: an id that was not given is not a citation, a
claim citing nothing is flagged, and so is a number the claim states that no cited passage prints, and a
claim that states nothing (no letter or digit besides the answer template's placeholders, which small models
copy).

The check reads only what the answerer was shown of each passage (a passage cut to fit the budget is
checked against its shown part): a number in the unseen rest would support a claim by coincidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .numbers import numbers
from .prompts import PLACEHOLDERS
from .result import AnswerPassage, Claim, ClaimFlag

__all__ = ["check_claim", "clean_id", "states_something"]

_ID_NOISE = re.compile(r"[\s\[\]()#]+")
_WORD = re.compile(r"[^\W_]")


def clean_id(value: object) -> str:
    """A passage id as named by a model: ``[p1]``, `` P1 `` and ``P1`` are ``P1``; anything else is kept as
    text (and is not a passage id unless it is one)."""
    return _ID_NOISE.sub("", str(value)).upper()


def states_something(text: str) -> bool:
    """A letter or digit outside the answer template's placeholders."""
    for placeholder in PLACEHOLDERS:
        text = text.replace(placeholder, " ")
    return _WORD.search(text) is not None


def check_claim(n: int, text: str, named: Iterable[object], passages: Sequence[AnswerPassage]) -> Claim:
    """The claim ``text`` (number ``n``) naming ``named`` ids, checked against ``passages`` (those shown)."""
    shown = {p.id: p for p in passages if p.shown_chars > 0}
    ids = list(dict.fromkeys(clean_id(i) for i in named if str(i).strip()))
    citations = tuple(i for i in ids if i in shown)
    unknown = tuple(i for i in ids if i not in shown)
    printed = {value for p in citations for _, value in numbers(shown[p].shown_text)}
    unsupported = tuple(dict.fromkeys(raw for raw, value in numbers(text) if value not in printed))
    flags: list[ClaimFlag] = [] if states_something(text) else [ClaimFlag.NO_STATEMENT]
    if not citations:
        flags.append(ClaimFlag.NO_CITATION)
    if unknown:
        flags.append(ClaimFlag.UNKNOWN_CITATION)
    if unsupported:
        flags.append(ClaimFlag.NUMBER_NOT_IN_PASSAGE)
    return Claim(n=n, text=text.strip(), citations=citations, unknown_citations=unknown,
                 unsupported_numbers=unsupported, flags=tuple(flags))
