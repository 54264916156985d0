"""The desktop device and the virtual display, against a real Xvfb and real X input."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from clickwright.devices.base import wait_until_stable
from clickwright.devices.virtual_display import VirtualDisplay
from clickwright.errors import ActionError, DeviceError
from clickwright.types import parse_action

pytestmark = pytest.mark.slow


def _alive(display: str) -> bool:
    probe = subprocess.run(["xdpyinfo", "-display", display], capture_output=True)
    return probe.returncode == 0


def _mouse(display: str) -> tuple[int, int]:
    out = subprocess.run(
        ["xdotool", "getmouselocation", "--shell"],
        capture_output=True,
        text=True,
        env=dict(os.environ, DISPLAY=display),
        check=True,
    ).stdout
    values = dict(line.split("=") for line in out.split())
    return int(values["X"]), int(values["Y"])


def test_virtual_display_starts_and_stops():
    with VirtualDisplay(800, 600) as vd:
        assert vd.name.startswith(":") and _alive(vd.name)
    assert not vd.running and not _alive(vd.name)


def test_capture_is_rgb_of_the_whole_screen(device):
    frame = device.capture()
    assert frame.size == (1280, 800) and frame.pixels.shape == (800, 1280, 3)
    assert frame.scale == 1.0 and frame.origin == (0, 0)


def test_clicks_move_the_real_x_pointer(device, display):
    device.perform(parse_action({"type": "click", "target": {"point": [1, 1]}}), point=(321, 456))
    assert _mouse(display.name) == (321, 456)


def test_stable_screen_is_detected(device):
    stable = wait_until_stable(device, timeout=3, quiet=0.2)
    assert stable.settled and stable.waited < 3


def test_android_actions_are_refused_on_the_desktop(device):
    with pytest.raises(ActionError, match="Android action"):
        device.perform(parse_action({"type": "back"}))


def test_a_screen_that_does_not_exist_is_a_clear_error(display):
    from clickwright.devices.desktop import DesktopDevice

    with pytest.raises(DeviceError, match="there is no screen 3"):
        DesktopDevice(screen=3, display=display.name)


def _child(code: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_xvfb_dies_with_its_owner_even_when_killed(how):
    child = _child("""
        import time
        from clickwright.devices.virtual_display import VirtualDisplay
        vd = VirtualDisplay().start()
        print(vd.name, flush=True)
        time.sleep(60)
    """)
    name = child.stdout.readline().strip()
    assert _alive(name)
    child.send_signal(how)
    child.wait(timeout=30)  # a bound, not a timing: a busy machine is slow to tear down
    deadline = time.monotonic() + 30
    while _alive(name) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(name)


def test_missing_tkinter_is_a_clear_error(display):
    child = _child(f"""
        import sys
        sys.modules["tkinter"] = None
        from clickwright.devices.desktop import load_pyautogui
        from clickwright.errors import DeviceError
        try:
            load_pyautogui("{display.name}")
        except DeviceError as exc:
            print(exc)
    """)
    out, errors = child.communicate(timeout=30)
    assert "no tkinter" in out and "python3-tk" in out, (out, errors)


def test_unknown_display_is_a_clear_error():
    child = _child("""
        from clickwright.devices.desktop import DesktopDevice
        from clickwright.errors import DeviceError
        try:
            DesktopDevice(display=":987")
        except DeviceError as exc:
            print(exc)
    """)
    out, errors = child.communicate(timeout=30)
    assert "cannot connect to display ':987'" in out, (out, errors)
