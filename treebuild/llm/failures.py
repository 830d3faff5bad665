"""What can go wrong with a model request, named by the kinds counted in ``Usage.failures``.

Kinds: ``timeout``, ``rate_limit``, ``server_error``, ``connection`` (retried with backoff),
``auth``, ``bad_request``, ``context_window``, ``refusal``, ``malformed`` (answer not in the
asked shape), ``incomplete`` (asked ids still missing after being asked again once), ``budget``
(a per-document limit stopped the request), ``error`` (anything else).
"""

from __future__ import annotations

__all__ = ["ModelError", "BudgetExceeded", "classify", "RETRYABLE"]

RETRYABLE = frozenset({"timeout", "rate_limit", "server_error", "connection"})


class ModelError(Exception):
    """A request that gave no usable answer; ``kind`` is the failure kind recorded in usage."""

    def __init__(self, kind: str, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind in RETRYABLE


class BudgetExceeded(ModelError):
    """A per-document budget (calls, tokens, seconds) is spent; no more requests are sent."""

    def __init__(self, message: str) -> None:
        super().__init__("budget", message)


def classify(exc: BaseException) -> ModelError:
    """Map a litellm/openai/httpx exception (or an asyncio timeout) to a :class:`ModelError`.

    Works on names and ``status_code`` so this module need not import litellm.
    """
    if isinstance(exc, ModelError):
        return exc
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = getattr(exc, "status_code", None)
    message = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
    if isinstance(exc, TimeoutError) or names & {"Timeout", "APITimeoutError", "TimeoutException"} or status == 408:
        return ModelError("timeout", message)
    if status == 429 or "RateLimitError" in names:
        return ModelError("rate_limit", message, retry_after=_retry_after(exc))
    if "ContextWindowExceededError" in names:
        return ModelError("context_window", message)
    if "ContentPolicyViolationError" in names:
        return ModelError("refusal", message)
    if status in (401, 403) or names & {"AuthenticationError", "PermissionDeniedError"}:
        return ModelError("auth", message)
    if names & {"APIConnectionError", "ConnectError", "ConnectionError"} or "connection error" in message.lower():
        return ModelError("connection", message)  # litellm reports a refused connection as a 500
    if isinstance(status, int) and status >= 500:
        return ModelError("server_error", message, retry_after=_retry_after(exc))
    if names & {"InternalServerError", "ServiceUnavailableError", "BadGatewayError"}:
        return ModelError("server_error", message)
    if "RemoteProtocolError" in names:
        return ModelError("connection", message)
    if isinstance(status, int) and 400 <= status < 500:
        return ModelError("bad_request", message)
    return ModelError("error", f"{type(exc).__name__}: {message}")


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    value = headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
