"""OCR bake-off: which engine and settings read GUI screens best, and how fast, on this machine.

The screens are real Qt windows rendered offscreen (forms, dense tables, lists, menus, dialogs,
settings pages; light and dark; 9-14 pt; 1280x800 and 1920x1080), so every visible text and its
geometry is known from Qt itself. A text counts as found when the OCR phrases centred inside its
box read as it (fuzzy ratio >= 0.8); an OCR phrase counts as correct when it sits inside a known
text's box and reads as (part of) it. Cold = the first read of a screen by an engine whose
models are already loaded, warm = the second read of the same screen; OCR has no cache, so the
two differ only by onnxruntime's first-run allocations for a new input shape.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/ocr_bakeoff.py [--only rapidocr]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz

from clickwright.parsers.fusion import TextBox
from clickwright.parsers.ocr import (
    FasterPaddleEngine,
    OcrEngine,
    RapidOcrEngine,
    TesseractEngine,
)
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Box, Frame

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint  # noqa: E402 - after choosing the Qt platform
from PySide6.QtGui import QColor, QFont, QImage, QPalette  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QAbstractButton,
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
    QMenu,
    QMenuBar,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionGroupBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

MATCH = 0.8  # fuzzy ratio at which a reading counts as the text
REAL: set[str] = set()  # names of the real screens being measured (their own time group)
SIZES = ((1280, 800), (1920, 1080))
WORDS = (
    "Account Address Amount Archive Balance Billing Cancel Change City Close Comments Company "
    "Confirm Contact Country Created Customer Date Default Delete Details Discount Download "
    "Duplicate Edit Email Export Filter Format General Group Help History Import Invoice Language "
    "Limit Location Manager Message Mode Network Notes Open Order Owner Password Payment Phone "
    "Preview Print Priority Profile Project Quantity Refresh Region Remove Report Restore Review "
    "Save Schedule Search Security Select Settings Shipping Size Source Status Storage Summary "
    "Supplier Sync Tags Task Template Theme Title Total Update Upload User Version View Warehouse"
).split()
NAMES = "Ada Alan Grace Linus Margaret Dennis Barbara Ken Frances Edsger Hedy Niklaus".split()
SURNAMES = "Lovelace Turing Hopper Torvalds Hamilton Ritchie Liskov Thompson Allen Dijkstra".split()


@dataclass(frozen=True)
class Truth:
    text: str
    box: Box


@dataclass(frozen=True)
class LabelledScreen:
    name: str
    pixels: np.ndarray
    truths: tuple[Truth, ...]


# ---- screens ------------------------------------------------------------------------------


def palette(dark: bool) -> QPalette:
    colours = (
        ("#353535", "#f0f0f0", "#232323", "#f0f0f0", "#454545", "#2a82da")
        if dark
        else ("#efefef", "#000000", "#ffffff", "#000000", "#efefef", "#308cc6")
    )
    result = QPalette()
    roles = (
        QPalette.ColorRole.Window,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Base,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.Button,
        QPalette.ColorRole.Highlight,
    )
    for role, colour in zip(roles, colours, strict=True):
        result.setColor(role, QColor(colour))
    result.setColor(QPalette.ColorRole.ButtonText, QColor(colours[1]))
    result.setColor(QPalette.ColorRole.AlternateBase, QColor(colours[0]))
    return result


def phrase(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def value(rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        return f"{rng.choice(NAMES)} {rng.choice(SURNAMES)}"
    if kind == 1:
        return f"{rng.choice(NAMES).lower()}@example.com"
    if kind == 2:
        return f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if kind == 3:
        return f"{rng.randint(10, 9999)}.{rng.randint(0, 99):02d}"
    return phrase(rng, rng.randint(1, 2))


def build_form(root: QWidget, rng: random.Random) -> None:
    layout = QHBoxLayout(root)
    for _ in range(2):
        column = QFormLayout()
        for _ in range(rng.randint(6, 10)):
            field = rng.choice((QLineEdit, QComboBox, QLineEdit))()
            if isinstance(field, QComboBox):
                field.addItems([phrase(rng, 1) for _ in range(4)])
            else:
                field.setText(value(rng))
            column.addRow(phrase(rng, rng.randint(1, 2)) + ":", field)
        box = QVBoxLayout()
        box.addLayout(column)
        for _ in range(3):
            box.addWidget(rng.choice((QCheckBox, QRadioButton))(phrase(rng, 2)))
        box.addStretch()
        layout.addLayout(box)
    buttons = QVBoxLayout()
    for _ in range(4):
        buttons.addWidget(QPushButton(phrase(rng, 1)))
    buttons.addStretch()
    layout.addLayout(buttons)


def build_table(root: QWidget, rng: random.Random) -> None:
    layout = QVBoxLayout(root)
    search = QHBoxLayout()
    search.addWidget(QLabel("Search:"))
    search.addWidget(QLineEdit(phrase(rng, 1)))
    search.addWidget(QPushButton("Filter"))
    layout.addLayout(search)
    columns = rng.randint(6, 9)
    table = QTableWidget(60, columns)
    table.verticalHeader().hide()
    table.setHorizontalHeaderLabels([phrase(rng, 1) for _ in range(columns)])
    for row in range(60):
        for column in range(columns):
            table.setItem(row, column, QTableWidgetItem(value(rng)))
    table.resizeColumnsToContents()
    table.resizeRowsToContents()
    layout.addWidget(table)
    layout.addWidget(QLabel(f"{rng.randint(100, 999)} rows, {columns} columns"))


def build_list(root: QWidget, rng: random.Random) -> None:
    layout = QHBoxLayout(root)
    for _ in range(3):
        column = QVBoxLayout()
        column.addWidget(QLabel(phrase(rng, 2)))
        items = QListWidget()
        items.addItems([value(rng) for _ in range(50)])
        items.setCurrentRow(rng.randrange(5))
        column.addWidget(items)
        layout.addLayout(column)


def build_dialog(root: QWidget, rng: random.Random) -> None:
    outer = QVBoxLayout(root)
    outer.addStretch()
    frame = QGroupBox(phrase(rng, 2))
    inner = QVBoxLayout(frame)
    for _ in range(3):
        inner.addWidget(QLabel(" ".join(phrase(rng, 1).lower() for _ in range(8)).capitalize()))
    row = QHBoxLayout()
    row.addStretch()
    for text in ("Yes", "No", "Cancel"):
        row.addWidget(QPushButton(text))
    inner.addLayout(row)
    middle = QHBoxLayout()
    middle.addStretch()
    middle.addWidget(frame)
    middle.addStretch()
    outer.addLayout(middle)
    outer.addStretch()


def build_settings(root: QWidget, rng: random.Random) -> None:
    layout = QVBoxLayout(root)
    tabs = QTabWidget()
    for index in range(4):
        page = QWidget()
        grid = QGridLayout(page)
        if index == 0:
            for row in range(6):
                group = QGroupBox(phrase(rng, 1))
                inner = QVBoxLayout(group)
                for _ in range(2):
                    inner.addWidget(QCheckBox(phrase(rng, 3)))
                grid.addWidget(group, row // 2, row % 2)
        tabs.addTab(page, phrase(rng, 1))
    layout.addWidget(tabs)


def build_menu(root: QWidget, rng: random.Random) -> QMenu:
    layout = QVBoxLayout(root)
    layout.setContentsMargins(0, 0, 0, 0)
    bar = QMenuBar()
    menus = [bar.addMenu(name) for name in ("File", "Edit", "View", "Tools", "Help")]
    for menu in menus:
        for _ in range(rng.randint(6, 12)):
            menu.addAction(phrase(rng, rng.randint(1, 2)))
    layout.setMenuBar(bar)
    body = QVBoxLayout()
    body.setContentsMargins(500, 12, 12, 12)  # right of the opened menu, not under it
    for _ in range(6):
        body.addWidget(QLabel(" ".join(phrase(rng, 1).lower() for _ in range(6)).capitalize()))
    body.addStretch()
    layout.addLayout(body)
    return menus[rng.randrange(3)]


BUILDERS: dict[str, Callable[[QWidget, random.Random], QMenu | None]] = {
    "form": build_form,
    "table": build_table,
    "list": build_list,
    "dialog": build_dialog,
    "settings": build_settings,
    "menu": build_menu,
}


def to_rgb(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    array = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return array[:, : image.width() * 3].reshape(image.height(), image.width(), 3).copy()


def render(kind: str, size: tuple[int, int], dark: bool, points: int, seed: int) -> LabelledScreen:
    """One window drawn offscreen, with every text Qt drew and the box Qt drew it in."""
    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    root = QWidget()
    root.setPalette(palette(dark))
    root.setAutoFillBackground(True)
    font = QFont("DejaVu Sans")
    font.setPointSize(points)
    root.setFont(font)
    root.setFixedSize(*size)
    menu = BUILDERS[kind](root, random.Random(seed))
    root.show()
    app.processEvents()
    pixels = to_rgb(root.grab().toImage())
    truths = collect_truths(root)
    if menu is not None:
        pixels, truths = open_menu(root, menu, pixels, truths)
    root.close()
    root.deleteLater()
    name = f"{kind}-{'dark' if dark else 'light'}-{points}pt-{size[0]}x{size[1]}"
    return LabelledScreen(name, pixels, tuple(t for t in truths if t.text.strip()))


def open_menu(
    root: QWidget, menu: QMenu, pixels: np.ndarray, truths: list[Truth]
) -> tuple[np.ndarray, list[Truth]]:
    """The frame with `menu` dropped down from its menu bar, and the texts then visible."""
    bar = root.findChild(QMenuBar)
    menu.setPalette(root.palette())
    menu.setFont(root.font())
    corner = bar.mapTo(root, bar.actionGeometry(menu.menuAction()).bottomLeft())
    menu.popup(root.mapToGlobal(corner))
    QApplication.processEvents()
    drawn = to_rgb(menu.grab().toImage())
    x, y = corner.x(), corner.y()
    drawn = drawn[: pixels.shape[0] - y, : pixels.shape[1] - x]
    pixels = pixels.copy()
    pixels[y : y + drawn.shape[0], x : x + drawn.shape[1]] = drawn
    cover = Box(x, y, drawn.shape[1], drawn.shape[0])
    menu.close()
    return pixels, [t for t in truths if not cover.contains_point(*t.box.center)] + [
        Truth(a.text(), shifted(menu.actionGeometry(a), x, y)) for a in menu.actions()
    ]


def shifted(rect, dx: int, dy: int) -> Box:  # noqa: ANN001 - a QRect
    return Box(rect.x() + dx, rect.y() + dy, rect.width(), rect.height())


def collect_truths(root: QWidget) -> list[Truth]:
    """Every visible text in the window with its box in window pixels."""
    truths: list[Truth] = []
    bounds = Box(0, 0, root.width(), root.height())

    def add(text: str, widget: QWidget, rect) -> None:  # noqa: ANN001 - a QRect
        origin = widget.mapTo(root, QPoint(0, 0))
        box = shifted(rect, origin.x(), origin.y())
        if text.strip() and bounds.contains(box):
            truths.append(Truth(text.replace("&", ""), box))

    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root) or widget.window() is not root:
            continue
        if isinstance(widget, QLabel | QAbstractButton) and not widget.inherits("QTabBar"):
            add(widget.text(), widget, widget.rect())
        elif isinstance(widget, QLineEdit) and widget.parent().inherits("QComboBox") is False:
            add(widget.text(), widget, widget.rect())
        elif isinstance(widget, QComboBox):
            add(widget.currentText(), widget, widget.rect())
        elif isinstance(widget, QGroupBox):
            option = QStyleOptionGroupBox()
            widget.initStyleOption(option)
            label = QStyle.SubControl.SC_GroupBoxLabel
            rect = widget.style().subControlRect(
                QStyle.ComplexControl.CC_GroupBox, option, label, widget
            )
            add(widget.title(), widget, rect)
        elif isinstance(widget, QTabWidget):
            tab_bar = widget.tabBar()
            for index in range(widget.count()):
                add(widget.tabText(index), tab_bar, tab_bar.tabRect(index))
        elif isinstance(widget, QMenuBar):
            for action in widget.actions():
                add(action.text(), widget, widget.actionGeometry(action))
        elif isinstance(widget, QTableWidget):
            header, viewport = widget.horizontalHeader(), widget.viewport()
            for column in range(widget.columnCount()):
                left = header.sectionViewportPosition(column)
                rect = header.rect().adjusted(left, 0, 0, 0)
                rect.setWidth(header.sectionSize(column))
                if rect.right() < header.width():
                    add(widget.horizontalHeaderItem(column).text(), header, rect)
                    for row in range(widget.rowCount()):
                        cell = widget.visualItemRect(widget.item(row, column))
                        if viewport.rect().contains(cell):
                            add(widget.item(row, column).text(), viewport, cell)
        elif isinstance(widget, QListWidget):
            viewport = widget.viewport()
            for row in range(widget.count()):
                rect = widget.visualItemRect(widget.item(row))
                if viewport.rect().contains(rect):
                    add(widget.item(row).text(), viewport, rect)
    return truths


def labelled_screens() -> list[LabelledScreen]:
    """24 screens: each kind in light and dark, at both sizes, font sizes cycling 9-14 pt."""
    screens = []
    for index, (kind, dark, size) in enumerate(
        (k, d, s) for k in BUILDERS for d in (False, True) for s in SIZES
    ):
        screens.append(render(kind, size, dark, 9 + index % 6, seed=index))
    return screens


# ---- scoring ------------------------------------------------------------------------------


def norm(text: str) -> str:
    return " ".join(text.lower().split())


def inside(found: Box, truth: Box) -> bool:
    x, y = found.center
    return truth.x - 3 <= x <= truth.right + 3 and truth.y - 3 <= y <= truth.bottom + 3


def score(truths: tuple[Truth, ...], found: list[TextBox]) -> tuple[int, int, int]:
    """(texts found, phrases read correctly, phrases read) for one screen."""
    hits = 0
    for truth in truths:
        parts = sorted((f for f in found if inside(f.box, truth.box)), key=lambda f: f.box.x)
        hits += fuzz.ratio(norm(" ".join(f.text for f in parts)), norm(truth.text)) >= 100 * MATCH
    correct = sum(
        any(
            inside(f.box, t.box) and fuzz.partial_ratio(norm(f.text), norm(t.text)) >= 100 * MATCH
            for t in truths
        )
        for f in found
    )
    return hits, correct, len(found)


@dataclass
class Result:
    recall: float
    precision: float
    load: float
    cold: dict[str, float]
    warm: dict[str, float]


def real_screens() -> list[LabelledScreen]:
    """The real third-party screens of `real_screens.py` (generated on first use), their texts
    from AT-SPI, Tk or the DOM; a field's value counts only where the truth box is a line."""
    from parser import load_screens
    from real_screens import DEFAULT_OUT

    return [
        LabelledScreen(
            s.name,
            s.pixels,
            tuple(
                Truth(t["text"], Box(*t["box"])) for t in s.meta["texts"] if "\n" not in t["text"]
            ),
        )
        for s in load_screens(DEFAULT_OUT, None, real=True)
    ]


