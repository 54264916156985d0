"""Labelled screens for the parser benchmark (`parser.py`), generated here, never committed.

Two kinds, each as `<name>.png` plus `<name>.json` holding the ground truth from the toolkit
that drew the pixels, so nothing is labelled by hand:

* **Qt**: real PySide6 windows (the sample app on both tabs, a settings dialog, a file table,
  a toolbar of Qt's standard icons, a login form) drawn offscreen with the Fusion style; every
  visible widget's text and geometry comes from Qt (`qt_truth`). Screens with a line edit also
  get `<name>.edited.png`: the same window with one field one character longer, to time the
  re-parse after a small change.
* **Web**: local HTML pages drawn by Debian's headless Chromium. Each page runs `TRUTH_JS`,
  which measures every text node (through a Range) and control with `getBoundingClientRect`
  and writes them into the DOM; a second Chromium run with `--dump-dom` at the same width and
  scale reads them back. The pages avoid viewport-height units because the two runs' viewport
  heights differ.

The JSON: `{"name", "source": "qt"|"web", "app", "theme", "scale", "size": [w, h],
"texts": [{"text", "box"}], "controls": [{"kind", "box", "text", "name"}], "edited": file|null}`
with boxes `[x, y, w, h]` in screenshot pixels; `name` is an icon's name for icon-only buttons.

    .venv/bin/python benchmarks/screens.py [--out benchmarks/.screens]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import (  # noqa: E402 - after choosing the platform
    QPoint,
    QRect,
    QSize,
    Qt,
    qInstallMessageHandler,
)
from PySide6.QtGui import QColor, QFont, QImage, QPalette  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QMenuBar,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSlider,
    QSpinBox,
    QStyle,
    QStyleOptionButton,
    QStyleOptionGroupBox,
    QTabBar,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from clickwright.assets.sample_app import (  # noqa: E402
    INITIAL_FORM,
    ButtonPicture,
    SampleWindow,
    configure_app,
)

DEFAULT_OUT = Path(__file__).resolve().parent / ".screens"
SIZES = ((1280, 800), (1920, 1080))
SCALES = (1.0, 1.5)
BASE_FONT_PX = 14  # the sample app's font size; scale 1.5 draws text at 21 px
ICON_PROPERTY = "icon_name"  # dynamic property holding a tool button's ground-truth icon name
Json = dict[str, object]


# ---- Qt windows ---------------------------------------------------------------------------


def dark_palette() -> QPalette:
    """A complete dark Fusion palette (every role the widgets here paint with)."""
    window, base, text = QColor(53, 53, 53), QColor(35, 35, 35), QColor(240, 240, 240)
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: window,
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.PlaceholderText: QColor(150, 150, 150),
        QPalette.ColorRole.Button: QColor(69, 69, 69),
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor(255, 80, 80),
        QPalette.ColorRole.Light: QColor(90, 90, 90),
        QPalette.ColorRole.Midlight: QColor(75, 75, 75),
        QPalette.ColorRole.Mid: QColor(45, 45, 45),
        QPalette.ColorRole.Dark: QColor(30, 30, 30),
        QPalette.ColorRole.Shadow: QColor(10, 10, 10),
        QPalette.ColorRole.Highlight: QColor(42, 130, 218),
        QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.Link: QColor(90, 170, 255),
    }
    for role, colour in roles.items():
        palette.setColor(role, colour)
    return palette


def style_app(app: QApplication, dark: bool, scale: float) -> None:
    """The sample app's look (Fusion, DejaVu Sans), in the theme and font scale asked for."""
    configure_app(app)
    if dark:
        app.setPalette(dark_palette())
    font = QFont("DejaVu Sans")
    font.setPixelSize(round(BASE_FONT_PX * scale))
    app.setFont(font)


def sample_window(tab: int) -> QWidget:
    """The project's sample app, filled in, on tab `tab`."""
    window = SampleWindow(state_out=Path(tempfile.gettempdir()) / "cw-bench-state.json")
    window.set_form(
        {
            **INITIAL_FORM,
            "name": "Ada Lovelace",
            "email": "ada@example.com",
            "phone": "+44 20 7946 0958",
            "country": "Canada",
            "plan": "Pro",
            "subscribe": True,
            "favourite_colour": "Blue",
            "notes": "Call back on Monday",
        }
    )
    window.tabs.setCurrentIndex(tab)
    return window


def settings_dialog() -> QWidget:
    """A preferences dialog: tabs, a form of mixed fields, check boxes, OK/Cancel/Apply."""
    root = QWidget()
    layout = QVBoxLayout(root)
    tabs = QTabWidget()
    page = QWidget()
    grid = QGridLayout(page)
    form_box = QGroupBox("Account")
    form = QFormLayout(form_box)
    form.addRow("Display name:", QLineEdit("Grace Hopper"))
    form.addRow("Email address:", QLineEdit("grace@navy.mil"))
    language = QComboBox()
    language.addItems(["English (UK)", "Deutsch", "Français"])
    form.addRow("Language:", language)
    spin = QSpinBox()
    spin.setValue(15)
    form.addRow("Autosave (min):", spin)
    grid.addWidget(form_box, 0, 0)
    privacy = QGroupBox("Privacy")
    column = QVBoxLayout(privacy)
    for text, checked in (
        ("Send usage statistics", False),
        ("Remember recent files", True),
        ("Show notifications", True),
        ("Check for updates", False),
    ):
        box = QCheckBox(text)
        box.setChecked(checked)
        column.addWidget(box)
    grid.addWidget(privacy, 0, 1)
    theme = QGroupBox("Appearance")
    row = QVBoxLayout(theme)
    for index, text in enumerate(("Light theme", "Dark theme", "Follow system")):
        radio = QRadioButton(text)
        radio.setChecked(index == 2)
        row.addWidget(radio)
    row.addWidget(QLabel("Font size"))
    row.addWidget(QSlider(Qt.Orientation.Horizontal))
    grid.addWidget(theme, 1, 0)
    grid.setRowStretch(2, 1)
    tabs.addTab(page, "General")
    for name in ("Editor", "Network", "Advanced"):
        tabs.addTab(QWidget(), name)
    layout.addWidget(tabs)
    buttons = QDialogButtonBox()
    for text in ("OK", "Cancel", "Apply"):
        buttons.addButton(QPushButton(text), QDialogButtonBox.ButtonRole.ActionRole)
    layout.addWidget(buttons)
    return root


