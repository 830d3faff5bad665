"""The build pipeline: read -> structure -> subdivide -> summarize, in that fixed order.

Each stage is a function of (context) that fills in its part and records its time; the
pipeline never reorders them. ``build`` returns a :class:`~treebuild.model.Tree` that is not
yet stored; ``treebuild.ingest`` adds versioning and the atomic commit.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .findings import Finding, merge
from .model import Method, Node, SourceDoc, StructureSource, Tree, Usage
from .readers import read
from .settings import BuildSettings, ModelConfig, resolve_settings
from .structure import Layout, analyze, build_nodes, label_pages
from .structure.subdivide import subdivide
from .summarize import SummaryCache, summarize_tree

__all__ = ["build", "build_doc", "BuildContext", "STAGES", "SummaryCache"]


@dataclass
class BuildContext:
    doc: SourceDoc
    settings: BuildSettings
    model_config: ModelConfig
    cache: SummaryCache | None = None
    roots: list[Node] = field(default_factory=list)
    method: Method = field(default_factory=lambda: Method(StructureSource.single))
    findings: list[Finding] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    tree: Tree | None = None
    layout: Layout | None = None  # the structure stage's layout analysis, reused by subdivision


def _structure(ctx: BuildContext) -> None:
    label_pages(ctx.doc)  # printed page numbers as labels, for readers whose pages carry none
    ctx.layout = analyze(ctx.doc)
    ctx.roots, result = build_nodes(ctx.doc, ctx.settings, ctx.model_config, ctx.usage, ctx.layout)
    ctx.method = result.method
    ctx.findings.extend(result.warnings)


def _subdivide(ctx: BuildContext) -> None:
    ctx.findings.extend(subdivide(ctx.doc, ctx.roots, ctx.settings, ctx.layout))


def _finalize(ctx: BuildContext) -> None:
    for root in ctx.roots:
        for node in root.walk():
            node.text_sha256 = hashlib.sha256(node.text().encode()).hexdigest()
    ctx.tree = Tree(doc=ctx.doc, roots=ctx.roots, method=ctx.method,
                    settings=ctx.settings.model_dump(), findings=ctx.findings,
                    model=ctx.settings.model, usage=ctx.usage)


def _summarize(ctx: BuildContext) -> None:
    assert ctx.tree is not None
    furniture = ctx.layout.furniture if ctx.layout is not None else None
    summarize_tree(ctx.tree, ctx.model_config, ctx.cache, furniture=furniture)


Stage = Callable[[BuildContext], None]
STAGES: tuple[tuple[str, Stage], ...] = (
    ("structure", _structure),
    ("subdivide", _subdivide),
    ("finalize", _finalize),
    ("summarize", _summarize),
)


def build_doc(doc: SourceDoc, settings: BuildSettings | None = None, *,
              model_config: ModelConfig | None = None, cache: SummaryCache | None = None,
              read_seconds: float = 0.0) -> Tree:
    """Run every stage after reading on an already-read document."""
    settings, model_config = resolve_settings(settings, model_config)
    ctx = BuildContext(doc=doc, settings=settings, model_config=model_config, cache=cache)
    ctx.timings["read"] = read_seconds
    try:
        for name, stage in STAGES:
            t0 = time.perf_counter()
            stage(ctx)
            ctx.timings[name] = time.perf_counter() - t0
    finally:
        doc.release()  # the reader's text pages: the tree may outlive the build
    assert ctx.tree is not None
    tree = ctx.tree
    # the reader's findings first, complete once the document is released (MuPDF's messages of the layout pass)
    tree.findings[:] = merge([*doc.findings, *tree.findings])
    tree.stats = _stats(ctx)
    return tree


def build(path: str | Path, settings: BuildSettings | None = None, *,
          model_config: ModelConfig | None = None, cache: SummaryCache | None = None) -> Tree:
    """Read and build one document into a tree (not stored)."""
    from .readers.ocr import OcrRequest

    t0 = time.perf_counter()
    settings, model_config = resolve_settings(settings, model_config)
    doc = read(path, ocr=OcrRequest.from_settings(settings))
    return build_doc(doc, settings, model_config=model_config, cache=cache,
                     read_seconds=time.perf_counter() - t0)


def _stats(ctx: BuildContext) -> dict[str, Any]:
    nodes = [n for r in ctx.roots for n in r.walk()]
    return {
        "seconds": round(sum(ctx.timings.values()), 4),
        "stage_seconds": {k: round(v, 4) for k, v in ctx.timings.items()},
        "nodes": len(nodes),
        "max_depth": max((n.depth for n in nodes), default=0),
        "units": len(ctx.doc.units),
        "builder_version": __version__,
        **({"ocr": ctx.doc.ocr} if ctx.doc.ocr else {}),
    }