def highlighted(pixels: np.ndarray, box: Box) -> bool:
    """Light text on a coloured highlight (a selected item): the box's background, its most
    common colour, is saturated and its ink is lighter than it."""
    crop = pixels[box.y : box.bottom, box.x : box.right].reshape(-1, 3).astype(np.int16)
    if crop.size == 0:
        return False
    background = np.median(crop, axis=0)
    ink = crop[np.abs(crop - background).sum(axis=1) > 120]
    saturated = background.max() - background.min() > 80
    return bool(saturated and ink.size and ink.mean() > background.mean())


def highlight_recall(engine: OcrEngine, screens: list[LabelledScreen]) -> str:
    found = total = 0
    for screen in screens:
        truths = tuple(t for t in screen.truths if highlighted(screen.pixels, t.box))
        if truths:
            hits, _, _ = score(truths, engine.read(screen.pixels))
            found, total = found + hits, total + len(truths)
    return f"{found}/{total}"


def measure(make: Callable[[], OcrEngine], screens: list[LabelledScreen]) -> Result:
    start = time.perf_counter()
    engine = make()
    engine.read(screens[0].pixels[:64, :256])  # load the models outside the per-screen times
    load = time.perf_counter() - start
    hits = truths = correct = read = 0
    cold: dict[str, list[float]] = {}
    warm: dict[str, list[float]] = {}
    for screen in screens:
        group = "dense" if screen.name.startswith(("table", "list")) else "sparse"
        group = "real" if screen.name in REAL else f"{group} {screen.pixels.shape[1]}"
        times = []
        for _ in range(2):
            start = time.perf_counter()
            found = engine.read(screen.pixels)
            times.append(time.perf_counter() - start)
        cold.setdefault(group, []).append(times[0])
        warm.setdefault(group, []).append(times[1])
        h, c, r = score(screen.truths, found)
        hits, truths, correct, read = hits + h, truths + len(screen.truths), correct + c, read + r
    return Result(
        hits / truths,
        correct / max(read, 1),
        load,
        {k: statistics.median(v) for k, v in cold.items()},
        {k: statistics.median(v) for k, v in warm.items()},
    )