FILES = [
    ("Annual report 2024.pdf", "2.4 MB", "PDF document", "2024-03-12 09:14"),
    ("Budget.xlsx", "88 KB", "Spreadsheet", "2024-02-28 17:40"),
    ("Holiday photos", "", "Folder", "2023-08-19 11:02"),
    ("Meeting notes.txt", "4 KB", "Text file", "2024-04-02 14:55"),
    ("Invoice 1042.pdf", "156 KB", "PDF document", "2024-01-15 08:30"),
    ("Presentation.odp", "5.1 MB", "Presentation", "2024-03-30 16:21"),
    ("Contacts.csv", "12 KB", "CSV file", "2023-12-01 10:05"),
    ("Project plan.docx", "240 KB", "Document", "2024-04-10 13:47"),
    ("Screenshots", "", "Folder", "2024-04-11 19:12"),
    ("backup.tar.gz", "1.2 GB", "Archive", "2023-11-23 22:08"),
]


def file_table() -> QWidget:
    """A file manager: path and filter fields, a dense table of files, action buttons."""
    root = QMainWindow()
    menus = root.menuBar()
    for name in ("File", "Edit", "View", "Go", "Help"):
        menus.addMenu(name)
    body = QWidget()
    layout = QVBoxLayout(body)
    top = QHBoxLayout()
    top.addWidget(QLabel("Location:"))
    top.addWidget(QLineEdit("/home/ada/Documents"), 3)
    top.addWidget(QLabel("Filter:"))
    top.addWidget(QLineEdit("report"), 1)
    layout.addLayout(top)
    table = QTableWidget(40, 4)
    table.verticalHeader().hide()
    table.setHorizontalHeaderLabels(["Name", "Size", "Type", "Modified"])
    for row in range(40):
        name, size, kind, date = FILES[row % len(FILES)]
        if row >= len(FILES):
            stem, dot, ext = name.partition(".")
            name = f"{stem} ({row // len(FILES)}){dot}{ext}"
        for column, text in enumerate((name, size, kind, date)):
            table.setItem(row, column, QTableWidgetItem(text))
    table.resizeColumnsToContents()
    table.horizontalHeader().setStretchLastSection(True)
    layout.addWidget(table)
    bottom = QHBoxLayout()
    bottom.addWidget(QLabel("40 items, 9.3 GB free"), 1)
    for text in ("New Folder", "Open", "Delete"):
        bottom.addWidget(QPushButton(text))
    layout.addLayout(bottom)
    root.setCentralWidget(body)
    return root


# Qt's standard pixmaps with the icon library's name for what they show (as in icons.py).
SP = QStyle.StandardPixmap
STANDARD_ICONS = {
    "back": SP.SP_ArrowBack,
    "forward": SP.SP_ArrowForward,
    "arrow-up": SP.SP_ArrowUp,
    "refresh": SP.SP_BrowserReload,
    "folder": SP.SP_DirIcon,
    "file": SP.SP_FileIcon,
    "save": SP.SP_DialogSaveButton,
    "delete": SP.SP_TrashIcon,
    "close": SP.SP_DialogCloseButton,
    "play": SP.SP_MediaPlay,
    "pause": SP.SP_MediaPause,
    "stop": SP.SP_MediaStop,
    "skip-next": SP.SP_MediaSkipForward,
    "volume": SP.SP_MediaVolume,
    "info": SP.SP_MessageBoxInformation,
    "warning": SP.SP_MessageBoxWarning,
    "help": SP.SP_MessageBoxQuestion,
}


def toolbar_window(scale: float) -> QWidget:
    """A media library: a toolbar of icon-only QToolButtons, a search field, a list, notes."""
    root = QMainWindow()
    bar = QToolBar()
    side = round(24 * scale)
    bar.setIconSize(QSize(side, side))
    for name, pixmap in STANDARD_ICONS.items():
        button = QToolButton()
        button.setIcon(root.style().standardIcon(pixmap))
        button.setAutoRaise(True)
        button.setProperty(ICON_PROPERTY, name)
        bar.addWidget(button)
    bar.addSeparator()
    bar.addWidget(QLabel(" Search: "))
    bar.addWidget(QLineEdit("jazz"))
    root.addToolBar(bar)
    body = QWidget()
    layout = QHBoxLayout(body)
    tracks = QListWidget()
    tracks.addItems(
        [
            "So What - Miles Davis",
            "Take Five - Dave Brubeck",
            "Blue in Green - Bill Evans",
            "Naima - John Coltrane",
            "Round Midnight - Thelonious Monk",
            "Strange Fruit - Billie Holiday",
            "Summertime - Ella Fitzgerald",
            "Autumn Leaves - Cannonball Adderley",
        ]
    )
    tracks.setCurrentRow(1)
    layout.addWidget(tracks, 2)
    details = QGroupBox("Now playing")
    form = QFormLayout(details)
    form.addRow("Title:", QLabel("Take Five"))
    form.addRow("Artist:", QLabel("Dave Brubeck Quartet"))
    form.addRow("Album:", QLabel("Time Out"))
    form.addRow("Rating:", QComboBox())
    layout.addWidget(details, 1)
    root.setCentralWidget(body)
    return root


def login_form() -> QWidget:
    """A sign-in box in the middle of an empty window."""
    root = QWidget()
    outer = QVBoxLayout(root)
    outer.addStretch()
    box = QGroupBox("Sign in to Clickwright Cloud")
    form = QFormLayout(box)
    form.addRow("Username:", QLineEdit("ada.lovelace"))
    password = QLineEdit("analytical")
    password.setEchoMode(QLineEdit.EchoMode.Password)
    form.addRow("Password:", password)
    server = QComboBox()
    server.addItems(["eu.clickwright.example", "us.clickwright.example"])
    form.addRow("Server:", server)
    form.addRow("", QCheckBox("Keep me signed in"))
    buttons = QHBoxLayout()
    buttons.addWidget(QPushButton("Forgot password?"))
    buttons.addStretch()
    buttons.addWidget(QPushButton("Cancel"))
    buttons.addWidget(QPushButton("Sign in"))
    form.addRow(buttons)
    middle = QHBoxLayout()
    middle.addStretch()
    middle.addWidget(box)
    middle.addStretch()
    outer.addLayout(middle)
    outer.addStretch()
    outer.addWidget(QLabel("Version 2.4.1 - Connected to eu.clickwright.example"))
    return root


