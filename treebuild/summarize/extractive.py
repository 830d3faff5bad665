"""Offline summaries: no model, no network, deterministic, and named as such (``extractive``).

A section's summary is its lead sentences (the heading line and page furniture skipped) plus
its most distinctive terms: words frequent in the section but rare in the rest of the document
(TF-IDF over the sections' own texts). A parent also names its subsections. The document
description names the document, its opening and its top-level sections.

These are also the fallback whenever a model request fails or the budget is spent.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from ..model import Node, Tree
from ..text.furniture import FURNITURE_CHARS, PageFurniture, mask_line
from ..text.normalize import one_line
from ..text.patterns import is_page_number

__all__ = ["Extractive", "clean_own_texts", "lead_sentences", "strip_heading",
           "tokenize", "STOPWORDS"]

_WORD = re.compile(r"[^\W\d_](?:[\w'’-]*[^\W_])?")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[\"'“(\[]?[A-Z0-9À-Ý])")
_LEAD_NOISE = re.compile(r"^table of contents$|^contents$|^[\W\d_]*$", re.IGNORECASE)

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each either else etc few for from further had has have having
he her here hers herself him himself his how however i if in into is it its itself just may me might more most must
my myself no nor not now of off on once only or other otherwise our ours ourselves out over own per same shall she
should so some such than that the their theirs them themselves then there therefore these they this those through
thus to too under until up upon us very via was we were what when where whether which while who whom whose why will
with within without would yet you your yours yourself yourselves one two three four five six seven eight nine ten
first second third new used use using see also following include includes including includes included based well
section sections page pages chapter part table contents item items note notes figure
""".split())

LEAD_WORDS = 40
"""Words of lead text in an extractive summary (a parent uses fewer and names its subsections)."""


SUMMARY_CHARS = 800
"""Target size of an extractive summary: lead, subsections, headings and row labels, key terms. A
navigator (BM25 or a model) only finds a section by words its summary holds; 800 characters (~200
tokens) name a statement's line items or a page window's headings, while a 150-node filing's
outline stays ~100k characters (~25k tokens), within one model call's input budget."""

KEY_TERMS = 10
"""Distinctive terms named for a leaf (a parent names its subsections and fewer terms)."""

KEY_TERMS_PARENT = 6


TABLE_LEAD_SHARE = 0.3
"""A lead whose words are more than this share figures opens a table: it is cut short."""

TABLE_LEAD_WORDS = 12

LABEL_CHARS = 80
"""Longer lines are prose, not headings or row labels."""

LABEL_WORDS = 10

LABEL_LETTERS = 0.7
"""Share of a label's non-space characters that are letters (``2022 2021`` and ``$ 1,234`` are not)."""

MIN_LABEL_ROOM = 40
"""Characters left for labels below which none are listed."""

_WINDOW_SUFFIX = re.compile(r"\s*\((?:pages?|part)\s[^)]*\)$")
_RUN_IN = re.compile(r"^([A-Z][^–—.;:]{2,78}?)\s*(?:––|—|--)\s*\S")


KEY_CACHE = 1 << 16
"""Word forms whose term key is remembered (a filing has ~10-20k distinct forms)."""


def clean_own_texts(tree: Tree, furniture: PageFurniture | None = None) -> dict[str, str]:
    """Each node's own text without running headers, footers and page numbers (``furniture``: the
    build's layout analysis of them, made here when not given).

    A furniture line with words (``ACME Inc. | Annual Report #``) is dropped wherever it is; one of
    figures only (``#``, ``# of #``) only as the first or last line of a page (running headers and
    footers with words aside): elsewhere ``251`` is a table cell, not a page number.
    """
    doc = tree.doc
    keys = (furniture if furniture is not None else PageFurniture(doc)).keys
    anywhere = frozenset(k for k in keys if any(ch.isalpha() for ch in k))
    figures = keys - anywhere
    at_edges: set[tuple[int, int]] = set()  # (unit, line start) of figures-only furniture at a page edge
    if figures:
        for unit in doc.units:
            lines = [(start, line) for start, line in _lines(unit.text, 0, len(unit.text))
                     if line.strip() and (len(line) > FURNITURE_CHARS or mask_line(line) not in anywhere)]
            at_edges.update((unit.index, start) for start, line in lines[:1] + lines[-1:]
                            if len(line) <= FURNITURE_CHARS and mask_line(line) in figures)
    out: dict[str, str] = {}
    for node in tree.walk():
        if not keys:
            out[node.node_id] = node.own_text()
            continue
        begin, end = node.start, node.own_end()
        units = []
        for u in range(begin.unit, end.unit + 1):
            if u == end.unit and u != begin.unit and end.char == 0:
                break  # span_text's convention: a span ending at a unit's start does not include it
            a = begin.char if u == begin.unit else 0
            b = end.char if u == end.unit else len(doc.units[u].text)
            units.append("\n".join(line for start, line in _lines(doc.units[u].text, a, b)
                                    if len(line) > FURNITURE_CHARS
                                    or (mask_line(line) not in anywhere and (u, start) not in at_edges)))
        out[node.node_id] = "\n".join(units)
    return out


