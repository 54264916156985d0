"""The controls people click, seen in real windows on Xvfb: GTK check and radio lists (zenity),
a GTK combo box's open popup (yad), a Tk dialog's small check buttons, radio buttons and list
rows (tests/fixtures/tk_controls.py), native check boxes on a Chromium page at scale 1."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import mss
import numpy as np
import pytest
from PIL import Image

from clickwright.parsers.screen_parser import ScreenParser
from clickwright.parsers.widgets import detect_widgets, selection_block
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
def shown(display, tmp_path_factory) -> Iterator:  # noqa: ANN001
    """Start a program on the display, in a home of its own (a file chooser's recent files and
    columns are kept in the home); yields a function that starts one and parses the settled
    screen; every program started is stopped afterwards."""
    started: list[subprocess.Popen] = []
    home = tmp_path_factory.mktemp("home")

    def show(
        *command: str,
        click: tuple[int, int] | None = None,
        until: Callable[[Screen], bool] | None = None,
    ) -> Screen:
        started.append(
            subprocess.Popen(
                command,
                env={
                    **display.env(),
                    "GTK_THEME": "Adwaita",
                    "NO_AT_BRIDGE": "1",
                    "HOME": str(home),
                },
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
        deadline = time.monotonic() + 10
        while until is not None and not until(screen) and time.monotonic() < deadline:
            screen = parser.parse(Frame(settled(display)))  # a folder still loading, say
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
    items = [e for e in screen.elements if e.text in ("Canada", "France", "Peru") and e.interactive]
    assert {e.text for e in items} == {"Canada", "France", "Peru"}  # each once, to click
    assert all(e.kind in ("menuitem", "list_item") for e in items)
    assert [e.text for e in items if "selected" in e.state] == ["Canada"]  # the current one


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


@pytest.mark.xfail(
    strict=False,
    reason="known bug: when GTK draws the file's type icon at the row's start (seen in 2 of 4 "
    "clean-clone runs of the whole suite, never with the module alone), OCR reads the icon as "
    "'0' or 'I' and the row loses its selection",
)
def test_file_chooser_rows_carry_their_cells_and_selection(shown, tmp_path: Path) -> None:
    for name, size in (("alpha.txt", 5), ("beta.txt", 300), ("gamma.txt", 7000)):
        (tmp_path / name).write_text("x" * size)

    def chosen(screen: Screen) -> bool:  # GTK selects the file once its folder has loaded
        return any("selected" in e.state and "alpha.txt" in e.text for e in screen.elements)

    screen = shown(
        "zenity", "--file-selection", "--title=Pick", f"--filename={tmp_path}/alpha.txt",
        until=chosen,
    )  # fmt: skip
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


# ---- every control class of issue 14, point 3, on real windows (third pass) -----------------


def page(tmp_path: Path, body: str) -> str:
    """A local page at device scale 1, as Chromium shows it; the command line to show it."""
    html = tmp_path / "page.html"
    html.write_text(f"<body style='margin:0;font:13px sans-serif'>{body}</body>")
    return html.as_uri()


def chromium(tmp_path: Path, body: str) -> tuple[str, ...]:
    return (*CHROMIUM, f"--user-data-dir={tmp_path}/profile", page(tmp_path, body))


def test_gtk_tree_rows_hold_their_check_boxes(shown) -> None:  # noqa: ANN001
    screen = shown("gtk3-demo", "--run=tree_store")
    january, new_years, march = (row(screen, t) for t in ("January", "New Years Day", "March"))
    assert january.box.y < new_years.box.y < march.box.y  # parents and children, in order
    assert abs(january.box.w - new_years.box.w) <= 8  # a row is clicked across the tree
    boxes = sorted(
        (e for e in screen.elements if e.kind == "checkbox" and new_years.box.contains(e.box, 2)),
        key=lambda e: e.box.x,
    )
    assert ["checked" in b.state for b in boxes] == [True, True, True, True, False]


def test_a_menu_opened_from_a_gtk_menu_bar_lists_its_items(shown, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("one\ntwo\n")
    screen = shown("mousepad", str(notes), click=(20, 12))
    items = {e.text: e for e in screen.elements if e.kind == "menuitem" and e.interactive}
    assert {"New", "Open...", "Save", "Save As...", "Quit"} <= set(items)  # no shortcut keys
    assert items["Save"].box.w >= 200  # clicked anywhere across the menu


def test_an_open_web_drop_down_lists_its_options_as_menu_items(shown, tmp_path: Path) -> None:
    select = (
        "<select style='position:absolute;left:100px;top:40px'><option>Canada</option>"
        "<option>France</option><option>Peru</option><option>Spain</option></select>"
    )
    screen = shown(*chromium(tmp_path, select), click=(130, 50))
    items = {e.text: e for e in screen.elements if e.kind == "menuitem" and e.interactive}
    assert {"Canada", "France", "Peru", "Spain"} <= set(items)
    assert "selected" in items["Canada"].state and "selected" not in items["Peru"].state


NAVIGATION = (
    "<div style='display:flex;gap:26px;padding:12px 24px;font-size:14px'><b>Quill</b>"
    + "".join(
        f"<a href='#' style='color:#333;text-decoration:none'>{n}</a>"
        for n in ("Guides", "Reference", "Blog", "Download")
    )
    + "</div><p style='margin:20px 24px'><a href='#' style='color:#555'>Docs</a> / "
    "<a href='#' style='color:#555'>Guides</a> / Install</p><h3 style='margin:0 24px'>Install"
    "</h3><p style='margin:20px 24px'><a href='#' style='color:#333;margin-right:16px'>"
    "Previous</a><a href='#' style='color:#333'>Next</a></p>"
)


def test_navigation_bars_and_underlined_links_in_text_colour(shown, tmp_path: Path) -> None:
    screen = shown(*chromium(tmp_path, NAVIGATION))
    links = {e.text for e in screen.elements if e.kind == "link" and e.interactive}
    assert {"Guides", "Reference", "Blog", "Download"} <= links  # a bar drawn in text colour
    assert {"Docs", "Previous", "Next"} <= links  # underlined, in a grey or black
    assert "Install" not in links  # the breadcrumb's current page is no link


def svg_button(shape: str) -> str:
    """A 16 px outline icon drawn in the page, as a borderless button."""
    return (
        "<button style='border:none;background:none;padding:1px'><svg width=16 height=16 "
        f"viewBox='0 0 16 16' fill='none' stroke='#555'>{shape}</svg></button>"
    )


PENCIL = "<path d='M2 14l1-4 8-8 3 3-8 8zM10 3l3 3'/>"
TRASH = "<path d='M3 4h10M6 4V2h4v2M4 4l1 10h6l1-10'/>"
GEAR = (
    "<circle cx=8 cy=8 r=2.5 /><path d='M8 1v3M8 12v3M1 8h3M12 8h3M3 3l2 2M11 11l2 2M13 3l-2 "
    "2M5 11l-2 2'/>"
)
CROSS = "<path d='M3 3l10 10M13 3L3 13' stroke-width=1.5 />"
TASKS = (
    "<div style='display:flex;align-items:center;gap:8px;width:460px;padding:10px 24px'>"
    f"<b style='flex:1'>Sprint 14</b>{svg_button(GEAR)}{svg_button(CROSS)}</div>"
    "<table style='border-collapse:collapse;margin:0 24px'>"
    + "".join(
        f"<tr><td style='border:1px solid #ccc;padding:6px 14px'><input type=checkbox"
        f"{' checked' * (i == 1)}></td><td style='border:1px solid #ccc;padding:6px 14px'>"
        f"{task}</td><td style='border:1px solid #ccc;padding:6px 14px'>"
        f"{svg_button(PENCIL)}{svg_button(TRASH)}</td></tr>"
        for i, task in enumerate(("Fix the login", "Write notes", "Update icons", "Review"))
    )
    + "</table>"
)


def test_icon_buttons_in_table_rows_and_in_a_header(shown, tmp_path: Path) -> None:
    screen = shown(*chromium(tmp_path, TASKS))
    title = next(e for e in screen.elements if e.text == "Sprint 14")
    header = [e for e in screen.elements if e.kind == "icon" and e.box.x > title.box.right
              and abs(e.box.center[1] - title.box.center[1]) <= 8]  # fmt: skip
    assert len(header) == 2  # the settings and close buttons, 16 px, no frame
    for task in ("Fix the login", "Write notes", "Update icons", "Review"):
        cell = next(e for e in screen.elements if e.text == task)
        line = [e for e in screen.elements if abs(e.box.center[1] - cell.box.center[1]) <= 8]
        assert len([e for e in line if e.kind == "icon" and e.interactive]) == 2, task
        (box,) = [e for e in line if e.kind == "checkbox"]
        assert box.box.w <= 16 and ("checked" in box.state) == (task == "Write notes")


def test_a_gtk_header_bar_has_its_icon_buttons(shown) -> None:  # noqa: ANN001
    screen = shown("gtk3-demo", "--run=headerbar")
    named = {e.name for e in screen.elements if e.interactive and e.box.y < 50}
    assert {"back", "forward", "close"} <= named  # arrows and the close glyph, no labels


def test_gtk_sliders_are_fields_named_by_their_labels(shown) -> None:  # noqa: ANN001
    screen = shown("gtk3-demo", "--run=scale")
    sliders = {e.name: e for e in screen.elements if e.kind == "input" and e.box.y < 160}
    assert {"Plain", "Marks", "Discrete"} <= set(sliders)  # each named by its label
    assert all(s.box.w >= 150 for s in sliders.values())  # the track and its knob as one


def test_gtk_spin_buttons_show_their_value_beside_their_buttons(shown) -> None:  # noqa: ANN001
    screen = shown("gtk3-demo", "--run=spinbutton")
    numeric = next(e for e in screen.elements if e.name == "Numeric")
    assert numeric.kind == "input" and numeric.text == "0.00"
    line = [e for e in screen.elements if e.interactive and e.box.x > numeric.box.right - 4
            and abs(e.box.center[1] - numeric.box.center[1]) <= 6 and e.box.x < 260]  # fmt: skip
    assert len(line) == 2  # its minus and plus buttons


@pytest.mark.parametrize(
    ("field", "value", "width"),
    [("Copies:NUM", "1!1..20!1", "0"), ("Copies:NUM", "1!1..20!1", "360"),
     ("Guests:NUM", "1!1..10!1", "420"), ("Font size:NUM", "12!6..72!1", "360")],
)  # fmt: skip
def test_a_yad_spin_box_whose_value_is_selected_is_a_field_showing_it(
    shown,
    field: str,
    value: str,
    width: str,  # noqa: ANN001
) -> None:
    """A spin box taking the focus selects its value: the selection's block (white digits on
    blue) is the field's value, no icon or filled check box, and reads as the number."""
    screen = shown("yad", "--form", f"--width={width}", "--field", field, value)
    label = field.split(":")[0]
    number = value.split("!")[0]
    (entry,) = [e for e in screen.elements if e.name == label]
    assert (entry.kind, entry.text) == ("input", number)
    inside = [e for e in screen.elements if e is not entry and entry.box.contains(e.box, slack=2)]
    assert not inside, inside
    line = [e for e in screen.elements if e.interactive and e.box.x >= entry.box.right - 4
            and abs(e.box.center[1] - entry.box.center[1]) <= 6]  # fmt: skip
    assert [e.kind for e in line] == ["button", "button"]  # its minus and plus