QT_APPS: dict[str, Callable[[float], QWidget]] = {
    "sample-general": lambda scale: sample_window(0),
    "sample-advanced": lambda scale: sample_window(1),
    "settings": lambda scale: settings_dialog(),
    "files": lambda scale: file_table(),
    "toolbar": toolbar_window,
    "login": lambda scale: login_form(),
}


def to_rgb(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    array = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return array[:, : image.width() * 3].reshape(image.height(), image.width(), 3).copy()


def grab(window: QWidget, size: tuple[int, int]) -> np.ndarray:
    """The window's pixels cut to the screen size (a window whose minimum size is larger than
    the screen runs off its edge, as it would on a real monitor)."""
    QApplication.processEvents()
    return to_rgb(window.grab().toImage())[: size[1], : size[0]]


def render_qt(app: QApplication, name: str, dark: bool, scale: float, size: tuple[int, int]):
    """(pixels, edited pixels or None, ground truth) of one Qt window filling the screen."""
    style_app(app, dark, scale)
    window = QT_APPS[name](scale)
    window.resize(*size)
    window.show()
    pixels = grab(window, size)
    texts, controls = qt_truth(window, size)
    edited = grab(window, size) if edit_one_field(window) else None
    window.close()
    window.deleteLater()
    QApplication.processEvents()
    return pixels, edited, {"texts": texts, "controls": controls}


def edit_one_field(window: QWidget) -> bool:
    """Type one more character into the first filled, visible plain line edit."""
    for edit in window.findChildren(QLineEdit):
        if (
            edit.isVisibleTo(window)
            and edit.text()
            and edit.echoMode() == QLineEdit.EchoMode.Normal
            and not isinstance(edit.parent(), QAbstractSpinBox | QComboBox)
        ):
            edit.setText(edit.text() + "s")
            return True
    return False


def qt_truth(window: QWidget, size: tuple[int, int]) -> tuple[list[Json], list[Json]]:
    """Every visible text and control of the window, with boxes in window pixels."""
    bounds = QRect(0, 0, *size)
    texts: list[Json] = []
    controls: list[Json] = []

    def place(widget: QWidget, rect: QRect) -> list[int] | None:
        box = rect.translated(widget.mapTo(window, QPoint(0, 0)))
        return [box.x(), box.y(), box.width(), box.height()] if bounds.contains(box) else None

    def text(widget: QWidget, rect: QRect, value: str) -> None:
        box = place(widget, rect)
        if box and value.strip():
            texts.append({"text": value, "box": box})

    def control(widget: QWidget, rect: QRect, kind: str, value: str = "", name: str = "") -> None:
        box = place(widget, rect)
        if box:
            controls.append({"kind": kind, "box": box, "text": value, "name": name})

    for widget in window.findChildren(QWidget):
        if widget.isVisibleTo(window) and widget.window() is window:
            _widget_truth(widget, text, control)
    return texts, controls


def _widget_truth(widget: QWidget, text: Callable, control: Callable) -> None:
    """Report one widget's texts and controls through `text(widget, rect, value)` and
    `control(widget, rect, kind, value, name)`."""
    rect = widget.rect()
    if isinstance(widget, QTabBar):
        for index in range(widget.count()):
            label = plain(widget.tabText(index))
            text(widget, widget.tabRect(index), label)
            control(widget, widget.tabRect(index), "tab", label)
    elif isinstance(widget, QMenuBar):
        for action in widget.actions():
            label = plain(action.text())
            text(widget, widget.actionGeometry(action), label)
            control(widget, widget.actionGeometry(action), "menu", label)
    elif isinstance(widget, QToolButton):
        name = widget.property(ICON_PROPERTY)
        if name:
            control(widget, rect, "icon", "", name)
    elif isinstance(widget, QCheckBox | QRadioButton):
        label = plain(widget.text())
        indicator, label_rect = toggle_rects(widget)
        text(widget, label_rect, label)
        kind = "checkbox" if isinstance(widget, QCheckBox) else "radio"
        control(widget, indicator.united(label_rect), kind, label)
    elif isinstance(widget, QAbstractButton):
        text(widget, rect, plain(widget.text()))
        control(widget, rect, "button", plain(widget.text()))
    elif isinstance(widget, QLabel):
        label = plain(widget.text())
        drawn = rect if isinstance(widget, ButtonPicture) else label_rect_of(widget)
        text(widget, drawn, label)
    elif isinstance(widget, QLineEdit) and not isinstance(
        widget.parent(), QAbstractSpinBox | QComboBox
    ):
        shown = widget.text() if widget.echoMode() == QLineEdit.EchoMode.Normal else ""
        text(widget, rect, shown or widget.placeholderText())
        control(widget, rect, "input", shown)
    elif isinstance(widget, QAbstractSpinBox):
        text(widget, rect, widget.text())
        control(widget, rect, "input", widget.text())
    elif isinstance(widget, QComboBox):
        text(widget, rect, widget.currentText())
        control(widget, rect, "combo", widget.currentText())
    elif isinstance(widget, QPlainTextEdit):
        text(widget.viewport(), line_rect(widget), widget.toPlainText())
        control(widget, rect, "input", widget.toPlainText())
    elif isinstance(widget, QGroupBox):
        option = QStyleOptionGroupBox()
        widget.initStyleOption(option)
        title = widget.style().subControlRect(
            QStyle.ComplexControl.CC_GroupBox, option, QStyle.SubControl.SC_GroupBoxLabel, widget
        )
        text(widget, title, plain(widget.title()))
    elif isinstance(widget, QListWidget):
        for row in range(widget.count()):
            item_rect = widget.visualItemRect(widget.item(row))
            if widget.viewport().rect().contains(item_rect):
                text(widget.viewport(), item_rect, widget.item(row).text())
                control(widget.viewport(), item_rect, "list_item", widget.item(row).text())
    elif isinstance(widget, QTableWidget):
        _table_truth(widget, text)


def _table_truth(table: QTableWidget, text: Callable) -> None:
    """Header and cell texts of the visible part of a table (cells are text, not controls)."""
    header, viewport = table.horizontalHeader(), table.viewport()
    for column in range(table.columnCount()):
        section = QRect(header.sectionViewportPosition(column), 0, header.sectionSize(column), 0)
        section.setHeight(header.height())
        if section.right() >= header.width():
            continue
        text(header, section, table.horizontalHeaderItem(column).text())
        for row in range(table.rowCount()):
            cell = table.visualItemRect(table.item(row, column))
            if viewport.rect().contains(cell):
                text(viewport, cell, table.item(row, column).text())


def plain(label: str) -> str:
    """A widget text as drawn: mnemonic ampersands gone, the shortcut after a tab dropped."""
    return re.sub(r"&(.)", r"\1", label.split("\t")[0])


def label_rect_of(label: QLabel) -> QRect:
    """Where a plain-text label's text is drawn inside it (labels stretch wider than text)."""
    return label.style().itemTextRect(
        label.fontMetrics(), label.contentsRect(), label.alignment(), True, plain(label.text())
    )


def toggle_rects(button: QCheckBox | QRadioButton) -> tuple[QRect, QRect]:
    """The indicator's and the label text's rects of a check box or radio button."""
    option = QStyleOptionButton()
    button.initStyleOption(option)
    element = QStyle.SubElement
    if isinstance(button, QCheckBox):
        indicator, contents = element.SE_CheckBoxIndicator, element.SE_CheckBoxContents
    else:
        indicator, contents = element.SE_RadioButtonIndicator, element.SE_RadioButtonContents
    style = button.style()
    drawn = style.itemTextRect(
        button.fontMetrics(),
        style.subElementRect(contents, option, button),
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        True,
        plain(button.text()),
    )
    return style.subElementRect(indicator, option, button), drawn


def line_rect(edit: QPlainTextEdit) -> QRect:
    """The first line of a plain text edit, in its viewport (the only line these screens use)."""
    block = edit.blockBoundingGeometry(edit.document().firstBlock())
    block = block.translated(edit.contentOffset()).toRect()
    width = edit.fontMetrics().horizontalAdvance(edit.toPlainText()) + 8
    return QRect(block.x(), block.y(), width, block.height())


# ---- web pages ----------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
)

