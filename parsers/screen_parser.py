"""Frame (+ accessibility tree) -> Screen: OCR text, detected widgets, named icons and the
tree's nodes, fused into numbered elements.

OCR is the slow stage, so it is spent only where the screen changed: a frame seen before comes
from the cache whole, and a frame that differs from the last parsed one in a few places has
only those regions read again (`region_cache`), the old text elsewhere kept. Widget detection
is cheap and always runs on the whole frame.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import numpy as np

from clickwright.a11y import A11yNode, to_frame
from clickwright.errors import DeviceError
from clickwright.parsers.fusion import (
    TextBox,
    fuse,
    fuse_accessibility,
    is_glyph,
    numbered,
    unfused,
    without_stray_glyphs,
)
from clickwright.parsers.icons import name_icon
from clickwright.parsers.links import mark_links
from clickwright.parsers.ocr import OcrEngine, ocr_engine, with_minus_signs
from clickwright.parsers.region_cache import changed_regions, crop_box
from clickwright.parsers.rows import find_rows
from clickwright.parsers.shapes import with_shapes
from clickwright.parsers.widgets import FIELDS, Widget, detect_widgets, selection_block
from clickwright.types import Box, Element, Frame, Screen

log = logging.getLogger(__name__)

SOURCES = frozenset({"ocr", "widgets", "a11y"})
_T = TypeVar("_T")
ICON_SIDE = (10, 64)  # a textless control this size (px) may be an icon worth naming
MIN_ICON_INK = 8  # ink smaller than this (px) is a dot or comma, too little to name


@dataclass
class ParseTimings:
    """Seconds spent in each stage of the most recent parse (0 when it came from the cache).

    `regions` are the boxes OCR read again; empty when it read the whole frame (or nothing).
    `diff` is the time spent finding them. `failed` says which stages failed and why
    ("ocr: RuntimeError: ..."): the parse went on without them.
    """

    ocr: float = 0.0
    widgets: float = 0.0
    fusion: float = 0.0
    cached: bool = False
    diff: float = 0.0
    regions: tuple[Box, ...] = ()
    failed: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class _Parsed:
    screen: Screen
    texts: tuple[TextBox, ...]


@dataclass
class ScreenParser:
    """Parses frames, never reading the same pixels twice: whole frames seen before come from
    the cache, and only the changed regions of a new frame are read again."""

    ocr: OcrEngine = field(default_factory=ocr_engine)
    sources: frozenset[str] = SOURCES
    cache_size: int = 8
    incremental: bool = True
    last: ParseTimings = field(default_factory=ParseTimings)
    _cache: OrderedDict[str, _Parsed] = field(default_factory=OrderedDict, repr=False)
    _previous: _Parsed | None = field(default=None, repr=False)

    def parse(self, frame: Frame, nodes: Sequence[A11yNode] | None = None) -> Screen:
        """`nodes`: the accessibility tree in screen coordinates, when the platform gave one."""
        pixels = rgb_pixels(frame.pixels)
        key = hashlib.blake2b(pixels.tobytes(), digest_size=16).hexdigest() + str(pixels.shape)
        if nodes:
            key += str(hash(tuple(nodes)))
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self._previous = cached
            self.last = ParseTimings(cached=True)
            return Screen(frame, cached.screen.elements)
        start = time.perf_counter()
        failed: list[str] = []
        regions = _contained("diff", lambda: self._changed(pixels), None, failed)
        after_diff = time.perf_counter()
        texts: tuple[TextBox, ...] = ()
        if "ocr" in self.sources:
            texts = _contained(
                "ocr",
                lambda: without_stray_glyphs(with_minus_signs(pixels, self._read(pixels, regions))),
                (),
                failed,
            )
        after_ocr = time.perf_counter()
        widgets: list[Widget] = []
        if "widgets" in self.sources:
            widgets = _contained("widgets", lambda: detect_widgets(pixels), [], failed)
        after_widgets = time.perf_counter()
        rows: list[Element] = []
        if "ocr" in self.sources and "widgets" in self.sources:
            texts = _contained(
                "selections", lambda: self._read_selections(pixels, texts, widgets), texts, failed
            )
            rows = _contained("rows", lambda: find_rows(pixels, list(texts), widgets), [], failed)
        fused = _contained("fusion", lambda: fuse(list(texts), widgets, rows), None, failed)
        elements = fused if fused is not None else unfused(list(texts), widgets)
        elements = _contained("icons", lambda: name_icons(pixels, elements), elements, failed)
        elements = _contained(  # links cut from a text (a pager's pages) get their own ids
            "links", lambda: numbered(mark_links(pixels, elements)), elements, failed
        )
        elements = _contained("shapes", lambda: with_shapes(pixels, elements), elements, failed)
        if nodes and "a11y" in self.sources:
            elements = _contained(
                "accessibility",
                lambda: fuse_accessibility(
                    elements, to_frame(nodes, frame.origin, frame.scale), frame.size
                ),
                elements,
                failed,
            )
        screen = Screen(frame, tuple(elements))
        self.last = ParseTimings(
            ocr=after_ocr - after_diff,
            widgets=after_widgets - after_ocr,
            fusion=time.perf_counter() - after_widgets,
            diff=after_diff - start,
            regions=tuple(regions or ()),
            failed=tuple(failed),
        )
        if failed:  # a degraded parse is neither reused nor the base of the next one
            self._previous = None
            return screen
        self._previous = self._cache[key] = _Parsed(screen, texts)
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return screen

    def _changed(self, pixels: np.ndarray) -> list[Box] | None:
        """Regions that differ from the last parsed frame; None to read the whole frame."""
        if not self.incremental or self._previous is None:
            return None
        before = rgb_pixels(self._previous.screen.frame.pixels)
        return changed_regions(before, pixels, self._previous.texts)

    def _read(self, pixels: np.ndarray, regions: list[Box] | None) -> tuple[TextBox, ...]:
        if regions is None or self._previous is None:
            return tuple(self.ocr.read(pixels))
        old = self._previous.texts
        kept = [t for t in old if not any(t.box.intersection(r) for r in regions)]
        fresh: list[TextBox] = []
        height, width = pixels.shape[:2]
        for region in regions:
            crop = crop_box(region, (width, height))
            for text in self.ocr.read(pixels[crop.y : crop.bottom, crop.x : crop.right]):
                box = text.box._replace(x=text.box.x + crop.x, y=text.box.y + crop.y)
                if region.contains_point(*box.center):
                    fresh.append(TextBox(box, text.text, text.score))
        # OCR on a crop can miss a word it read in the whole frame; where the pixels under an
        # old text did not change and nothing new was read there, the old reading still holds.
        before = rgb_pixels(self._previous.screen.frame.pixels)
        for text in old:
            if text in kept or any(text.box.intersection(f.box) for f in fresh):
                continue
            x, y, w, h = text.box
            if np.array_equal(before[y : y + h, x : x + w], pixels[y : y + h, x : x + w]):
                kept.append(text)
        return tuple(kept + fresh)

    def _read_selections(
        self, pixels: np.ndarray, texts: tuple[TextBox, ...], widgets: list[Widget]
    ) -> tuple[TextBox, ...]:
        """Fields whose value is partly or wholly selected are read again with the selection
        drawn dark on light: OCR misreads a short value light on its block and the block's
        edges (yad's selected spin box value "1" read as "H")."""
        height, width = pixels.shape[:2]
        for widget in widgets:
            block = selection_block(pixels, widget.box) if widget.kind in FIELDS else None
            if block is None:
                continue
            crop = crop_box(widget.box, (width, height))
            shown = pixels[crop.y : crop.bottom, crop.x : crop.right].copy()
            y, x = block.y - crop.y, block.x - crop.x
            shown[y : y + block.h, x : x + block.w] = _dark_on_light(
                pixels[block.y : block.bottom, block.x : block.right]
            )
            fresh = [
                TextBox(t.box._replace(x=t.box.x + crop.x, y=t.box.y + crop.y), t.text, t.score)
                for t in self.ocr.read(shown)
            ]
            texts = tuple(
                [t for t in texts if not widget.box.contains_point(*t.box.center)]
                + [t for t in fresh if widget.box.contains_point(*t.box.center)]
            )
        return texts


def _dark_on_light(block: np.ndarray) -> np.ndarray:
    """A selection's block redrawn as plain text: its fill white, its glyphs dark in
    proportion to how far they are from the fill."""
    fill = np.median(block.reshape(-1, 3), axis=0)
    away = np.abs(block.astype(np.int16) - fill).max(axis=2)
    ink = (away * 255 // max(1, int(away.max()))).astype(np.uint8)
    return np.repeat((255 - ink)[:, :, None], 3, axis=2)


def _contained(stage: str, call: Callable[[], _T], fallback: _T, failed: list[str]) -> _T:
    """One stage of a parse, contained: a frame it cannot handle degrades the parse to
    `fallback` (what the stage had before) and is logged with why; it never ends the run."""
    try:
        return call()
    except Exception as error:  # noqa: BLE001 - whatever a stage raises, the parse goes on
        reason = f"{type(error).__name__}: {error}"
        log.warning("parse stage %s failed, going on without it: %s", stage, reason)
        log.debug("parse stage %s failed here", stage, exc_info=True)
        failed.append(f"{stage}: {reason}")
        return fallback


def name_icons(pixels: np.ndarray, elements: list[Element]) -> list[Element]:
    """Give icon-sized controls without a real label the name of the icon they show ("search",
    "close"). One or two letters OCR read on a square control were the picture itself ("a"
    for a magnifier): they are dropped once the icon is named. A symbol OCR read ("+", "(")
    is the control's label and keeps it a button, as do the letters of a wider one ("No")."""
    named = []
    for element in elements:
        x, y, w, h = element.box
        glyph = is_glyph(element.text) and element.text.strip().isalnum() and w <= 1.5 * h
        if (
            element.kind in ("button", "icon")
            and not element.name
            and (not element.text or glyph)
            and ICON_SIDE[0] <= min(w, h)
            and max(w, h) <= ICON_SIDE[1]
        ):
            inside = _inside_frame(pixels[y : y + h, x : x + w])
            match = name_icon(inside) if _ink_side(inside) >= MIN_ICON_INK else None
            if match is not None:
                element = replace(element, kind="icon", name=match[0], text="", interactive=True)
        named.append(element)
    return named


def _inside_frame(crop: np.ndarray) -> np.ndarray:
    """The crop within the innermost outline near each of its sides (a button's frame, and a
    neighbour's when the box took it in), so that only the picture is named."""
    face = np.median(crop.reshape(-1, 3), axis=0)
    ink = np.abs(crop.astype(np.int16) - face).max(axis=2) > 40
    rows, columns = ink.mean(axis=1) >= 0.5, ink.mean(axis=0) >= 0.5

    def inner(lines: np.ndarray) -> tuple[int, int]:
        reach = max(2, len(lines) // 4)
        first = np.flatnonzero(lines[:reach])
        last = np.flatnonzero(lines[::-1][:reach])
        start = int(first[-1]) + 1 if first.size else 0
        end = len(lines) - (int(last[-1]) + 1 if last.size else 0)
        return start, end

    top, bottom = inner(rows)
    left, right = inner(columns)
    return crop[top:bottom, left:right]


def _ink_side(crop: np.ndarray) -> int:
    """The longer side of the box round what stands out from the crop's border colour."""
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]).astype(np.int16)
    ink = np.abs(crop.astype(np.int16) - np.median(border, axis=0)).max(axis=2) > 40
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return 0
    return int(max(rows[-1] - rows[0], columns[-1] - columns[0])) + 1


def rgb_pixels(pixels: np.ndarray) -> np.ndarray:
    """The frame as HxWx3 uint8 RGB: grey frames are spread to three channels and an alpha
    channel is dropped; anything else is not a screen capture."""
    hint = "capture frames as 8-bit RGB, e.g. numpy.asarray(image.convert('RGB'))"
    if not isinstance(pixels, np.ndarray) or pixels.dtype != np.uint8:
        kind = getattr(pixels, "dtype", type(pixels).__name__)
        raise DeviceError(f"a frame must be a uint8 numpy array, got {kind}", hint)
    channels = pixels.shape[2] if pixels.ndim == 3 else 0 if pixels.ndim == 2 else -1
    if channels == 3:
        return pixels
    if channels == 4:
        return np.ascontiguousarray(pixels[:, :, :3])
    if channels in (0, 1):
        return np.ascontiguousarray(np.repeat(pixels.reshape(*pixels.shape[:2], 1), 3, axis=2))
    raise DeviceError(
        f"a frame must be HxW (grey), HxWx3 (RGB) or HxWx4 (RGBA), got shape {pixels.shape}", hint
    )
