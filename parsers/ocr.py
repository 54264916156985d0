"""The OCR stage: text boxes from pixels, behind one small interface.

The default engine is RapidOCR (PP-OCR models run by onnxruntime, weights shipped in the wheel),
so it works offline out of the box. OCR finds lines; a screen puts separate controls on one line
("Save   Cancel"), so lines are split into phrases wherever the gap between words is wide.
"""

from __future__ import annotations

import glob
import logging
import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from clickwright.errors import ClickwrightError
from clickwright.parsers.fusion import TextBox
from clickwright.types import Box

WIDE_GAP = 0.45  # gaps wider than this many box heights separate phrases (a space is ~0.25)
MIN_TEXT_SIDE = 8  # an image smaller than this either way holds no readable text


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
    """PP-OCR through rapidocr; no angle classifier, since screen text is upright.

    The settings are the bake-off's winners (`benchmarks/README.md`). The detector sees the
    image at its own size (`limit_type="max"` with a limit above any screen side), because
    screen text is small and sharp: shrinking it loses short words, and the old `min`/736
    rule blew a small crop up to 736 pixels, which made reading a changed region slow.
    """

    name = "rapidocr"

    def __init__(
        self,
        threads: int = 2,
        limit_side_len: int = 4096,
        limit_type: str = "max",
        box_thresh: float = 0.5,
        rec_batch_num: int = 16,
    ) -> None:
        self.params = {
            "Global.use_cls": False,
            "Global.log_level": "error",
            "Global.max_side_len": limit_side_len,
            "EngineConfig.onnxruntime.intra_op_num_threads": threads,
            "Det.limit_side_len": limit_side_len,
            "Det.limit_type": limit_type,
            "Det.box_thresh": box_thresh,
            "Rec.rec_batch_num": rec_batch_num,
        }

    @cached_property
    def _engine(self):  # noqa: ANN202 - rapidocr has no public type for it
        from rapidocr import RapidOCR

        engine = RapidOCR(params=self.params)
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        return engine

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        if min(pixels.shape[:2]) < MIN_TEXT_SIDE:
            return []
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


class TesseractEngine(OcrEngine):
    """Debian's tesseract through tesserocr, sparse-text mode (PSM 11), optionally upscaled.

    An alternative for machines without onnxruntime; `pip install clickwright[tesseract]` and
    `apt-get install tesseract-ocr`. Slower and less accurate on small UI fonts than rapidocr.
    """

    name = "tesseract"

    def __init__(self, upscale: int = 2, min_confidence: float = 40.0) -> None:
        self.upscale = upscale
        self.min_confidence = min_confidence

    @cached_property
    def _api(self):  # noqa: ANN202 - tesserocr's API object
        try:
            import tesserocr
        except ImportError:
            raise ClickwrightError(
                "the tesseract OCR engine needs tesserocr",
                "pip install 'clickwright[tesseract]' and apt-get install tesseract-ocr",
            ) from None
        found = [os.environ.get("TESSDATA_PREFIX", "")] + sorted(
            glob.glob("/usr/share/tesseract-ocr/*/tessdata")
        )
        path = next((p for p in found if p and os.path.isfile(f"{p}/eng.traineddata")), None)
        if path is None:
            raise ClickwrightError(
                "no English tesseract data (eng.traineddata) found",
                "apt-get install tesseract-ocr-eng, or set TESSDATA_PREFIX to its folder",
            )
        return tesserocr.PyTessBaseAPI(path=path, lang="eng", psm=tesserocr.PSM.SPARSE_TEXT)

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        if min(pixels.shape[:2]) < MIN_TEXT_SIDE:
            return []
        from PIL import Image
        from tesserocr import RIL, iterate_level

        image = Image.fromarray(pixels)
        if self.upscale != 1:
            image = image.resize((image.width * self.upscale, image.height * self.upscale))
        api = self._api
        api.SetImage(image)
        api.Recognize()
        lines: list[list[tuple[str, float, Box]]] = []
        for word in iterate_level(api.GetIterator(), RIL.WORD):
            text = (word.GetUTF8Text(RIL.WORD) or "").strip()
            confidence = word.Confidence(RIL.WORD)
            if word.IsAtBeginningOf(RIL.TEXTLINE) or not lines:
                lines.append([])
            if not text or confidence < self.min_confidence:
                continue
            x0, y0, x1, y1 = (v // self.upscale for v in word.BoundingBox(RIL.WORD))
            lines[-1].append((text, confidence / 100, Box(x0, y0, x1 - x0, y1 - y0)))
        phrases: list[TextBox] = []
        for words in filter(None, lines):
            height = max(b.bottom for _, _, b in words) - min(b.y for _, _, b in words)
            phrases.extend(split_phrases(words, height))
        return phrases


ENGINES: dict[str, type[OcrEngine]] = {"rapidocr": RapidOcrEngine, "tesseract": TesseractEngine}


def ocr_engine(name: str = "rapidocr") -> OcrEngine:
    """The OCR engine called `name`, with its default settings."""
    try:
        return ENGINES[name]()
    except KeyError:
        raise ClickwrightError(
            f"unknown OCR engine {name!r}", f"choose one of: {', '.join(ENGINES)}"
        ) from None