TRUTH_JS = """
addEventListener('load', () => {
  const ROLES = {button: 'button', link: 'link', tab: 'tab', checkbox: 'checkbox',
    radio: 'radio', switch: 'toggle', menuitem: 'menuitem', combobox: 'combo',
    textbox: 'input', searchbox: 'input', option: 'list_item', row: 'list_item',
    slider: 'input', spinbutton: 'input'};
  const INPUTS = {checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button',
    reset: 'button'};
  const kindOf = e => {
    if (e.getAttribute('role')) return ROLES[e.getAttribute('role')];
    if (e.dataset.icon) return 'icon';
    const tag = e.tagName.toLowerCase();
    if (tag === 'input') return INPUTS[e.type] || 'input';
    return {a: 'link', button: 'button', select: 'combo', textarea: 'input'}[tag];
  };
  const box = r => [r.left, r.top, r.width, r.height];
  const shown = r => r.width > 0 && r.height > 0;
  const texts = [], controls = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode()); ) {
    const value = node.textContent.replace(/\\s+/g, ' ').trim();
    if (!value || node.parentElement.closest('script,style,select,option,[data-icon]')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = range.getBoundingClientRect();
    if (shown(rect)) texts.push({text: value, box: box(rect)});
  }
  for (const e of document.querySelectorAll('input,button,select,textarea,a,[role]')) {
    // a check box or radio is clicked through the label round it: that is its box
    const rect = (e.closest('label') || e).getBoundingClientRect(), kind = kindOf(e);
    if (!kind || !shown(rect)) continue;
    let value = (e.innerText || '').trim();
    if (e.matches('select')) value = e.options[e.selectedIndex].text;
    else if (e.matches('input[type=password]')) value = '';
    else if (e.matches('textarea,input:not([type=checkbox],[type=radio])'))
      value = e.value || e.placeholder;
    if (e.matches('input:not([type=checkbox],[type=radio],[type=range]),select,textarea')
        && value)  // a range input draws no value
      texts.push({text: value, box: box(rect)});
    controls.push({kind, box: box(rect), text: e.dataset.icon ? '' : value,
      name: e.dataset.icon || ''});
  }
  const out = document.createElement('script');
  out.type = 'application/json';
  out.id = 'truth';
  out.textContent = JSON.stringify({texts, controls});
  document.body.appendChild(out);
});
"""

BASE_CSS = """
body { font: 15px "DejaVu Sans", sans-serif; margin: 0; padding: 16px 24px; color: #1d1d1f;
  background: #fff; }
input, select, button, textarea { font: inherit; }
input, select { padding: 5px 8px; border: 1px solid #999; border-radius: 4px; }
button { padding: 6px 14px; border: 1px solid #777; border-radius: 4px; background: #f2f2f2; }
.name { display: inline-block; min-width: 140px; }
.row { margin: 12px 0; }
.primary { background: #1a73e8; color: #fff; border-color: #1a73e8; }
.icon { font-size: 20px; padding: 4px 9px; min-width: 38px; }
.material { font-family: "Material Icons"; font-size: 22px; padding: 3px 8px; }
nav a { margin-right: 22px; color: #1a0dab; }
table { border-collapse: collapse; margin-top: 12px; }
td, th { border: 1px solid #ccc; padding: 5px 14px; text-align: left; }
"""

