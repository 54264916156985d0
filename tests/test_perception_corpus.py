"""Screens as the task corpus meets them, on real windows on Xvfb.

* The corpus's own web pages in Chromium at device scale 1 and 2: a primary or plain button is
  a button (its last letters are no drop-down's chevron), headings and labels drawn in a dark
  slate are text (no link colour), a select is a drop-down, check boxes and radios keep their
  labels and states.
* IDLE's Settings dialog: in test_perception_idle.
* An editor whose text is all selected (Ctrl+A in mousepad): the lines on the selection's band
  are text, no menu bar and no list.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from test_perception_controls import capture, settled

from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Frame, Screen

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
    try:  # the window opens blank before the page is drawn: wait for its text's shades
        deadline = time.monotonic() + 20
        while len(np.unique(capture(display)[::4, ::4].reshape(-1, 3), axis=0)) < 16:
            assert time.monotonic() < deadline, "the page was never drawn"
            time.sleep(0.2)
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
