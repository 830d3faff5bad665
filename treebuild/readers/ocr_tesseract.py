"""Tesseract 5 through ``tesserocr``: the wheel bundles libtesseract, which runs in-process with the GIL
released while it reads; the trained data is Debian's (``apt-get install tesseract-ocr-eng``; see
:func:`.ocr.tessdata_dir`)."""

from __future__ import annotations

import threading
import time
from typing import Any

from .ocr import Box, OcrLine, OcrUnavailable, OcrWord, PageImage, tessdata_dir

__all__ = ["TesseractEngine"]

_INSTALL = ("install it with `pip install 'treebuild[ocr]'` (the tesserocr wheel) and "
            "`apt-get install tesseract-ocr-eng`")


class TesseractEngine:
    """Tesseract 5 (LSTM) through ``tesserocr``, page segmentation automatic; one API object per thread."""

    def __init__(self, lang: str):
        try:
            import tesserocr
        except ImportError:
            raise OcrUnavailable("the Tesseract OCR engine (Python package tesserocr) is not installed",
                                 hint=_INSTALL) from None
        self._tesserocr: Any = tesserocr
        self.lang = lang
        self.path = str(tessdata_dir(lang))
        version = tesserocr.tesseract_version().split()[1]
        self.identity = f"tesseract {version} {lang}"
        self._local = threading.local()

    def _api(self) -> Any:
        api = getattr(self._local, "api", None)
        if api is None:
            t = self._tesserocr
            api = t.PyTessBaseAPI(path=self.path, lang=self.lang, psm=t.PSM.AUTO, oem=t.OEM.LSTM_ONLY)
            self._local.api = api
        return api

    def recognize(self, image: PageImage, seconds: float) -> list[OcrLine] | None:
        api = self._api()
        api.SetImageBytes(image.samples, image.width, image.height, 1, image.width)
        api.SetSourceResolution(image.dpi)
        if not api.Recognize(max(1, int(seconds * 1000))):  # libtesseract stops itself at the limit
            return None
        return self._lines(api)

    def read_lines(self, image: PageImage, boxes: list[Box], seconds: float) -> list[list[OcrWord]] | None:
        t = self._tesserocr
        api = self._api()
        api.SetImageBytes(image.samples, image.width, image.height, 1, image.width)
        api.SetSourceResolution(image.dpi)
        api.SetPageSegMode(t.PSM.SINGLE_LINE)
        deadline = time.monotonic() + seconds
        out: list[list[OcrWord]] = []
        try:
            for x0, y0, x1, y1 in boxes:
                left, top = max(0, int(x0)), max(0, int(y0))
                api.SetRectangle(left, top, max(1, min(image.width, int(x1) + 1) - left),
                                 max(1, min(image.height, int(y1) + 1) - top))
                left_ms = int((deadline - time.monotonic()) * 1000)
                if left_ms <= 0 or not api.Recognize(left_ms):
                    return None
                out.append([w for ln in self._lines(api) for w in ln.words])
        finally:
            api.SetPageSegMode(t.PSM.AUTO)
        return out

    def _lines(self, api: Any) -> list[OcrLine]:
        """The lines of what ``api`` recognised last, with their words (boxes in pixels of the whole image)."""
        t = self._tesserocr
        it = api.GetIterator()
        lines: list[OcrLine] = []
        words: list[OcrWord] = []
        block = 0
        line_box: Box | None = None
        line_conf = 0.0
        if it is None:
            return lines

        def close() -> None:
            if words and line_box is not None:
                lines.append(OcrLine(" ".join(w.text for w in words), line_box, line_conf, block, tuple(words)))
            words.clear()

        level_word, level_line, level_block = t.RIL.WORD, t.RIL.TEXTLINE, t.RIL.BLOCK
        while True:
            if not it.Empty(level_word):
                if it.IsAtBeginningOf(level_line):
                    close()
                    if it.IsAtBeginningOf(level_block):
                        block += 1
                    line_box = tuple(map(float, it.BoundingBox(level_line)))  # type: ignore[assignment]
                    line_conf = it.Confidence(level_line) / 100
                text = (it.GetUTF8Text(level_word) or "").strip()
                if text:
                    box = it.BoundingBox(level_word)
                    words.append(OcrWord(text, tuple(map(float, box)), it.Confidence(level_word) / 100))  # type: ignore[arg-type]
            if not it.Next(level_word):
                break
        close()
        return lines
