"""Icon buttons against check boxes: a real Qt toolbar (stock and drawn icons, framed and bare
tool buttons) beside labelled check boxes at 100 % and 200 %, the fusion and naming rules for
what OCR reads on an icon, and a real third-party app (galculator, GTK 3) from a screenshot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QFont, QIcon, QImage, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QHBoxLayout,
    QLineEdit,
    QMainWindow,
    QStyle,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from clickwright.agent.grounding import rank
from clickwright.parsers.fusion import TextBox, fuse
from clickwright.parsers.screen_parser import ScreenParser, name_icons
from clickwright.parsers.widgets import Widget
from clickwright.types import Box, Element, Frame
from tests.test_icons import draw_icon

FIXTURES = Path(__file__).parent / "fixtures"
STOCK = ["SP_DialogSaveButton", "SP_TrashIcon", "SP_BrowserReload", "SP_ArrowBack", "SP_DirIcon"]
DRAWN = ["search", "close", "settings", "home", "star"]
BOXES = {"Accept terms": True, "Subscribe": False, "Remember me": True}


@pytest.fixture(scope="module")
def app() -> QApplication:
    app = QApplication.instance() or QApplication(["clickwright-tests", "-platform", "offscreen"])
    app.setStyle("Fusion")
    return app


@pytest.fixture(scope="module")
def parser() -> ScreenParser:
    return ScreenParser()


def drawn_icon(name: str) -> QIcon:
    """One of the tests' hand-drawn icons, dark on transparent."""
    rgb = draw_icon(name, 20, False, (2, 2, 2, 2))
    rgba = np.dstack([rgb, 255 - rgb.min(axis=2)]).copy()
    image = QImage(
        rgba.data, rgba.shape[1], rgba.shape[0], 4 * rgba.shape[1], QImage.Format.Format_RGBA8888
    )
    return QIcon(QPixmap.fromImage(image.copy()))


def toolbar_window(app: QApplication, font_size: int | None) -> QMainWindow:
    window = QMainWindow()
    window.resize(640, 300)
    if font_size:
        window.setFont(QFont("DejaVu Sans", font_size))
    bar = QToolBar()
    window.addToolBar(bar)
    for name in STOCK:
        bar.addAction(app.style().standardIcon(getattr(QStyle.StandardPixmap, name)), name)
    bar.addSeparator()
    for name in DRAWN:
        bar.addAction(drawn_icon(name), name)
    central = QWidget()
    column = QVBoxLayout(central)
    row = QHBoxLayout()
    framed = QToolButton()  # a framed (not auto-raised) tool button beside a field
    framed.setObjectName("framed-search")
    framed.setIcon(drawn_icon("search"))
    framed.setIconSize(QSize(16, 16))
    row.addWidget(framed)
    row.addWidget(QLineEdit("query"))
    column.addLayout(row)
    for text, checked in BOXES.items():
        box = QCheckBox(text)
        box.setChecked(checked)
        column.addWidget(box)
    column.addStretch()
    window.setCentralWidget(central)
    return window


def render(window: QWidget, app: QApplication, ratio: int) -> np.ndarray:
    window.show()
    app.processEvents()
    pixmap = QPixmap(window.size() * ratio)
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.white)
    window.render(pixmap)
    image = pixmap.toImage().convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    rows = rows.reshape(image.height(), image.bytesPerLine())
    return rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).copy()


def scaled_box(widget: QWidget, window: QWidget, ratio: int) -> Box:
    point = widget.mapTo(window, QPoint(0, 0))
    return Box(
        point.x() * ratio, point.y() * ratio, widget.width() * ratio, widget.height() * ratio
    )


def over(box: Box, elements: tuple[Element, ...] | list[Element]) -> list[Element]:
    """Elements whose middle lies within `box`."""
    return [e for e in elements if box.contains_point(*e.box.center)]


