"""Deployment entry point (``deploy/prefect.yaml``: ``flows/inbox.py:scheduled_ingest``): the scheduled
ingest of :mod:`treebuild.orchestrate.inbox`."""

from treebuild.orchestrate.inbox import scheduled_ingest

__all__ = ["scheduled_ingest"]
