"""RapidOCR (PP-OCRv4 detection and recognition on ONNX Runtime), models shipped inside the
``rapidocr-onnxruntime`` wheel: lines with boxes and scores, no word boxes."""

from __future__ import annotations

import time
from typing import Any

from .ocr import Box, OcrLine, OcrUnavailable, OcrWord, PageImage

__all__ = ["RapidEngine", "THREADS"]

THREADS = 1
"""ONNX Runtime threads per engine: pages run in parallel across processes, one core each."""
CROP_MARGIN = 0.15
"""A box read on its own is cut to its ink's rows and this share of their height above and below: with more room
the recogniser (made for detected lines) misreads letters (``officrs``, ``crae``)."""
INK = 128
BLOCK_GAP = 1.5
"""A line starting more than this many line heights below the previous one opens a new block."""


class RapidEngine:
    def __init__(self, lang: str):
        try:
            from importlib.metadata import version

            from rapidocr_onnxruntime import RapidOCR
        except ImportError:
            raise OcrUnavailable("the RapidOCR engine (Python package rapidocr-onnxruntime) is not installed",
                                 hint="install it with `pip install rapidocr-onnxruntime`") from None
        self._ocr: Any = RapidOCR(intra_op_num_threads=THREADS, inter_op_num_threads=THREADS)
        self.identity = f"rapidocr {version('rapidocr-onnxruntime')} PP-OCRv4"  # one model, whatever ``lang``

    def recognize(self, image: PageImage, seconds: float) -> list[OcrLine] | None:
        """(``seconds`` is checked by the caller afterwards: ONNX Runtime cannot be stopped midway.)"""
        import numpy as np

        grey = np.frombuffer(image.samples, dtype=np.uint8).reshape(image.height, image.width)
        result, _elapsed = self._ocr(np.stack([grey] * 3, axis=-1))
        lines: list[OcrLine] = []
        block = 0
        prev_bottom: float | None = None
        for points, text, score in result or ():
            xs = [float(p[0]) for p in points]
            ys = [float(p[1]) for p in points]
            box = (min(xs), min(ys), max(xs), max(ys))
            height = box[3] - box[1]
            if prev_bottom is None or box[1] - prev_bottom > BLOCK_GAP * height or box[1] < prev_bottom - height:
                block += 1
            prev_bottom = box[3]
            if text.strip():
                lines.append(OcrLine(text.strip(), box, float(score), block))
        return lines

    def read_lines(self, image: PageImage, boxes: list[Box], seconds: float) -> list[list[OcrWord]] | None:
        """Each box cut out and read by the recogniser alone (no detection): one word a box, whose box is the
        box given (RapidOCR gives no word boxes)."""
        import numpy as np

        grey = np.frombuffer(image.samples, dtype=np.uint8).reshape(image.height, image.width)
        deadline = time.monotonic() + seconds
        out: list[list[OcrWord]] = []
        for box in boxes:
            x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
            x1, y1 = min(image.width, int(box[2]) + 1), min(image.height, int(box[3]) + 1)
            if x1 <= x0 or y1 <= y0:
                out.append([])
                continue
            crop = grey[y0:y1, x0:x1]
            rows = np.flatnonzero((crop < INK).any(axis=1))
            if rows.size:  # the recogniser reads a line cut close above and below its ink best
                margin = max(1, int(CROP_MARGIN * (rows[-1] - rows[0] + 1)))
                crop = crop[max(0, rows[0] - margin):rows[-1] + 1 + margin]
            result, _elapsed = self._ocr(np.stack([crop] * 3, axis=-1), use_det=False, use_cls=False, use_rec=True)
            if time.monotonic() > deadline:
                return None
            out.append([OcrWord(text.strip(), box, float(score)) for text, score in result or () if text.strip()])
        return out
