"""Widget detection and OCR fusion on real Qt screenshots (Fusion style, light and dark, plus
style sheets that imitate web and GTK forms), checked against the geometry Qt itself reports."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QTabBar,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clickwright.parsers.fusion import TextBox, fuse
from clickwright.parsers.widgets import Widget, detect_widgets
from clickwright.types import Box, Element

# ---- screens ------------------------------------------------------------------------------


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in [
        (QPalette.ColorRole.Window, "#353535"),
        (QPalette.ColorRole.WindowText, "#ffffff"),
        (QPalette.ColorRole.Base, "#232323"),
        (QPalette.ColorRole.AlternateBase, "#353535"),
        (QPalette.ColorRole.Text, "#ffffff"),
        (QPalette.ColorRole.Button, "#454545"),
        (QPalette.ColorRole.ButtonText, "#ffffff"),
        (QPalette.ColorRole.Highlight, "#2a82da"),
        (QPalette.ColorRole.HighlightedText, "#000000"),
    ]:
        palette.setColor(role, QColor(colour))
    return palette


def form_window(font_size: int | None = None) -> QWidget:
    """The main target: a Fusion form with labelled fields, toggles in a group box, buttons."""
    window = QWidget()
    window.resize(640, 480)
    if font_size:
        window.setFont(QFont("DejaVu Sans", font_size))
    grid = QGridLayout(window)
    grid.addWidget(QLabel("Name"), 0, 0)
    grid.addWidget(QLineEdit(), 0, 1)
    grid.addWidget(QLabel("Email"), 1, 0)
    grid.addWidget(QLineEdit("ada@example.com"), 1, 1)
    combo = QComboBox()
    combo.addItems(["Red", "Green"])
    grid.addWidget(QLabel("Colour"), 2, 0)
    grid.addWidget(combo, 2, 1)
    group = QGroupBox("Options")
    column = QVBoxLayout(group)
    for text, checked in [("Accept terms", True), ("Subscribe", False)]:
        box = QCheckBox(text)
        box.setChecked(checked)
        column.addWidget(box)
    for text, checked in [("Small", False), ("Large", True)]:
        radio = QRadioButton(text)
        radio.setChecked(checked)
        column.addWidget(radio)
    grid.addWidget(group, 3, 0, 1, 2)
    buttons = QHBoxLayout()
    buttons.addStretch()
    buttons.addWidget(QPushButton("Save"))
    buttons.addWidget(QPushButton("Cancel"))
    grid.addLayout(buttons, 4, 0, 1, 2)
    return window


def wizard_window() -> QWidget:
    """A busier 1280x800 screen: a form, a grid of toggles, tabs, a list, an editable combo."""
    window = QWidget()
    window.resize(1280, 800)
    root = QHBoxLayout(window)
    left = QVBoxLayout()
    root.addLayout(left, 1)
    form = QFormLayout()
    for label, value in [
        ("First name", ""),
        ("Last name", "Lovelace"),
        ("Email", ""),
        ("Phone", "+44 20 7946 0958"),
    ]:
        form.addRow(label, QLineEdit(value))
    country = QComboBox()
    country.addItems(["United Kingdom", "France"])
    form.addRow("Country", country)
    left.addLayout(form)
    notify = QGroupBox("Notifications")
    grid = QGridLayout(notify)
    for i, (text, checked) in enumerate(
        [("Email me", True), ("Text me", False), ("Weekly digest", True), ("Offers", False)]
    ):
        box = QCheckBox(text)
        box.setChecked(checked)
        grid.addWidget(box, i // 2, i % 2)
    left.addWidget(notify)
    plan = QGroupBox("Plan")
    row = QHBoxLayout(plan)
    for text, checked in [("Free", False), ("Pro", True), ("Team", False)]:
        radio = QRadioButton(text)
        radio.setChecked(checked)
        row.addWidget(radio)
    left.addWidget(plan)
    buttons = QHBoxLayout()
    buttons.addWidget(QPushButton("Help"))
    buttons.addStretch()
    for text in ["Back", "Next", "Finish"]:
        buttons.addWidget(QPushButton(text))
    left.addLayout(buttons)
    right = QVBoxLayout()
    root.addLayout(right, 1)
    tabs = QTabWidget()
    page = QWidget()
    page_layout = QVBoxLayout(page)
    items = QListWidget()
    items.addItems([f"Item {i}" for i in range(8)])
    page_layout.addWidget(items)
    search = QHBoxLayout()
    search.addWidget(QLabel("Search"))
    search.addWidget(QLineEdit())
    search.addWidget(QPushButton("Go"))
    page_layout.addLayout(search)
    tabs.addTab(page, "General")
    tabs.addTab(QWidget(), "Advanced")
    tabs.addTab(QWidget(), "About")
    right.addWidget(tabs)
    right.addWidget(QLabel("Comments"))
    right.addWidget(QPlainTextEdit())
    editable = QComboBox()
    editable.setEditable(True)
    editable.addItems(["alpha"])
    right.addWidget(editable)
    return window


WEB_CSS = """
QWidget#page { background: #ffffff; }
QLabel, QCheckBox, QRadioButton { color: #212529; font-size: 14px; }
QLineEdit, QComboBox { background: #ffffff; border: 1px solid #ced4da; border-radius: 6px;
                       padding: 6px 10px; font-size: 14px; }
QPushButton { background: #0d6efd; color: white; border: none; border-radius: 6px;
              padding: 8px 16px; font-size: 14px; }
QPushButton#secondary { background: #ffffff; color: #6c757d; border: 1px solid #6c757d; }
QCheckBox::indicator { width: 14px; height: 14px; border: 1px solid #adb5bd; border-radius: 3px;
                       background: white; }
QCheckBox::indicator:checked { background: #0d6efd; border-color: #0d6efd; image: url(TICK); }
QRadioButton::indicator { width: 14px; height: 14px; border: 1px solid #adb5bd;
                          border-radius: 8px; background: white; }
QRadioButton::indicator:checked { border: 4px solid #0d6efd; width: 8px; height: 8px; }
QGroupBox { border: 1px solid #dee2e6; border-radius: 8px; margin-top: 20px; padding: 12px; }
"""

GTK_CSS = """
QWidget#page { background: #fafafa; }
QLineEdit { background: #ffffff; border: 1px solid #cdc7c2; border-radius: 5px; padding: 5px 8px; }
QPushButton, QComboBox { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #f6f5f4,
                         stop:1 #edebe9); border: 1px solid #cdc7c2; border-radius: 5px;
                         padding: 6px 14px; }
QCheckBox::indicator { width: 14px; height: 14px; border: 1px solid #cdc7c2; border-radius: 3px;
                       background: white; }
QCheckBox::indicator:checked { background: #3584e4; border-color: #1b6acb; image: url(TICK); }
QRadioButton::indicator { width: 14px; height: 14px; border: 1px solid #cdc7c2;
                          border-radius: 8px; background: white; }
QRadioButton::indicator:checked { background: qradialgradient(cx:0.5, cy:0.5, radius:0.5,
    fx:0.5, fy:0.5, stop:0 white, stop:0.3 white, stop:0.35 #3584e4, stop:1 #3584e4); }
"""

DARK_WEB_CSS = """
QWidget#page { background: #1e1e1e; }
QLabel, QCheckBox, QRadioButton { color: #e0e0e0; font-size: 14px; }
QLineEdit, QComboBox { background: #2d2d2d; color: #e0e0e0; border: 1px solid #555;
                       border-radius: 4px; padding: 6px; font-size: 14px; }
QPushButton { background: #3a7bd5; color: white; border: none; border-radius: 4px;
              padding: 8px 16px; font-size: 14px; }
QPushButton#secondary { background: #2d2d2d; color: #e0e0e0; border: 1px solid #777; }
QCheckBox::indicator { width: 14px; height: 14px; border: 1px solid #888; border-radius: 2px;
                       background: #2d2d2d; }
QCheckBox::indicator:checked { background: #3a7bd5; border-color: #3a7bd5; image: url(TICK); }
QRadioButton::indicator { width: 14px; height: 14px; border: 1px solid #888; border-radius: 8px;
                          background: #2d2d2d; }
QRadioButton::indicator:checked { border: 4px solid #3a7bd5; width: 8px; height: 8px; }
QGroupBox { border: 1px solid #444; border-radius: 6px; margin-top: 20px; padding: 12px;
            color: #e0e0e0; }
"""


def styled_window(css: str, tick: str) -> QWidget:
    """A sign-up form styled like a web page or a GTK dialog, to check nothing relies on Fusion."""
    window = QWidget()
    window.setObjectName("page")
    window.resize(1280, 800)
    window.setStyleSheet(css.replace("TICK", tick))
    column = QVBoxLayout(window)
    column.setContentsMargins(60, 40, 600, 40)
    column.addWidget(QLabel("Sign up"))
    fields = [("Email address", ""), ("Password", "hunter2"), ("Full name", "Ada Lovelace")]
    for label, value in fields:
        column.addWidget(QLabel(label))
        field = QLineEdit(value)
        if label == "Password":
            field.setEchoMode(QLineEdit.EchoMode.Password)
        column.addWidget(field)
    plan = QComboBox()
    plan.addItems(["Choose a plan", "Pro"])
    column.addWidget(QLabel("Plan"))
    column.addWidget(plan)
    group = QGroupBox("Preferences")
    inner = QVBoxLayout(group)
    remember = QCheckBox("Remember me")
    remember.setChecked(True)
    inner.addWidget(remember)
    inner.addWidget(QCheckBox("Send me news"))
    monthly = QRadioButton("Monthly")
    monthly.setChecked(True)
    inner.addWidget(monthly)
    inner.addWidget(QRadioButton("Yearly"))
    column.addWidget(group)
    buttons = QHBoxLayout()
    buttons.addWidget(QPushButton("Create account"))
    cancel = QPushButton("Cancel")
    cancel.setObjectName("secondary")
    buttons.addWidget(cancel)
    buttons.addStretch()
    column.addLayout(buttons)
    column.addStretch()
    return window


def text_window() -> QWidget:
    """Ordinary prose at the sizes UIs use, with the letters and signs most like controls."""
    window = QWidget()
    window.resize(1280, 800)
    column = QVBoxLayout(window)
    lines = [
        "Options Of Our Organisation: Q1 2024 Overview, 0800 000 000, 100% of orders on time.",
        "Email ada@example.com or bob@domain.org. Good food, cool pools and bold colours.",
        "Booking confirmed: 2 rooms, 3 nights (Oct 10-13). Total: £300.00 - Ref #QO8D0B.",
    ]
    for size in (9, 10, 11, 13, 16, 20):
        for bold in (False, True):
            label = QLabel(lines[(size + bold) % len(lines)])
            font = QFont("DejaVu Sans", size)
            font.setBold(bold)
            label.setFont(font)
            column.addWidget(label)
    column.addStretch()
    return window


@pytest.fixture(scope="session")
def app() -> QApplication:
    """An offscreen Qt app, asked for by argument so the process environment stays as it was."""
    app = QApplication.instance() or QApplication(["clickwright-tests", "-platform", "offscreen"])
    app.setStyle("Fusion")
    return app


@pytest.fixture(scope="module")
def tick(tmp_path_factory: pytest.TempPathFactory, app: QApplication) -> str:
    """A white tick image for the style sheets' checked boxes, as browsers and GTK draw."""
    pixmap = QPixmap(14, 14)
    pixmap.fill(QColor(0, 0, 0, 0))
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(QColor("white"), 2))
    painter.drawLine(3, 7, 6, 10)
    painter.drawLine(6, 10, 11, 4)
    painter.end()
    path = str(tmp_path_factory.mktemp("style") / "tick.png")
    pixmap.save(path)
    return path


def grab(window: QWidget) -> np.ndarray:
    image = window.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    rows = rows.reshape(image.height(), image.bytesPerLine())
    return rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).copy()


@contextmanager
def shown(window: QWidget, palette: QPalette | None, app: QApplication) -> Iterator[QWidget]:
    if palette is not None:
        window.setPalette(palette)
    window.show()
    app.processEvents()
    try:
        yield window
    finally:
        window.close()
        window.deleteLater()


SCREENS: dict[str, Callable[[str], tuple[QWidget, QPalette | None]]] = {
    "fusion-light": lambda tick: (form_window(), None),
    "fusion-dark": lambda tick: (form_window(), dark_palette()),
    "fusion-large-font": lambda tick: (form_window(font_size=14), None),
    "fusion-wizard-light": lambda tick: (wizard_window(), None),
    "fusion-wizard-dark": lambda tick: (wizard_window(), dark_palette()),
    "web-style": lambda tick: (styled_window(WEB_CSS, tick), None),
    "web-style-dark": lambda tick: (styled_window(DARK_WEB_CSS, tick), None),
    "gtk-style": lambda tick: (styled_window(GTK_CSS, tick), None),
}


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, app: QApplication, tick: str) -> Iterator[QWidget]:
    window, palette = SCREENS[request.param](tick)
    with shown(window, palette, app) as window:
        yield window


# ---- ground truth from Qt -----------------------------------------------------------------


def expected_controls(window: QWidget) -> list[tuple[str, Box, bool | None, str]]:
    """(kind, box in window pixels, checked or None, text) for every visible control.

    A check box or radio is its indicator square, which is what can be seen as a widget.
    """
    controls = []
    kinds = [
        (QPushButton, "button"),
        (QLineEdit, "input"),
        (QComboBox, "combo"),
        (QCheckBox, "checkbox"),
        (QRadioButton, "radio"),
    ]
    for cls, kind in kinds:
        for widget in window.findChildren(cls):
            if not widget.isVisible() or isinstance(widget.parent(), QComboBox):
                continue  # an editable combo box's own line edit is part of the combo
            rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
            checked = None
            if isinstance(widget, QCheckBox | QRadioButton):
                option = QStyleOptionButton()
                widget.initStyleOption(option)
                element = (
                    QStyle.SubElement.SE_CheckBoxIndicator
                    if isinstance(widget, QCheckBox)
                    else QStyle.SubElement.SE_RadioButtonIndicator
                )
                indicator = widget.style().subElementRect(element, option, widget)
                rect = QRect(rect.topLeft() + indicator.topLeft(), indicator.size())
                checked = widget.isChecked()
            text = widget.text() if hasattr(widget, "text") else ""
            controls.append(
                (kind, Box(rect.x(), rect.y(), rect.width(), rect.height()), checked, text)
            )
    for bar in window.findChildren(QTabBar):
        for index in range(bar.count()):
            rect = bar.tabRect(index)
            rect = QRect(bar.mapTo(window, rect.topLeft()), rect.size())
            controls.append(
                (
                    "tab",
                    Box(rect.x(), rect.y(), rect.width(), rect.height()),
                    None,
                    bar.tabText(index),
                )
            )
    return controls


def window_box(widget: QWidget, window: QWidget) -> Box:
    point = widget.mapTo(window, QPoint(0, 0))
    return Box(point.x(), point.y(), widget.width(), widget.height())


def match(expected: Box, widgets: list[Widget]) -> Widget | None:
    best = max(widgets, key=lambda w: w.box.iou(expected), default=None)
    return best if best is not None and best.box.iou(expected) > 0.5 else None


# ---- detection ----------------------------------------------------------------------------


def test_every_control_is_found_with_its_kind_and_state(screen: QWidget) -> None:
    widgets = detect_widgets(grab(screen))
    matched = []
    for kind, box, checked, text in expected_controls(screen):
        found = match(box, widgets)
        assert found is not None, f"{kind} {text!r} at {box} not found"
        assert found.kind == kind, f"{kind} {text!r} detected as {found.kind}"
        if checked is not None:
            assert ("checked" in found.state) == checked, f"{kind} {text!r} checked state"
        matched.append(found)
    extras = [w for w in widgets if w not in matched and w.kind != "container"]
    assert len(extras) <= 2, extras


def test_group_boxes_lists_and_panes_are_containers(app: QApplication) -> None:
    with shown(wizard_window(), None, app) as window:
        containers = [w for w in detect_widgets(grab(window)) if w.kind == "container"]
        for cls in (QGroupBox, QListWidget, QPlainTextEdit):
            for widget in window.findChildren(cls):
                box = window_box(widget, window)
                if cls is QGroupBox:  # Fusion draws the frame below the title
                    box = Box(box.x, box.y + 20, box.w, box.h - 20)
                assert any(c.box.iou(box) > 0.8 for c in containers), (cls.__name__, box)


def test_current_tab_is_marked_selected(app: QApplication) -> None:
    with shown(wizard_window(), None, app) as window:
        tabs = {w.box.x: w for w in detect_widgets(grab(window)) if w.kind == "tab"}
        assert len(tabs) == 3
        first = tabs[min(tabs)]
        assert first.state == {"selected"}
        assert all(not tab.state for tab in tabs.values() if tab is not first)


def test_plain_text_is_not_taken_for_controls(app: QApplication) -> None:
    with shown(text_window(), None, app) as window:
        widgets = detect_widgets(grab(window))
        assert [w for w in widgets if w.kind != "container"] == []


# ---- fusion rules on hand-made boxes -------------------------------------------------------


def text(x: int, y: int, w: int, h: int, value: str) -> TextBox:
    return TextBox(Box(x, y, w, h), value, 0.95)


def one(elements: list[Element], **fields: object) -> Element:
    found = [e for e in elements if all(getattr(e, k) == v for k, v in fields.items())]
    assert len(found) == 1, (fields, elements)
    return found[0]


def test_text_inside_a_button_becomes_the_button() -> None:
    button = Widget(Box(100, 50, 80, 24), "button", 0.8)
    elements = fuse([text(120, 53, 40, 18, "Save")], [button])
    assert elements == [
        Element(
            id=0,
            box=button.box,
            kind="button",
            text="Save",
            source="merged",
            score=0.8,
            interactive=True,
        )
    ]


def test_a_toggle_takes_the_text_on_its_right_and_keeps_its_state() -> None:
    box = Widget(Box(20, 100, 14, 14), "checkbox", 0.85, frozenset({"checked"}))
    radio = Widget(Box(20, 140, 14, 14), "radio", 0.85)
    texts = [
        text(40, 98, 90, 18, "Accept terms"),
        text(40, 139, 50, 18, "Small"),
        text(300, 99, 60, 18, "Elsewhere"),
    ]
    elements = fuse(texts, [box, radio])
    accept = one(elements, text="Accept terms")
    assert (accept.kind, accept.state, accept.source) == ("checkbox", {"checked"}, "merged")
    assert accept.box == Box(20, 98, 110, 18) and accept.interactive
    assert one(elements, text="Small").kind == "radio"
    assert one(elements, text="Elsewhere").kind == "text"
    select_all = Widget(Box(214, 82, 13, 13), "checkbox", 0.85)  # a toolbar's flat button after
    flat = fuse([text(241, 78, 67, 19, "↓ Archive")], [select_all])  # a list's select-all box
    assert one(flat, text="↓ Archive").kind == "text" and one(flat, kind="checkbox").text == ""


def test_a_switch_is_named_by_the_text_beside_it() -> None:
    """A billing switch between "Monthly" and "Yearly" is "Yearly" (on means the right-hand
    word); a settings switch after its label is named by that label."""
    billing = Widget(Box(371, 212, 43, 25), "toggle", 0.8)
    dark = Widget(Box(400, 300, 43, 25), "toggle", 0.8, frozenset({"checked"}))
    texts = [
        text(304, 212, 61, 23, "Monthly"),
        text(418, 216, 51, 17, "Yearly"),
        text(300, 303, 80, 18, "Dark mode"),
    ]
    elements = fuse(texts, [billing, dark])
    assert one(elements, text="Yearly").kind == "toggle"
    assert one(elements, text="Monthly").kind == "text"
    (switch,) = [e for e in elements if e.kind == "toggle" and e.name == "Dark mode"]
    assert switch.state == {"checked"} and switch.box == dark.box


def test_the_toggle_glyph_ocr_read_into_the_label_is_dropped() -> None:
    widgets = [
        Widget(Box(23, 168, 14, 14), "checkbox", 0.85, frozenset({"checked"})),
        Widget(Box(23, 235, 14, 14), "checkbox", 0.85),
        Widget(Box(23, 302, 14, 14), "radio", 0.85),
    ]
    texts = [
        text(20, 165, 105, 21, "✓Accept terms"),
        text(19, 232, 70, 20, "Offers"),
        text(21, 299, 51, 22, "O Free"),
    ]
    assert [e.text for e in fuse(texts, widgets)] == ["Accept terms", "Offers", "Free"]


def test_a_toggles_edge_read_as_a_mark_before_its_label_is_no_flat_buttons_icon() -> None:
    """Chromium's check box at 200 %: OCR's line starts on the box's right edge, read "]"."""
    box = Widget(Box(76, 392, 26, 26), "checkbox", 0.85, frozenset({"checked"}))
    (element,) = fuse([text(95, 388, 196, 35, "] Newsletter")], [box])
    assert (element.kind, element.text, element.state) == ("checkbox", "Newsletter", {"checked"})


def test_an_input_is_named_by_its_label_on_the_left_or_above() -> None:
    widgets = [
        Widget(Box(80, 10, 300, 24), "input", 0.7),
        Widget(Box(80, 40, 300, 24), "input", 0.7),
        Widget(Box(10, 110, 300, 24), "input", 0.7),
        Widget(Box(900, 200, 200, 24), "input", 0.7),
    ]
    texts = [
        text(8, 13, 40, 18, "Name"),
        text(8, 43, 42, 18, "Email"),
        text(86, 43, 120, 18, "ada@example.com"),
        text(10, 88, 60, 18, "Comment"),
        text(300, 203, 50, 18, "Far"),
    ]
    elements = fuse(texts, widgets)
    assert one(elements, kind="input", name="Name").text == ""
    email = one(elements, kind="input", name="Email")
    assert email.text == "ada@example.com" and email.box == widgets[1].box
    assert one(elements, kind="input", name="Comment").box == widgets[2].box
    assert one(elements, kind="input", box=widgets[3].box).name == ""
    assert [e.text for e in elements if e.kind == "text"] == ["Name", "Email", "Comment", "Far"]


def test_containers_stay_and_do_not_swallow_their_texts() -> None:
    group = Widget(Box(10, 40, 600, 300), "container", 0.9)
    elements = fuse([text(30, 60, 80, 18, "Inside"), text(12, 20, 60, 18, "Options")], [group])
    assert [(e.kind, e.text) for e in elements] == [
        ("text", "Options"),
        ("container", ""),
        ("text", "Inside"),
    ]
    assert not one(elements, kind="container").interactive


def test_a_glyph_in_the_middle_of_a_text_or_a_lone_letter_is_not_a_toggle() -> None:
    at_sign = Widget(Box(90, 12, 12, 12), "radio", 0.75, frozenset({"checked"}))
    letter_b = Widget(Box(300, 10, 12, 14), "checkbox", 0.75, frozenset({"checked"}))
    elements = fuse(
        [
            text(50, 8, 140, 20, "ada@example.com"),
            text(299, 8, 15, 18, "B"),
            text(320, 8, 60, 18, "Road"),
        ],
        [at_sign, letter_b],
    )
    assert [(e.kind, e.text) for e in elements] == [
        ("text", "ada@example.com"),
        ("text", "B"),
        ("text", "Road"),
    ]


def test_a_row_of_check_boxes_ocr_read_as_one_line_of_glyphs_keeps_every_box() -> None:
    boxes = [Widget(Box(x, 91, 13, 13), "checkbox", 0.85) for x in (8, 31, 54)]
    elements = fuse([text(3, 86, 67, 21, "□□□")], boxes)
    assert [e.box.x for e in elements if e.kind == "checkbox"] == [8, 31, 54]


def test_reading_order_is_rows_then_left_to_right_despite_jitter() -> None:
    texts = [
        text(300, 103, 50, 18, "third"),
        text(10, 100, 50, 18, "first"),
        text(150, 97, 50, 18, "second"),
        text(10, 130, 50, 18, "next row"),
        text(10, 160, 50, 18, "last"),
    ]
    button = Widget(Box(200, 155, 80, 26), "button", 0.8)
    elements = fuse(texts, [button])
    assert [e.text or e.kind for e in elements] == [
        "first",
        "second",
        "third",
        "next row",
        "last",
        "button",
    ]
    assert [e.id for e in elements] == list(range(len(elements)))


def test_reading_order_keeps_a_dense_column_top_to_bottom() -> None:
    """OCR boxes of a tight list are taller than its line pitch; they must not share a row."""
    items = [text(600, 44 + 14 * i, 50, 20, f"Item {i}") for i in range(3)]
    labels = [text(10, 40, 60, 22, "Name"), text(10, 68, 60, 22, "Email")]
    order = [e.text for e in fuse(items[::-1] + labels, [])]
    assert order.index("Item 0") < order.index("Item 1") < order.index("Item 2")
    assert order.index("Name") < order.index("Email")


# ---- fusion with real OCR ------------------------------------------------------------------


@pytest.fixture(scope="module")
def ocr() -> Callable[..., Any]:
    """RapidOCR as the parser runs it: no angle classifier, quiet."""
    rapidocr = pytest.importorskip("rapidocr")
    return rapidocr.RapidOCR(params={"Global.use_cls": False, "Global.log_level": "error"})


def read_texts(ocr: Callable[..., Any], pixels: np.ndarray) -> list[TextBox]:
    result = ocr(pixels, return_word_box=False)
    if result.boxes is None:
        return []
    texts = []
    for polygon, value, score in zip(result.boxes, result.txts, result.scores, strict=True):
        x0, y0 = np.floor(polygon.min(axis=0)).astype(int)
        x1, y1 = np.ceil(polygon.max(axis=0)).astype(int)
        box = Box(int(x0), int(y0), int(x1 - x0), int(y1 - y0))
        texts.append(TextBox(box, value, float(score)))
    return texts


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_fused_fusion_form_names_every_control(
    app: QApplication, ocr: Callable[..., Any], theme: str
) -> None:
    with shown(form_window(), dark_palette() if theme == "dark" else None, app) as window:
        pixels = grab(window)
        elements = fuse(read_texts(ocr, pixels), detect_widgets(pixels))
        fields = {w.text(): w for w in window.findChildren(QLineEdit)}
        email = one(elements, kind="input", name="Email")
        assert email.text == "ada@example.com"
        assert email.box.iou(window_box(fields["ada@example.com"], window)) > 0.9
        assert one(elements, kind="input", name="Name").text == ""
        combo = one(elements, kind="combo", text="Red")
        assert combo.name == "Colour"
        for label in ("Save", "Cancel"):
            button = next(b for b in window.findChildren(QPushButton) if b.text() == label)
            found = one(elements, kind="button", text=label)
            assert found.box.iou(window_box(button, window)) > 0.9
        toggles = {e.text: e for e in elements if e.kind in ("checkbox", "radio")}
        assert {name: (e.kind, e.state) for name, e in toggles.items()} == {
            "Accept terms": ("checkbox", {"checked"}),
            "Subscribe": ("checkbox", frozenset()),
            "Small": ("radio", frozenset()),
            "Large": ("radio", {"checked"}),
        }
        indicators = {label: box for _, box, _, label in expected_controls(window)}
        for toggle in window.findChildren(QCheckBox) + window.findChildren(QRadioButton):
            merged = toggles[toggle.text()].box
            assert merged.contains(indicators[toggle.text()], slack=2)  # the box to click
            assert window_box(toggle, window).contains(merged, slack=4)  # and its label
        assert one(elements, kind="container").box.contains(toggles["Large"].box)
        assert one(elements, kind="text", text="Options")
        assert [e.id for e in elements] == list(range(len(elements)))


def test_fused_web_style_form(app: QApplication, ocr: Callable[..., Any], tick: str) -> None:
    with shown(styled_window(WEB_CSS, tick), None, app) as window:
        pixels = grab(window)
        elements = fuse(read_texts(ocr, pixels), detect_widgets(pixels))
        assert one(elements, kind="input", name="Full name").text == "Ada Lovelace"
        assert one(elements, kind="input", name="Email address").text == ""
        assert one(elements, kind="button", text="Create account").interactive
        assert one(elements, kind="checkbox", text="Remember me").state == {"checked"}
        assert one(elements, kind="radio", text="Monthly").state == {"checked"}
        assert one(elements, kind="radio", text="Yearly").state == frozenset()


def test_ocr_reading_of_a_radio_glyph_is_not_its_label():
    radio = Widget(Box(593, 146, 14, 14), "radio", 0.8, frozenset({"checked"}))
    texts = [
        TextBox(Box(593, 143, 15, 22), "●", 0.33),
        TextBox(Box(614, 143, 30, 22), "Free", 0.99),
    ]
    (element,) = fuse(texts, [radio])
    assert (element.kind, element.text, element.state) == ("radio", "Free", frozenset({"checked"}))


def test_stacked_texts_in_one_field_are_separate_list_rows():
    field = Widget(Box(200, 100, 300, 60), "input", 0.9)
    texts = [
        TextBox(Box(205, 102, 40, 18), "Red", 0.99),
        TextBox(Box(205, 122, 50, 18), "Green", 0.99),
        TextBox(Box(205, 142, 45, 18), "Blue", 0.99),
    ]
    elements = fuse(texts, [field])
    rows = [e for e in elements if e.kind == "list_item"]
    assert [e.text for e in rows] == ["Red", "Green", "Blue"]
    assert all(e.box.x == 200 and e.box.w == 300 and e.interactive for e in rows)
    assert [e.kind for e in elements if e.kind == "container"] == ["container"]


def test_texts_in_a_menu_bar_are_menus_to_click():
    bar = Widget(Box(40, 40, 900, 22), "input", 0.75)
    texts = [
        TextBox(Box(49, 35, 25, 27), "File", 0.96),
        TextBox(Box(90, 35, 29, 28), "Edit", 1.0),
        TextBox(Box(300, 200, 80, 20), "Customer", 1.0),
    ]
    kinds = {e.text: (e.kind, e.interactive) for e in fuse(texts, [bar])}
    assert kinds == {
        "File": ("menu", True),
        "Edit": ("menu", True),
        "": ("container", False),
        "Customer": ("text", False),
    }


def test_controls_cut_by_the_frames_edges_are_found_and_never_stop_the_detector() -> None:
    """A page scrolled so a row of buttons sits on the frame's last lines (or its first):
    the boxes there are still read, and the rest of the screen's controls with them."""
    pixels = np.full((120, 400, 3), 255, np.uint8)
    for y in (0, 45, 89):  # the last one's frame is the frame's last line
        pixels[y, 20:181] = pixels[y + 30, 20:181] = 170
        pixels[y : y + 31, 20] = pixels[y : y + 31, 180] = 170
        pixels[y + 12 : y + 19, 70:130] = 40  # a label in its middle
    found = detect_widgets(pixels)
    assert sum(w.kind == "button" for w in found) == 3, found


@pytest.mark.parametrize("scale", [1, 2])
def test_an_empty_text_area_is_a_field_by_its_resize_grip_at_either_device_scale(scale):
    """A browser's text area: a thin frame (2 px at scale 2) with two diagonal strokes in its
    bottom-right corner, tall and empty enough to pass for a card without them."""
    pixels = np.full((300, 800, 3), 255, np.uint8)
    x, y, w, h = 40, 60, 340 * scale, 56 * scale
    pixels[y : y + h, x : x + w] = 118
    pixels[y + scale : y + h - scale, x + scale : x + w - scale] = 255
    right, bottom = x + w - 2 * scale, y + h - 2 * scale
    for length in (4 * scale, 8 * scale):  # the grip's two strokes
        for i in range(length):
            pixels[
                bottom - i - scale : bottom - i, right - length + i : right - length + i + scale
            ] = 102
    found = [d for d in detect_widgets(pixels) if d.box.w > 200]
    assert found and found[0].kind == "input" and "multiline" in found[0].state


def test_a_sliders_whole_track_is_found_from_its_filled_part():
    import cv2

    from clickwright.parsers.widgets import slider_track

    page = np.full((80, 400, 3), 255, np.uint8)
    page[38:42, 30:140] = (13, 148, 136)  # the filled part, in the accent colour
    page[38:42, 140:330] = (213, 218, 227)  # the rest of the track, pale
    cv2.circle(page, (140, 40), 9, (255, 255, 255), -1)  # the knob: white inside, ringed
    cv2.circle(page, (140, 40), 9, (13, 148, 136), 2)
    page[38:42, 360:380] = (90, 90, 90)  # something else further along the row
    found = slider_track(page, Box(30, 35, 100, 11))
    assert (found.x, found.right) == (30, 330)
    assert slider_track(page, Box(200, 35, 40, 11)) == Box(30, 35, 300, 11)  # the pale part


def _dots(pixels: np.ndarray, x: int, y: int, size: int, gap: int, upright: bool = False) -> None:
    for i in range(3):
        dx, dy = (0, i * (size + gap)) if upright else (i * (size + gap), 0)
        pixels[y + dy : y + dy + size, x + dx : x + dx + size] = 120


def test_three_dots_are_a_more_menu_and_a_dotted_rule_or_a_word_is_not() -> None:
    """A card's "…" and a "⋮", faint and apart (their edges join only across the gap), or
    touching as a feed's tiny image draws them; four dots are a rule, dots after a word its
    ellipsis."""
    pixels = np.full((200, 400, 3), 255, np.uint8)
    _dots(pixels, 40, 40, 4, 4)  # "…" with 4 px between
    _dots(pixels, 120, 30, 3, 1)  # a 3 px "…" drawn almost touching
    _dots(pixels, 200, 30, 4, 3, upright=True)  # "⋮"
    for i in range(4):  # a dotted rule
        pixels[120:124, 40 + 8 * i : 44 + 8 * i] = 120
    pixels[160:172, 200:260] = 40  # a word's ink, then its ellipsis right after it
    _dots(pixels, 262, 168, 3, 2)
    menus = sorted(w.box.center for w in detect_widgets(pixels) if w.name == "more")
    assert len(menus) == 3, menus
    assert [abs(c[0] - x) <= 2 and abs(c[1] - y) <= 2 for c, (x, y) in
            zip(menus, [(50, 42), (125, 31), (202, 41)], strict=True)] == [True] * 3  # fmt: skip


def test_a_flat_coloured_dot_is_no_radio_but_a_filled_radio_with_its_dot_is() -> None:
    """A mail row's orange dot is one flat colour; a checked GTK radio is an accent disc with
    a white dot in it."""
    import cv2

    pixels = np.full((80, 200, 3), 255, np.uint8)
    cv2.circle(pixels, (40, 40), 6, (240, 150, 20), -1, cv2.LINE_AA)  # the mail's orange dot
    cv2.circle(pixels, (140, 40), 7, (53, 132, 228), -1, cv2.LINE_AA)  # a checked radio
    cv2.circle(pixels, (140, 40), 2, (255, 255, 255), -1, cv2.LINE_AA)
    toggles = [w for w in detect_widgets(pixels) if w.kind in ("radio", "checkbox")]
    assert [abs(w.box.center[0] - 140) <= 2 for w in toggles] == [True], toggles
