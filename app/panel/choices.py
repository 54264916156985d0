"""The devices a run can work on: each monitor of this desktop, the sandbox, Android phones.

A choice opens a fresh device for each run (and one for the live preview); opening a desktop
device binds pyautogui to its display, so the device a run uses is always the one opened last.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from clickwright.devices.base import Device
from clickwright.errors import DeviceError

SANDBOX = "sandbox"


@dataclass(frozen=True)
class DeviceChoice:
    key: str
    """"desktop:0", "sandbox", "android:SERIAL": what --device and the settings file say."""
    label: str
    open: Callable[[], Device]
    display: str | None = None
    """The X display it shows, for desktops: the panel keeps out of the way on its own."""
    area: tuple[int, int, int, int] | None = None
    """The monitor's left, top, width, height on that display."""


def open_desktop(screen: int, display: str | None) -> Device:
    """A desktop device on `display`. DesktopDevice points DISPLAY at the display it drives; the
    panel's own is put back, so what the panel opens (a report in a browser) shows where the
    person is."""
    from clickwright.devices.desktop import DesktopDevice

    own = os.environ.get("DISPLAY")
    try:
        return DesktopDevice(screen=screen, display=display)
    finally:
        if own is not None:
            os.environ["DISPLAY"] = own


def desktop_choices(display: str | None) -> list[DeviceChoice]:
    """One choice per monitor of the panel's own display; none without a display."""
    if not display:
        return []
    try:
        with open_desktop(0, display) as device:
            monitors = device.screens()
    except DeviceError:
        return []
    choices = []
    for number, m in enumerate(monitors):
        which = f" — screen {number + 1}" if len(monitors) > 1 else ""
        choices.append(
            DeviceChoice(
                f"desktop:{number}",
                f"This desktop{which} ({m.width}×{m.height})",
                lambda n=number: open_desktop(n, display),
                display,
                (m.left, m.top, m.width, m.height),
            )
        )
    return choices


def android_choices() -> list[DeviceChoice]:
    """Each phone adb sees; none when the Android driver or the adb server is not there."""
    try:
        from clickwright.devices.android import AndroidDevice, adb_client, device_states
    except ImportError:
        return []
    try:
        states = device_states(adb_client())
    except DeviceError:
        return []
    return [
        DeviceChoice(
            f"android:{serial}",
            f"Android {serial}" + ("" if state == "device" else f" ({state})"),
            lambda s=serial: AndroidDevice(s),
        )
        for serial, state in states.items()
    ]
