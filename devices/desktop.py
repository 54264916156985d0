"""The desktop device: capture with one long-lived mss instance, input through pyautogui.

Works on X11 (a real or virtual display) and Windows. pyautogui binds to an X display when it is
imported, so it is imported here lazily, after the display is known.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from types import ModuleType
from typing import Any

import numpy as np

from clickwright.devices.base import Device, Point
from clickwright.devices.geometry import Mapping, Monitor, choose_monitor
from clickwright.errors import ActionError, DeviceError
from clickwright.types import ANDROID_ONLY, Action, Frame

SCROLL_CLICK_PIXELS = 1  # pyautogui scrolls in wheel clicks on X11 and Windows alike


def _enable_windows_dpi_awareness() -> None:
    """Without this, Windows scales our screenshots and clicks differently on HiDPI monitors."""
    import ctypes

    try:
        ctypes.windll.shcore.SetProcessDpiAwareness(2)  # per-monitor aware
    except (AttributeError, OSError):
        ctypes.windll.user32.SetProcessDPIAware()


def load_pyautogui(display: str | None = None) -> ModuleType:
    """pyautogui bound to `display`, or a DeviceError that says what is missing."""
    if display:
        os.environ["DISPLAY"] = display
    elif sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        raise DeviceError(
            "no display: DISPLAY is not set",
            "run inside a desktop session, pass --display :N, or use --virtual",
        )
    try:
        import pyautogui
    except SystemExit as exc:  # mouseinfo exits the interpreter when tkinter is missing
        raise DeviceError(
            "pyautogui cannot start because this Python has no tkinter",
            "install it: sudo apt-get install -y python3-tk python3-dev "
            f"(pyautogui said: {str(exc.code).splitlines()[0][:80]})",
        ) from None
    except Exception as exc:  # Xlib raises its own errors for an unreachable display
        raise DeviceError(
            f"cannot connect to display {os.environ.get('DISPLAY', '')!r}: {exc}".strip(),
            "check the display name, or use --virtual",
        ) from None
    if display and sys.platform.startswith("linux"):
        _rebind_x11(pyautogui, display)
    pyautogui.FAILSAFE = True
    pyautogui.PAUSE = 0.02
    return pyautogui


def _rebind_x11(pyautogui: ModuleType, display: str) -> None:
    """pyautogui opens its X connection once at import; give it a fresh one to `display`.

    Always fresh: a new Xvfb often reuses a stopped one's name, and the old connection is dead.
    """
    from Xlib.display import Display as XDisplay

    backend = pyautogui._pyautogui_x11  # the X11 platform module of pyautogui
    old, backend._display = backend._display, XDisplay(display)
    with contextlib.suppress(Exception):
        old.close()


class DesktopDevice(Device):
    """One monitor of a desktop (`screen` 0 is the first)."""

    kind = "desktop"

    def __init__(self, screen: int = 0, display: str | None = None) -> None:
        if sys.platform == "win32":
            _enable_windows_dpi_awareness()
        self.display = display or os.environ.get("DISPLAY")
        self._gui = load_pyautogui(display)
        import mss

        try:
            self._mss = mss.MSS(display=display) if display else mss.MSS()
        except mss.ScreenShotError as exc:
            raise DeviceError(f"cannot capture display {display or ''}: {exc}") from None
        self.screen = screen
        self.monitor = choose_monitor(self.screens(), screen)
        self._mapping: Mapping | None = None
        self.launched: list[subprocess.Popen[bytes]] = []

    def screens(self) -> list[Monitor]:
        return [
            Monitor(m["left"], m["top"], m["width"], m["height"]) for m in self._mss.monitors[1:]
        ]

    @property
    def size(self) -> tuple[int, int]:
        return (self.monitor.width, self.monitor.height)

    def capture(self) -> Frame:
        m = self.monitor
        shot = self._mss.grab({"left": m.left, "top": m.top, "width": m.width, "height": m.height})
        pixels = np.asarray(shot)[:, :, 2::-1]  # BGRA -> RGB view
        pixels = np.ascontiguousarray(pixels)
        self._mapping = Mapping(m, pixels.shape[1], pixels.shape[0])
        return Frame(pixels, origin=(m.left, m.top), scale=self._mapping.scale, time=time.time())

    @property
    def mapping(self) -> Mapping:
        if self._mapping is None:
            self.capture()
        assert self._mapping is not None
        return self._mapping

    def perform(self, action: Action, point: Point | None = None, end: Point | None = None) -> None:
        gui = self._gui
        kind = action.type
        if kind in ANDROID_ONLY:
            raise ActionError(f"'{kind}' is an Android action; the desktop has no such input")
        at = self.mapping.to_input(*point) if point else None
        if kind in ("click", "double_click", "right_click"):
            self._require(at, kind)
            {"click": gui.click, "double_click": gui.doubleClick, "right_click": gui.rightClick}[
                kind
            ](*at)
        elif kind == "type":
            if at:
                gui.click(*at)
            if action.clear:
                gui.hotkey("command" if sys.platform == "darwin" else "ctrl", "a")
            self._type_text(action.text)
            if action.enter:
                gui.press("enter")
        elif kind == "hotkey":
            gui.hotkey(*action.keys)
        elif kind == "scroll":
            if at:
                gui.moveTo(*at)
            clicks = action.amount * SCROLL_CLICK_PIXELS
            if action.direction in ("up", "down"):
                gui.scroll(clicks if action.direction == "up" else -clicks)
            else:
                gui.hscroll(clicks if action.direction == "right" else -clicks)
        elif kind == "drag":
            self._require(at, kind)
            self._require(end, kind)
            to = self.mapping.to_input(*end)
            gui.moveTo(*at)
            gui.dragTo(*to, duration=0.4, button="left")
        elif kind == "launch":
            self.launch(action.app)
        elif kind not in ("wait", "done", "fail", "ask_user"):
            raise ActionError(f"the desktop device cannot perform '{kind}'")

    @staticmethod
    def _require(point: Any, kind: str) -> None:
        if point is None:
            raise ActionError(f"'{kind}' needs a point to act on")

    def _type_text(self, text: str) -> None:
        """pyautogui silently drops characters outside ASCII, so those go through xdotool."""
        if text.isascii():
            self._gui.write(text, interval=0.005)
            return
        if sys.platform.startswith("linux") and shutil.which("xdotool"):
            env = dict(os.environ, DISPLAY=self.display or os.environ.get("DISPLAY", ""))
            subprocess.run(
                ["xdotool", "type", "--delay", "10", "--", text], env=env, check=True, timeout=60
            )
            return
        raise ActionError(
            "cannot type non-ASCII text on this platform",
            "install xdotool on Linux (sudo apt-get install -y xdotool)",
        )

    def launch(self, app: str) -> subprocess.Popen[bytes]:
        """Start a program on this device's display, detached from our terminal."""
        env = dict(os.environ)
        env.setdefault("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1")  # Qt apps publish their tree
        if self.display:
            env["DISPLAY"] = self.display
            env["QT_QPA_PLATFORM"] = "xcb"  # not offscreen or Wayland: it must show on this display
            env.pop("WAYLAND_DISPLAY", None)
        try:
            process = subprocess.Popen(
                shlex.split(app),
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )
        except (OSError, ValueError) as exc:
            raise ActionError(f"cannot launch {app!r}: {exc}") from None
        self.launched.append(process)
        return process

    def end_launched(self) -> None:
        """Stop the programs this device started (before their private display goes away)."""
        for process in self.launched:
            if process.poll() is None:
                process.terminate()
        for process in self.launched:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
        self.launched.clear()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "display": self.display, "screen": self.screen}

    def close(self) -> None:
        mss_instance, self._mss = getattr(self, "_mss", None), None
        if mss_instance is not None:
            mss_instance.close()
