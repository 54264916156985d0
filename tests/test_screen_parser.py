"""The screen parser on real Qt screenshots: caching, incremental re-reading, bad frames.

The sample app is drawn offscreen onto a desktop-sized frame; each change (a typed character,
an opened dropdown) is parsed incrementally and from scratch, and both must agree.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint  # noqa: E402 - after choosing the Qt platform
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QWidget  # noqa: E402

from clickwright.assets.sample_app import SampleWindow, configure_app  # noqa: E402
from clickwright.errors import ClickwrightError  # noqa: E402
from clickwright.parsers.fusion import TextBox, fuse  # noqa: E402
from clickwright.parsers.ocr import OcrEngine, ocr_engine  # noqa: E402
from clickwright.parsers.screen_parser import ScreenParser  # noqa: E402
from clickwright.types import Box, Element, Frame  # noqa: E402

DESKTOP = (1280, 800)
WINDOW_AT = (40, 40)


class CountingEngine(OcrEngine):
    """A real engine that counts the pixels it is asked to read."""

    def __init__(self, engine: OcrEngine) -> None:
        self.engine = engine
        self.calls: list[tuple[int, int]] = []

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        self.calls.append(pixels.shape[:2])
        return self.engine.read(pixels)


@pytest.fixture(scope="module")
def engine() -> OcrEngine:
    return ocr_engine()


@pytest.fixture
def window(tmp_path) -> Iterator[SampleWindow]:
    app = QApplication.instance() or QApplication([])
    configure_app(app)
    window = SampleWindow(tmp_path / "state.json")
    window.show()
    app.processEvents()
    yield window
    window.close()
    app.processEvents()


def rgb(widget: QWidget) -> np.ndarray:
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
    return rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).copy()


def desktop(window: SampleWindow, popup: QWidget | None = None) -> Frame:
    """The window (and an open popup) as a capture of a 1280x800 desktop would show them."""
    QApplication.processEvents()
    pixels = np.full((DESKTOP[1], DESKTOP[0], 3), 58, np.uint8)
    for widget, (x, y) in [(window, WINDOW_AT)] + (
        [(popup, _offset(window, popup))] if popup is not None else []
    ):
        drawn = rgb(widget)[: DESKTOP[1] - y, : DESKTOP[0] - x]
        pixels[y : y + drawn.shape[0], x : x + drawn.shape[1]] = drawn
    return Frame(pixels)


def _offset(window: QWidget, popup: QWidget) -> tuple[int, int]:
    shift = popup.mapToGlobal(QPoint(0, 0)) - window.mapToGlobal(QPoint(0, 0))
    return WINDOW_AT[0] + shift.x(), WINDOW_AT[1] + shift.y()


def visible(window: QWidget, kind: type[QWidget]) -> QWidget:
    return next(w for w in window.findChildren(kind) if w.isVisible())


def same_elements(incremental: tuple[Element, ...], full: tuple[Element, ...]) -> None:
    """Every element of one parse has a twin in the other: same kind and text, boxes that
    overlap nearly whole."""
    for ours, theirs in ((incremental, full), (full, incremental)):
        for element in ours:
            twins = [e for e in theirs if e.kind == element.kind and e.box.iou(element.box) >= 0.7]
            assert any(e.text == element.text for e in twins), (
                f"{element.describe()} at {element.box} has no twin: "
                f"{[e.describe() for e in twins]}"
            )


def test_an_unchanged_frame_costs_no_ocr(window, engine) -> None:
    counting = CountingEngine(engine)
    parser = ScreenParser(ocr=counting)
    frame = desktop(window)
    first = parser.parse(frame)
    assert len(counting.calls) == 1 and not parser.last.cached
    again = parser.parse(Frame(frame.pixels.copy()))
    assert len(counting.calls) == 1 and parser.last.cached
    assert again.elements == first.elements


def test_typing_a_character_rereads_only_the_field(window, engine) -> None:
    counting = CountingEngine(engine)
    parser = ScreenParser(ocr=counting)
    field = visible(window, QLineEdit)
    field.setFocus()
    QTest.keyClicks(field, "Ada Lovelac")
    parser.parse(desktop(window))
    QTest.keyClicks(field, "e")
    frame = desktop(window)
    incremental = parser.parse(frame)
    assert parser.last.regions, "a one-character change should not read the whole frame"
    assert sum(r.area for r in parser.last.regions) < 0.05 * DESKTOP[0] * DESKTOP[1]
    assert any(field.text() in e.text for e in incremental.elements), incremental.texts()
    full = ScreenParser(ocr=engine).parse(frame)
    same_elements(incremental.elements, full.elements)


def test_opening_a_dropdown_rereads_only_the_list(window, engine) -> None:
    parser = ScreenParser(ocr=engine)
    parser.parse(desktop(window))
    combo = visible(window, QComboBox)
    combo.showPopup()
    QApplication.processEvents()
    frame = desktop(window, combo.view().window())
    incremental = parser.parse(frame)
    combo.hidePopup()
    assert parser.last.regions
    texts = " ".join(incremental.texts())
    assert all(combo.itemText(i) in texts for i in range(3)), texts
    full = ScreenParser(ocr=engine).parse(frame)
    same_elements(incremental.elements, full.elements)


@pytest.mark.parametrize(
    "pixels",
    [
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((1, 1, 3), np.uint8),
        np.zeros((800, 1280, 3), np.uint8),
    ],
    ids=["0x0", "1x1", "black"],
)
def test_empty_frames_have_no_text(pixels, engine) -> None:
    screen = ScreenParser(ocr=engine).parse(Frame(pixels))
    assert not screen.texts()


def test_grey_and_rgba_frames_read_like_rgb(window, engine) -> None:
    rgb_frame = desktop(window)
    expected = set(ScreenParser(ocr=engine).parse(rgb_frame).texts())
    rgba = np.dstack([rgb_frame.pixels, np.full(rgb_frame.pixels.shape[:2], 255, np.uint8)])
    assert set(ScreenParser(ocr=engine).parse(Frame(rgba)).texts()) == expected
    grey = rgb_frame.pixels.mean(axis=2).astype(np.uint8)
    assert "Save" in ScreenParser(ocr=engine).parse(Frame(grey)).texts()


@pytest.mark.parametrize(
    "pixels",
    [np.zeros((10, 10, 3), np.float32), np.zeros((10, 10, 2), np.uint8), np.zeros(10, np.uint8)],
    ids=["float", "two-channel", "flat"],
)
def test_frames_that_are_not_images_are_rejected_clearly(pixels) -> None:
    with pytest.raises(ClickwrightError, match="frame must be"):
        ScreenParser().parse(Frame(pixels))


def test_incremental_parsing_can_be_switched_off(window, engine) -> None:
    parser = ScreenParser(ocr=engine, incremental=False)
    parser.parse(desktop(window))
    visible(window, QLineEdit).setText("Grace Hopper")
    parser.parse(desktop(window))
    assert parser.last.regions == () and not parser.last.cached


def test_textless_icon_sized_controls_are_named_by_their_icon():
    from clickwright.parsers.screen_parser import name_icons
    from tests.test_icons import draw_icon

    frame = np.full((200, 300, 3), 255, np.uint8)
    frame[80:106, 130:156] = draw_icon("search", 20, False, (3, 3, 3, 3))
    button = Element(0, Box(128, 78, 30, 30), "button", source="widgets", interactive=True)
    labelled = Element(1, Box(10, 10, 30, 30), "button", "OK", "merged", interactive=True)
    named = name_icons(frame, [button, labelled])
    assert (named[0].kind, named[0].name) == ("icon", "search")
    assert named[1] == labelled


class CropBlindEngine(OcrEngine):
    """A real engine whose crops miss one word, as OCR on a small crop sometimes does."""

    def __init__(self, engine: OcrEngine, missed: str) -> None:
        self.engine, self.missed = engine, missed

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        texts = self.engine.read(pixels)
        if pixels.shape[:2] == (DESKTOP[1], DESKTOP[0]):
            return texts
        return [t for t in texts if t.text != self.missed]


def test_a_word_a_crop_misses_survives_where_its_pixels_did_not_change(window, engine) -> None:
    before = desktop(window)
    combo = visible(window, QComboBox)
    combo.showPopup()
    QApplication.processEvents()
    opened = desktop(window, combo.view().window())
    combo.hidePopup()
    probe = ScreenParser(ocr=engine)
    probe.parse(before)
    first = probe.parse(opened)
    regions = probe.last.regions
    # a word inside a re-read region whose own pixels the popup did not touch
    untouched = [
        e.text
        for e in first.elements
        if e.kind == "text"
        and any(e.box.intersection(r) for r in regions)
        and np.array_equal(
            before.pixels[e.box.y : e.box.bottom, e.box.x : e.box.right],
            opened.pixels[e.box.y : e.box.bottom, e.box.x : e.box.right],
        )
    ]
    assert untouched, "the popup's region holds no unchanged word; the test needs one"
    parser = ScreenParser(ocr=CropBlindEngine(engine, untouched[0]))
    parser.parse(before)
    assert untouched[0] in parser.parse(opened).texts()


def test_a_small_box_holding_one_centred_label_is_a_button():
    from clickwright.parsers.fusion import TextBox, fuse
    from clickwright.parsers.widgets import Widget

    tile = Widget(Box(100, 100, 90, 90), "container", 0.9)
    two_lines = [
        TextBox(Box(120, 120, 50, 20), "Click", 0.9),
        TextBox(Box(125, 145, 40, 20), "Me!", 0.9),
    ]
    (button,) = [e for e in fuse(two_lines, [tile]) if e.kind == "button"]
    assert button.text == "Click Me!" and button.interactive
    panel = Widget(Box(100, 100, 300, 300), "container", 0.9)
    corner = [TextBox(Box(110, 110, 60, 20), "Details", 0.9)]
    assert not [e for e in fuse(corner, [panel]) if e.kind == "button"]


def test_a_close_glyph_at_the_end_of_a_bar_is_a_close_button():
    from clickwright.parsers.fusion import TextBox, fuse
    from clickwright.parsers.widgets import Widget

    bar = Widget(Box(0, 0, 200, 40), "combo", 0.9)
    elements = fuse([TextBox(Box(175, 10, 14, 18), "x", 0.9)], [bar])
    (close,) = [e for e in elements if e.kind == "button"]
    # a square round the glyph, as such buttons are drawn, inside the bar
    assert close.box == Box(160, 0, 40, 40) and close.name == "close" and close.text == ""


def test_a_row_of_small_icon_buttons_read_as_one_phrase_keeps_its_icons():
    """OCR reads three 16 px icon buttons in a mail row as one phrase ("☆八口"); the icons
    are the controls, the phrase their picture."""
    from clickwright.parsers.fusion import TextBox, fuse
    from clickwright.parsers.widgets import Widget

    icons = [
        Widget(Box(925, 70, 15, 16), "icon", 0.45, name="star"),
        Widget(Box(956, 70, 13, 15), "icon", 0.49, name="share"),
        Widget(Box(985, 70, 14, 16), "icon", 0.4, name="delete"),
    ]
    elements = fuse([TextBox(Box(919, 64, 82, 25), "☆八口", 0.8)], icons)
    assert [(e.kind, e.name, e.text) for e in elements] == [
        ("icon", "star", ""),
        ("icon", "share", ""),
        ("icon", "delete", ""),
    ]
    # A bold initial inside a word is still that word's letter, not an icon.
    initial = Widget(Box(10, 10, 14, 16), "icon", 0.4, name="user")
    [word] = fuse([TextBox(Box(8, 8, 120, 20), "Ada Lovelace", 0.9)], [initial])
    assert (word.kind, word.text) == ("text", "Ada Lovelace")


def test_a_toggle_symbol_read_into_a_text_is_that_toggle():
    """OCR read a web radio the detector missed as "〇No" (survey page at 200 %), a checked
    Tk check button as "■Cursor blink"."""
    texts = [TextBox(Box(156, 342, 130, 36), "〇No", 0.76),
             TextBox(Box(20, 20, 160, 20), "■Cursor blink", 0.9),
             TextBox(Box(20, 60, 60, 20), "○", 0.9)]  # fmt: skip
    found = {(e.kind, e.text, "checked" in e.state) for e in fuse(texts, [], [])}
    assert ("radio", "No", False) in found
    assert ("checkbox", "Cursor blink", True) in found
