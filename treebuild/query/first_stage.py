"""The first stage of a query: BM25 over what the trees hold, before and beside the navigator.

Three uses, one mechanism (:mod:`treebuild.query.terms`):

- **node scores**: BM25 of the question over each node's title, summary and own text (a leaf's
  whole text, a parent's lead), with *one* set of term statistics for every document of the query,
  so scores compare across documents. The runtime gives them to navigators
  (:attr:`~treebuild.query.spi.Candidate.text_score`), seeds walks from the best nodes when asked
  (``Limits.seed_nodes``) and ranks passages across documents with them.
- **page scores**: BM25 over each page of one document, to return a long section's best pages
  rather than its first ones (``Limits.zoom_pages``).
- **section scores**: BM25 over node titles and summaries of every candidate document, read in
  one scan without their text, to pick documents by what is inside them (document selection).

A tree's text is tokenized once per process and kept (:data:`CACHE_TREES` trees), so a query over
stored trees already seen costs only the scoring.
"""

from __future__ import annotations

import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..model import Pos
from .listing import listing_pages
from .outline import TreeView
from .terms import TermCounts, bm25, counts, name_terms, query_terms

__all__ = ["FirstStage", "TreeTerms", "tree_terms", "section_scores", "printed_name", "CACHE_TREES"]

CACHE_TREES = 64
"""Trees whose term counts a process keeps (a 200-page filing's are about 1 MB)."""


@dataclass(frozen=True, slots=True)
class TreeTerms:
    """Term counts of one tree: per node (title, summary, own text) and per physical page; pages that
    list the tree's own sections (:mod:`~treebuild.query.listing`) count no term of their text."""

    nodes: dict[str, TermCounts]
    pages: dict[int, TermCounts]
    listing: frozenset[int] = frozenset()


_cache: OrderedDict[tuple[object, ...], TreeTerms] = OrderedDict()
_lock = threading.Lock()


def _key(view: TreeView) -> tuple[object, ...]:
    tree = view.tree
    shape = hash(tuple((n.node_id, n.start, n.end, n.title, n.summary) for n in view.nodes.values()))
    return (tree.doc_id, tree.version, tree.doc.sha256, len(tree.doc.units), shape)


def tree_terms(view: TreeView) -> TreeTerms:
    """The term counts of a tree, from the process cache when the same tree was seen before."""
    key = _key(view)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    made = _count(view)
    with _lock:
        _cache[key] = made
        while len(_cache) > CACHE_TREES:
            _cache.popitem(last=False)
    return made


def _count(view: TreeView) -> TreeTerms:
    """Cut the unit stream at every node's start and own end, tokenize each piece once, and add the
    pieces up per node (its own span) and per page; a listing page's pieces count for neither (its
    terms are titles of other sections, which those sections' own titles already carry)."""
    units = view.tree.doc.units
    page_texts: dict[int, list[str]] = {}
    for unit in units:
        if unit.page is not None:
            page_texts.setdefault(unit.page, []).append(unit.text)
    listing = listing_pages(view.tree, page_texts)
    cuts: dict[int, set[int]] = {}
    owners: list[tuple[Pos, Pos, str]] = []
    for node in view.nodes.values():
        own_end = node.own_end()
        owners.append((node.start, own_end, node.node_id))
        for pos in (node.start, own_end):
            if pos.unit < len(units):
                cuts.setdefault(pos.unit, set()).add(pos.char)
    pieces: list[tuple[int, int, int]] = []  # unit, start char, end char
    for u, unit in enumerate(units):
        bounds = sorted({0, len(unit.text)} | {c for c in cuts.get(u, ()) if 0 < c < len(unit.text)})
        pieces.extend((u, a, b) for a, b in zip(bounds, bounds[1:], strict=False) if b > a)
    piece_counts = counts([units[u].text[a:b] for u, a, b in pieces])
    pages: dict[int, TermCounts] = {}
    for (u, _, _), terms in zip(pieces, piece_counts, strict=True):
        page = units[u].page
        if page is not None:
            pages.setdefault(page, Counter())
            if page not in listing:
                pages[page].update(terms)
    # own spans do not overlap: each piece belongs to the node whose [start, own_end) holds it
    owners.sort()
    nodes: dict[str, TermCounts] = {node_id: Counter() for node_id in view.nodes}
    o = 0
    for (u, a, _), terms in zip(pieces, piece_counts, strict=True):
        here = Pos(u, a)
        while o < len(owners) and owners[o][1] <= here:
            o += 1
        if o < len(owners) and owners[o][0] <= here < owners[o][1] and units[u].page not in listing:
            nodes[owners[o][2]].update(terms)
    described = counts([f"{n.title}\n{n.summary or ''}" for n in view.nodes.values()])
    for node_id, terms in zip(view.nodes, described, strict=True):
        nodes[node_id].update(terms)
    return TreeTerms(nodes=nodes, pages=pages, listing=listing)


