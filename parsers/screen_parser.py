"""Frame -> Screen: OCR text and detected widgets, fused into numbered elements."""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from clickwright.parsers.fusion import fuse
from clickwright.parsers.ocr import OcrEngine, RapidOcrEngine
from clickwright.parsers.widgets import detect_widgets
from clickwright.types import Frame, Screen


@dataclass
class ParseTimings:
    """Seconds spent in each stage of the most recent parse (0 when it came from the cache)."""

    ocr: float = 0.0
    widgets: float = 0.0
    fusion: float = 0.0
    cached: bool = False


@dataclass
class ScreenParser:
    """Parses frames, remembering recent results so an unchanged screen is never parsed twice."""

    ocr: OcrEngine = field(default_factory=RapidOcrEngine)
    cache_size: int = 8
    last: ParseTimings = field(default_factory=ParseTimings)
    _cache: OrderedDict[str, Screen] = field(default_factory=OrderedDict, repr=False)

    def parse(self, frame: Frame) -> Screen:
        key = hashlib.blake2b(frame.pixels.tobytes(), digest_size=16).hexdigest()
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self.last = ParseTimings(cached=True)
            return Screen(frame, cached.elements)
        start = time.perf_counter()
        texts = self.ocr.read(frame.pixels)
        after_ocr = time.perf_counter()
        widgets = detect_widgets(frame.pixels)
        after_widgets = time.perf_counter()
        screen = Screen(frame, tuple(fuse(texts, widgets)))
        self.last = ParseTimings(
            after_ocr - start, after_widgets - after_ocr, time.perf_counter() - after_widgets
        )
        self._cache[key] = screen
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return screen
