"""The desktop device: capture with one long-lived mss instance, input through pyautogui.

Works on X11 (a real or virtual display) and Windows. pyautogui binds to an X display when it is
imported, so it is imported here lazily, after the display is known.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np

from clickwright.a11y import A11yTree
from clickwright.devices import clipboard
from clickwright.devices.a11y import accessible_launch, read_atspi
from clickwright.devices.base import Device, Point
from clickwright.devices.geometry import Mapping, Monitor, choose_monitor
from clickwright.devices.input_events import InputEvent
from clickwright.errors import ActionError, DeviceError
from clickwright.types import ANDROID_ONLY, Action, Box, Frame, normalize_key

CLICKS = {
    "click": ("left", 1),
    "double_click": ("left", 2),
    "triple_click": ("left", 3),
    "right_click": ("right", 1),
    "middle_click": ("middle", 1),
}
"""Pointer actions as (button, clicks) for pyautogui."""
SCROLL_CLICK_PIXELS = 1  # pyautogui scrolls in wheel clicks on X11 and Windows alike
DRAG_STEPS = 12  # pointer moves between a drag's press and release
DRAG_PAUSE = 0.1  # seconds held still after the press, over the drop, and after the release
# pynput's key names that differ from clickwright's (left/right variants lose their suffix first)
PYNPUT_KEYS = {
    "cmd": "win",
    "page_up": "pageup",
    "page_down": "pagedown",
    "caps_lock": "capslock",
    "print_screen": "printscreen",
    "media_volume_up": "volumeup",
    "media_volume_down": "volumedown",
    "media_volume_mute": "volumemute",
}
X_KEYSYMS = {0xFE20: "tab"}  # ISO_Left_Tab: what Shift+Tab sends on X11


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
    width, height = pyautogui.size()  # the corners of this display, not the one at import
    right, bottom = width - 1, height - 1
    pyautogui.FAILSAFE_POINTS[:] = [(0, 0), (0, bottom), (right, 0), (right, bottom)]
    return pyautogui


def off_corner(point: tuple[int, int], size: tuple[int, int]) -> tuple[int, int]:
    """`point` (input coordinates) on the screen and one pixel clear of its corners: a pointer
    left in a corner trips pyautogui's fail-safe on the next action, which must mean a person
    threw it there to stop the run, never that a replayed or a model's point landed there."""
    width, height = size
    x, y = min(max(int(point[0]), 0), width - 1), min(max(int(point[1]), 0), height - 1)
    if x in (0, width - 1) and y in (0, height - 1):
        x, y = (1 if x == 0 else width - 2), (1 if y == 0 else height - 2)
    return x, y


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
        self._running: set[int] = set()
        """Launched programs seen running: one of these that dies has crashed."""
        self._focused = ""
        self._leave_corner()

    def _leave_corner(self) -> None:
        """A pointer some earlier program left in a fail-safe corner would stop this run
        before its first action: move it one pixel in (without the fail-safe check)."""
        gui = self._gui
        at = tuple(gui.position())
        safe = off_corner(at, gui.size())
        if at != safe:
            gui.platformModule._moveTo(*safe)

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
        at = self._input(point)
        if kind in CLICKS:
            self._require(at, kind)
            button, clicks = CLICKS[kind]
            with self._held(action.keys), self._alone():
                gui.click(*at, clicks=clicks, interval=0.05, button=button)
        elif kind == "hover":
            self._require(at, kind)
            with self._alone():
                gui.moveTo(*at)
        elif kind == "hold_key":
            with self._held(action.keys):
                time.sleep(action.duration)
        elif kind == "type":
            if at:
                with self._alone():
                    gui.click(*at)
            command = "command" if sys.platform == "darwin" else "ctrl"
            if action.clear:
                gui.hotkey(command, "a")
            if action.paste:
                clipboard.write(self.display, action.text)
                gui.hotkey(command, "v")
            else:
                self._type_text(action.text)
            if action.enter:
                gui.press("enter")
        elif kind == "hotkey":
            gui.hotkey(*action.keys)
        elif kind == "scroll":
            if at:
                with self._alone():
                    gui.moveTo(*at)
            clicks = action.amount * SCROLL_CLICK_PIXELS
            with self._held(action.keys):
                if action.direction in ("up", "down"):
                    gui.scroll(clicks if action.direction == "up" else -clicks)
                else:
                    gui.hscroll(clicks if action.direction == "right" else -clicks)
        elif kind == "drag":
            self._require(at, kind)
            self._require(end, kind)
            self._drag(at, self._input(end))
        elif kind == "launch":
            self.launch(action.app)
        elif kind not in ("wait", "done", "fail", "ask_user"):
            raise ActionError(f"the desktop device cannot perform '{kind}'")

    def _drag(self, start: tuple[int, int], end: tuple[int, int] | None) -> None:
        """Pressed, nudged past the toolkit's drag threshold, moved in steps, held still over
        the drop, released: what HTML drag and drop, sortable lists and text selection all
        need to see (a jump straight to the end is a click to most of them)."""
        assert end is not None
        self._move(start)
        time.sleep(DRAG_PAUSE)
        self._gui.mouseDown(button="left")
        try:
            x0, y0 = start
            for n in range(1, DRAG_STEPS + 1):
                self._move((round(x0 + (end[0] - x0) * n / DRAG_STEPS),
                            round(y0 + (end[1] - y0) * n / DRAG_STEPS)))  # fmt: skip
                time.sleep(DRAG_PAUSE / 4)
            self._move((end[0] + 1, end[1]))
            self._move(end)
            time.sleep(DRAG_PAUSE)
        finally:
            self._gui.mouseUp(button="left")
        time.sleep(DRAG_PAUSE)

    def _move(self, to: tuple[int, int]) -> None:
        with self._alone():
            self._gui.moveTo(*to)

    @contextlib.contextmanager
    def _alone(self) -> Iterator[None]:
        """The X server held for one pointer move: pyautogui's fail-safe looks at the pointer,
        then moves it, and a person's throw into a corner landing between the two was undone
        by the move and never seen. Held, the throw lands before the look (and stops the run)
        or after the move (and stays there for the next look)."""
        backend = getattr(self._gui, "_pyautogui_x11", None)
        if backend is None:
            yield
            return
        backend._display.grab_server()
        backend._display.sync()  # held before the look, not when the request is next sent
        try:
            yield
        finally:
            backend._display.ungrab_server()
            backend._display.flush()

    def _input(self, point: Point | None) -> tuple[int, int] | None:
        """A frame point as where the pointer goes, never in a fail-safe corner."""
        if point is None:
            return None
        return off_corner(self.mapping.to_input(*point), self._gui.size())

    @contextlib.contextmanager
    def _held(self, keys: tuple[str, ...]) -> Iterator[None]:
        """Keys held down for the block, released whatever happens in it."""
        down: list[str] = []
        try:
            for key in keys:
                self._gui.keyDown(key)
                down.append(key)
            yield
        finally:
            for key in reversed(down):
                self._gui.keyUp(key)

    @staticmethod
    def _require(point: Any, kind: str) -> None:
        if point is None:
            raise ActionError(f"'{kind}' needs a point to act on")

    def _type_text(self, text: str) -> None:
        """pyautogui silently drops characters outside ASCII, so those go through xdotool, at
        40 ms a key: xdotool remaps a spare keycode for each such character, and at 10 ms an
        app under load now and then read a character after the mapping had moved on."""
        if text.isascii():
            self._gui.write(text, interval=0.005)
            return
        if sys.platform.startswith("linux") and shutil.which("xdotool"):
            env = dict(os.environ, DISPLAY=self.display or os.environ.get("DISPLAY", ""))
            subprocess.run(
                ["xdotool", "type", "--delay", "40", "--", text], env=env, check=True, timeout=60
            )
            return
        raise ActionError(
            "cannot type non-ASCII text on this platform",
            "install xdotool on Linux (sudo apt-get install -y xdotool)",
        )

    def clipboard(self) -> str | None:
        return clipboard.read(self.display)

    def accessibility(self) -> A11yTree | None:
        """The AT-SPI tree of the active window on this monitor (Linux only)."""
        if not sys.platform.startswith("linux"):
            return None
        m = self.monitor
        box = Box(m.left, m.top, m.width, m.height)
        return read_atspi(box, timeout=0.5, scope="active", display=self.display)

    def vanished(self, window: bool = True) -> str:
        """Why the program this device works in is gone, or "": a program it launched that
        crashed (seen running, then ended with an error or a signal) or is stopped; with
        `window`, also the window that had the keyboard focus closing with none taking over.
        A program that exits cleanly is not gone by itself (a task may quit it)."""
        for process in self.launched:
            code = process.poll()
            if code is None:
                if _process_state(process.pid) in ("T", "t"):
                    return f"{_program(process)} is stopped and does not respond"
                self._running.add(process.pid)
            elif process.pid in self._running and code != 0:
                how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
                return f"{_program(process)} {how}"
        if not window or not sys.platform.startswith("linux"):
            return ""
        title, before = self.window_title(), self._focused
        self._focused = title
        if before and not title:
            return f"the window '{before}' has gone and no window has the keyboard focus"
        return ""

    def launch(self, app: str) -> subprocess.Popen[bytes]:
        """Start a program on this device's display, detached from our terminal, publishing
        its accessibility tree (a browser's pages too: `accessible_launch`)."""
        try:
            command, env = accessible_launch(shlex.split(app), dict(os.environ))
            if self.display:
                env["DISPLAY"] = self.display
                env["QT_QPA_PLATFORM"] = "xcb"  # it must show on this display, not offscreen
                env.pop("WAYLAND_DISPLAY", None)
            process = subprocess.Popen(
                command,
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

    def input_events(
        self, stop: threading.Event, ready: threading.Event | None = None
    ) -> Iterator[InputEvent]:
        """Real mouse and keyboard events on this monitor, through pynput, until `stop` is set.

        Pointer moves are reported only while a button is held (the path of a drag): the recorder
        needs presses, not every wiggle. Points are frame pixels, like everything else.
        """
        try:
            from pynput import keyboard, mouse
        except ImportError as exc:
            raise DeviceError(f"cannot listen to input: {exc}".splitlines()[0]) from None
        heard: queue.Queue[InputEvent] = queue.Queue()
        mapping, held = self.mapping, set()

        def at(x: float, y: float) -> tuple[int, int] | None:
            return mapping.to_frame(x, y) if mapping.monitor.contains(x, y) else None

        def on_click(x: float, y: float, button: Any, pressed: bool, *_: Any) -> None:
            point = at(x, y)
            if point is None and pressed:
                return  # a press on another monitor is not on this screen
            point = point or mapping.to_frame(
                min(max(x, mapping.monitor.left), mapping.monitor.left + mapping.monitor.width - 1),
                min(max(y, mapping.monitor.top), mapping.monitor.top + mapping.monitor.height - 1),
            )
            (held.add if pressed else held.discard)(button.name)
            kind = "down" if pressed else "up"
            heard.put(InputEvent(kind, time.time(), *point, button=button.name))

        def on_move(x: float, y: float, *_: Any) -> None:
            if held and (point := at(x, y)):
                heard.put(InputEvent("move", time.time(), *point))

        def on_scroll(x: float, y: float, dx: int, dy: int, *_: Any) -> None:
            if point := at(x, y):
                heard.put(InputEvent("scroll", time.time(), *point, dx=dx, dy=dy))

        def on_key(down: bool) -> Any:
            def handle(key: Any, *_: Any) -> None:
                if named := _key_name(key):
                    name, char = named
                    kind = "key_down" if down else "key_up"
                    heard.put(InputEvent(kind, time.time(), key=name, char=char if down else None))

            return handle

        listeners = [
            mouse.Listener(on_click=on_click, on_move=on_move, on_scroll=on_scroll),
            keyboard.Listener(on_press=on_key(True), on_release=on_key(False)),
        ]
        for listener in listeners:
            listener.start()
        try:
            for listener in listeners:
                listener.wait()
            if ready is not None:
                ready.set()
            while not stop.is_set() or not heard.empty():
                try:
                    yield heard.get(timeout=0.1)
                except queue.Empty:
                    continue
        finally:
            for listener in listeners:
                listener.stop()

    def window_title(self) -> str:
        """The title of the window that has the keyboard focus ("" when none can be told)."""
        if not sys.platform.startswith("linux"):
            return ""
        from Xlib import error
        from Xlib.display import Display as XDisplay

        if getattr(self, "_x", None) is None:
            self._x = XDisplay(self.display)
        try:
            net_name = self._x.intern_atom("_NET_WM_NAME")  # UTF-8; WM_NAME may be undecodable
            window = self._x.get_input_focus().focus  # an int for "nobody" or "the root"
            while hasattr(window, "get_wm_name"):
                prop = window.get_full_property(net_name, 0)
                name = prop.value if prop is not None else window.get_wm_name()
                if name:
                    return name if isinstance(name, str) else name.decode(errors="replace")
                parent = window.query_tree().parent
                if not parent or parent == self._x.screen().root:
                    break
                window = parent
        except (error.XError, error.ConnectionClosedError, AttributeError):
            pass
        return ""

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "display": self.display, "screen": self.screen}

    def close(self) -> None:
        """Release the connections; one to a display that has gone away fails to close, and
        that is no reason to lose the run's report."""
        mss_instance, self._mss = getattr(self, "_mss", None), None
        x_display, self._x = getattr(self, "_x", None), None
        for connection in (mss_instance, x_display):
            if connection is not None:
                with contextlib.suppress(Exception):
                    connection.close()


