"""Screens as the task corpus meets them, on real windows on Xvfb.

* The corpus's own web pages in Chromium at device scale 1 and 2: a primary or plain button is
  a button (its last letters are no drop-down's chevron), headings and labels drawn in a dark
  slate are text (no link colour), a select is a drop-down, check boxes and radios keep their
  labels and states.
* IDLE's Settings dialog, drawn by Tk's own theme: check buttons are small squares filled when
  on, radio buttons diamonds filled when selected, entries whose value touches their frame or
  is selected are fields, a check box labelled on its left is named by that label; and the
  same controls come back when the dialog is parsed again incrementally after a change of tab.
* An editor whose text is all selected (Ctrl+A in mousepad): the lines on the selection's band
  are text, no menu bar and no list.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_perception_controls import settled

from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Element, Frame, Screen

pytestmark = pytest.mark.slow

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks"
FIXTURES = Path(__file__).parent / "fixtures"
CHROMIUM = (
    "chromium", "--no-sandbox", "--test-type", "--disable-gpu", "--no-first-run",
    "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--password-store=basic",
    "--start-maximized",
)  # fmt: skip
# page -> (buttons, texts, drop-downs, toggles and whether each is on); tabs apart
PAGES = {
    "tasks/web/signup.html": (
        {"Sign up"},
        {"Create your account", "Full name", "Email", "Country", "Guests"},
        {"Denmark"},
        {"Newsletter": True, "Travel insurance": False},
    ),
    "tasks/web/booking.html": (
        {"Book"},
        {"Book a room", "Check-in date", "Arrival time", "Nights", "Room temperature"},
        set(),
        {},
    ),
    "tasks_dev2/web/prefs.html": (
        {"Save preferences"},
        {"Email preferences", "How often?"},
        set(),
        {"Weekly digest": True, "Partner offers": True, "Weekly": True, "Monthly": False},
    ),
    "tasks/web/settings.html": (
        {"Save"},
        {"Settings", "Language", "Font size"},
        {"English"},
        {"Dark mode": False, "Email notifications": True},
    ),
    "tasks/web/tabs.html": ({"Redeem"}, {"Account", "Redeem code"}, set(), {}),
}
TABS = {"tasks/web/tabs.html": {"General", "Billing", "Security", "Notifications"}}
FIELDS = {"tasks/web/booking.html": {"Check-in date", "Arrival time", "Nights"}}  # by name


def parse(pixels: np.ndarray, parser: ScreenParser | None = None) -> Screen:
    parser = parser or ScreenParser()
    screen = parser.parse(Frame(pixels))
    assert parser.last.failed == ()
    return screen


def kinds(screen: Screen) -> dict[str, str]:
    """What each text on the screen is (a field named by a label does not count for it)."""
    return {e.text: e.kind for e in screen.elements if e.text}


def same(text: str, label: str) -> bool:
    """OCR reads a capital in the middle of a label as it likes ("Open Edit window")."""
    return text.lower() == label.lower()


def on(screen: Screen, label: str) -> bool:
    (toggle,) = [e for e in screen.elements if label in (e.text, e.name) and e.kind in
                 ("checkbox", "radio")]  # fmt: skip
    return "checked" in toggle.state


@contextmanager
def chromium(display, page: str, scale: int, profile: Path) -> Iterator[None]:  # noqa: ANN001
    """The corpus's page in Chromium at device scale `scale`, drawn."""
    browser = subprocess.Popen(
        [
            *CHROMIUM,
            f"--user-data-dir={profile}",
            f"--force-device-scale-factor={scale}",
            f"--app={(CORPUS / page).as_uri()}",
        ],  # fmt: skip
        env=display.env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(2)  # the window opens blank before the page is drawn
        yield
    finally:
        browser.terminate()
        browser.wait(timeout=10)


@pytest.mark.parametrize("scale", [1, 2])
def test_a_tabs_primary_button_is_a_button(display, scale: int, tmp_path: Path) -> None:  # noqa: ANN001
    """The Security tab of tabs.html opened: its Save button is a button, no drop-down."""
    with chromium(display, "tasks/web/tabs.html", scale, tmp_path):
        (tab,) = [e for e in parse(settled(display)).elements if e.text == "Security"]
        x, y = tab.box.center
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1",
                        "mousemove", "0", "0"], env=display.env(), check=True)  # fmt: skip
        time.sleep(0.5)
        screen = parse(settled(display))
    seen = kinds(screen)
    assert (seen.get("Save"), seen.get("Security")) == ("button", "tab"), sorted(seen.items())
    assert not on(screen, "Two-factor authentication")


