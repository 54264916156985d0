"""Icons named in a real Qt window on Xvfb, captured by the desktop device."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from clickwright.devices.base import wait_until_stable
from clickwright.parsers.screen_parser import ScreenParser
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

SHOW_TOOLBAR = """
import sys
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv)
app.setStyle("Fusion")
from tests.test_icon_controls import toolbar_window
window = toolbar_window(app, None)
window.move(20, 20)
window.show()
app.exec()
"""


def test_toolbar_icons_are_named_on_a_real_display(display, device):
    blank = device.capture()
    env = {**display.env(), "QT_QPA_PLATFORM": "xcb"}
    app = subprocess.Popen([sys.executable, "-c", SHOW_TOOLBAR], env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while device.capture().same_as(blank):
            assert app.poll() is None and time.monotonic() < deadline, "the toolbar never showed"
            time.sleep(0.1)
        frame = wait_until_stable(device, timeout=10, quiet=0.5).frame
        elements = ScreenParser().parse(frame).elements
    finally:
        app.terminate()
        app.wait(timeout=10)
    names = {e.name for e in elements if e.kind == "icon"}
    assert {"search", "close", "settings", "home", "star", "refresh", "back"} <= names, names
    framed = [e for e in elements if e.kind == "icon" and e.name == "search" and e.box.x < 60]
    assert framed, "the framed search button beside the field"
    boxes = {e.text: e for e in elements if e.kind == "checkbox"}
    assert set(boxes) == {"Accept terms", "Subscribe", "Remember me"}
    assert [
        ("checked" in boxes[t].state) for t in ("Accept terms", "Subscribe", "Remember me")
    ] == [True, False, True]