def test_a_selected_value_is_told_from_a_filled_check_box_and_keeps_its_pane() -> None:
    """The selection's block is square-cornered (a checked box drawn filled, on a selected
    row, has rounded ones and stays a check box); what holds the field stays."""
    pixels = np.asarray(Image.open(FIXTURES / "yad_spin_selected.png").convert("RGB"))
    (field,) = [w for w in detect_widgets(pixels) if w.kind == "input"]
    block = selection_block(pixels, field.box)
    assert block is not None and field.box.contains(block)
    rounded = pixels.copy()
    tint = (rounded[block.y, block.x].astype(int) + 255) // 2  # anti-aliased corners
    for y, x in ((block.y, block.x), (block.y, block.right - 1),
                 (block.bottom - 1, block.x), (block.bottom - 1, block.right - 1)):  # fmt: skip
        rounded[y, x] = tint
    assert selection_block(rounded, field.box) is None
    height, width = pixels.shape[:2]
    paned = np.full((height + 100, width + 40, 3), pixels[40, 200], np.uint8)
    paned[50 : 50 + height, 20 : 20 + width] = pixels
    paned[[8, height + 91], 8 : width + 32] = 150  # a pane's outline round the form
    paned[8 : height + 92, [8, width + 31]] = 150
    inside = field.box._replace(x=field.box.x + 20, y=field.box.y + 50)
    holders = [w.kind for w in detect_widgets(paned) if w.box.contains(inside) and w.box != inside]
    assert holders == ["container"]


