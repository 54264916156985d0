"""IDLE's Settings dialog, drawn by Tk's own theme, on a real window on Xvfb: check buttons
are small squares filled when on, radio buttons diamonds filled when selected, entries whose
value touches their frame or is selected are fields, a check box labelled on its left is named
by that label; and the same controls come back when the dialog is parsed again incrementally
after a change of tab. The dialog is opened once for the module (its own display), each test
leaving every setting as it found it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_perception_controls import settled
from test_perception_corpus import FIXTURES, kinds, on, parse, same

from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Element, Screen

pytestmark = pytest.mark.slow


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
    for tab, clicked, other in (  # away from its setting and back (the Windows tab's radios
        ("Shell/Ed", "No Prompt", "Prompt to Save"),  # are read in the first test)
        ("Shell/Ed", "Prompt to Save", "No Prompt"),
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
