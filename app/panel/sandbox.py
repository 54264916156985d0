"""The sandbox: a private virtual desktop the panel starts, so the agent works there while the
person keeps their own mouse and keyboard. Its apps and its display stop with the panel."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from pathlib import Path

from clickwright.app.panel.choices import SANDBOX, DeviceChoice, open_desktop
from clickwright.devices.base import Device
from clickwright.devices.factory import start_program
from clickwright.devices.virtual_display import VirtualDisplay

SIZE = (1280, 800)
OTHER_APPS = ("xterm", "mousepad", "gedit", "galculator", "xcalc")
DESKTOP_RGB = (71, 85, 105)


def sample_app(state_out: Path) -> str:
    """The command of the sample app (a customer form) that saves what it holds to `state_out`."""
    from clickwright.app.demo import sample_app_command

    return sample_app_command(state_out)


def app_presets(state_out: Path) -> list[tuple[str, str]]:
    """(name, command) of the apps the sandbox offers: the sample app, and common apps that are
    installed here."""
    found = [(name, name) for name in OTHER_APPS if shutil.which(name)]
    return [("Sample app — customer form", sample_app(state_out)), *found]


class Sandbox:
    def __init__(self, width: int = SIZE[0], height: int = SIZE[1]) -> None:
        self.display = VirtualDisplay(width, height)
        self.apps: list[subprocess.Popen[bytes]] = []

    @property
    def running(self) -> bool:
        return self.display.running

    def choice(self) -> DeviceChoice:
        w, h = self.display.width, self.display.height
        return DeviceChoice(SANDBOX, f"Sandbox desktop ({w}×{h}, private)", self.open_device)

    def open_device(self) -> Device:
        if not self.display.running:
            self.display.start()
            _paint_desktop(self.display.name)
        return open_desktop(0, self.display.name)

    def launch(self, command: str) -> None:
        """Start `command` in the sandbox and wait until its window has drawn (blocks: call it
        off the GUI thread)."""
        with self.open_device() as device:
            self.apps.append(start_program(device, command))

    def stop(self) -> None:
        for app in self.apps:
            if app.poll() is None:
                app.terminate()
        for app in self.apps:
            with contextlib.suppress(subprocess.TimeoutExpired):
                app.wait(timeout=5)
            if app.poll() is None:
                app.kill()
        self.apps.clear()
        self.display.stop()


def _paint_desktop(display: str) -> None:
    """A calm slate desktop instead of Xvfb's black, so the sandbox reads as a desktop."""
    from Xlib.display import Display

    x = Display(display)
    try:
        screen = x.screen()
        red, green, blue = (channel * 257 for channel in DESKTOP_RGB)
        pixel = screen.default_colormap.alloc_color(red, green, blue).pixel
        screen.root.change_attributes(background_pixel=pixel)
        screen.root.clear_area()
        x.sync()
    finally:
        x.close()
