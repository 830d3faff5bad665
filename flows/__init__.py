"""Prefect flows over the treebuild library (thin: every decision lives in ``treebuild``)."""
