"""A headless Chromium driven over the DevTools protocol (websockets only), for testing HTML views.

``Browser(url)`` starts Debian's ``chromium`` with a fresh profile and no network features,
connects to the page, and offers ``evaluate`` (JavaScript, value returned), ``wait_for`` and
``screenshot``. Tests skip when no Chromium is installed (``TREEBUILD_SETUP_BROWSER=1
./scripts/setup`` installs it).
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

__all__ = ["Browser", "chromium_path"]

_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--disable-default-apps", "--disable-extensions", "--remote-debugging-port=0",
          "--window-size=1400,900", "--hide-scrollbars"]
_START_SECONDS = 30.0  # a cold Chromium start on a busy 2-core machine


def chromium_path() -> str | None:
    """The Chromium executable (``$CHROMIUM`` or ``chromium``/``chromium-browser`` on PATH)."""
    given = os.environ.get("CHROMIUM")
    if given:
        return given if Path(given).exists() else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self, url: str):
        from websockets.sync.client import connect

        exe = chromium_path()
        if exe is None:
            raise RuntimeError("no chromium executable")
        self._profile = tempfile.mkdtemp(prefix="treebuild-chromium-")
        self._proc = subprocess.Popen([exe, *_FLAGS, f"--user-data-dir={self._profile}", url],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._ids = itertools.count(1)
        try:
            port = self._port()
            ws_url = self._page_socket(port)
            self._ws = connect(ws_url, max_size=64 * 1024 * 1024, open_timeout=_START_SECONDS)
        except BaseException:
            self.close()
            raise

    def _port(self) -> int:
        marker = Path(self._profile) / "DevToolsActivePort"
        deadline = time.monotonic() + _START_SECONDS
        while time.monotonic() < deadline:
            if marker.exists():
                lines = marker.read_text().splitlines()
                if lines and lines[0].isdigit():
                    return int(lines[0])
            if self._proc.poll() is not None:
                raise RuntimeError(f"chromium exited with {self._proc.returncode}")
            time.sleep(0.1)
        raise RuntimeError("chromium did not open its DevTools port")

    def _page_socket(self, port: int) -> str:
        deadline = time.monotonic() + _START_SECONDS
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as resp:
                targets = json.loads(resp.read())
            pages = [t for t in targets if t.get("type") == "page"]
            if pages:
                return str(pages[0]["webSocketDebuggerUrl"])
            time.sleep(0.1)
        raise RuntimeError("chromium opened no page")

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        msg_id = next(self._ids)
        self._ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self._ws.recv(timeout=_START_SECONDS))
            if reply.get("id") == msg_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"script error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 15.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout}s for {expression}")
            time.sleep(0.1)

    def screenshot(self, path: Path) -> Path:
        data = self.send("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        ws = getattr(self, "_ws", None)
        if ws is not None:
            ws.close()
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
