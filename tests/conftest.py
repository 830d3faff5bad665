"""Session-wide test settings: no network, no cost-map download, a private Prefect home."""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_HOME", tempfile.mkdtemp(prefix="treebuild-prefect-"))
os.environ.pop("TREEBUILD_STORE", None)
os.environ.pop("TREEBUILD_MODEL", None)
for _name in ("TREEBUILD_OCR", "TREEBUILD_OCR_ENGINE", "TREEBUILD_OCR_LANG", "TREEBUILD_OCR_WORKERS",
              "TREEBUILD_NOTE_SUBHEADINGS"):
    os.environ.pop(_name, None)
os.environ["TREEBUILD_OCR_CACHE"] = tempfile.mkdtemp(prefix="treebuild-ocr-cache-")  # not the user's cache
# The CLI lays its tables out for the terminal it finds at import (200 columns when piped); a COLUMNS exported
# by the shell (or inherited by pytest-xdist workers from the controller) would narrow them and cut the ids the
# tests look for, so every run lays out as a piped run does.
os.environ.pop("COLUMNS", None)

# A suite started in the background (`./scripts/test &`, nohup) inherits SIGINT ignored, and every process
# the tests start inherits that too, so tests that stop a child with SIGINT (or a Prefect worker, which
# shuts down through it) would wait out their timeouts. Python's handler here gives children the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# CI runs the same hypothesis examples every time (a red CI must be reproducible); developers
# get fresh random examples locally, which is where new edge cases are found.
from hypothesis import settings as _hypothesis_settings  # noqa: E402
from kinds import KINDS, kind_of  # noqa: E402
from openai_server import OpenAIServer  # noqa: E402  (after the environment is set)

_hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    _hypothesis_settings.load_profile("ci")


@pytest.fixture(scope="session")
def server() -> Iterator[OpenAIServer]:
    """One OpenAI-compatible server on 127.0.0.1 for the session; modules script it per test."""
    with OpenAIServer() as s:
        yield s


# The longest modules first (seconds each took in a 2-worker run, bench/README "Test-suite time, pass 2":
# flows ~450, store_lake ~290, store ~130, the rest under ~85). `./scripts/test` hands each xdist worker whole
# modules in collection order (`--dist loadfile --no-loadscope-reorder`; xdist's own reorder puts modules
# with many short tests first, so the long ones started last and one worker ran them alone at the end).
LONG_MODULES = ("test_flows.py", "test_store_lake.py", "test_store.py", "test_query_model.py", "test_properties.py",
                "test_cli_ux.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONG_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: other modules keep their order
    for item in items:  # unit / docgen / integration, from what the test uses (tests/kinds.py)
        if not any(item.get_closest_marker(kind) for kind in KINDS):
            item.add_marker(getattr(pytest.mark, kind_of(item)))
