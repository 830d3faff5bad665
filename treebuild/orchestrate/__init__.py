"""Prefect flows over the treebuild library (thin: every decision about a tree lives in ``treebuild``).

``flows.backfill``: ``backfill`` and ``backfill_in_batches``; ``flows.inbox``: ``scheduled_ingest``;
``flows.tasks``: the ``ingest_document`` task; ``flows.build``: the build of one document it runs;
``flows.pool``: the worker processes builds run in. See ``deploy/README.md``.
"""