@pytest.mark.parametrize("scale", [1, 2])
@pytest.mark.parametrize("page", sorted(PAGES))
def test_corpus_pages_buttons_are_buttons_and_headings_text(
    display,
    page: str,
    scale: int,
    tmp_path: Path,  # noqa: ANN001
) -> None:
    buttons, texts, drop_downs, toggles = PAGES[page]
    with chromium(display, page, scale, tmp_path):
        screen = parse(settled(display))
    seen = kinds(screen)
    assert {t: seen.get(t) for t in buttons} == dict.fromkeys(buttons, "button")
    assert {t: seen.get(t) for t in texts} == dict.fromkeys(texts, "text")
    assert {t: seen.get(t) for t in drop_downs} == dict.fromkeys(drop_downs, "combo")
    assert {t: on(screen, t) for t in toggles} == toggles
    tabs = TABS.get(page, set())
    assert {t: seen.get(t) for t in tabs} == dict.fromkeys(tabs, "tab")  # 4 px apart at 200 %
    named = {e.name: e.kind for e in screen.elements if e.name}
    fields = FIELDS.get(page, set())  # a time field's clock is its picture: no radio, no button
    assert {f: named.get(f) for f in fields} == dict.fromkeys(fields, "input")
    assert not [e for e in screen.elements if e.kind == "radio" and not e.text]


# ---- IDLE's Settings dialog (Tk's own theme) --------------------------------------------------


