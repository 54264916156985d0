"""The OCR stage: text boxes from pixels, behind one small interface.

The default engine is RapidOCR (PP-OCR models run by onnxruntime, weights shipped in the wheel),
so it works offline out of the box. OCR finds lines; a screen puts separate controls on one line
("Save   Cancel"), so lines are split into phrases wherever the gap between words is wide.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from clickwright.parsers.fusion import TextBox
from clickwright.types import Box

WIDE_GAP = 0.45  # gaps wider than this many box heights separate phrases (a space is ~0.25)


class OcrEngine(ABC):
    name: str = "ocr"

    @abstractmethod
    def read(self, pixels: np.ndarray) -> list[TextBox]:
        """Text phrases in an RGB image, boxes in its pixels."""


def polygon_box(points: Sequence[Sequence[float]]) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x, y = int(min(xs)), int(min(ys))
    return Box(x, y, int(round(max(xs))) - x, int(round(max(ys))) - y)


def split_phrases(words: Sequence[tuple[str, float, Box]], line_height: int) -> list[TextBox]:
    """Group a line's words into phrases separated by wide gaps."""
    phrases: list[TextBox] = []
    group: list[tuple[str, float, Box]] = []
    for word in words:
        if group and word[2].x - group[-1][2].right > WIDE_GAP * line_height:
            phrases.append(_join(group))
            group = []
        group.append(word)
    if group:
        phrases.append(_join(group))
    return phrases


def _join(words: Sequence[tuple[str, float, Box]]) -> TextBox:
    box = words[0][2]
    for _, _, other in words[1:]:
        box = box.union(other)
    score = min(score for _, score, _ in words)
    return TextBox(box, " ".join(text for text, _, _ in words), score)


class RapidOcrEngine(OcrEngine):
    """PP-OCR through rapidocr; no angle classifier, since screen text is upright."""

    name = "rapidocr"

    def __init__(self, threads: int = -1) -> None:
        self.threads = threads

    @cached_property
    def _engine(self):  # noqa: ANN202 - rapidocr has no public type for it
        from rapidocr import RapidOCR

        engine = RapidOCR(
            params={
                "Global.use_cls": False,
                "Global.log_level": "error",
                "EngineConfig.onnxruntime.intra_op_num_threads": self.threads,
            }
        )
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        return engine

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        result = self._engine(np.ascontiguousarray(pixels[:, :, ::-1]), return_word_box=True)
        if result.boxes is None:
            return []
        phrases: list[TextBox] = []
        for polygon, text, score, words in zip(
            result.boxes, result.txts, result.scores, result.word_results or (), strict=False
        ):
            line = polygon_box(polygon)
            if not words or "".join(w[0] for w in words).replace(" ", "") != text.replace(" ", ""):
                phrases.append(TextBox(line, text, float(score)))
                continue
            boxes = [(w, float(s), polygon_box(p)) for w, s, p in words]
            phrases.extend(split_phrases(boxes, line.h))
        return phrases