def _lines(text: str, a: int, b: int) -> list[tuple[int, str]]:
    """The lines of ``text[a:b]`` with the offset in ``text`` where each starts."""
    out: list[tuple[int, str]] = []
    start = a
    for line in text[a:b].split("\n"):
        out.append((start, line))
        start += len(line) + 1
    return out


def tokenize(text: str) -> list[str]:
    """Words of at least three characters that start with a letter, in their printed case."""
    return [w for w in _WORD.findall(text) if len(w) >= 3]


@lru_cache(maxsize=KEY_CACHE)
def _key(word: str) -> str:
    """Case-folded, with a plain plural ``s`` dropped so ``employee`` and ``employees`` count as one term."""
    key = word.casefold().strip("'’-")
    if len(key) > 4 and key.endswith("s") and not key.endswith(("ss", "us", "is")):
        key = key[:-1]
    return key


def _same_heading(line: str, title: str) -> bool:
    a, b = _key(one_line(line)), _key(one_line(title))
    if not a or not b:
        return False
    return a == b or (len(a) <= len(b) + 12 and b in a) or (len(b) <= len(a) + 12 and a in b)


def strip_heading(text: str, title: str) -> str:
    """``text`` without its leading heading (also when wrapped over up to three lines) and page
    furniture (numbers, 'Contents') before it."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if not line or is_page_number(line) or _LEAD_NOISE.match(line):
            i += 1
            continue
        for k in (1, 2, 3):
            if i + k <= len(lines) and _same_heading(" ".join(lines[i : i + k]), title):
                i += k
                break
        else:
            break
    return "\n".join(lines[i:])


def lead_sentences(text: str, max_words: int = LEAD_WORDS, fill: bool = False) -> str:
    """Whole sentences from the start of ``text`` up to ``max_words`` (at least one, cut if longer);
    with ``fill``, a sentence too long for the words left is cut rather than dropped when fewer
    than half of ``max_words`` are used (``ITEM 2.`` alone says nothing)."""
    flat = one_line(text[: max_words * 40])  # enough characters for max_words words
    if not flat:
        return ""
    out: list[str] = []
    count = 0
    for sentence in _SENTENCE_END.split(flat):
        words = sentence.split()
        if not words:
            continue
        if count and count + len(words) > max_words and not (fill and count < max_words // 2):
            break
        if len(words) > max_words - count:
            out.append(" ".join(words[: max_words - count]).rstrip(",;:") + " …")
            break
        out.append(sentence)
        count += len(words)
    return " ".join(out)


class Extractive:
    """Extractive summaries for every node of one tree, with document-wide term statistics."""

    def __init__(self, tree: Tree, own_texts: dict[str, str] | None = None) -> None:
        self.tree = tree
        self.nodes = list(tree.walk())
        self.own_texts = own_texts if own_texts is not None else clean_own_texts(tree)
        self._own: dict[str, Counter[str]] = {}
        self._surface: dict[str, Counter[str]] = {}
        df: Counter[str] = Counter()
        for node in self.nodes:
            words = tokenize(self.own_texts[node.node_id])
            counts: Counter[str] = Counter()
            for w in words:
                k = _key(w)
                if k in STOPWORDS:
                    continue
                counts[k] += 1
                forms = self._surface.get(k)
                if forms is None:
                    forms = self._surface[k] = Counter()
                forms[w] += 1
            self._own[node.node_id] = counts
            df.update(counts.keys())
        n = max(1, sum(1 for c in self._own.values() if c))
        self._idf = {k: math.log((1 + n) / (1 + v)) + 1.0 for k, v in df.items()}
        self._subtree: dict[str, Counter[str]] = {}

    def counts(self, node: Node) -> Counter[str]:
        """Term counts of the node's whole span (its subsections included)."""
        cached = self._subtree.get(node.node_id)
        if cached is None:
            cached = Counter(self._own[node.node_id])
            for child in node.children:
                cached.update(self.counts(child))
            self._subtree[node.node_id] = cached
        return cached

    def terms(self, node: Node | None, k: int = 6, exclude: str = "") -> list[str]:
        """The ``k`` most distinctive terms of ``node`` (the most frequent of the document for ``None``)."""
        if node is None:
            counts: Counter[str] = Counter()
            for root in self.tree.roots:
                counts.update(self.counts(root))
            return self._best(counts, k, exclude, weighted=False)
        return self._best(self.counts(node), k, exclude)

    def text_terms(self, text: str, k: int = 6, exclude: str = "") -> list[str]:
        """The ``k`` most distinctive terms of any text of this document (e.g. an unseen remainder)."""
        words = tokenize(text)
        counts = Counter(key for w in words if (key := _key(w)) not in STOPWORDS)
        surface: dict[str, Counter[str]] = {}
        for w in words:
            surface.setdefault(_key(w), Counter())[w] += 1
        return self._best(counts, k, exclude, surface=surface)

    def _best(self, counts: Counter[str], k: int, exclude: str, weighted: bool = True,
              surface: dict[str, Counter[str]] | None = None) -> list[str]:
        skip = {_key(w) for w in tokenize(exclude)}
        scored = [((1.0 + math.log(c)) * (self._idf.get(t, 1.0) if weighted else 1.0), t)
                  for t, c in counts.items() if t not in skip and (weighted or c > 1)]
        best = heapq.nsmallest(k, scored, key=lambda st: (-st[0], st[1]))  # sorted(...)[:k], without sorting all
        forms = surface if surface is not None else self._surface
        return [forms[t].most_common(1)[0][0] if t in forms else t for _, t in best]

    def lead(self, node: Node, max_words: int = LEAD_WORDS) -> str:
        return lead_sentences(strip_heading(self.own_texts[node.node_id], node.title), max_words)

    def summary(self, node: Node) -> str:
        """Lead sentences, subsections (for a parent), the node's own headings and table row labels,
        and distinctive terms; one paragraph of at most about ``SUMMARY_CHARS`` characters."""
        parts: list[str] = []
        lead = self._navigation_lead(node)
        if lead:
            parts.append(lead)
        if node.children:
            titles = [_short(c.title) for c in node.children[:6]]
            more = f" and {len(node.children) - 6} more" if len(node.children) > 6 else ""
            parts.append(_listing("Subsections", titles, more))
        terms = self.terms(node, KEY_TERMS if node.is_leaf else KEY_TERMS_PARENT, exclude=node.title)
        tail = _listing("Key terms", terms, sep=", ") if terms else ""
        room = SUMMARY_CHARS - sum(len(p) + 1 for p in parts) - len(tail) - len("Contains: .")
        labels = self.labels(node, room)
        if labels:
            parts.append(_listing("Contains", labels))
        if tail:
            parts.append(tail)
        return " ".join(parts)

    def _navigation_lead(self, node: Node) -> str:
        """The lead, its heading found also under a page window's title (``X (pages 3-9)``); short
        when the text opens with figures (a table's lead is column headings and numbers)."""
        title = _WINDOW_SUFFIX.sub("", node.title)
        text = strip_heading(self.own_texts[node.node_id], title)
        words = LEAD_WORDS if node.is_leaf else LEAD_WORDS // 2
        head = one_line(text[: words * 40]).split()[:words]
        figures = sum(1 for w in head if not any(ch.isalpha() for ch in w))
        if head and figures > TABLE_LEAD_SHARE * len(head):
            words = TABLE_LEAD_WORDS
        return lead_sentences(text, words, fill=True)

    def labels(self, node: Node, room: int) -> list[str]:
        """Headings and table row labels of the node's own text that fit ``room`` characters, in
        document order, the title's words and repeats left out. When not all fit, they are taken
        evenly across the node (a page window's headings from every page, a statement's line items
        from top to bottom) rather than by rarity: ``Total revenue`` is common and still the row asked for."""
        if room < MIN_LABEL_ROOM:
            return []
        title_keys = {_key(w) for w in tokenize(_WINDOW_SUFFIX.sub("", node.title))}
        seen: set[str] = set()
        found: list[str] = []
        for label in dict.fromkeys(self._label_candidates(node)):  # a repeated line once
            keys = [k for w in tokenize(label) if (k := _key(w)) not in STOPWORDS]
            key = " ".join(keys)
            if not keys or key in seen or set(keys) <= title_keys:
                continue  # says nothing, repeats a label, or repeats the title
            seen.add(key)
            found.append(label)
        total = sum(len(label) + 2 for label in found)
        if total <= room:
            return found
        fit = max(1, room * len(found) // total)  # about this many labels of average length fit
        order = [round(i * len(found) / fit) for i in range(fit)]
        order += [i for i in range(len(found)) if i not in set(order)]
        chosen: list[int] = []
        for i in order:
            if len(found[i]) + 2 <= room:
                chosen.append(i)
                room -= len(found[i]) + 2
        return [found[i] for i in sorted(chosen)]

    def _label_candidates(self, node: Node) -> list[str]:
        """The node's own tables' titles and row labels (the real ones, when a reader kept the table), then
        the label-like lines of its own text."""
        tabled: list[str] = []
        for table in node.tables(own=True) if node._doc is not None else []:
            tabled.extend(label_lines("\n".join(([table.title] if table.title else []) + table.row_labels)))
        return tabled + label_lines(self.own_texts[node.node_id])

    def description(self) -> str:
        """One line: the document's title, its opening sentence and its top-level sections."""
        doc = self.tree.doc
        roots = self.tree.roots
        title = (doc.title or "").strip() or (roots[0].title if len(roots) == 1 else Path(doc.path).stem)
        parts = [title.rstrip(".") + "."]
        opening = next((lead for r in self.tree.walk() if (lead := self.lead(r, 25))), "")
        if opening:
            parts.append(opening)
        tops = roots[0].children if len(roots) == 1 and roots[0].children else roots
        if len(tops) > 1:
            titles = [_short(n.title) for n in tops[:8]]
            more = f" and {len(tops) - 8} more" if len(tops) > 8 else ""
            parts.append(_listing("Sections", titles, more))
        return " ".join(parts)


def label_lines(text: str) -> list[str]:
    """Lines that name something rather than say it: headings, run-in headings (``Outlook––We
    expect ...``) and table row labels (``Total revenue``, ``Operating income``). A label is short,
    starts with a capital, is mostly letters and does not end like prose (``.``, ``,``, ``;``)."""
    out: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or not line[0].isupper():
            continue
        run_in = _RUN_IN.match(line) if "–" in line or "—" in line or "--" in line else None
        if run_in is not None:
            line = run_in.group(1)
        elif len(line) > LABEL_CHARS:
            continue
        line = " ".join(line.split()).strip(" :–—-")
        if not 3 <= len(line) <= LABEL_CHARS or not line[0].isupper() or line[-1] in ".,;":
            continue
        if len(line.split()) > LABEL_WORDS:
            continue
        dense = line.replace(" ", "")
        if sum(map(str.isalpha, dense)) < LABEL_LETTERS * len(dense):
            continue
        out.append(line)
    return out


def _listing(label: str, items: list[str], more: str = "", sep: str = "; ") -> str:
    """``Label: a; b; c.`` with one full stop, also when the last item ends with its own
    (``13.1.2. Properties.`` is listed as ``...; 13.1.2. Properties.``, not ``Properties..``)."""
    return f"{label}: {sep.join(items)}{more}".rstrip(".") + "."


def _short(title: str, words: int = 8) -> str:
    w = one_line(title).split()
    return " ".join(w[:words]) + (" …" if len(w) > words else "")
