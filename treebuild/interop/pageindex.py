"""PageIndex JSON interop: read a PageIndex tree and store it as a version of a document.

A PageIndex tree (``structure``: nodes with ``title``, ``start_index``/``end_index`` = 1-based
physical pages (``physical_index``, ``page_index`` or ``page_start`` in some outputs),
``summary``, ``nodes``) says where sections start only to the page. Importing it
reads the source file, places each node on its start page (at the line that opens with its title
when there is one, else at the top of the page or where the node before it starts), and hands the
starts to the same assembly every other structure source uses, so the stored tree has exact
text spans, page ranges and preorder ids and can be queried, navigated and compared like a
built one. Nodes come out with origin ``imported``; confidence is 1.0 where the title was found
on the page and :data:`UNPLACED_CONFIDENCE` where it was not.

Unpaged sources (DOCX, Markdown) have no page numbers: titles are searched in document order.
JSON written by treebuild itself (``build -o``, ``export``) carries exact spans; they are used
when the source file's SHA-256 equals the one recorded in the JSON.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import TreebuildError
from ..findings import Finding, Stage
from ..model import Mark, Method, Node, Origin, Pos, SourceDoc, StructureSource, Tree
from ..readers import read
from ..settings import OFFLINE_MODEL, ModelConfig, settings_hash
from ..store import Store, doc_id_for, valid_doc_id
from ..structure.assemble import assemble
from ..structure.outline.marks import find_title_line
from ..text.furniture import PageFurniture

__all__ = ["IMPORTED_ORIGIN", "UNPLACED_CONFIDENCE", "ImportResult", "load_pageindex", "from_pageindex",
           "import_pageindex"]

IMPORTED_ORIGIN = Origin.imported
UNPLACED_CONFIDENCE = 0.5  # the title was not found on its start page: the node starts at the page top
_IMPORT_METHOD = Method([StructureSource.imported])


def load_pageindex(path: str | Path) -> dict[str, Any]:
    """Read a PageIndex JSON file; errors name the file and what is wrong with it."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TreebuildError("file not found", path=str(p), hint="check the path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TreebuildError(f"cannot read the file: {exc}", path=str(p)) from None
    except json.JSONDecodeError as exc:
        raise TreebuildError(f"not valid JSON (line {exc.lineno}: {exc.msg})", path=str(p),
                             hint="pass a PageIndex tree as written by PageIndex or `treebuild export`") from None
    if isinstance(data, list):  # a bare structure list
        data = {"structure": data}
    if not isinstance(data, dict) or not isinstance(data.get("structure"), list):
        raise TreebuildError("not a PageIndex tree: no 'structure' list at the top level", path=str(p),
                             hint="expected {\"doc_name\": ..., \"structure\": [{\"title\": ..., "
                                  "\"start_index\": ..., \"nodes\": [...]}]}")
    _check_nodes(data["structure"], str(p), "structure")
    return data


def _check_nodes(nodes: list[Any], path: str, where: str) -> None:
    for i, node in enumerate(nodes):
        here = f"{where}[{i}]"
        if not isinstance(node, dict) or not isinstance(node.get("title"), str):
            raise TreebuildError(f"{here} is not a node with a string 'title'", path=path)
        for key in ("start_index", "end_index"):
            if node.get(key) is not None and not isinstance(node[key], int):
                raise TreebuildError(f"{here}.{key} must be an integer page number, got {node[key]!r}", path=path)
        children = node.get("nodes") or []
        if not isinstance(children, list):
            raise TreebuildError(f"{here}.nodes must be a list", path=path)
        _check_nodes(children, path, f"{here}.nodes")


def _flatten(nodes: list[dict[str, Any]], level: int = 1) -> list[tuple[int, dict[str, Any]]]:
    out: list[tuple[int, dict[str, Any]]] = []
    for node in nodes:
        out.append((level, node))
        out.extend(_flatten(node.get("nodes") or [], level + 1))
    return out


def _page_units(doc: SourceDoc) -> dict[int, int]:
    return {u.page: u.index for u in doc.units if u.page is not None}


def _exact_span(node: dict[str, Any], doc: SourceDoc) -> Pos | None:
    span = node.get("span")
    if not isinstance(span, dict):
        return None
    unit, char = span.get("start_unit"), span.get("start_char")
    if not isinstance(unit, int) or not isinstance(char, int) or not 0 <= unit < len(doc.units):
        return None
    return Pos(unit, min(max(char, 0), len(doc.units[unit].text)))


_START_KEYS = ("start_index", "physical_index", "page_index", "page_start")  # spellings seen in PageIndex outputs


def _start_page(node: dict[str, Any]) -> int | None:
    for key in _START_KEYS:
        value = node.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _place(doc: SourceDoc, node: dict[str, Any], pages: dict[int, int], after: Pos,
           furniture: PageFurniture) -> tuple[Pos, bool]:
    """Where a node starts and whether its title was found there. A title below nothing but a
    running header starts the section at the page top, as built trees do, so the page before
    does not end with the header."""
    title = node["title"]
    page = _start_page(node)
    if doc.paged and page is not None:
        unit = pages.get(page)
        if unit is None:  # beyond the document: clamp to the last page
            unit = len(doc.units) - 1 if page > 0 else 0
        text = doc.units[unit].text
        lo = after.char if after.unit == unit else 0
        char = find_title_line(text, title, lo, len(text) + 1)
        if char is None and lo:
            char = find_title_line(text, title, 0, len(text) + 1)
        if char is not None:
            if lo == 0 and char > 0 and furniture.lead_only(doc.units[unit], char):
                char = 0
            return Pos(unit, char), True
        return (after if after.unit == unit else Pos(unit, 0)), False  # the page top, not before its predecessor
    for unit in range(after.unit, len(doc.units)):  # unpaged: the next unit that opens with the title
        text = doc.units[unit].text
        lo = after.char if unit == after.unit else 0
        char = find_title_line(text, title, lo, len(text) + 1)
        if char is not None:
            if lo == 0 and char > 0 and furniture.lead_only(doc.units[unit], char):
                char = 0
            return Pos(unit, char), True
    return after, False