PAGES: dict[str, tuple[str, str]] = {
    "web-form": (
        "light",
        """<h2>Create your account</h2>
<div class="row"><label class="name" for="n">Full name</label>
<input id="n" value="Grace Hopper"></div>
<div class="row"><label class="name" for="e">Email</label>
<input id="e" placeholder="you@example.com"></div>
<div class="row"><label class="name" for="p">Password</label>
<input id="p" type="password" value="secret"></div>
<div class="row"><label class="name" for="c">Country</label><select id="c"><option>Norway</option>
<option>Peru</option></select></div>
<div class="row"><span class="name">Plan</span>
<label><input type="radio" name="plan" checked>Basic</label>
<label><input type="radio" name="plan">Premium</label></div>
<div class="row"><label><input type="checkbox">I agree to the terms of service</label></div>
<div class="row"><textarea rows="3" cols="40" placeholder="Anything else?"></textarea></div>
<div class="row"><button class="primary">Create account</button> <button>Cancel</button></div>""",
    ),
    "web-nav": (
        "light",
        """<nav><a href="#">Home</a><a href="#">Products</a><a href="#">Pricing</a>
<a href="#">Documentation</a><a href="#">Blog</a><a href="#">Contact</a></nav>
<h1>Automate any desktop</h1>
<p>Describe the task in words and watch it happen.</p>
<p><button class="primary">Start free trial</button> <button>Book a demo</button></p>
<h3>Latest news</h3>
<p><a href="#">Version 2.4 released</a></p><p><a href="#">Android support is here</a></p>
<p><a href="#">Case study: nightly regression tests</a></p>
<p>Copyright 2024 Clickwright Ltd.</p>""",
    ),
    "web-search": (
        "light",
        """<div class="row"><input size="50" value="offline screen parser">
<button class="material" data-icon="search" aria-label="Search">search</button>
<button class="material" data-icon="settings" aria-label="Settings">settings</button></div>
<p>About 1,240 results</p>
<p><a href="#">Screen parsing with OCR and OpenCV</a></p><p>Detect buttons and fields.</p>
<p><a href="#">Fusing accessibility trees with pixels</a></p><p>When the tree is missing.</p>
<p><a href="#">Set-of-marks prompting for agents</a></p><p>Numbered boxes on a frame.</p>
<p><a href="#">Benchmarking text recall on GUIs</a></p><p>Labelled screens for free.</p>
<p><button>Previous</button> <button>Next</button></p>""",
    ),
    "web-table": (
        "light",
        """<h2>Orders</h2><div class="row"><input placeholder="Filter orders">
<button>Export CSV</button></div><table><tr><th>Order</th><th>Customer</th><th>Total</th>
<th>Status</th></tr>"""
        + "".join(
            f"<tr><td>#{1040 + i}</td><td>{c}</td><td>{t}</td><td>{s}</td></tr>"
            for i, (c, t, s) in enumerate(
                [
                    ("Ada Lovelace", "120.00", "Shipped"),
                    ("Alan Turing", "89.50", "Pending"),
                    ("Grace Hopper", "230.10", "Delivered"),
                    ("Linus Torvalds", "15.99", "Cancelled"),
                    ("Barbara Liskov", "342.00", "Shipped"),
                    ("Dennis Ritchie", "77.25", "Pending"),
                    ("Margaret Hamilton", "410.00", "Delivered"),
                    ("Ken Thompson", "58.40", "Shipped"),
                ]
            )
        )
        + "</table>",
    ),
    "web-dark": (
        "dark",
        """<style>body { background: #1e1f22; color: #e8e8e8; }
button { background: #3a3b3f; color: #e8e8e8; border-color: #5a5b5f; }
input, select { background: #2b2d31; color: #e8e8e8; border-color: #5a5b5f; }</style>
<h2>Notification settings</h2>
<div class="row"><label class="name">Display name</label><input value="hedy.lamarr"></div>
<div class="row"><label class="name">Digest</label><select><option>Daily</option></select></div>
<div class="row"><label><input type="checkbox" checked>Email me about mentions</label></div>
<div class="row"><label><input type="checkbox">Weekly product updates</label></div>
<div class="row"><span role="switch" tabindex="0">Do not disturb</span></div>
<div class="row"><button class="primary">Save changes</button> <button>Reset</button></div>""",
    ),
    "web-icons": (
        "light",
        """<div class="row">"""
        + "".join(
            f'<button class="icon" data-icon="{name}" aria-label="{name}">{glyph}</button> '
            for name, glyph in (
                ("menu", "☰"),
                ("back", "←"),
                ("forward", "→"),
                ("home", "⌂"),
                ("add", "+"),
                ("edit", "✎"),
                ("close", "✕"),
                ("check", "✓"),
                ("star", "★"),
                ("heart", "♥"),
                ("settings", "⚙"),
                ("warning", "⚠"),
                ("mail", "✉"),
                ("phone", "☎"),
                ("play", "▶"),
                ("more", "⋮"),
            )
        )
        + """</div><h3>Inbox</h3><p>Three unread messages</p>
<p><a href="#">Quarterly numbers are in</a></p><p><a href="#">Lunch on Friday?</a></p>
<p><a href="#">Your invoice is ready</a></p>""",
    ),
}


SVG = {  # 16 px icons drawn in the page, for icon buttons inside rows
    "delete": '<path d="M3 4h10M6 4V2h4v2M4 4l1 10h6l1-10" fill="none" stroke="#555"/>',
    "star": '<path d="M8 1l2 5h5l-4 3 2 6-5-4-5 4 2-6-4-3h5z" fill="none" stroke="#555"/>',
    "share": '<circle cx="4" cy="8" r="2" fill="#555"/><circle cx="12" cy="3" r="2" '
    'fill="#555"/><circle cx="12" cy="13" r="2" fill="#555"/><path d="M4 8L12 3M4 8l8 5" '
    'stroke="#555"/>',
    "edit": '<path d="M2 14l1-4 8-8 3 3-8 8zM10 3l3 3" fill="none" stroke="#555"/>',
    "close": '<path d="M3 3l10 10M13 3L3 13" stroke="#555" stroke-width="1.5"/>',
    "settings": '<circle cx="8" cy="8" r="2.5" fill="none" stroke="#555"/><path d="M8 1v3M8 '
    '12v3M1 8h3M12 8h3M3 3l2 2M11 11l2 2M13 3l-2 2M5 11l-2 2" stroke="#555"/>',
}


def icon_button(name: str) -> str:
    return (
        f'<button class="tiny" data-icon="{name}" aria-label="{name}"><svg width="16" '
        f'height="16" viewBox="0 0 16 16">{SVG[name]}</svg></button>'
    )


