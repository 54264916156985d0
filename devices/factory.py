"""Open a device from a spec, the way python-mss's `mss()` picks its platform class.

A spec says what to drive: `desktop` (the current display, or `--display :N`), `virtual` (a
fresh private Xvfb display, stopped afterwards with what was started on it), `android` or
`android:SERIAL`. Front ends (CLI, panel, scripts) build a `DeviceSpec` and call
`open_device`; only this module knows which driver class serves which spec.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from clickwright.devices.base import Device, wait_until_stable
from clickwright.errors import ClickwrightError, DeviceError

Kind = Literal["desktop", "virtual", "android"]
DEFAULT_SIZE = (1280, 800)


MAX_PIXELS = 7680 * 4320
"""The largest screen (or screenshot) clickwright reads, 8K: a bigger one takes minutes and
gigabytes to parse."""


def parse_size(size: str) -> tuple[int, int]:
    """'1280x800' as (1280, 800), or a one-line error."""
    try:
        width, height = (int(n) for n in size.lower().split("x"))
    except ValueError:
        raise ClickwrightError(f"bad size {size!r}", "use WIDTHxHEIGHT, e.g. 1280x800") from None
    if not (16 <= width <= 16384 and 16 <= height <= 16384):
        raise ClickwrightError(f"bad size {size!r}", "each side must be 16 to 16384 pixels")
    check_screen_size(width, height, f"size {size!r}")
    return width, height


def check_screen_size(width: int, height: int, what: str) -> None:
    """A one-line error when a screen or screenshot is bigger than clickwright reads."""
    if width * height > MAX_PIXELS or max(width, height) > 16384:
        raise ClickwrightError(
            f"{what} is {width}×{height} pixels; clickwright reads up to 7680×4320 "
            f"({MAX_PIXELS / 1e6:.0f} megapixels)",
            "scale it down first",
        )


@dataclass(frozen=True)
class DeviceSpec:
    """What to drive. `screen` is the monitor number on a desktop; `wait` the seconds to wait
    for a phone to appear (and to come back if it drops out)."""

    kind: Kind = "desktop"
    display: str | None = None
    screen: int = 0
    serial: str | None = None
    size: tuple[int, int] = DEFAULT_SIZE
    wait: float = 0.0

    @classmethod
    def parse(
        cls,
        spec: str = "desktop",
        *,
        virtual: bool = False,
        display: str | None = None,
        screen: int = 0,
        size: str | tuple[int, int] = DEFAULT_SIZE,
        wait: float = 0.0,
    ) -> DeviceSpec:
        """The spec a `--device` value and the display options name together; contradictions
        are one-line errors."""
        name, _, rest = spec.strip().partition(":")
        name = name.lower()
        dims = parse_size(size) if isinstance(size, str) else size
        if name == "android":
            if virtual or display:
                raise ClickwrightError(
                    f"--device {spec} cannot be combined with --virtual or --display"
                )
            return cls("android", serial=rest.strip() or None, wait=wait)
        if name not in ("desktop", "virtual"):
            raise DeviceError(
                f"unknown device {spec!r}", "use desktop, virtual, android or android:SERIAL"
            )
        if name == "virtual":
            virtual = True
        if virtual and display:
            raise ClickwrightError("--virtual and --display cannot be used together")
        return cls("virtual" if virtual else "desktop", display, screen, size=dims)


@contextlib.contextmanager
def open_device(spec: DeviceSpec | str = "desktop") -> Iterator[Device]:
    """The device `spec` names, open for the `with` block and closed after it (a virtual
    display is stopped with every program started on it)."""
    if isinstance(spec, str):
        spec = DeviceSpec.parse(spec)
    if spec.kind == "android":
        from clickwright.devices.android import AndroidDevice

        with AndroidDevice(spec.serial, wait=spec.wait) as phone:
            yield phone
        return
    from clickwright.devices.desktop import DesktopDevice

    if spec.kind == "desktop":
        with DesktopDevice(screen=spec.screen, display=spec.display) as device:
            yield device
        return
    from clickwright.devices.virtual_display import VirtualDisplay

    with (
        VirtualDisplay(*spec.size) as display,
        DesktopDevice(screen=spec.screen, display=display.name) as device,
    ):
        try:
            yield device
        finally:
            device.end_launched()


def start_program(
    device: Device, command: str, timeout: float = 30.0
) -> subprocess.Popen[bytes] | None:
    """Launch `command` on the device and wait until its window has drawn; on a phone, start
    the app `command` names (a package or an icon's label)."""
    launch = getattr(device, "launch", None)
    if launch is None:
        raise DeviceError(f"a {device.kind} device cannot launch programs")
    if device.kind == "android":
        launch(command)
        wait_until_stable(device, timeout=10, quiet=0.5)
        return None
    blank = device.capture()
    process: subprocess.Popen[bytes] = launch(command)
    deadline = time.monotonic() + timeout
    while device.capture().same_as(blank):
        if process.poll() is not None:
            raise ClickwrightError(f"{command!r} exited with status {process.returncode}")
        if time.monotonic() > deadline:
            raise ClickwrightError(f"{command!r} showed nothing within {timeout:g} s")
        time.sleep(0.1)
    wait_until_stable(device, timeout=10, quiet=0.5)
    return process
