"""RapidOCR (PP-OCRv4 detection and recognition on ONNX Runtime), models shipped inside the
``rapidocr-onnxruntime`` wheel: lines with boxes and scores, no word boxes."""

from __future__ import annotations

from typing import Any

from .ocr import OcrLine, OcrUnavailable, PageImage

__all__ = ["RapidEngine", "THREADS"]

THREADS = 1
"""ONNX Runtime threads per engine: pages run in parallel across processes, one core each."""
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