ROOM = (
    "<div style='display:inline-block;width:230px;margin:8px;padding:12px;border:1px solid"
    " #3a4350;border-radius:12px;background:#222831;color:#e8e8e8;vertical-align:top'>"
    "<b style='font-size:17px'>{name}</b>"
    "<div style='display:flex;align-items:center;margin-top:10px'><span style='width:80px'>"
    "Heat to</span><input type=range min=10 max=30 step=0.5 value={heat} class=r>"
    "<b style='margin-left:auto'>{heat} °C</b></div>"
    "<div style='display:flex;align-items:center;margin-top:8px'><span style='width:80px'>"
    "Lamp</span><span class=sw style='background:{track}'><i style='{side}:3px'></i></span></div>"
    "<div style='display:flex;align-items:center;margin-top:8px'><span style='width:80px'>"
    "Dimmer</span><input type=range min=0 max=100 value={dim} class=r>"
    "<b style='margin-left:auto'>{dim} %</b></div></div>"
)
ROOMS = (
    "<style>body{background:#14181e} .r{-webkit-appearance:none;width:70px;height:7px;"
    "background:#444;border:1px solid #8a8a8a;border-radius:4px}"
    ".r::-webkit-slider-thumb{-webkit-appearance:none;width:15px;height:15px;"
    "border-radius:50%;background:#4fb3ff} .sw{position:relative;display:inline-block;"
    "width:42px;height:24px;border-radius:12px} .sw i{position:absolute;top:3px;width:18px;"
    "height:18px;border-radius:50%;background:#f4f4f4}</style><div style='padding:16px'>"
    + ROOM.format(name="Study", heat=19.5, dim=35, track="#4fb3ff", side="right")
    + ROOM.format(name="Hall", heat=16, dim=80, track="#555b66", side="left")
    + "</div>"
)


