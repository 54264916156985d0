"""Rows, menu bars, toggles inside a line and small native toggles, on real screenshots
(tests/fixtures/real/) read by the real OCR, and the rules behind them on hand-made frames."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from clickwright.a11y import A11yNode
from clickwright.devices.a11y import accessible_launch
from clickwright.devices.a11y.atspi import _browser_without_page
from clickwright.parsers.fusion import TextBox, fuse, hosts_of
from clickwright.parsers.menus import menu_bar
from clickwright.parsers.ocr import OcrEngine, ocr_engine
from clickwright.parsers.rows import find_rows
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.parsers.widgets import Widget
from clickwright.types import Box, Element, Frame, Screen

REAL = Path(__file__).parent / "fixtures" / "real"


@pytest.fixture(scope="module")
def engine() -> OcrEngine:
    return ocr_engine()


def parse(engine: OcrEngine, name: str) -> Screen:
    parser = ScreenParser(ocr=engine)
    screen = parser.parse(Frame(np.asarray(Image.open(REAL / name).convert("RGB"))))
    assert parser.last.failed == ()
    return screen


def rows(screen: Screen) -> list[Element]:
    return [e for e in screen.elements if e.kind == "list_item"]


def row_with(screen: Screen, word: str) -> Element:
    found = [e for e in rows(screen) if word in e.text]
    assert len(found) == 1, [(e.text, e.box) for e in rows(screen)]
    assert found[0].interactive
    return found[0]


# ---- real screenshots ---------------------------------------------------------------------


def test_file_chooser_rows_carry_their_cells_and_the_selected_one_says_so(engine) -> None:
    screen = parse(engine, "gtk_file_chooser.png")
    files = {name: row_with(screen, name) for name in ("budget.ods", "notes.txt", "report.pdf")}
    assert "72 bytes" in files["notes.txt"].text  # the size column is in the row
    assert files["budget.ods"].state == frozenset({"selected"})  # white on the highlight
    assert "selected" not in files["notes.txt"].state
    # a row is clicked anywhere across the file list, and the rows do not overlap
    assert files["notes.txt"].box.w >= 900
    assert files["budget.ods"].box.bottom <= files["notes.txt"].box.y + 2
    # the places sidebar: rows as wide as the sidebar, each led by its icon
    home, desktop = row_with(screen, "Home"), row_with(screen, "Desktop")
    assert home.box.x <= 2 and 150 <= home.box.right <= 160 and desktop.box.y > home.box.y
    icons = {e.name for e in screen.elements if e.kind == "icon" and e.box.x < 40}
    assert {"clock", "folder", "add"} <= icons


def test_sidebar_links_in_text_colour_and_mail_rows(engine) -> None:
    screen = parse(engine, "chromium_mail.png")
    for label in ("Inbox", "Starred", "Archive"):
        link = row_with(screen, label)
        assert link.box.x <= 16 and link.box.right >= 196  # the sidebar's width, not the word's
    mail = row_with(screen, "Alan Turing")
    assert "Draft of the paper" in mail.text
    # the 13 px check box in the row keeps its own box, named after the row's label
    box = next(e for e in screen.elements if e.kind == "checkbox" and e.name == "Alan Turing")
    assert box.box.w <= 16 and "checked" in box.state
    assert any(e.kind == "text" and e.text == "Alan Turing" for e in screen.elements)
    # the three 16 px icon buttons of each row, the trash can included
    trash = [e for e in screen.elements if e.kind == "icon" and 975 <= e.box.center[0] <= 1000]
    assert len(trash) == 5


def test_small_native_toggles_and_radios_inside_a_line(engine) -> None:
    screen = parse(engine, "chromium_settings.png")
    kinds = {e.text: (e.kind, "checked" in e.state) for e in screen.elements if e.interactive}
    assert kinds["Show line numbers"] == ("checkbox", True)  # blue, filled, ticked: no radio
    assert kinds["Wrap long lines"] == ("checkbox", False)
    assert kinds["Spaces"] == ("radio", True)  # OCR read "Indent with Spaces Tabs" as one
    assert kinds["Tabs"] == ("radio", False)  # line: cut at the radios
    assert any(e.text == "Indent with" and not e.interactive for e in screen.elements)
    assert not rows(screen)  # a column of options is no list


def test_a_menu_bar_is_menus(engine) -> None:
    screen = parse(engine, "gtk_mousepad.png")
    menus = [e.text for e in screen.elements if e.kind == "menu" and e.box.y < 25]
    assert menus == ["File", "Edit", "Search", "View", "Document", "Help"]


def test_a_forms_labels_are_no_list(engine) -> None:
    for name in ("gtk_yad_form.png", "tk_controls.png", "gtk_zenity_forms.png"):
        screen = parse(engine, name)
        labels = ("Name", "Email", "Country", "Customer", "Quantity")
        assert not [e for e in rows(screen) if e.text.rstrip(":") in labels], name


def test_check_list_rows_and_their_check_boxes(engine) -> None:
    screen = parse(engine, "gtk_zenity_checklist.png")
    report, notes = row_with(screen, "120KB"), row_with(screen, "3KB")
    assert "report" in report.text and notes.text.startswith("notes")  # no glyph of the box
    for row, checked in ((report, True), (notes, False)):
        box = next(e for e in screen.elements if e.kind == "checkbox" and row.box.contains(e.box))
        assert box.box.w <= 20 and ("checked" in box.state) == checked and box.name in row.text


# ---- the rules on hand-made frames ----------------------------------------------------------


def panel(height: int = 200, width: int = 300) -> np.ndarray:
    """A white list with a grey border on a light grey window."""
    pixels = np.full((height + 40, width + 40, 3), 240, np.uint8)
    pixels[20 : 20 + height, 20 : 20 + width] = 120
    pixels[21 : 19 + height, 21 : 19 + width] = 255
    return pixels


def test_stacked_texts_at_a_steady_pitch_are_rows_and_a_highlight_is_selected() -> None:
    pixels = panel()
    pixels[46:68, 21:319] = (53, 132, 228)  # the second row selected
    texts = [TextBox(Box(30, 26 + 22 * i, 60, 16), f"item {i}", 0.9) for i in range(4)]
    found = find_rows(pixels, texts, [])
    assert len(found) == 4
    assert all(r.box.x == 21 and r.box.right == 319 for r in found)  # the list's inside
    assert [("selected" in r.state) for r in sorted(found, key=lambda r: r.box.y)] == [
        False,
        True,
        False,
        False,
    ]
    fused = fuse(texts, [], found)
    assert {e.text for e in fused if e.kind == "list_item"} == {f"item {i}" for i in range(4)}


def test_labels_beside_fields_and_captions_are_no_rows() -> None:
    pixels = np.full((200, 400, 3), 240, np.uint8)
    texts = [TextBox(Box(10, 12 + 30 * i, 50, 16), f"Label{i}", 0.9) for i in range(4)]
    fields = [Widget(Box(80, 8 + 30 * i, 200, 24), "input", 0.8) for i in range(4)]
    for field in fields:
        x, y, w, h = field.box
        pixels[y : y + h, x : x + w] = 120
        pixels[y + 1 : y + h - 1, x + 1 : x + w - 1] = 255
    assert find_rows(pixels, texts, fields) == []
    captions = [TextBox(t.box, t.text + ":", 0.9) for t in texts]
    assert find_rows(np.full((200, 400, 3), 240, np.uint8), captions, []) == []


def test_a_header_cut_off_by_a_rule_is_no_row() -> None:
    pixels = panel()
    pixels[44, 21:319] = 180  # the rule under the column headers
    texts = [TextBox(Box(30, 26 + 22 * i, 60, 16), f"cell {i}", 0.9) for i in range(5)]
    found = find_rows(pixels, texts, [])
    assert len(found) == 4 and min(r.box.y for r in found) >= 44


def test_a_menu_bar_is_read_by_its_titles_and_a_misread_title_is_spelled() -> None:
    words = ["Eile", "Edit", "View", "Help"]
    line = [TextBox(Box(5 + 50 * i, 3, 36, 16), w, 0.9) for i, w in enumerate(words)]
    assert menu_bar(line) == {0: "File", 1: "Edit", 2: "View", 3: "Help"}
    fused = fuse(line, [])
    assert [(e.kind, e.text) for e in fused][0] == ("menu", "File")
    prose = [
        TextBox(Box(5 + 50 * i, 3, 36, 16), w, 0.9) for i, w in enumerate("Eile is here".split())
    ]
    assert menu_bar(prose) == {}


def host(box: Box, holders: list[Box]) -> int | None:
    """The smallest holder that holds the box's centre and most of it, found one by one."""
    cx, cy = box.center
    held = [
        (h.area, i)
        for i, h in enumerate(holders)
        if h.contains_point(cx, cy) and box.intersection(h) >= 0.5 * box.area
    ]
    return min(held)[1] if held else None


