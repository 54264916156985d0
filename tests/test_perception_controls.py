"""The controls people click, seen in real windows on Xvfb: GTK check and radio lists (zenity),
a GTK combo box's open popup (yad), a Tk dialog's small check buttons, radio buttons and list
rows (tests/fixtures/tk_controls.py), native check boxes on a Chromium page at scale 1."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import mss
import numpy as np
import pytest
from PIL import Image

from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Element, Frame, Screen

FIXTURES = Path(__file__).parent / "fixtures"
pytestmark = pytest.mark.slow


def capture(display) -> np.ndarray:  # noqa: ANN001 - the VirtualDisplay fixture
    with mss.MSS(display=display.name) as screen:
        shot = screen.grab(screen.monitors[0])
    return np.asarray(Image.frombytes("RGB", shot.size, shot.rgb))


def settled(display, timeout: float = 20.0) -> np.ndarray:  # noqa: ANN001
    """The frame once it has something on it and stays the same for half a second."""
    deadline = time.monotonic() + timeout
    before = capture(display)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = capture(display)
        if now.any() and np.array_equal(now, before):
            return now
        before = now
    raise AssertionError("the window never settled")


@pytest.fixture
def shown(display) -> Iterator:  # noqa: ANN001
    """Start a program on the display; yields a function that starts one and parses the
    settled screen; every program started is stopped afterwards."""
    started: list[subprocess.Popen] = []

    def show(*command: str, click: tuple[int, int] | None = None) -> Screen:
        started.append(
            subprocess.Popen(
                command,
                env={**display.env(), "GTK_THEME": "Adwaita", "NO_AT_BRIDGE": "1"},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        pixels = settled(display)
        if click is not None:
            x, y = click
            subprocess.run(
                ["xdotool", "mousemove", str(x), str(y), "click", "1"],
                env=display.env(),
                check=True,
            )
            time.sleep(0.5)
            pixels = settled(display)
        parser = ScreenParser()
        screen = parser.parse(Frame(pixels))
        assert parser.last.failed == ()
        return screen

    yield show
    for program in started:
        program.terminate()
        program.wait(timeout=10)
    time.sleep(0.5)


def find(screen: Screen, text: str, kind: str) -> Element:
    """The element of `kind` reading `text`, or named so (a check box in a list row is named
    after the row's label, which stays a text of its own)."""
    found = [e for e in screen.elements if text in (e.text, e.name) and e.kind == kind]
    assert found, [(e.kind, e.text) for e in screen.elements]
    assert found[0].interactive
    return found[0]


def test_gtk_radio_list_rows_are_radios_with_their_state(shown) -> None:  # noqa: ANN001
    screen = shown(
        "zenity", "--list", "--radiolist", "--title=Plan", "--text=Choose a plan",
        "--column=Use", "--column=Plan", "--column=Price",
        "FALSE", "Free", "0", "TRUE", "Pro", "10", "FALSE", "Team", "30",
    )  # fmt: skip
    assert "checked" in find(screen, "Pro", "radio").state
    assert "checked" not in find(screen, "Free", "radio").state  # just under the header
    assert "checked" not in find(screen, "Team", "radio").state


def test_gtk_check_list_rows_are_check_boxes_with_their_state(shown) -> None:  # noqa: ANN001
    screen = shown(
        "zenity", "--list", "--checklist", "--title=Files", "--text=Pick files",
        "--column=Pick", "--column=Name", "TRUE", "report.pdf", "FALSE", "notes.txt",
        "TRUE", "photo.jpg", "FALSE", "budget.ods",
    )  # fmt: skip
    assert "checked" in find(screen, "photo.jpg", "checkbox").state
    assert "checked" not in find(screen, "budget.ods", "checkbox").state


def test_an_open_gtk_combo_popup_lists_its_items(shown) -> None:  # noqa: ANN001
    screen = shown(
        "yad", "--form", "--title=Account", "--field=Country:CB", "Canada!France!Peru",
        "--field=Plan:CB", "Free!Pro", click=(150, 18),
    )  # fmt: skip
    items = [e for e in screen.elements if e.text in ("Canada", "France", "Peru")]
    assert {e.text for e in items} == {"Canada", "France", "Peru"}
    assert all(e.interactive and e.kind in ("menuitem", "list_item") for e in items)


def test_tk_small_toggles_and_list_rows(shown) -> None:  # noqa: ANN001
    screen = shown(sys.executable, str(FIXTURES / "tk_controls.py"))
    for label in ("Gift wrap", "Express"):
        find(screen, label, "checkbox")
    for label in ("Small", "Medium", "Large"):
        find(screen, label, "radio")
    rows = [find(screen, fruit, "list_item") for fruit in ("Apples", "Bananas", "Cherries")]
    assert rows[0].box.x == rows[1].box.x and rows[0].box.w == rows[1].box.w
    # the Scale: one control across its trough, its raised handle no pair of check boxes
    quantity = find(screen, "3", "input")
    below = [e for e in screen.elements if e.interactive and e.box.y > quantity.box.bottom + 10]
    scale = next(e for e in below if e.kind == "input")
    assert scale.box.w >= 150
    assert not [e for e in below if e.kind == "checkbox" and scale.box.contains(e.box, slack=2)]


def test_native_check_boxes_on_a_web_page_at_scale_1(shown) -> None:  # noqa: ANN001
    page = (
        "<body style='font: 13px sans-serif'>"
        "<p><label><input type=checkbox>Wrap long lines</label></p>"
        "<p><label><input type=checkbox>Show whitespace</label></p></body>"
    )
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "page.html"
        html.write_text(page)
        screen = shown(
            "chromium", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--force-device-scale-factor=1", f"--user-data-dir={folder}/profile", "--kiosk",
            html.as_uri(),
        )  # fmt: skip
    for label in ("Wrap long lines", "Show whitespace"):
        box = find(screen, label, "checkbox").box
        assert box.h <= 24  # the 13 px box and its label, not a row of the page


# ---- rows, navigation, menu bars, and Chromium's tree (issue 14, second pass) ---------------

CHROMIUM = (
    "chromium", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--force-device-scale-factor=1", "--kiosk", "--window-position=0,0",
    "--window-size=1280,800",
)  # fmt: skip
PAGE = (
    "<body style='margin:0;font:13px sans-serif'>"
    "<div style='position:absolute;left:0;top:0;bottom:0;width:170px;padding:14px;"
    "background:#f4f4f4'>"
    + "".join(
        f"<a href='#' style='display:block;color:#222;text-decoration:none;padding:6px 0'>{n}</a>"
        for n in ("Overview", "Projects", "Invoices", "Team", "Billing")
    )
    + "</div><div style='margin-left:220px;padding-top:12px'>"
    "<p>Sort by <label><input type=radio name=s checked>Date</label>"
    " <label><input type=radio name=s>Name</label></p>"
    "<p><label><input type=checkbox checked>Only open invoices</label></p>"
    "<p>Zoom <input type=range value=30></p></div></body>"
)


def row(screen: Screen, text: str) -> Element:
    found = [e for e in screen.elements if e.kind == "list_item" and text in e.text]
    assert len(found) == 1, (text, [e.text for e in screen.elements if e.kind == "list_item"])
    assert found[0].interactive
    return found[0]


def test_file_chooser_rows_carry_their_cells_and_selection(shown, tmp_path: Path) -> None:
    for name, size in (("alpha.txt", 5), ("beta.txt", 300), ("gamma.txt", 7000)):
        (tmp_path / name).write_text("x" * size)
    screen = shown("zenity", "--file-selection", "--title=Pick", f"--filename={tmp_path}/alpha.txt")
    beta = row(screen, "beta.txt")
    assert "300 bytes" in beta.text and beta.box.w >= 600
    assert "selected" in row(screen, "alpha.txt").state  # the file asked for is selected
    assert "selected" not in beta.state
    places = [e for e in screen.elements if e.kind == "list_item" and e.box.right < beta.box.x]
    assert len(places) >= 4  # Recent, Home, Desktop, ...: the places sidebar's own rows


def test_sidebar_links_in_text_colour_are_rows_and_small_toggles_keep_their_kind(
    shown, tmp_path: Path
) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE)
    screen = shown(*CHROMIUM, f"--user-data-dir={tmp_path}/profile", page.as_uri())
    for name in ("Overview", "Invoices", "Billing"):
        link = row(screen, name)
        assert link.box.x <= 14 and link.box.right >= 190  # the sidebar's width
    kinds = {e.text: (e.kind, "checked" in e.state) for e in screen.elements if e.interactive}
    # (OCR reads "Sort by (o) Date" as one line; where it is cut, "by" may go either way)
    date = next(text for text in kinds if text.endswith("Date"))
    assert kinds[date] == ("radio", True) and kinds["Name"] == ("radio", False)
    assert kinds["Only open invoices"] == ("checkbox", True)
    zoom = [e for e in screen.elements if e.kind == "input" and e.box.y > 60]
    assert zoom and zoom[0].box.w >= 120  # the range slider: its track and thumb as one


def test_a_gtk_menu_bar_is_menus(shown, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("one\ntwo\n")
    screen = shown("mousepad", str(notes))
    menus = [e.text for e in screen.elements if e.kind == "menu" and e.interactive]
    assert menus[:3] == ["File", "Edit", "Search"] and "Help" in menus