MAIL = [
    ("Grace Hopper", "Compiler meeting moved to Friday"),
    ("Alan Turing", "Draft of the paper"),
    ("Ada Lovelace", "Notes on the engine"),
    ("Linus Torvalds", "Patch review"),
    ("Barbara Liskov", "Substitution examples"),
]
REAL_CSS = """
.side { position: absolute; left: 0; top: 0; bottom: 0; width: 180px; padding: 16px;
  background: #f6f6f6; font-size: 13px; }
.side a { display: block; color: #222; text-decoration: none; padding: 5px 0; }
.main { margin-left: 210px; font-size: 13px; }
.mail { display: flex; align-items: center; gap: 10px; padding: 4px 8px;
  border-bottom: 1px solid #e4e4e4; width: 760px; }
.mail .from { width: 150px; font-weight: bold; } .mail .subject { flex: 1; }
.tiny { padding: 1px; border: none; background: none; width: 20px; height: 20px; }
.small { font-size: 13px; } .small input { margin: 0 4px 0 0; }
tr.sel { background: #cfe3ff; }
.topnav { display: flex; align-items: center; gap: 26px; padding: 10px 0; font-size: 14px;
  border-bottom: 1px solid #ddd; } .topnav a { color: #333; text-decoration: none; }
.topnav input { margin-left: auto; }
.toc { position: absolute; left: 24px; top: 70px; width: 170px; font-size: 13px; }
.toc a { display: block; color: #333; text-decoration: none; padding: 4px 8px; }
.toc a.here { border-left: 3px solid #1a73e8; font-weight: bold; }
.doc { margin-left: 220px; font-size: 13px; } .crumbs a { color: #555; }
.head { display: flex; align-items: center; gap: 8px; width: 560px; padding: 6px 0; }
.head b { flex: 1; font-size: 15px; }
.tabs span { display: inline-block; padding: 6px 14px; border-bottom: 2px solid #ddd; }
.tabs span:first-child { border-color: #1a73e8; }
.pages a { color: #333; margin-right: 8px; }
"""
REAL_PAGES_HTML: dict[str, tuple[str, str]] = {
    "web-mail": (
        "light",
        '<div class="side">'
        + "".join(
            f'<a href="#">{name}</a>'
            for name in ("Inbox", "Starred", "Sent", "Drafts", "Spam", "Trash", "Archive")
        )
        + '</div><div class="main"><h3>Inbox</h3><div role="listbox">'
        + "".join(
            f'<div class="mail" role="row"><input type="checkbox"{" checked" * (i == 1)}>'
            f'<span class="from">{who}</span><span class="subject">{what}</span>'
            + icon_button("star")
            + icon_button("share")
            + icon_button("delete")
            + "</div>"
            for i, (who, what) in enumerate(MAIL)
        )
        + "</div></div>",
    ),
    "web-settings": (
        "light",
        """<div class="small"><h3>Preferences</h3>
<div class="row"><label><input type="checkbox" checked>Show line numbers</label></div>
<div class="row"><label><input type="checkbox">Wrap long lines</label></div>
<div class="row"><label><input type="checkbox" checked>Highlight current line</label></div>
<div class="row">Indent with
<label><input type="radio" name="i" checked>Spaces</label>
<label><input type="radio" name="i">Tabs</label></div>
<div class="row"><label class="name" for="w">Tab width</label>
<input id="w" type="number" value="4" min="1" max="8"></div>
<div class="row"><label class="name" for="z">Zoom</label>
<input id="z" type="range" value="40"></div>
<div class="row"><label class="name" for="t">Theme</label><select id="t"><option>Solarized</option>
<option>Monokai</option></select></div>
<div class="row"><button>Apply</button> <button>Close</button></div></div>""",
    ),
    "web-files": (
        "light",
        """<div class="small"><h3>Documents</h3><table role="listbox">
<tr><th>Name</th><th>Size</th><th>Modified</th></tr>"""
        + "".join(
            f'<tr role="row"{" class=sel" * (i == 2)}><td>{n}</td><td>{z}</td><td>{d}</td></tr>'
            for i, (n, z, d) in enumerate(
                [
                    ("budget.ods", "40 KB", "Yesterday"),
                    ("notes.txt", "3 KB", "Today"),
                    ("photo.jpg", "2 MB", "Monday"),
                    ("report.pdf", "120 KB", "12 March"),
                    ("slides.odp", "1 MB", "2 March"),
                ]
            )
        )
        + "</table></div>",
    ),
    "web-docs": (
        "light",
        '<div class="topnav"><b>Quill Docs</b>'
        + "".join(f'<a href="#">{n}</a>' for n in ("Guides", "Reference", "Blog", "Download"))
        + '<input placeholder="Search docs"></div><div class="toc"><p>On this page</p>'
        + "".join(
            f'<a href="#"{" class=here" * (n == "Install")}>{n}</a>'
            for n in ("Overview", "Install", "Configure", "Plugins", "Troubleshooting")
        )
        + """</div><div class="doc"><p class="crumbs"><a href="#">Docs</a> / <a href="#">Guides</a>
 / Install</p><h3>Install Quill</h3><p>Pick your platform and the parts you need.</p>
<div class="row">Platform <label><input type="radio" name="p" checked>Linux</label>
<label><input type="radio" name="p">macOS</label>
<label><input type="radio" name="p">Windows</label></div>
<div class="row"><label><input type="checkbox" checked>Include the extras</label></div>
<div class="row"><label><input type="checkbox">Use a virtual environment</label></div>
<div class="row"><label class="name" for="v">Version</label><select id="v"><option>2.4 (latest)
</option><option>2.3</option></select></div>
<div class="row"><label class="name" for="j">Workers</label>
<input id="j" type="number" value="2" min="1" max="16"></div>
<div class="row"><label class="name" for="q">Verbosity</label>
<input id="q" type="range" value="70"></div>
<div class="row"><button>Copy command</button></div></div>""",
    ),
    "web-tracker": (
        "light",
        '<div class="small"><div class="head"><b>Sprint 14</b>'
        + icon_button("settings")
        + icon_button("close")
        + '</div><div role="tablist" class="tabs"><span role="tab">Open</span>'
        '<span role="tab">In review</span><span role="tab">Done</span></div>'
        '<table role="listbox"><tr><th></th><th>Id</th><th>Task</th><th>Owner</th><th></th></tr>'
        + "".join(
            f'<tr role="row"{" class=sel" * (i == 1)}><td><input type="checkbox"'
            f"{' checked' * (i == 1)}></td><td>{n}</td><td>{t}</td><td>{o}</td><td>"
            + icon_button("edit")
            + icon_button("delete")
            + "</td></tr>"
            for i, (n, t, o) in enumerate(
                [
                    ("T-101", "Fix the login timeout", "Mei"),
                    ("T-102", "Write release notes", "Omar"),
                    ("T-103", "Update the icons", "Lena"),
                    ("T-104", "Review the cache patch", "Ravi"),
                ]
            )
        )
        + '</table><p class="pages"><a href="#">Previous</a> <a href="#">1</a> <a href="#">2</a>'
        ' <a href="#">Next</a></p></div>',
    ),
    # added by the fourth pass (its own dev screen): two columns of options side by side in a
    # panel, a check box and a radio on each line, each with its label
    "web-options": (
        "light",
        """<div class="small"><h3>Notifications</h3>
<div style="display:flex;gap:60px;width:380px;padding:0 14px;border:1px solid #ccc;
background:#f6f6f6"><div><p><b>Tell me about</b></p>"""
        + "".join(
            f'<div class="row"><label><input type="checkbox"{" checked" * on}>{name}</label></div>'
            for name, on in (
                ("New comments", True),
                ("Mentions", True),
                ("Weekly summary", False),
                ("Product news", False),
            )
        )
        + "</div><div><p><b>Send them by</b></p>"
        + "".join(
            f'<div class="row"><label><input type="radio" name="by"{" checked" * on}>{name}'
            "</label></div>"
            for name, on in (
                ("Email", False),
                ("Push", True),
                ("Email and push", False),
                ("Nothing", False),
            )
        )
        + """</div></div><p>Quiet hours keep alerts until the morning.</p>
<div class="row"><button>Save</button> <button>Cancel</button></div></div>""",
    ),
}


