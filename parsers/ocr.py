"""The OCR stage: text boxes from pixels, behind one small interface.

The default engine is faster-paddle's PP-OCRv6 tiny (ONNX weights and its own ONNX Runtime inside
the wheel), so it works offline out of the box; where it cannot load (a glibc older than 2.34,
a platform without a wheel) RapidOCR, then tesseract, stand in, and the log says why
(`benchmarks/README.md`, issue 14). OCR finds lines; a screen puts separate controls on one line
("Save   Cancel"), so lines are split into phrases wherever the gap between words is wide.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import logging
import os
import re
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from functools import cached_property

import cv2
import numpy as np

from clickwright.errors import ClickwrightError
from clickwright.parsers.fusion import TextBox
from clickwright.types import Box

WIDE_GAP = 0.45  # gaps wider than this many box heights separate phrases (a space is ~0.25)
WIDE_SPACE = 1.5  # ... and wider than this many characters (a monospaced space is one)
MIN_TEXT_SIDE = 8  # an image smaller than this either way holds no readable text
MAX_SIDE = 4096  # larger than any screen: rapidocr shrinks an image above this before reading
DETECT_MIN_SIDE = 64  # faster-paddle rounds sides to 32 px: a 40 px strip must not shrink to 32


log = logging.getLogger(__name__)


class OcrEngine(ABC):
    name: str = "ocr"

    @abstractmethod
    def read(self, pixels: np.ndarray) -> list[TextBox]:
        """Text phrases in an RGB image, boxes in its pixels."""

    @classmethod
    def unavailable(cls) -> str:
        """Why this engine cannot run here ("" when it can): checked before it is chosen as
        the default, so that a missing package or library falls back to the next engine."""
        return ""


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

    @classmethod
    def unavailable(cls) -> str:
        try:
            import rapidocr  # noqa: F401 - only whether it loads
        except ImportError as error:
            return f"rapidocr cannot load ({error})"
        return ""

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


class FasterPaddleEngine(OcrEngine):
    """PP-OCRv6 through faster-paddle (Rust + its own ONNX Runtime; tiny and small models
    inside the wheel). Tiny is the default: 4-5x faster than RapidOCR's small recogniser at
    the same recall on screens, white text on a highlight included (`benchmarks/README.md`).

    The detector sees the image at its own size (no 1600 px cap) and a small region is not
    blown up to 736 px before reading, only to DETECT_MIN_SIDE; images go in as BMP, which
    costs no compression.
    It reports lines without word boxes, so phrases are cut where the ink has wide gaps.
    """

    name = "faster-paddle"

    def __init__(self, model_size: str = "tiny", threads: int | None = None) -> None:
        self.model_size = model_size
        self.threads = threads

    @classmethod
    def unavailable(cls) -> str:
        try:
            import faster_paddle  # noqa: F401 - only whether it loads
        except ImportError as error:  # no wheel for this platform, or a too old glibc
            return f"faster-paddle cannot load ({error})"
        return ""

    @cached_property
    def _engine(self):  # noqa: ANN202 - faster_paddle has no public type for it
        import faster_paddle

        return faster_paddle.OcrEngine(
            model_size=self.model_size,
            threads=self.threads,
            det_max_side=MAX_SIDE,
            det_min_side=DETECT_MIN_SIDE,
        )

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        if min(pixels.shape[:2]) < MIN_TEXT_SIDE:
            return []
        encoded, image = cv2.imencode(".bmp", np.ascontiguousarray(pixels[:, :, ::-1]))
        if not encoded:
            return []
        gray = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
        phrases: list[TextBox] = []
        for found in self._engine.ocr(image.tobytes())["bounds"].values():
            text = found["text"].strip()
            (x0, y0), (x1, y1) = found["topLeftCoord"], found["bottomRightCoord"]
            box = Box(int(x0), int(y0), int(x1) - int(x0), int(y1) - int(y0))
            if text and box.w > 0 and box.h > 0:
                phrases.extend(split_line(gray, TextBox(box, text, float(found["confidence"]))))
        return phrases


def split_line(gray: np.ndarray, line: TextBox) -> list[TextBox]:
    """A line cut into phrases at ink gaps wider than WIDE_GAP line heights and WIDE_SPACE
    characters (or where the engine wrote two spaces), for engines that give no word boxes.

    Each wide gap is matched to the space in the text at the same share of the line's ink
    width (text advances roughly evenly), and cut there only when one is that close; a gap
    that falls inside a word (wide letter spacing, an icon) is left alone.
    """
    words = line.text.split()
    box = line.box
    if len(words) < 2:
        return [line]
    crop = gray[box.y : box.bottom, box.x : box.right]
    if crop.size == 0:
        return [line]
    background = int(np.bincount(crop.ravel()).argmax())  # the commonest grey level
    marks = np.abs(crop.astype(np.int16) - background) > 40
    marks = marks[marks.mean(axis=1) < 0.9]  # a rule the box took in (a bar's edge) is no ink
    ink = np.flatnonzero(marks.any(axis=0))
    if ink.size < 2:
        return [line]
    steps = np.diff(ink)
    first, span = int(ink[0]), max(1, int(ink[-1] - ink[0]))
    chars = sum(len(w) for w in words) + len(words) - 1
    wide = steps > WIDE_GAP * box.h
    advance = (span - int(steps[wide].sum())) / chars  # a character's width, gaps left out
    gaps = np.flatnonzero(wide)
    if gaps.size == 0:
        return [line]
    spaces = np.cumsum([len(w) + 1 for w in words[:-1]]) - 0.5  # a space's middle, in chars
    doubled = [f"{a}  {b}" in line.text for a, b in zip(words, words[1:], strict=False)]
    cuts: dict[int, int] = {}  # word index a phrase starts at -> x where its ink starts
    for gap in gaps:
        share = ((ink[gap] + ink[gap + 1]) / 2 - first) / span
        nearest = int(np.argmin(np.abs(spaces / chars - share)))
        apart = doubled[nearest] or steps[gap] > WIDE_SPACE * advance  # (the engine's "  ")
        if apart and abs(spaces[nearest] / chars - share) <= 0.15:
            cuts.setdefault(nearest + 1, int(ink[gap + 1]))
    if not cuts:
        return [line]
    starts = [0, *sorted(cuts)]
    lefts = [first] + [cuts[s] for s in starts[1:]]
    phrases = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(words)
        right = lefts[index + 1] if index + 1 < len(starts) else int(ink[-1]) + 1
        last = int(ink[ink < right][-1]) + 1  # the phrase's ink ends before the next gap
        piece = Box(box.x + lefts[index], box.y, last - lefts[index], box.h)
        phrases.append(TextBox(piece, " ".join(words[start:end]), line.score))
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

    @classmethod
    def unavailable(cls) -> str:
        if not tesseract_installed():
            return "tesseract is not installed (apt-get install tesseract-ocr)"
        return ""

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


ENGINES: dict[str, Callable[[], OcrEngine]] = {
    "faster-paddle": FasterPaddleEngine,
    "faster-paddle-small": lambda: FasterPaddleEngine(model_size="small"),
    "rapidocr": RapidOcrEngine,
    "tesseract": TesseractEngine,
}
PREFERRED = (FasterPaddleEngine, RapidOcrEngine, TesseractEngine)  # the default, in order


def ocr_engine(name: str | None = None) -> OcrEngine:
    """The OCR engine called `name` (else $CLICKWRIGHT_OCR), with its default settings;
    without either, the first of PREFERRED that can run here, each one passed over logged
    with why.

    faster-paddle tiny leads (fastest, and reads white text on a highlight); rapidocr reads as
    well but 4-5x slower; tesseract is fast but misses highlighted text, the current item of
    an open dropdown or list, which is often what the agent is looking for.
    """
    name = name or os.environ.get("CLICKWRIGHT_OCR") or None
    if name is None:
        for engine in PREFERRED:
            reason = engine.unavailable()
            if not reason:
                return engine()
            log.warning("OCR engine %s unavailable, trying the next: %s", engine.name, reason)
        raise ClickwrightError(
            "no OCR engine can run here",
            "pip install faster-paddle (glibc >= 2.34) or rapidocr, or install tesseract-ocr",
        )
    try:
        return ENGINES[name]()
    except KeyError:
        raise ClickwrightError(
            f"unknown OCR engine {name!r}", f"choose one of: {', '.join(ENGINES)}"
        ) from None


def tesseract_installed() -> bool:
    return ctypes.util.find_library("tesseract") is not None and tessdata_dir() is not None


_LEADING_POINT = re.compile(r"[.,·]\d")


def with_minus_signs(pixels: np.ndarray, texts: Sequence[TextBox]) -> tuple[TextBox, ...]:
    """Numbers whose leading point is a minus sign OCR misread ("-96" at 10 px reads ".96"):
    a dash is a short stroke across the middle of the line, wider than tall; a point is a dot
    on its baseline."""
    return tuple(
        TextBox(t.box, "-" + t.text.lstrip()[1:], t.score)
        if _LEADING_POINT.match(t.text.lstrip()) and _dash_first(pixels, t)
        else t
        for t in texts
    )


def _dash_first(pixels: np.ndarray, text: TextBox) -> bool:
    x, y, w, h = text.box
    cell = pixels[y : y + h, x : x + max(2, w // max(1, len(text.text.strip())))]
    if cell.size == 0:
        return False
    gray = cell.astype(np.int16).mean(axis=2)
    ink = np.abs(gray - np.median(gray[[0, -1]])) > 60
    columns = np.flatnonzero(ink.any(axis=0))
    if columns.size == 0:
        return False
    gaps = np.flatnonzero(np.diff(columns) > 1)  # the first glyph: up to the first blank column
    first = columns[: gaps[0] + 1] if gaps.size else columns
    rows = np.flatnonzero(ink[:, first].any(axis=1))
    tall, wide = rows[-1] - rows[0] + 1, first[-1] - first[0] + 1
    middle = (rows[0] + rows[-1]) / 2
    return wide >= 2 * tall and 0.3 * h <= middle <= 0.75 * h
