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
from clickwright.parsers.ocr import (  # noqa: E402
    OcrEngine,
    RapidOcrEngine,
    TesseractEngine,
    ocr_engine,
    split_phrases,
    tesseract_installed,
)
from clickwright.types import Box  # noqa: E402

ENGINES = ["rapidocr"] + (["tesseract"] if tesseract_installed() else [])


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
    assert isinstance(ocr_engine(), RapidOcrEngine)
    assert isinstance(ocr_engine("tesseract"), TesseractEngine)  # built even without tesseract
    with pytest.raises(ClickwrightError, match="unknown OCR engine 'easyocr'"):
        ocr_engine("easyocr")