SHOP = [
    ("Desk lamp", "24.00"),
    ("Wool blanket", "59.90"),
    ("Tea kettle", "31.50"),
    ("Bike light", "18.75"),
]
USERS = [
    ("Hedy Lamarr", "hedy@example.com", "Admin"),
    ("Katherine Johnson", "katherine@example.com", "Editor"),
    ("Claude Shannon", "claude@example.com", "Viewer"),
    ("Frances Allen", "frances@example.com", "Editor"),
    ("John Backus", "john@example.com", "Viewer"),
    ("Radia Perlman", "radia@example.com", "Admin"),
]
SIDE_ICONS = {  # the admin page's sidebar entries and their 16 px outline icons
    "Dashboard": '<path d="M2 8l6-5 6 5M4 7v7h8V7" fill="none" stroke="#444"/>',
    "Users": '<circle cx="8" cy="5" r="3" fill="none" stroke="#444"/><path d="M2 15c0-4 12-4 '
    '12 0" fill="none" stroke="#444"/>',
    "Reports": '<path d="M2 14h12M4 12V8M8 12V4M12 12V6" fill="none" stroke="#444"/>',
    "Settings": '<circle cx="8" cy="8" r="3" fill="none" stroke="#444"/><circle cx="8" cy="8" '
    'r="6" fill="none" stroke="#444" stroke-dasharray="2 2"/>',
}
HELD_OUT_CSS = """
.top { display: flex; gap: 26px; align-items: center; padding: 10px 0 14px;
  border-bottom: 1px solid #ddd; font-size: 14px; }
.top a { color: #333; text-decoration: none; } .top .brand { font-weight: bold; }
.filters { float: left; width: 190px; font-size: 13px; padding-top: 10px; }
.filters label { display: block; margin: 6px 0; } .filters input { margin: 0 6px 0 0; }
.cards { margin-left: 220px; padding-top: 10px; display: flex; flex-wrap: wrap; gap: 16px; }
.card { width: 200px; border: 1px solid #ddd; border-radius: 6px; padding: 12px; font-size: 13px; }
.card .price { color: #555; margin: 6px 0 10px; }
.card button { font-size: 13px; padding: 4px 10px; }
.nav { position: absolute; left: 0; top: 0; bottom: 0; width: 170px; padding: 14px 12px;
  background: #fafafa; border-right: 1px solid #e2e2e2; font-size: 13px; }
.nav a { display: flex; align-items: center; gap: 8px; color: #222; text-decoration: none;
  padding: 6px 4px; }
.page { margin-left: 200px; font-size: 13px; }
.tabs { display: flex; gap: 4px; border-bottom: 1px solid #ccc; margin: 8px 0 12px; }
.tabs span { padding: 6px 12px; border: 1px solid #ccc; border-bottom: none;
  border-radius: 4px 4px 0 0; background: #f3f3f3; }
.tabs span[aria-selected=true] { background: #fff; font-weight: bold; }
.users { border-collapse: collapse; width: 760px; }
.users td, .users th { border: none; border-bottom: 1px solid #e6e6e6; padding: 5px 8px; }
.users tr.sel { background: #dbe8fb; }
.pager { margin-top: 12px; } .pager button { font-size: 13px; padding: 3px 10px; }
"""
HELD_OUT_PAGES: dict[str, tuple[str, str]] = {  # real_screens.py's held-out web pages
    "held-web-shop": (
        "light",
        '<div class="top"><span class="brand">Homeware</span>'
        + "".join(f'<a href="#">{n}</a>' for n in ("Kitchen", "Bedroom", "Outdoor", "Sale"))
        + '<input placeholder="Search products" size="24">'
        + "<select><option>Sort: popular</option><option>Sort: price</option></select></div>"
        + '<div class="filters"><b>Price</b>'
        + "".join(
            f'<label><input type="checkbox"{" checked" * (i == 0)}>{n}</label>'
            for i, n in enumerate(("Under 25", "25 to 50", "Over 50"))
        )
        + "<b>Delivery</b>"
        + "".join(
            f'<label><input type="radio" name="d"{" checked" * (i == 1)}>{n}</label>'
            for i, n in enumerate(("Standard", "Next day"))
        )
        + '</div><div class="cards">'
        + "".join(
            f'<div class="card"><div>{n}</div><div class="price">{p} EUR</div>'
            f"<button>Add to cart</button></div>"
            for n, p in SHOP
        )
        + "</div>",
    ),
    "held-web-admin": (
        "light",
        '<div class="nav">'
        + "".join(
            f'<a href="#"><svg width="16" height="16" viewBox="0 0 16 16">{svg}</svg>{n}</a>'
            for n, svg in SIDE_ICONS.items()
        )
        + '</div><div class="page"><h3>Users</h3><div class="tabs" role="tablist">'
        + "".join(
            f'<span role="tab" aria-selected="{str(i == 0).lower()}">{n}</span>'
            for i, n in enumerate(("Active", "Invited", "Suspended"))
        )
        + '</div><table class="users" role="listbox"><tr><th></th><th>Name</th><th>Email</th>'
        "<th>Role</th><th></th></tr>"
        + "".join(
            f'<tr role="row"{" class=sel" * (i == 2)}><td><input type="checkbox"'
            f"{' checked' * (i == 2)}></td><td>{n}</td><td>{e}</td><td>{r}</td><td>"
            + icon_button("star")
            + icon_button("delete")
            + "</td></tr>"
            for i, (n, e, r) in enumerate(USERS)
        )
        + '</table><div class="pager"><button>Previous</button> <span>Page 1 of 3</span> '
        "<button>Next</button></div></div>",
    ),
}