@pytest.fixture(scope="module")
def idle_settings(display) -> Iterator:  # noqa: ANN001
    """IDLE (the system's, as the corpus runs it) with a fresh home, its Settings dialog opened
    from Options > Configure IDLE, once for the module (each test leaves every setting as it
    found it); yields a function that clicks a tab (or a point) and returns the settled
    frame."""
    idle = shutil.which("idle") and Path("/usr/bin/idle")
    if not idle or not idle.exists():
        pytest.skip("IDLE (Debian package idle3) is not installed")
    home = Path(tempfile.mkdtemp(prefix="cw-idle-"))
    (home / "x.py").write_text("x = 1\n")
    program = subprocess.Popen(
        [str(idle), "-e", "x.py"],
        cwd=home,
        env={**display.env(), "HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def click(x: int, y: int) -> np.ndarray:
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"],
                       env=display.env(), check=True)  # fmt: skip
        time.sleep(0.5)
        return settled(display)

    def element(text: str, kind: str = "") -> Element:
        """The element of `kind` whose text starts so, once it is drawn (Tk shows a window
        blank for a moment first)."""
        deadline = time.monotonic() + 20
        while True:
            screen = parse(settled(display))
            found = [e for e in screen.elements
                     if e.text.startswith(text) and e.kind == (kind or e.kind)]  # fmt: skip
            if found or time.monotonic() > deadline:
                assert found, (text, kind, sorted(kinds(screen).items()))
                return found[0]
            time.sleep(0.5)

    def show(tab: str = "", point: tuple[int, int] | None = None) -> np.ndarray:
        return click(*(point or element(tab, "tab").box.center))

    try:
        click(*element("Options", "menu").box.center)
        click(*element("Configure").box.center)  # OCR may read "IDLE" as "!DLE"
        yield show
    finally:
        program.terminate()
        program.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


def test_idle_settings_tk_toggles_and_small_entries(idle_settings) -> None:  # noqa: ANN001
    windows = parse(idle_settings("Windows"))
    seen = kinds(windows)
    assert {t: seen.get(t) for t in ("Open Edit Window", "Open Shell Window")} == {
        "Open Edit Window": "radio",
        "Open Shell Window": "radio",
    }  # diamonds, the filled one selected
    assert not on(windows, "Open Edit Window") and on(windows, "Open Shell Window")
    assert on(windows, "Cursor blink") and on(windows, "Bell on Mismatch")  # filled squares
    fields = {e.name: e.text for e in windows.elements if e.kind == "input"}
    assert fields.get("Width") == "80" and fields.get("Height") == "40"  # values at the frame
    (style,) = [e for e in windows.elements if e.kind == "combo" and e.text == "expression"]
    opened = parse(idle_settings(point=style.box.center))  # a Tk option menu: a box of lines
    items = [e.text for e in opened.elements if e.kind == "menuitem"]
    assert "opener" in items and "parens" in items
    idle_settings(point=style.box.center)  # closed again, as it was

    shell = parse(idle_settings("Shell/Ed"))
    assert on(shell, "Prompt to Save") and not on(shell, "No Prompt")
    assert [e.text for e in shell.elements if e.kind == "input" and "Squeeze" in e.name] == [
        "50"
    ]  # the value selected: a block and the rest of the field, one field
    (box,) = [e for e in shell.elements if e.kind == "checkbox"]
    assert box.name == "Show line numbers in new windows" and "checked" not in box.state
    ticked = parse(idle_settings(point=box.box.center))
    assert [("checked" in e.state) for e in ticked.elements if e.kind == "checkbox"] == [True]
    idle_settings(point=box.box.center)  # unticked again, as it was


def test_idle_settings_current_tab_in_its_focus_ring_is_a_tab() -> None:
    """Tk's current tab, the notebook having the keyboard, draws its label in a focus ring
    (here Shell/Ed, reached from Fonts through Keys and Windows): a tab, no field."""
    pixels = np.asarray(Image.open(FIXTURES / "idle_shell_tab_focused.png").convert("RGB"))
    screen = parse(pixels)
    (current,) = [e for e in screen.elements if e.kind == "tab" and "selected" in e.state]
    assert current.text.lower().startswith("shel")
    assert not [e for e in screen.elements if e.kind == "input" and e.box.y < current.box.bottom]


def test_idle_settings_a_radio_just_clicked_keeps_its_label(idle_settings) -> None:  # noqa: ANN001
    """The radio button clicked, the pointer still on it: Tk draws it on a lighter hover band,
    its diamond 1 px from the band's edge, and a focus ring round its label; it is a radio,
    selected, with its label (no field, no button, no plain text), and so is the other."""
    for tab, clicked, other in (
        ("Shell/Ed", "No Prompt", "Prompt to Save"),
        ("Shell/Ed", "Prompt to Save", "No Prompt"),
        ("Windows", "Open Edit Window", "Open Shell Window"),
        ("Windows", "Open Shell Window", "Open Edit Window"),
    ):
        (label,) = [e for e in parse(idle_settings(tab)).elements if same(e.text, clicked)]
        screen = parse(idle_settings(point=label.box.center))
        radios = {e.text.lower(): "checked" in e.state for e in screen.elements
                  if e.kind == "radio"}  # fmt: skip
        assert radios == {clicked.lower(): True, other.lower(): False}, sorted(
            kinds(screen).items()
        )
        line = [e for e in screen.elements if e.interactive
                and abs(e.box.center[1] - label.box.center[1]) <= 6]  # fmt: skip
        assert {e.kind for e in line} == {"radio"}, line


def test_idle_settings_a_check_box_just_clicked_is_one_check_box(idle_settings) -> None:  # noqa: ANN001
    """A Tk check button clicked, the pointer still on it: its filled square on the hover band
    (the bevel's white 19 grey levels above the band) is a check box, checked, and the band
    round it with its label's focus ring is no second one, nor a field, and an empty focus ring
    OCR reads as "D" is no label of it."""
    for tab, label in (("Fonts", "Bold"), ("Shell/Ed", "Show line numbers in new windows")):
        screen = parse(idle_settings(tab))
        (box,) = [e for e in screen.elements if e.kind == "checkbox" and label in (e.text, e.name)]
        for checked in (True, False):
            screen = parse(idle_settings(point=box.box.center))
            line = [e for e in screen.elements if e.interactive and e.box.x > box.box.x - 20
                    and abs(e.box.center[1] - box.box.center[1]) <= 8]  # fmt: skip
            named = [(e.kind, "checked" in e.state, label in (e.text, e.name)) for e in line]
            assert named == [("checkbox", checked, True)], line  # no focus ring read as "D"


def test_idle_settings_toggles_survive_an_incremental_parse(idle_settings) -> None:  # noqa: ANN001
    """One parser through the tabs, reading only what changed, finds the toggles a fresh parse
    of each frame finds (OCR on a crop reads a line over the check box at its end, or a
    diamond as "2", where it read the whole frame otherwise)."""
    frames = [idle_settings(tab) for tab in ("Fonts", "Windows", "Shell/Ed", "Highlights")]
    warm = ScreenParser()
    parse(frames[0], warm)

    def toggles(screen: Screen) -> set[tuple[str, str, bool]]:
        return {
            (e.kind, e.text or e.name, "checked" in e.state)
            for e in screen.elements
            if e.kind in ("checkbox", "radio") and e.box.y > 130  # the tab's page
        }

    for pixels in frames[1:]:
        incremental = parse(pixels, warm)
        assert warm.last.regions  # read again only where the tab changed
        assert toggles(incremental) == toggles(parse(pixels))


# ---- an editor's selection -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Status: draft\nOwner: Kim\n",  # a band two lines tall, a control's height
        "Status: draft\nOwner: Kim\nDue: Friday\nBudget: 1200 EUR\nNext steps: call them\n",
        "Status: draft  Owner: Kim  for the weekend trip to the lake\n",  # one wide line: a bar
    ],
)
def test_lines_an_editor_selected_are_text(display, text: str, tmp_path: Path) -> None:  # noqa: ANN001
    notes = tmp_path / "notes.txt"
    notes.write_text(text)
    editor = subprocess.Popen(
        ["mousepad", str(notes)],
        env={**display.env(), "GTK_THEME": "Adwaita", "NO_AT_BRIDGE": "1", "HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        settled(display)
        subprocess.run(  # a click gives the window the keyboard (there is no window manager)
            ["xdotool", "mousemove", "300", "200", "click", "1", "key", "ctrl+a"],
            env=display.env(),
            check=True,
        )
        time.sleep(0.5)
        screen = parse(settled(display))
    finally:
        editor.terminate()
        editor.wait(timeout=10)
    menus = [e for e in screen.elements if e.kind == "menu"]
    assert {"File", "Edit", "Help"} <= {e.text for e in menus}  # the menu bar, and only it
    assert max(e.box.bottom for e in menus) < min(
        e.box.y for e in screen.elements if e.text.startswith(("Status", "Owner"))
    )
    words = {e.text: e.kind for e in screen.elements if e.box.y > menus[0].box.bottom + 30}
    assert {"draft", "Kim"} & set(words), words
    assert {kind for text, kind in words.items() if text} <= {"text", "container"}, words


# ---- options in two columns (the held-out check boxes and radios lost by list rows) ----------


def test_two_columns_of_gtk_options_are_toggles_not_list_rows(display) -> None:  # noqa: ANN001
    """A column of check buttons beside a column of radio buttons makes lines of two options:
    no list's rows, so each toggle takes its label (clicked, the label toggles it too)."""
    fixture = Path(__file__).parent / "fixtures" / "gtk_toggles.py"
    if subprocess.run(["/usr/bin/python3", "-c", "import gi"], capture_output=True).returncode:
        pytest.skip("the system Python has no PyGObject (Debian package python3-gi)")
    window = subprocess.Popen(
        ["/usr/bin/python3", str(fixture)],
        env={**display.env(), "GTK_THEME": "Adwaita", "NO_AT_BRIDGE": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        screen = parse(settled(display))
    finally:
        window.terminate()
        window.wait(timeout=10)
    assert not [e for e in screen.elements if e.kind == "list_item"]
    toggles = {e.text: e for e in screen.elements if e.kind in ("checkbox", "radio")}
    wanted = {
        "Show hidden files": ("checkbox", True),
        "Sort folders first": ("checkbox", False),
        "Check spelling": ("checkbox", False),
        "Small icons": ("radio", False),
        "Large icons": ("radio", True),
        "List view": ("radio", False),
    }
    assert {t: (toggles[t].kind, "checked" in toggles[t].state) for t in wanted} == wanted
    assert all(toggles[t].box.w > 3 * toggles[t].box.h for t in wanted)  # the label's width
