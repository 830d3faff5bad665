"""Errors a user sees: each names the file, the cause and what to do next."""

from __future__ import annotations

__all__ = ["TreebuildError", "ReadError", "UnsupportedFormat", "StoreError", "NotFound", "UsageError"]


class TreebuildError(Exception):
    """Base class for expected failures; the CLI prints these without a traceback."""

    def __init__(self, message: str, *, path: str | None = None, hint: str | None = None):
        self.path = path
        self.hint = hint
        self.cause = message
        text = f"{path}: {message}" if path else message
        if hint:
            text = f"{text} ({hint})"
        super().__init__(text)


class ReadError(TreebuildError):
    """A document could not be opened or parsed."""


class UnsupportedFormat(ReadError):
    """No reader handles this file's format."""


class StoreError(TreebuildError):
    """The store could not be read or written."""


class NotFound(TreebuildError):
    """A document, version or node that was asked for does not exist."""


class UsageError(TreebuildError):
    """A command line or call that cannot be understood: a malformed option value, options that exclude each
    other. The CLI exits 2 for these (1 for a document or data error), as for its own usage errors."""