def page_html(name: str) -> str:
    theme, body = {**PAGES, **REAL_PAGES_HTML, **HELD_OUT_PAGES}[name]
    if name in REAL_PAGES_HTML or name in HELD_OUT_PAGES:
        body = f"<style>{REAL_CSS}{HELD_OUT_CSS}</style>{body}"
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(name)}</title>"
        f"<style>{BASE_CSS}</style></head><body>{body}<script>{TRUTH_JS}</script></body></html>"
    )


def chromium(page: Path, scale: float, size: tuple[int, int], *mode: str) -> str:
    """Run headless Chromium on `page` at a CSS viewport of `size` / `scale`; its stdout."""
    width, height = round(size[0] / scale), round(size[1] / scale)
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                CHROMIUM,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                f"--force-device-scale-factor={scale}",
                f"--window-size={width},{height}",
                *mode,
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
    return done.stdout


def render_web(name: str, scale: float, size: tuple[int, int], work: Path):
    """(pixels, ground truth) of one page: a screenshot run, then the DOM's truth."""
    page = work / f"{name}.html"
    page.write_text(page_html(name), encoding="utf-8")
    shot = work / "shot.png"
    chromium(page, scale, size, f"--screenshot={shot}")
    pixels = np.asarray(Image.open(shot).convert("RGB"))
    return pixels, dom_truth(name, scale, (pixels.shape[1], pixels.shape[0]), work)


def dom_truth(name: str, scale: float, size: tuple[int, int], work: Path) -> Json:
    """The boxes the page measured, from a DOM-dump run at `size` (pixels), scaled from CSS
    to screen pixels and cut to the screen."""
    page = work / f"{name}.html"
    page.write_text(page_html(name), encoding="utf-8")
    dom = chromium(page, scale, size, "--dump-dom")
    found = re.search(r'<script type="application/json" id="truth">(.*?)</script>', dom, re.S)
    if found is None:
        raise RuntimeError(f"{name}: the page wrote no ground truth")
    truth = json.loads(html.unescape(found.group(1)))
    width, height = size
    for item in truth["texts"] + truth["controls"]:
        x, y, w, h = (v * scale for v in item["box"])
        item["box"] = [round(x), round(y), round(w), round(h)]
    for key in ("texts", "controls"):
        truth[key] = [t for t in truth[key] if fits(t["box"], width, height)]
    return truth


def fits(box: list[int], width: int, height: int) -> bool:
    x, y, w, h = box
    return x >= 0 and y >= 0 and x + w <= width and y + h <= height and w > 0 and h > 0


# ---- writing ------------------------------------------------------------------------------


def save(out: Path, meta: Json, pixels: np.ndarray, truth: Json, edited: np.ndarray | None):
    name = str(meta["name"])
    Image.fromarray(pixels).save(out / f"{name}.png")
    if edited is not None:
        Image.fromarray(edited).save(out / f"{name}.edited.png")
    size = [int(pixels.shape[1]), int(pixels.shape[0])]
    record = {
        **meta,
        "size": size,
        **truth,
        "edited": f"{name}.edited.png" if edited is not None else None,
    }
    (out / f"{name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False))


def quiet_qt(mode, context, message: str) -> None:  # noqa: ANN001 - Qt's handler signature
    """Print Qt's messages except the offscreen plugin's one per window about size hints."""
    if "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


def generate(out: Path, web: bool = True) -> int:
    """Write every screen to `out`; the number written."""
    out.mkdir(parents=True, exist_ok=True)
    qInstallMessageHandler(quiet_qt)
    app = QApplication.instance() or QApplication([])
    count = 0
    for app_name in QT_APPS:
        for dark in (False, True):
            for scale in SCALES:
                for size in SIZES:
                    theme = "dark" if dark else "light"
                    name = f"{app_name}-{theme}-x{scale:g}-{size[0]}x{size[1]}"
                    pixels, edited, truth = render_qt(app, app_name, dark, scale, size)
                    meta = {"name": name, "source": "qt", "app": app_name, "theme": theme}
                    save(out, {**meta, "scale": scale}, pixels, truth, edited)
                    count += 1
    if not web:
        return count
    with tempfile.TemporaryDirectory() as work:
        for page_name, (theme, _) in PAGES.items():
            for scale in SCALES:
                for size in SIZES:
                    name = f"{page_name}-x{scale:g}-{size[0]}x{size[1]}"
                    pixels, truth = render_web(page_name, scale, size, Path(work))
                    meta = {"name": name, "source": "web", "app": page_name, "theme": theme}
                    save(out, {**meta, "scale": scale}, pixels, truth, None)
                    count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--no-web", action="store_true", help="Qt screens only (no Chromium)")
    args = parser.parse_args()
    print(f"{generate(args.out, web=not args.no_web)} screens written to {args.out}")


if __name__ == "__main__":
    main()
