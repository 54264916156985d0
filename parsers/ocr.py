"""The OCR stage: text boxes from pixels, behind one small interface.

The default engine is RapidOCR (PP-OCR models run by onnxruntime, weights shipped in the wheel),
so it works offline out of the box. OCR finds lines; a screen puts separate controls on one line
("Save   Cancel"), so lines are split into phrases wherever the gap between words is wide.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import logging
import os
import weakref
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cached_property

import cv2
import numpy as np

from clickwright.errors import ClickwrightError
from clickwright.parsers.fusion import TextBox
from clickwright.types import Box

WIDE_GAP = 0.45  # gaps wider than this many box heights separate phrases (a space is ~0.25)
MIN_TEXT_SIDE = 8  # an image smaller than this either way holds no readable text
MAX_SIDE = 4096  # larger than any screen: rapidocr shrinks an image above this before reading


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

    Settings from the bake-off (`benchmarks/README.md`): the detector sees the image at its
    own size (`limit_type="max"` with a limit above any screen side), because shrinking
    small screen text loses words, and rapidocr's `min`/736 rule blew a small changed region
    up to 736 pixels before reading it. Batch size and thread count made no measurable
    difference, so onnxruntime's own choices stay (-1: every core).
    """

    name = "rapidocr"

    def __init__(
        self,
        threads: int = -1,
        limit_side_len: int = MAX_SIDE,
        limit_type: str = "max",
        box_thresh: float = 0.5,
        rec_batch_num: int = 6,
    ) -> None:
        self.params = {
            "Global.use_cls": False,
            "Global.log_level": "error",
            "Global.max_side_len": MAX_SIDE,
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
    """Debian's tesseract (libtesseract5 through ctypes), sparse-text mode (PSM 11), upscaled.

    Needs no Python package, only `apt-get install tesseract-ocr`. Several times faster than
    PP-OCR on a CPU, but blind to white text on a highlight (`benchmarks/README.md`);
    upscaling 2x keeps 9 pt text readable. Its word boxes hug the glyphs, so phrases are split
    as if the line were GLYPHS_TO_LINE times taller, the box height PP-OCR reports.
    """

    name = "tesseract"
    GLYPHS_TO_LINE = 1.5
    SPARSE_TEXT = 11  # tesseract's page segmentation mode for text scattered over a page

    def __init__(self, upscale: int = 2, min_confidence: float = 40.0) -> None:
        self.upscale = upscale
        self.min_confidence = min_confidence

    @cached_property
    def _api(self) -> tuple[ctypes.CDLL, ctypes.c_void_p]:
        library = ctypes.util.find_library("tesseract")
        data = tessdata_dir()
        if library is None or data is None:
            raise ClickwrightError(
                "the tesseract OCR engine needs libtesseract and its English data",
                "apt-get install tesseract-ocr (or set TESSDATA_PREFIX to a tessdata folder)",
            )
        # Debian builds it with OpenMP, whose spinning threads make it 3x slower on a busy
        # two-core machine; one thread is fastest.
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        lib = ctypes.CDLL(library)
        lib.TessBaseAPICreate.restype = ctypes.c_void_p
        lib.TessBaseAPIInit3.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)
        lib.TessBaseAPISetPageSegMode.argtypes = (ctypes.c_void_p, ctypes.c_int)
        lib.TessBaseAPISetImage.argtypes = (ctypes.c_void_p, ctypes.c_char_p) + (ctypes.c_int,) * 4
        lib.TessBaseAPIRecognize.argtypes = (ctypes.c_void_p, ctypes.c_void_p)
        lib.TessBaseAPIGetTsvText.argtypes = (ctypes.c_void_p, ctypes.c_int)
        lib.TessBaseAPIGetTsvText.restype = ctypes.c_void_p  # freed with TessDeleteText
        lib.TessDeleteText.argtypes = (ctypes.c_void_p,)
        lib.TessBaseAPISetVariable.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)
        lib.TessBaseAPIDelete.argtypes = (ctypes.c_void_p,)
        handle = ctypes.c_void_p(lib.TessBaseAPICreate())
        weakref.finalize(self, lib.TessBaseAPIDelete, handle)
        if lib.TessBaseAPIInit3(handle, data.encode(), b"eng") != 0:
            raise ClickwrightError(f"tesseract could not load eng.traineddata from {data}")
        lib.TessBaseAPISetPageSegMode(handle, self.SPARSE_TEXT)
        lib.TessBaseAPISetVariable(handle, b"debug_file", os.devnull.encode())  # chatter
        return lib, handle

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        if min(pixels.shape[:2]) < MIN_TEXT_SIDE:
            return []
        lib, handle = self._api
        scale = self.upscale
        image = np.ascontiguousarray(
            cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            if scale != 1
            else pixels
        )
        height, width = image.shape[:2]
        lib.TessBaseAPISetImage(handle, image.tobytes(), width, height, 3, width * 3)
        if lib.TessBaseAPIRecognize(handle, None) != 0:
            return []
        tsv = lib.TessBaseAPIGetTsvText(handle, 0)
        try:
            rows = ctypes.string_at(tsv).decode("utf-8", "replace").splitlines()
        finally:
            lib.TessDeleteText(tsv)
        return self._phrases(rows)

    def _phrases(self, rows: list[str]) -> list[TextBox]:
        """Words of tesseract's TSV (level 5 rows), grouped by line, split into phrases."""
        lines: dict[tuple[str, ...], list[tuple[str, float, Box]]] = {}
        for row in rows:
            cells = row.split("\t")
            if len(cells) < 12 or cells[0] != "5":
                continue
            text, confidence = cells[11].strip(), float(cells[10])
            if not any(c.isalnum() for c in text) or confidence < self.min_confidence:
                continue  # PSM 11 reads check marks, radio dots and borders as symbols
            x, y, w, h = (int(v) // self.upscale for v in cells[6:10])
            word = (text, confidence / 100, Box(x, y, w, h))
            lines.setdefault(tuple(cells[1:5]), []).append(word)
        phrases: list[TextBox] = []
        for words in lines.values():
            height = max(b.bottom for _, _, b in words) - min(b.y for _, _, b in words)
            phrases.extend(split_phrases(words, round(self.GLYPHS_TO_LINE * height)))
        return phrases


def tessdata_dir() -> str | None:
    """The folder holding tesseract's eng.traineddata: $TESSDATA_PREFIX or Debian's."""
    found = [os.environ.get("TESSDATA_PREFIX", "")] + sorted(
        glob.glob("/usr/share/tesseract-ocr/*/tessdata")
    )
    return next((p for p in found if p and os.path.isfile(f"{p}/eng.traineddata")), None)


ENGINES: dict[str, type[OcrEngine]] = {"rapidocr": RapidOcrEngine, "tesseract": TesseractEngine}


def ocr_engine(name: str = "rapidocr") -> OcrEngine:
    """The OCR engine called `name`, with its default settings.

    rapidocr is the default: tesseract is three to five times faster on a CPU and reads
    plain text as well, but it misses white text on a highlight (the current item of an open
    dropdown or list), which is often what the agent is looking for (`benchmarks/README.md`).
    """
    try:
        return ENGINES[name]()
    except KeyError:
        raise ClickwrightError(
            f"unknown OCR engine {name!r}", f"choose one of: {', '.join(ENGINES)}"
        ) from None


def tesseract_installed() -> bool:
    return ctypes.util.find_library("tesseract") is not None and tessdata_dir() is not None
