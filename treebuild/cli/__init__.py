"""The ``treebuild`` command: a thin layer over the library.

One module per area registers its commands on the shared Typer app of :mod:`.options` (which holds
the option types, the build and model flags, the failure wording and the output helpers, and
imports no command module):

- :mod:`.build`: ``build``, ``ingest``;
- :mod:`.read`: ``show``, ``text``, ``list``, ``versions``, ``sql``;
- :mod:`.query`: ``query``;
- :mod:`.answer`: ``ask``;
- :mod:`.evaluate`: ``eval``;
- :mod:`.agents`: ``view``, ``export``, ``import-pageindex``, ``mcp``;
- :mod:`.backfill`: ``backfill``, ``serve`` (the Prefect flows);
- :mod:`.maintenance`: ``migrate``, ``compact``, ``gc``.

A new command goes into the module of its area (or a new one, added to the import line below).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from .options import app, err, out

__all__ = ["app", "main"]

# Each module registers its commands on `app`; `treebuild --help` lists them in this order.
from . import build, read, agents, backfill, query, answer, evaluate, maintenance  # noqa: E402,F401,I001


def _version_callback(value: bool) -> None:
    if value:
        from .. import __version__

        out.print(f"treebuild {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version_callback, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    pass


def main() -> None:
    """Entry point: expected failures exit 1 with one line; a bug exits 2 with one line and where
    it happened (set TREEBUILD_DEBUG=1 for the full traceback)."""
    try:
        app()
    except Exception as exc:
        if os.environ.get("TREEBUILD_DEBUG"):
            raise
        import traceback

        last = traceback.extract_tb(exc.__traceback__)[-1]
        err.print(f"unexpected error: {type(exc).__name__}: {exc} (at {Path(last.filename).name}:{last.lineno}; "
                  "set TREEBUILD_DEBUG=1 for the traceback and please report it)", markup=False, highlight=False)
        sys.exit(2)
