"""Imported once by the build pool's fork server (:mod:`treebuild.orchestrate.pool`): what a build loads on first
use, so every worker forked from the server starts warm instead of loading it again."""

import treebuild.pipeline  # noqa: F401  (structure, summaries: ingest imports it on first build)
import treebuild.readers.docx  # noqa: F401
import treebuild.readers.markdown  # noqa: F401
import treebuild.readers.pdf  # noqa: F401  (PyMuPDF)
from treebuild.llm.tokens import encoding_name
from treebuild.orchestrate import build  # noqa: F401  (the store, the build, fsspec sources)

encoding_name()  # tiktoken's cl100k_base tables