def test_hosts_of_agrees_with_host_one_by_one() -> None:
    rng = np.random.default_rng(7)
    boxes = [
        Box(*map(int, rng.integers(0, 300, 2)), *map(int, rng.integers(1, 60, 2)))
        for _ in range(80)
    ]
    holders = [
        Box(*map(int, rng.integers(0, 300, 2)), *map(int, rng.integers(5, 200, 2)))
        for _ in range(40)
    ]
    assert hosts_of(boxes, holders) == [host(b, holders) for b in boxes]


def test_accessible_launch_asks_browsers_for_their_page_tree() -> None:
    command, env = accessible_launch(["/usr/bin/chromium", "page.html"], {"PATH": "/bin"})
    assert command == ["/usr/bin/chromium", "--force-renderer-accessibility", "page.html"]
    assert env["ACCESSIBILITY_ENABLED"] == "1" and env["PATH"] == "/bin"
    command, env = accessible_launch(["mousepad"], {"QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "0"})
    assert command == ["mousepad"]  # no browser: only the toolkits' variables
    assert env["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] == "0"  # the caller's own choice stays
    assert env["GNOME_ACCESSIBILITY"] == "1"


def test_a_browser_window_without_its_page_says_how_to_get_it() -> None:
    frame = A11yNode("frame", "container", "Inbox - Chromium", Box(0, 0, 800, 600))
    assert "--force-renderer-accessibility" in _browser_without_page([frame])
    page = A11yNode("document web", "container", "Inbox", Box(0, 0, 800, 600), depth=6)
    assert _browser_without_page([frame, page]) == ""


def test_an_editors_lines_are_no_list(engine) -> None:
    """OCR reads a monospaced editor's words apart, so its lines start at jittering x and a
    steady run takes every other line: no list's rows, which have nothing between them."""
    screen = parse(engine, "gtk_mousepad_lines.png")
    assert not rows(screen)
    assert {"Call", "Grace", "Friday."} <= {e.text for e in screen.elements if e.kind == "text"}


def test_a_gtk_notebooks_flat_tabs_are_tabs(engine) -> None:
    screen = parse(engine, "gtk_demo_notebook.png")
    tabs = {e.text for e in screen.elements if e.kind == "tab" and e.interactive}
    assert {"Source", "application.ui", "menus.ui", "application.c"} <= tabs  # not links
