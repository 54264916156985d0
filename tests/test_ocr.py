"""The OCR stage on real Qt renders: texts found where Qt drew them, split into phrases at
wide gaps, nothing read from blank or tiny images, engines chosen by name."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint  # noqa: E402 - after choosing the Qt platform
from PySide6.QtGui import QFont, QImage  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QApplication,
    QLabel,
    QMenuBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clickwright.errors import ClickwrightError  # noqa: E402
from clickwright.parsers.fusion import TextBox  # noqa: E402
from clickwright.parsers.ocr import (  # noqa: E402
    FasterPaddleEngine,
    OcrEngine,
    RapidOcrEngine,
    TesseractEngine,
    ocr_engine,
    split_line,
    split_phrases,
    tesseract_installed,
)
from clickwright.types import Box  # noqa: E402

ENGINES = ["faster-paddle", "faster-paddle-small", "rapidocr"] + (
    ["tesseract"] if tesseract_installed() else []
)


@pytest.fixture(scope="module", params=ENGINES)
def engine(request) -> OcrEngine:
    return ocr_engine(request.param)


def render(build) -> tuple[np.ndarray, QWidget]:  # noqa: ANN001 - fills a QWidget
    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    root = QWidget()
    font = QFont("DejaVu Sans")
    font.setPixelSize(14)
    root.setFont(font)
    root.setFixedSize(640, 240)
    build(root)
    root.show()
    app.processEvents()
    image = root.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
    pixels = rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).copy()
    return pixels, root


def box_in(widget: QWidget, root: QWidget) -> Box:
    corner = widget.mapTo(root, QPoint(0, 0))
    return Box(corner.x(), corner.y(), widget.width(), widget.height())


def test_a_label_is_found_inside_the_box_qt_drew_it_in(engine) -> None:
    def build(root: QWidget) -> None:
        layout = QVBoxLayout(root)
        layout.addWidget(QLabel("Customer number"))
        layout.addWidget(QPushButton("Submit order"))

    pixels, root = render(build)
    found = engine.read(pixels)
    for widget in root.findChildren(QLabel) + root.findChildren(QPushButton):
        where = box_in(widget, root)
        matches = [t for t in found if t.text == widget.text()]
        assert matches, [t.text for t in found]
        assert where.contains(matches[0].box, slack=4), (matches[0].box, where)
        assert 0 < matches[0].score <= 1


def test_menu_items_on_one_line_stay_separate_phrases(engine) -> None:
    def build(root: QWidget) -> None:
        bar = QMenuBar(root)
        for name in ("File", "Edit", "Help"):
            bar.addMenu(name)
        bar.setFixedWidth(root.width())

    pixels, _ = render(build)
    texts = [t.text for t in engine.read(pixels[:40])]
    assert texts[:3] == ["File", "Edit", "Help"], texts


def test_phrases_split_only_at_gaps_wider_than_a_word_space() -> None:
    height = 20
    words = [
        ("Save", 0.9, Box(0, 0, 40, height)),
        ("as", 0.8, Box(45, 0, 20, height)),  # a space (5 px) joins
        ("Cancel", 0.7, Box(75, 0, 50, height)),  # 10 px > 0.45 * 20 splits
    ]
    phrases = split_phrases(words, height)
    assert [p.text for p in phrases] == ["Save as", "Cancel"]
    assert phrases[0].box == Box(0, 0, 65, height) and phrases[0].score == 0.8


@pytest.mark.parametrize(
    "pixels",
    [
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((1, 1, 3), np.uint8),
        np.zeros((7, 300, 3), np.uint8),
        np.zeros((800, 1280, 3), np.uint8),
        np.full((200, 300, 3), 255, np.uint8),
    ],
    ids=["0x0", "1x1", "7px", "black", "white"],
)
def test_blank_and_tiny_images_hold_no_text(engine, pixels) -> None:
    assert engine.read(pixels) == []


def test_engines_are_chosen_by_name() -> None:
    assert isinstance(ocr_engine(), FasterPaddleEngine)
    assert ocr_engine("faster-paddle-small").model_size == "small"
    assert isinstance(ocr_engine("rapidocr"), RapidOcrEngine)
    assert isinstance(ocr_engine("tesseract"), TesseractEngine)  # built even without tesseract
    with pytest.raises(ClickwrightError, match="unknown OCR engine 'easyocr'"):
        ocr_engine("easyocr")


def test_the_default_falls_back_when_faster_paddle_cannot_load(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An old glibc makes `import faster_paddle` fail; the next engine reads instead."""
    real_import = __import__

    def no_faster_paddle(name: str, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        if name == "faster_paddle":
            raise ImportError("GLIBC_2.34 not found")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr("builtins.__import__", no_faster_paddle)
    with caplog.at_level("WARNING", logger="clickwright.parsers.ocr"):
        engine = ocr_engine()
    assert isinstance(engine, RapidOcrEngine)
    assert "faster-paddle cannot load (GLIBC_2.34 not found)" in caplog.text
    monkeypatch.setattr(RapidOcrEngine, "unavailable", classmethod(lambda cls: "no rapidocr"))
    monkeypatch.setattr(TesseractEngine, "unavailable", classmethod(lambda cls: "no tesseract"))
    with pytest.raises(ClickwrightError, match="no OCR engine can run here"):
        ocr_engine()


def test_a_line_without_word_boxes_is_cut_at_wide_ink_gaps() -> None:
    """faster-paddle reports whole lines: "Save as" and "Cancel" drawn 30 px apart on one
    line become two phrases; the word space inside "Save as" does not cut."""
    gray = np.full((20, 200), 255, np.uint8)
    gray[5:15, 10:50:3] = 0  # "Save", as strokes
    gray[5:15, 55:75:3] = 0  # "as", a 5 px space after "Save"
    gray[5:15, 105:165:3] = 0  # "Cancel", 30 px on
    line = TextBox(Box(8, 2, 160, 16), "Save as Cancel", 0.9)
    phrases = split_line(gray, line)
    assert [(p.text, p.box) for p in phrases] == [
        ("Save as", Box(10, 2, 64, 16)),
        ("Cancel", Box(105, 2, 58, 16)),
    ]
    one_word = TextBox(Box(8, 2, 160, 16), "SaveasCancel", 0.9)  # no space to cut at
    assert split_line(gray, one_word) == [one_word]
    gray[17, :] = 120  # a menu bar's bottom edge inside the line's box: still cut
    assert [p.text for p in split_line(gray, line)] == ["Save as", "Cancel"]


def test_a_leading_point_that_is_drawn_as_a_dash_is_a_minus_sign():
    from clickwright.parsers.fusion import TextBox
    from clickwright.parsers.ocr import with_minus_signs
    from clickwright.types import Box

    pixels = np.full((16, 60, 3), 255, np.uint8)
    pixels[8, 1:5] = 0  # a dash across the middle of the line
    pixels[3:13, 8:10] = 0  # a digit's stroke after it
    pixels[12:14, 31:33] = 0  # a dot on the baseline
    pixels[3:13, 36:38] = 0
    dash, dot = TextBox(Box(0, 0, 20, 16), ".96", 0.9), TextBox(Box(30, 0, 20, 16), ".5", 0.9)
    assert [t.text for t in with_minus_signs(pixels, [dash, dot])] == ["-96", ".5"]