def test_cards_with_thick_sliders_and_inner_knob_switches_on_a_dark_page(
    shown,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    """A dark dashboard: each card is a container (a switch in it does not hide it), its
    sliders (an 8 px track with a border, the thumb twice as tall) are fields drawn as sliders,
    and its switch (the knob inside the pill) is a toggle, on where the knob is right."""
    screen = shown(*chromium(tmp_path, ROOMS))
    for name, on in (("Study", True), ("Hall", False)):
        heading = next(e for e in screen.elements if e.text == name)
        card = min((e.box for e in screen.elements if e.kind == "container"
                    and e.box.contains(heading.box)), key=lambda b: b.area)  # fmt: skip
        inside = [e for e in screen.elements if card.contains(e.box, slack=2)]
        sliders = [e for e in inside if e.kind == "input" and "slider" in e.state]
        assert [s.name for s in sliders] == ["Heat to", "Dimmer"], name
        assert all(not s.text for s in sliders)  # the thumb is not read as a value
        (switch,) = [e for e in inside if e.kind == "toggle"]
        assert ("checked" in switch.state) == on, name


CHOICE_CARDS = "<div style='width:560px;padding:16px'>" + "".join(
    "<label style='display:flex;align-items:flex-start;gap:12px;border:1px solid #d0d4d8;"
    "border-radius:6px;padding:10px 14px;margin-bottom:8px'><input type=radio name=ship"
    f"{' checked' * (i == 1)}><span style='flex:1'>{name}<br><small style='color:#667'>{note}"
    f"</small></span><b>{price}</b></label>"
    for i, (name, note, price) in enumerate((
        ("Standard post", "4-6 working days", "49 kr"),
        ("Next-day courier", "Order by 15:00", "129 kr"),
        ("Pick-up point", "Collect within a week", "29 kr"),
    ))
) + "</div>"  # fmt: skip


def test_choices_drawn_as_bordered_cards_are_radios_not_fields(shown, tmp_path: Path) -> None:  # noqa: ANN001
    """A radio at the left end of a framed card, its price at the right: each a radio with its
    label, the checked one checked, and no drop-down or field where a card is."""
    screen = shown(*chromium(tmp_path, CHOICE_CARDS))
    radios = {e.text: "checked" in e.state for e in screen.elements if e.kind == "radio"}
    assert radios == {"Standard post": False, "Next-day courier": True, "Pick-up point": False}
    assert not [e for e in screen.elements if e.kind in ("combo", "input")]


NOTES = (
    "<div style='margin:30px'><label>Notes</label><br>"
    "<textarea rows=3 cols=24>Pack the tent\nBuy matches\nCall Ana about the car\nWater"
    "</textarea><br><br><textarea rows=2 cols=24>Short note\nsecond line</textarea><br><br>"
    "<select size=3><option>Apples</option><option>Pears</option><option>Plums</option>"
    "</select></div>"
)


def test_web_text_areas_hold_their_lines_and_a_list_box_is_a_list(shown, tmp_path: Path) -> None:  # noqa: ANN001
    screen = shown(*chromium(tmp_path, NOTES))
    areas = sorted((e for e in screen.elements if e.kind == "input"), key=lambda e: e.box.y)
    assert len(areas) == 2, [e.describe() for e in screen.elements]
    assert "Pack the tent" in areas[0].text and "Short note" in areas[1].text
    items = {e.text for e in screen.elements if e.kind == "list_item"}
    assert {"Apples", "Pears", "Plums"} <= items


UPRIGHT = (
    "<div style='position:absolute;left:40px;top:40px;width:8px;height:120px;"
    "border:1px solid #c5c5c5;background:#fff;border-radius:3px'>"
    "<span style='position:absolute;left:-5px;top:30px;width:14px;height:12px;"
    "border:1px solid #c5c5c5;background:#f6f6f6;border-radius:3px'></span></div>"
    "<div style='position:absolute;left:60px;top:150px;font-size:11px'>-12</div>"
    "<div style='position:absolute;left:120px;top:60px;width:100px;height:7px;"
    "border:1px solid #c5c5c5;border-radius:3px'><span style='position:absolute;left:40px;"
    "top:-3px;width:12px;height:11px;border:1px solid #c5c5c5;background:#f6f6f6;"
    "border-radius:3px'></span></div>"
)


def test_square_handled_sliders_standing_or_lying(shown, tmp_path: Path) -> None:  # noqa: ANN001
    screen = shown(*chromium(tmp_path, UPRIGHT))
    sliders = sorted((e.box for e in screen.elements if "slider" in e.state), key=lambda b: b.x)
    assert len(sliders) == 2, [e.describe() for e in screen.elements]
    assert sliders[0].h > 100 > sliders[0].w  # the upright one, whole past its handle
    assert sliders[1].w > 90 > sliders[1].h
