"""``python -m treebuild``: the same as the ``treebuild`` command."""

from .cli import main

main()
