"""Accessibility trees fused with pixels on real windows (issue 14, point 4): GTK's tree gives
spin buttons and sliders their values and an open drop-down its menu items; a browser the
desktop device launches publishes the tree of every page it shows, also one the user opens
from a link."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_a11y import session_bus  # noqa: F401 - the private session D-Bus fixture

from clickwright.a11y import A11yNode, to_frame
from clickwright.devices.a11y import read_atspi
from clickwright.devices.base import wait_until_stable
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Element, Screen

pytestmark = pytest.mark.slow


def tree_until(display, ready: Callable[[list[A11yNode]], bool]) -> list[A11yNode]:  # noqa: ANN001
    """The tree of the programs on the display, once `ready` says it holds what is wanted."""
    deadline = time.monotonic() + 30
    nodes = list(read_atspi(timeout=3.0, display=display.name))
    while not ready(nodes):
        assert time.monotonic() < deadline, [(n.role, n.name) for n in nodes]
        time.sleep(0.3)
        nodes = list(read_atspi(timeout=3.0, display=display.name))
    return nodes


def parsed(device, display, ready: Callable[[list[A11yNode]], bool]) -> Screen:  # noqa: ANN001
    """The settled screen parsed with its tree."""
    tree_until(display, ready)
    wait_until_stable(device, timeout=10, quiet=0.5)
    frame = device.capture()
    nodes = tree_until(display, ready)
    parser = ScreenParser()
    screen = parser.parse(frame, to_frame(nodes, frame.origin, frame.scale))
    assert parser.last.failed == ()
    return screen


@pytest.fixture
def gtk(session_bus: dict[str, str]) -> Iterator[Callable[..., None]]:  # noqa: F811
    """Starts GTK programs on the private bus (so their trees are on it); stops them after."""
    started: list[subprocess.Popen] = []

    def start(*command: str) -> None:
        started.append(
            subprocess.Popen(
                command,
                env={**session_bus, "GTK_THEME": "Adwaita"},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )

    yield start
    for program in started:
        program.terminate()
        program.wait(timeout=10)
    time.sleep(0.5)


def named(screen: Screen, name: str) -> Element:
    found = [e for e in screen.elements if e.name == name]
    assert len(found) == 1, [(e.kind, e.text, e.name) for e in screen.elements]
    return found[0]


def test_gtk_spin_buttons_and_sliders_carry_their_values_from_the_tree(gtk, device, display):
    gtk("yad", "--form", "--title=Order", "--field=Age:NUM", "7", "--field=Volume:SCL", "40")
    screen = parsed(device, display, lambda nodes: any(n.role == "slider" for n in nodes))
    age, volume = named(screen, "Age"), named(screen, "Volume")
    assert (age.kind, age.text, age.interactive) == ("input", "7", True)
    assert (volume.kind, volume.text, volume.interactive) == ("input", "40", True)  # undrawn


def test_an_open_gtk_drop_down_lists_menu_items_with_the_tree(gtk, device, display):
    gtk("yad", "--form", "--title=Account", "--field=Country:CB", "Canada!France!Peru")
    nodes = tree_until(display, lambda nodes: any(n.kind == "combo" for n in nodes))
    combo = next(n for n in nodes if n.kind == "combo")
    x, y = combo.box.center
    subprocess.run(
        ["xdotool", "mousemove", str(x), str(y), "click", "1"], env=display.env(), check=True
    )
    screen = parsed(device, display, lambda nodes: any(n.kind == "menuitem" for n in nodes))
    items = {e.text: e for e in screen.elements if e.kind == "menuitem" and e.interactive}
    assert set(items) == {"Canada", "France", "Peru"}
    assert "selected" in items["Canada"].state and "selected" not in items["Peru"].state


PAGES = {
    "first.html": "<h3>Projects</h3><p><a href='second.html'>Invoices of March</a></p>",
    "second.html": "<h3>Invoices</h3><p><label><input type=checkbox checked>Paid</label></p>"
    "<p><button aria-label='Delete invoice'>&#128465;</button></p>",
}
BROWSER = (
    "chromium --no-sandbox --disable-gpu --no-first-run --hide-scrollbars "
    "--disable-background-networking --disable-component-update --disable-sync "
    "--force-device-scale-factor=1 --kiosk --window-position=0,0 --window-size=1280,800"
)


def test_a_page_opened_in_a_browser_the_device_launched_is_in_the_tree(
    session_bus: dict[str, str],  # noqa: F811
    device,  # noqa: ANN001
    display,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    for name, body in PAGES.items():
        (tmp_path / name).write_text(f"<body style='font:13px sans-serif'>{body}</body>")
    first = (tmp_path / "first.html").as_uri()
    device.launch(f"{BROWSER} --user-data-dir={tmp_path}/profile {first}")
    try:
        screen = parsed(device, display, lambda nodes: any(n.kind == "link" for n in nodes))
        link = next(e for e in screen.elements if e.text == "Invoices of March")
        assert link.kind == "link" and link.source == "merged"  # the tree's link, at its pixels
        x, y = link.box.center
        subprocess.run(
            ["xdotool", "mousemove", str(x), str(y), "click", "1"], env=display.env(), check=True
        )
        screen = parsed(device, display, lambda nodes: any(n.name == "Paid" for n in nodes))
        paid = next(e for e in screen.elements if e.kind == "checkbox")
        assert "checked" in paid.state
        delete = [e for e in screen.elements if "Delete invoice" in (e.text, e.name)]
        assert delete and delete[0].kind == "button"  # an icon the tree names
    finally:
        device.end_launched()
