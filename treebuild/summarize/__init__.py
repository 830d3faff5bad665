"""Summaries and the document description (issue 4).

``summarize_tree`` is the one entry point the pipeline calls. With the offline default
(``model == "extractive"``) every summary is extractive: deterministic, no key, no network.
With a litellm model id, summaries are made bottom-up so that each token of the document is
read about once (at most :data:`ECONOMY_TARGET` prompt tokens per document token, see
:func:`economy_ratio`), reused from earlier versions by ``summary_key``, within the per-document
budget of :class:`~treebuild.settings.ModelConfig`; any failure keeps the extractive summary.
"""

from __future__ import annotations

from ..findings import Finding, Stage
from ..llm.transport import Transport
from ..model import Tree
from ..settings import ModelConfig
from ..text.furniture import PageFurniture
from .bottomup import Summarizer, SummaryCache, document_title
from .keys import summary_key
from .prompts import ECONOMY_TARGET, PROMPT_VERSION, economy_floor, economy_ratio

__all__ = ["SummaryCache", "summarize_tree", "summary_key", "PROMPT_VERSION", "ECONOMY_TARGET", "economy_floor",
           "economy_ratio", "document_title"]


def summarize_tree(tree: Tree, config: ModelConfig, cache: SummaryCache | None = None, *,
                   transport: Transport | None = None, furniture: PageFurniture | None = None) -> None:
    """Fill ``summary``, ``summary_origin``, ``summary_key`` on every node, the description and usage.

    ``config.model`` decides the model (``tree.model`` is set to it); the prompt version comes
    from the tree's build settings; ``furniture`` is the build's page furniture (the structure
    stage's layout analysis; found again from the page texts when not given). Failures and budget
    stops become ``tree.findings``.
    """
    version = str(tree.settings.get("prompt_version") or PROMPT_VERSION)
    built_for = tree.settings.get("model")
    if built_for and built_for != config.model:
        tree.findings.append(Finding(
            "summary_model_differs", Stage.summarize,
            f"summaries use model {config.model!r} but the build settings name {built_for!r}; "
            "pass the same model to both so the version records what made the summaries"))
    Summarizer(tree, config, cache, transport=transport, prompt_version=version, furniture=furniture).run()
