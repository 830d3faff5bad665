"""Session-wide test settings: no network, no cost-map download, a private Prefect home."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_HOME", tempfile.mkdtemp(prefix="treebuild-prefect-"))
os.environ.pop("TREEBUILD_STORE", None)
os.environ.pop("TREEBUILD_MODEL", None)