@pytest.fixture(params=[(1, None), (2, None), (1, 16)], ids=["100%", "200%", "large-font"])
def toolbar(request: pytest.FixtureRequest, app: QApplication) -> Iterator[tuple]:
    ratio, font_size = request.param
    window = toolbar_window(app, font_size)
    try:
        yield window, ratio, render(window, app, ratio)
    finally:
        window.close()
        window.deleteLater()


def test_tool_buttons_are_icons_and_check_boxes_stay_check_boxes(toolbar, parser) -> None:
    window, ratio, pixels = toolbar
    elements = parser.parse(Frame(pixels)).elements
    bar = window.findChild(QToolBar)
    for action in bar.actions():
        if action.isSeparator():
            continue
        found = over(scaled_box(bar.widgetForAction(action), window, ratio), elements)
        kinds = {e.kind for e in found}
        assert not kinds & {"checkbox", "radio", "text"}, (action.text(), found)
        if action.text() in DRAWN:  # icons in the style the namer knows are named
            assert [(e.kind, e.name) for e in found] == [("icon", action.text())], found
        else:  # stock icons: found as icons, named or not
            assert kinds and kinds <= {"icon", "button"}, (action.text(), found)
    framed = window.findChild(QToolButton, "framed-search")
    (search,) = over(scaled_box(framed, window, ratio), elements)
    assert (search.kind, search.name, search.text, search.interactive) == (
        "icon",
        "search",
        "",
        True,
    )
    toggles = {e.text: e for e in elements if e.kind == "checkbox"}
    assert {text: "checked" in e.state for text, e in toggles.items()} == BOXES
    assert one_input(elements).text == "query"


def one_input(elements: tuple[Element, ...]) -> Element:
    (field,) = [e for e in elements if e.kind == "input"]
    return field


# ---- fusion and naming rules ----------------------------------------------------------------


def text(x: int, y: int, w: int, h: int, value: str) -> TextBox:
    return TextBox(Box(x, y, w, h), value, 0.9)


def test_ocr_glyph_on_an_icon_is_dropped_and_the_icon_keeps_its_name() -> None:
    framed = Widget(Box(10, 10, 24, 24), "icon", 0.6, name="search")
    bare = [
        Widget(Box(60 + 34 * i, 14, 17, 17), "icon", 0.5, name=n)
        for i, n in enumerate(["close", "star"])
    ]
    texts = [text(14, 12, 14, 18, "a"), text(55, 10, 70, 24, "× ★"), text(200, 12, 40, 18, "Find")]
    elements = fuse(texts, [framed, *bare])
    assert [(e.kind, e.name, e.text) for e in elements] == [
        ("icon", "search", ""),
        ("icon", "close", ""),
        ("icon", "star", ""),
        ("text", "", "Find"),
    ]
    assert all(e.interactive for e in elements if e.kind == "icon")


def test_an_icon_read_as_part_of_a_word_is_a_letter() -> None:
    initial = Widget(Box(12, 10, 14, 16), "icon", 0.5, name="user")
    (element,) = fuse([text(10, 8, 90, 20, "Overview")], [initial])
    assert (element.kind, element.text) == ("text", "Overview")


def test_an_unnamed_icon_keeps_what_ocr_read_on_it() -> None:
    bold = Widget(Box(10, 10, 18, 18), "icon", 0.3)
    (element,) = fuse([text(13, 11, 10, 16, "B")], [bold])
    assert (element.kind, element.text) == ("icon", "B")


def test_letters_on_a_square_icon_button_give_way_to_its_name_but_labels_stay() -> None:
    frame = np.full((120, 320, 3), 240, np.uint8)
    frame[10:36, 10:36] = draw_icon("search", 20, False, (3, 3, 3, 3))
    frame[60:86, 10:36] = draw_icon("close", 20, False, (3, 3, 3, 3))
    frame[60:86, 100:126] = draw_icon("close", 20, False, (3, 3, 3, 3))
    elements = [
        Element(0, Box(8, 8, 30, 30), "button", "a", "merged", interactive=True),
        Element(1, Box(8, 58, 30, 30), "button", "(", "merged", interactive=True),
        Element(2, Box(90, 58, 60, 30), "button", "No", "merged", interactive=True),
    ]
    named = name_icons(frame, elements)
    assert (named[0].kind, named[0].name, named[0].text) == ("icon", "search", "")
    assert named[1:] == elements[1:]


