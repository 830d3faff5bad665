"""Prefect flows over the treebuild library (thin: every decision about a tree lives in the library).

``backfill``: ``backfill`` and ``backfill_in_batches``; ``inbox``: ``scheduled_ingest``; ``tasks``: the
``ingest_document`` task; ``build``: the build of one document it runs; ``pool``: the worker processes
builds run in; ``sources``: folders, globs, list files and URLs as document lists; ``report``: the run's
report and artifacts. See ``deploy/README.md``.

Nothing in the library imports this package at start-up: ``treebuild backfill`` and ``treebuild serve``
import it when they run (Prefect's import alone takes seconds). The Prefect deployments of
``deploy/prefect.yaml`` name the entry files of the repository's ``flows/`` folder, which import the flows
from here. The modules import each other by absolute name: Prefect may load a flow's file by its path
(``flow.serve`` names the file the flow is defined in), where a relative import has no package.
"""