def _program(process: subprocess.Popen[bytes]) -> str:
    """A launched program as a person names it: 'mousepad', or the module of `python -m`."""
    words = [str(w) for w in process.args] if isinstance(process.args, list) else [""]
    name = os.path.basename(words[0])
    if name.startswith("python") and len(words) > 2 and words[1] == "-m":
        name = words[2]
    return f"the program '{name}'"


def _process_state(pid: int) -> str:
    """The kernel's one-letter state of a process (Linux), "" where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return ""


def _key_name(key: Any) -> tuple[str, str | None] | None:
    """pynput's key as (clickwright key name, character typed or None); None for keys
    clickwright has no name for (Num Lock, media keys…)."""
    char = getattr(key, "char", None)
    if char is not None and not char.isprintable():
        char = None  # Windows reports Ctrl+S as the control character \x13
    name = getattr(key, "name", None)
    if name is not None:  # a pynput Key: ctrl_l, page_up, space…
        name = PYNPUT_KEYS.get(name, name.removesuffix("_l").removesuffix("_r").removesuffix("_gr"))
        char = " " if name == "space" else None
    elif char is not None:
        name = char.lower()
    else:
        vk = getattr(key, "vk", None)
        name = X_KEYSYMS.get(vk) if vk is not None else None
        if name is None and vk is not None and 0x20 < vk < 0x7F:
            name = chr(vk).lower()  # a letter or digit whose character was not given
    try:
        return (normalize_key(name), char) if name else None
    except ActionError:
        return None