CANDIDATES: dict[str, Callable[[], OcrEngine]] = {
    "faster-paddle tiny (chosen, issue 14)": FasterPaddleEngine,
    "faster-paddle small": lambda: FasterPaddleEngine(model_size="small"),
    "rapidocr before (det min 736)": lambda: RapidOcrEngine(limit_side_len=736, limit_type="min"),
    "rapidocr default (det at full size)": RapidOcrEngine,
    "rapidocr det max 960": lambda: RapidOcrEngine(limit_side_len=960),
    "rapidocr det box_thresh 0.3": lambda: RapidOcrEngine(box_thresh=0.3),
    "rapidocr rec batch 32": lambda: RapidOcrEngine(rec_batch_num=32),
    "rapidocr 1 thread": lambda: RapidOcrEngine(threads=1),
    "tesseract psm 11, 1x": lambda: TesseractEngine(upscale=1),
    "tesseract psm 11, 2x": lambda: TesseractEngine(upscale=2),
}


def small_changes() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Before/after frames of two small changes on 1280x800 screens: one character typed
    into the search field of a dense table, and a menu opened."""
    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    pairs = {}
    for kind in ("table", "menu"):
        root = QWidget()
        root.setPalette(palette(False))
        root.setAutoFillBackground(True)
        root.setFont(QFont("DejaVu Sans", 10))
        root.setFixedSize(*SIZES[0])
        menu = BUILDERS[kind](root, random.Random(7))
        root.show()
        app.processEvents()
        before = to_rgb(root.grab().toImage())
        if menu is None:
            field = root.findChild(QLineEdit)
            field.setText(field.text() + "s")
            app.processEvents()
            pairs["typed a character (dense table)"] = (before, to_rgb(root.grab().toImage()))
        else:
            pairs["opened a menu"] = (before, open_menu(root, menu, before, [])[0])
        root.close()
    return pairs


def time_parser(make: Callable[[], OcrEngine], pairs: dict) -> list[str]:
    """Cold parse of the dense screen, then each change parsed whole and incrementally."""
    engine = make()
    engine.read(next(iter(pairs.values()))[0][:64, :256])
    cells = []
    for index, (before, after) in enumerate(pairs.values()):
        if index == 0:
            start = time.perf_counter()
            ScreenParser(ocr=engine).parse(Frame(before))
            cells.append(f"{time.perf_counter() - start:.2f}")
        for incremental in (False, True):
            parser = ScreenParser(ocr=engine, incremental=incremental)
            parser.parse(Frame(before))
            start = time.perf_counter()
            parser.parse(Frame(after))
            cells.append(f"{time.perf_counter() - start:.3f}")
    return cells


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument(
        "--only", default="", help="comma-separated: run only candidates whose name has one"
    )
    options.add_argument("--parser", action="store_true", help="time ScreenParser instead")
    options.add_argument("--width", type=int, default=0, help="only screens this wide")
    options.add_argument(
        "--real", action="store_true", help="the real third-party screens of real_screens.py"
    )
    args = options.parse_args()
    if args.parser:
        pairs = small_changes()
        print(
            "| engine | cold parse, dense 1280x800 s | "
            + " | ".join(f"{name}: full / incremental s" for name in pairs)
            + " |"
        )
        print("|---|---|" + "---|" * len(pairs))
        for name, make in CANDIDATES.items():
            if any(part in name for part in args.only.split(",")):
                print(f"| {name} | " + " | ".join(time_parser(make, pairs)) + " |", flush=True)
        return
    if args.real:
        screens = real_screens()
        REAL.update(s.name for s in screens)
        groups = ["real"]
    else:
        screens = [s for s in labelled_screens() if args.width in (0, s.pixels.shape[1])]
        groups = [
            g
            for g in ("sparse 1280", "dense 1280", "sparse 1920", "dense 1920")
            if str(args.width or "") in g
        ]
    print(f"{len(screens)} screens, {sum(len(s.truths) for s in screens)} known texts\n")
    print(
        f"| {'engine':<42} | recall | precision | load s | "
        + " | ".join(f"{g} cold/warm s" for g in groups)
        + " | highlighted text read |"
    )
    print("|" + "---|" * (5 + len(groups)))
    for name, make in CANDIDATES.items():
        if not any(part in name for part in args.only.split(",")):
            continue
        result = measure(make, screens)
        print(
            f"| {name:<42} | {result.recall:6.1%} | {result.precision:9.1%} | {result.load:6.2f} | "
            + " | ".join(f"{result.cold[g]:.2f} / {result.warm[g]:.2f}" for g in groups)
            + f" | {highlight_recall(make(), screens)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