_CAPITALISED = re.compile(r"(?<![\w.])[A-Z][\w&.]*")
_WORDS = re.compile(r"\w+")


def printed_name(question: str, view: TreeView) -> str:
    """The words by which the question names the document as the document names itself: words the
    question capitalises (its first word aside) that its first page with text prints (a filing's
    cover prints the company's name, a report's title page its title). "Amazon" in a question over a
    filing titled by its form ("FORM 10-Q") names nothing inside it, yet every certification,
    signature and risk factor prints it."""
    first = next((u for u in view.tree.doc.units if u.text.strip()), None)
    if first is None:
        return ""
    page = first.page
    text = "\n".join(u.text for u in view.tree.doc.units if u.page == page) if page is not None else first.text
    printed = {w.casefold() for w in _WORDS.findall(text)}
    asked = [m.group(0) for m in _CAPITALISED.finditer(question) if m.start() > 0 and len(m.group(0)) > 1]
    return " ".join(w for w in asked if {x.casefold() for x in _WORDS.findall(w)} <= printed)


def _shared_name_terms(names: Sequence[str]) -> set[str]:
    """Terms every navigated document's name holds: they tell the documents' nodes apart no better
    than anything else (one document: its whole name, as the ``lexical`` navigator drops it)."""
    sets = [name_terms(n) for n in names]
    return set.intersection(*sets) if sets else set()


class FirstStage:
    """BM25 of one question over the nodes of the documents of a query (one index) and, on demand,
    over each document's pages."""

    def __init__(self, question: str, views: Mapping[str, TreeView]) -> None:
        self.views = views
        names = [f"{doc_id} {v.tree.doc.title or ''} {printed_name(question, v)}" for doc_id, v in views.items()]
        self.query = query_terms(question, drop=_shared_name_terms(names))
        self.terms = {doc_id: tree_terms(view) for doc_id, view in views.items()}
        keys = [(doc_id, node_id) for doc_id, t in self.terms.items() for node_id in t.nodes]
        scores = bm25(self.query, [self.terms[d].nodes[n] for d, n in keys])
        self.node_scores: dict[str, dict[str, float]] = {doc_id: {} for doc_id in views}
        for (doc_id, node_id), score in zip(keys, scores, strict=True):
            self.node_scores[doc_id][node_id] = score
        self._pages: dict[str, dict[int, float]] = {}

    def best_score(self, doc_id: str) -> float:
        """The document's best node score: how much of the question it holds anywhere."""
        return max(self.node_scores.get(doc_id, {}).values(), default=0.0)

    def best_nodes(self, doc_id: str, k: int) -> list[str]:
        """The ``k`` best-scoring nodes of a document with a score above zero, best first."""
        scored = self.node_scores.get(doc_id, {})
        view = self.views[doc_id]
        ranked = sorted((i for i, s in scored.items() if s > 0), key=lambda i: (-scored[i], view.order[i]))
        return ranked[:k]

    def listing_only(self, doc_id: str, node_id: str) -> bool:
        """Whether the node lies only on pages that list the document's sections (a contents or
        index page: no passage a question is answered from)."""
        listing = self.terms[doc_id].listing
        node = self.views[doc_id].nodes[node_id]
        if not listing or node.start_page is None:
            return False
        return all(p in listing for p in range(node.start_page, (node.end_page or node.start_page) + 1))

    def page_scores(self, doc_id: str) -> dict[int, float]:
        """BM25 of each page of the document (statistics of that document's pages)."""
        if doc_id not in self._pages:
            pages = self.terms[doc_id].pages
            numbers = sorted(pages)
            self._pages[doc_id] = dict(zip(numbers, bm25(self.query, [pages[p] for p in numbers]), strict=True))
        return self._pages[doc_id]

    def best_pages(self, doc_id: str, first: int, last: int, k: int) -> list[int]:
        """The ``k`` best pages of ``first..last`` in page order (ties: the earlier page)."""
        scores = self.page_scores(doc_id)
        ranked = sorted(range(first, last + 1), key=lambda p: (-scores.get(p, 0.0), p))
        return sorted(ranked[:k])


def section_scores(question: str, sections: Sequence[tuple[str, str, str | None]]) -> dict[str, float]:
    """The best section score of each document for the question: BM25 over node titles and summaries
    (``(doc_id, title, summary)`` rows) of every candidate document, one index."""
    if not sections:
        return {}
    docs = sorted({d for d, _, _ in sections})
    query = query_terms(question, drop=_shared_name_terms(docs))
    scores = bm25(query, counts([f"{title}\n{summary or ''}" for _, title, summary in sections]))
    best: dict[str, float] = dict.fromkeys(docs, 0.0)
    for (doc_id, _, _), score in zip(sections, scores, strict=True):
        best[doc_id] = max(best[doc_id], score)
    return best