def from_pageindex(data: dict[str, Any], doc: SourceDoc, *, fill_summaries: bool = True) -> Tree:
    """A tree over ``doc`` with the structure of the PageIndex tree ``data`` (as from
    :func:`load_pageindex`). Node summaries are kept; missing ones get extractive summaries."""
    flat = _flatten(data["structure"])
    if not flat:
        raise TreebuildError("the PageIndex tree has no nodes", path=doc.path)
    source = data.get("source")
    exact = isinstance(source, dict) and source.get("sha256") == doc.sha256
    pages = _page_units(doc)
    furniture = PageFurniture(doc)
    marks: list[Mark] = []
    after = Pos(0, 0)
    unplaced = 0
    for level, given in flat:
        pos = _exact_span(given, doc) if exact else None
        found = pos is not None
        if pos is None:
            pos, found = _place(doc, given, pages, after, furniture)
        unplaced += not found
        marks.append(Mark(title=given["title"], level=level, pos=pos, origin=IMPORTED_ORIGIN,
                          confidence=1.0 if found else UNPLACED_CONFIDENCE))
        after = max(after, pos)
    roots, moved = assemble(doc, marks, preface=False)
    nodes = [n for r in roots for n in r.walk()]
    for node, (_, data_node) in zip(nodes, flat, strict=True):
        node.text_sha256 = hashlib.sha256(node.text().encode()).hexdigest()
        summary = data_node.get("summary") or data_node.get("text_summary") or data_node.get("prefix_summary")
        if isinstance(summary, str) and summary.strip():
            node.summary, node.summary_origin = summary, IMPORTED_ORIGIN
    findings = []
    if unplaced:
        findings.append(Finding("imported_titles_unplaced", Stage.interop,
                                f"{unplaced} of {len(nodes)} imported titles were not found on their start page; "
                                f"those nodes start at the top of the page (confidence {UNPLACED_CONFIDENCE})"))
    if moved:
        findings.append(Finding("imported_starts_moved", Stage.interop,
                                f"{moved} imported nodes started before the node preceding them and were moved "
                                "forward"))
    description = data.get("doc_description")
    tree = Tree(doc=doc, roots=roots, method=_IMPORT_METHOD, settings=_settings(data),
                description=description if isinstance(description, str) else None, findings=findings,
                stats={"nodes": len(nodes), "max_depth": max(n.depth for n in nodes), "units": len(doc.units),
                       "unplaced_titles": unplaced, "exact_spans": exact})
    if fill_summaries and any(n.summary is None for n in nodes):
        _fill_summaries(tree, nodes)
    return tree


def _fill_summaries(tree: Tree, nodes: list[Node]) -> None:
    """Extractive (offline, non-LLM) summaries for nodes the JSON gave none; given ones are kept."""
    from ..summarize import summarize_tree

    given = {n.node_id: n.summary for n in nodes if n.summary is not None}
    description = tree.description
    summarize_tree(tree, ModelConfig(model=OFFLINE_MODEL))
    for n in nodes:
        if n.node_id in given:
            n.summary, n.summary_origin, n.summary_key = given[n.node_id], IMPORTED_ORIGIN, None
    if description:
        tree.description, tree.description_key = description, None
    tree.model = OFFLINE_MODEL


def _settings(data: dict[str, Any]) -> dict[str, Any]:
    """What identifies an import: the tree's structure, so re-importing the same JSON is ``unchanged``."""
    canonical = json.dumps(data["structure"], sort_keys=True, ensure_ascii=False, default=str)
    return {"import": "pageindex", "structure_sha256": hashlib.sha256(canonical.encode()).hexdigest(),
            "doc_name": data.get("doc_name")}


@dataclass(frozen=True)
class ImportResult:
    """The commit (``doc_id``, ``version``, ``created`` as :class:`~treebuild.store.CommitResult`) and what the
    import found: titles not found on their page, starts moved forward."""

    doc_id: str
    version: int
    created: bool
    findings: list[Finding] = field(default_factory=list)


def import_pageindex(json_path: str | Path, source: str | Path, store: Store, *, doc_id: str | None = None,
                     meta: dict[str, str] | None = None, force: bool = False) -> ImportResult:
    """Store the PageIndex tree in ``json_path`` over the file ``source`` as a new version of
    ``doc_id`` (default: derived from the source file name, as ``ingest`` does)."""
    data = load_pageindex(json_path)
    did = valid_doc_id(doc_id) if doc_id else doc_id_for(source)
    doc = read(source)
    tree = from_pageindex(data, doc)
    tree.meta = dict(meta or {})
    done = store.commit(tree, doc_id=did, settings_hash=settings_hash(tree.settings), force=force)
    return ImportResult(done.doc_id, done.version, done.created, list(tree.findings))