# ---- a third-party app --------------------------------------------------------------------


def test_galculator_keypad_is_read_as_buttons(parser) -> None:
    """galculator 2.1 (GTK 3, Adwaita) on Xvfb; OCR misses some lone symbols ("(", "-", "=")."""
    pixels = np.asarray(Image.open(FIXTURES / "galculator.png").convert("RGB"))
    elements = parser.parse(Frame(pixels)).elements
    buttons = {e.text: e for e in elements if e.kind == "button" and e.text}
    assert set("0123456789") <= set(buttons)
    for label in ("AC", "sqrt", "%", "+", "7", "8", "9"):
        assert buttons[label].interactive, label
    rows = {"789": 193, "456": 233, "0": 313}
    for digits, top in rows.items():
        for digit in digits:
            box = buttons[digit].box
            assert abs(box.y - top) <= 3 and 56 <= box.w <= 64 and 30 <= box.h <= 38, (digit, box)
    for menu in ("File", "Edit", "View", "Help"):
        assert any(e.kind == "menu" and e.interactive and e.text == menu for e in elements), menu
    assert not [e for e in elements if e.kind in ("checkbox", "radio")]
    (display,) = [e for e in elements if e.kind == "input"]
    assert display.text == "0" and display.box.w > 300


def test_icons_a_few_pixels_apart_are_two_and_the_unnamed_one_answers_to_its_word(parser) -> None:
    """A mail's header bar (MiniWoB's inbox in Chromium at scale 1): an 11 px star and a bin 3 px
    apart, faint on red. Their strokes join when grown, so they are parted at their blank
    columns; the star is named, the bin is not, and "the trash icon" is the one left unnamed."""
    pixels = np.asarray(Image.open(FIXTURES / "mail_toolbar_icons.png").convert("RGB"))
    screen = parser.parse(Frame(pixels))
    bar = [e for e in screen.elements if e.kind == "icon" and 50 <= e.box.center[1] <= 70
           and e.name != "collapse"]  # fmt: skip  # (the scroll bar's arrow beside the bar)
    assert [e.name for e in sorted(bar, key=lambda e: e.box.x)] == ["star", ""], bar
    echo = "Find the email by Audrey and click the trash icon to delete it."
    (best, *_) = rank(screen, "trash", "icon", echo_of=echo)
    assert best.element is max(bar, key=lambda e: e.box.x)
    (star, *_) = rank(screen, "star", "icon", echo_of=echo)
    assert star.element is min(bar, key=lambda e: e.box.x)


def test_cjk_read_off_icons_on_a_latin_screen_goes_and_a_word_beside_one_stays() -> None:
    """A feed full of faint icons: the multilingual OCR reads many of them as CJK, more than a
    fifth of its texts, yet a small share of its letters."""
    from clickwright.parsers.fusion import without_stray_glyphs

    def text(words: str, y: int) -> TextBox:
        return TextBox(Box(5, y, 120, 12), words, 0.9)

    read = [text("Carmella @consectetur · 10h ago", 0), text("Quis velit pellentesque.", 20),
            text("Massa. 额", 40), text("业业", 60), text("e业号", 80)]  # fmt: skip
    assert [t.text for t in without_stray_glyphs(read)] == [
        "Carmella @consectetur · 10h ago", "Quis velit pellentesque.", "Massa."]  # fmt: skip
    chinese = [text("打开文件", 0), text("保存", 20), text("业", 40)]
    assert without_stray_glyphs(chinese) == tuple(chinese)
