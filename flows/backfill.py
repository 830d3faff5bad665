"""Deployment entry point (``deploy/prefect.yaml``: ``flows/backfill.py:backfill`` and
``flows/backfill.py:backfill_in_batches``): the backfill flows of :mod:`treebuild.orchestrate.backfill`."""

from treebuild.orchestrate.backfill import backfill, backfill_in_batches

__all__ = ["backfill", "backfill_in_batches"]
