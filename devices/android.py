"""The Android device: a phone or emulator driven over adb through adbutils.

adbutils talks to the adb server's socket itself, so the `adb` server must be running but no
`adb` command is run. Capture is `screencap`'s raw framebuffer over exec-out decoded with numpy
(a PNG fallback for devices whose raw output is unusual); input is the `input` tool; elements
come from `uiautomator dump`; recording reads the touch screen with `getevent`. Every failure
a user can cause (no server, no phone, an unauthorised, offline, locked or vanished phone)
becomes a one-line DeviceError.
"""

from __future__ import annotations

import io
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numpy as np
from adbutils import AdbClient, AdbDevice, AdbError, AdbTimeout
from PIL import Image, UnidentifiedImageError

from clickwright.a11y import A11yTree
from clickwright.devices.a11y import parse_uiautomator
from clickwright.devices.android_keys import (
    ADB_KEYBOARD,
    adb_keyboard_command,
    key_command,
    text_commands,
)
from clickwright.devices.android_touch import GestureReader, find_touch_panel
from clickwright.devices.base import Device, Point, wait_until_stable
from clickwright.devices.geometry import Monitor
from clickwright.devices.input_events import InputEvent
from clickwright.errors import ActionError, DeviceError
from clickwright.types import Action, Frame

T = TypeVar("T")
DUMP_PATH = "/data/local/tmp/clickwright-ui.xml"
PACKAGE = re.compile(r"[A-Za-z]\w*(\.[A-Za-z]\w*)+(/[\w.$]+)?")
SCROLL_STEP = 0.12  # fraction of the screen one scroll "click" moves the content
COMMAND_TIMEOUT = 30.0
_LOCKED = re.compile(r"(mDreamingLockscreen|isKeyguardShowing|mShowingLockscreen)=true")
_SERVER_HINT = "start it with: adb start-server (adb is in Android platform-tools)"
_STATES = {
    "unauthorized": (
        "has not authorised this computer",
        "unlock it and accept the 'Allow USB debugging?' prompt, then run again",
    ),
    "offline": ("is offline", "reconnect its cable, or run: adb reconnect"),
}
# `screencap` pixel formats (android.graphics.PixelFormat): bytes per pixel.
_FORMATS = {1: 4, 2: 4, 3: 3, 4: 2, 5: 4}


class NotAnswering(DeviceError):
    """The phone took longer than allowed to answer (it may still be working on it)."""


def adb_client(host: str | None = None, port: int | None = None) -> AdbClient:
    """A client for the adb server (ANDROID_ADB_SERVER_HOST/PORT or 127.0.0.1:5037), checked
    reachable first: adbutils would otherwise try to start a server of its own."""
    host = host or os.environ.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1")
    port = port or int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        raise DeviceError(f"cannot reach the adb server at {host}:{port}", _SERVER_HINT) from None
    return AdbClient(host, port, socket_timeout=COMMAND_TIMEOUT)


def device_states(client: AdbClient) -> dict[str, str]:
    """Serial -> state ("device", "unauthorized", "offline", ...) of every phone adb sees."""
    try:
        return {info.serial: info.state for info in client.list()}
    except AdbError as exc:
        raise DeviceError(f"the adb server did not answer: {exc}", _SERVER_HINT) from None


def choose_serial(client: AdbClient, serial: str | None = None) -> str:
    """The serial to use: the one asked for (or ANDROID_SERIAL), else the only phone connected;
    a DeviceError saying what to do when that phone is missing, not ready or not alone."""
    serial = serial or os.environ.get("ANDROID_SERIAL") or None
    listed = device_states(client)
    listing = ", ".join(f"{s} ({state})" for s, state in listed.items()) or "none"
    if serial is None:
        if not listed:
            raise DeviceError(
                "no Android device is connected",
                "plug one in with USB debugging on, or start an emulator (check: adb devices)",
            )
        if len(listed) > 1:
            raise DeviceError(
                f"{len(listed)} Android devices are connected: {listing}",
                "choose one with --device android:SERIAL",
            )
        serial = next(iter(listed))
    if serial not in listed:
        raise DeviceError(
            f"no Android device {serial!r} is connected", f"connected: {listing} (adb devices)"
        )
    if listed[serial] != "device":
        raise _not_ready(serial, listed[serial])
    return serial


def _not_ready(serial: str, state: str) -> DeviceError:
    what, hint = _STATES.get(state, (f"is in {state} mode", "reboot it into Android"))
    return DeviceError(f"the Android device {serial} {what}", hint)


def wait_for_device(
    serial: str | None = None,
    timeout: float = 60.0,
    host: str | None = None,
    port: int | None = None,
) -> str:
    """Wait until the phone (or the only phone) is connected and ready; its serial."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return choose_serial(adb_client(host, port), serial)
        except DeviceError as exc:
            if time.monotonic() >= deadline:
                raise DeviceError(
                    f"no Android device came online within {timeout:g} s ({exc.args[0]})",
                    exc.hint,
                ) from None
        time.sleep(0.25)


def decode_raw(data: bytes) -> np.ndarray:
    """RGB pixels of `screencap`'s raw output: a 12-byte header (width, height, pixel format;
    Android 9+ adds a 4-byte colour space) and the pixels, rows packed."""
    if len(data) < 12:
        raise ValueError(f"raw screencap too short ({len(data)} bytes)")
    width, height, fmt = np.frombuffer(data, "<u4", 3)
    bpp = _FORMATS.get(int(fmt))
    if bpp is None:
        raise ValueError(f"unknown screencap pixel format {fmt}")
    header = len(data) - int(width) * int(height) * bpp
    if header not in (12, 16):
        raise ValueError(f"raw screencap of {width}x{height} has {len(data)} bytes")
    pixels = np.frombuffer(data, np.uint8, offset=header).reshape(int(height), int(width), bpp)
    if bpp == 2:  # RGB_565
        value = pixels.view("<u2")[:, :, 0].astype(np.uint16)
        channels = ((value >> 11) & 31) * 255 // 31, ((value >> 5) & 63) * 255 // 63
        return np.dstack([*channels, (value & 31) * 255 // 31]).astype(np.uint8)
    rgb = pixels[:, :, 2::-1] if fmt == 5 else pixels[:, :, :3]  # 5 is BGRA_8888
    return np.ascontiguousarray(rgb)


def decode_png(data: bytes) -> np.ndarray:
    try:
        with Image.open(io.BytesIO(data)) as image:
            return np.asarray(image.convert("RGB"))
    except (UnidentifiedImageError, OSError) as exc:
        raise ValueError(f"screencap -p gave no PNG ({exc})") from None


class AndroidDevice(Device):
    """One phone. Frame pixels are the display's pixels in its current rotation, which is also
    what `input` takes, so points need no mapping."""

    kind = "android"

    def __init__(
        self,
        serial: str | None = None,
        *,
        host: str | None = None,
        port: int | None = None,
        wait: float = 0.0,
        dump_timeout: float = 3.0,
    ) -> None:
        self.host, self.port, self.wait = host, port, wait
        self.dump_timeout = dump_timeout
        if wait:
            serial = wait_for_device(serial, wait, host, port)
        self._client = adb_client(host, port)
        self.serial = choose_serial(self._client, serial)
        self._adb: AdbDevice = self._client.device(self.serial)
        self.raw_capture = True
        if _LOCKED.search(self.shell("dumpsys window")):
            raise DeviceError(
                f"the screen of Android device {self.serial} is locked",
                "unlock the phone, then run again",
            )
        density = re.findall(r"density: (\d+)", self.shell("wm density"))
        self.density = int(density[-1]) if density else 160  # the override, when there is one
        self.model = self.shell("getprop ro.product.model").strip()
        self._size = self.capture().size

    # ---- talking to the phone -----------------------------------------------------------------

    def _call(self, doing: str, call: Callable[[], T]) -> T:
        """Run one adb exchange. A phone that vanished ends the run with a clear DeviceError,
        or, when `wait` is set, is waited for and the exchange tried once more."""
        try:
            return self._translated(doing, call)
        except NotAnswering:
            raise
        except DeviceError:
            if not self.wait:
                raise
        wait_for_device(self.serial, self.wait, self.host, self.port)
        return self._translated(doing, call)

    def _translated(self, doing: str, call: Callable[[], T]) -> T:
        try:
            return call()
        except (AdbTimeout, TimeoutError):
            raise NotAnswering(
                f"the Android device {self.serial} stopped answering while {doing}",
                "check the phone and its cable, then run again",
            ) from None
        except (AdbError, OSError, EOFError) as exc:
            raise self._diagnose(doing, exc) from None

    def _diagnose(self, doing: str, exc: BaseException) -> DeviceError:
        """Why an exchange failed: the server or the phone went away, or adb itself failed."""
        try:
            state = device_states(adb_client(self.host, self.port)).get(self.serial)
        except DeviceError as server:
            return server
        if state is None:
            return DeviceError(
                f"the Android device {self.serial} disconnected while {doing}",
                "reconnect it and run again; --wait-device waits for it to come back",
            )
        if state != "device":
            return _not_ready(self.serial, state)
        return DeviceError(f"adb failed while {doing} on {self.serial}: {exc}")

    def shell(self, command: str, timeout: float = COMMAND_TIMEOUT, check: bool = False) -> str:
        """Run a device shell command; its output (stdout and stderr). With `check`, a command
        that fails (`input keycombination` before Android 12, say) raises ActionError."""
        result = self._call(
            f"running {command.split()[0]!r}",
            lambda: self._adb.shell2(command, timeout=timeout, v2=True),
        )
        if check and result.returncode != 0:
            said = (result.output.strip().splitlines() or ["no output"])[-1]
            raise ActionError(f"the phone could not run {command[:60]!r}: {said}")
        return result.output

    def exec_out(self, command: str, timeout: float = COMMAND_TIMEOUT) -> bytes:
        """A command's binary stdout, untouched (adb's exec service: no pty, no line endings).

        The capture path, so it reads on a lean connection of its own: adbutils' helpers add a
        version query and a 10 ms pause to every command and read 4 KB at a time, which was
        most of a raw capture's time.
        """

        def run() -> bytes:
            connection = self._client.make_connection(timeout)
            try:
                connection.send_command(f"host:transport:{self.serial}")
                connection.check_okay()
                connection.send_command("exec:" + command)
                connection.check_okay()
                chunks = []
                while chunk := connection.conn.recv(1 << 20):
                    chunks.append(chunk)
            finally:
                connection.conn.close()
            if not chunks:
                raise EOFError(f"{command!r} returned nothing")
            return b"".join(chunks)

        return self._call(f"running {command.split()[0]!r}", run)

    # ---- the screen ---------------------------------------------------------------------------

    def screens(self) -> list[Monitor]:
        return [Monitor(0, 0, *self._size)]

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    def capture(self) -> Frame:
        """Raw framebuffer (about 4 bytes a pixel, no encoding on the phone); PNG from then on if
        this phone's raw output cannot be read."""
        pixels = None
        if self.raw_capture:
            try:
                pixels = decode_raw(self.exec_out("screencap"))
            except ValueError:
                self.raw_capture = False
        if pixels is None:
            try:
                pixels = decode_png(self.exec_out("screencap -p"))
            except ValueError as exc:
                raise DeviceError(f"cannot capture the screen of {self.serial}: {exc}") from None
        self._size = (pixels.shape[1], pixels.shape[0])
        return Frame(pixels, time=time.time())

    def rotation(self) -> int:
        """0-3: quarter turns of the display from its natural orientation."""
        return self._call("reading the rotation", self._adb.rotation)

    def accessibility(self) -> A11yTree | None:
        """The uiautomator view hierarchy (screen pixels = frame pixels), or None when the UI
        would not go idle within `dump_timeout` seconds (animations, video): pixels only then.

        `uiautomator dump` fails with "could not get idle state" while anything animates, and
        may take ten seconds to say so; it is retried until the time limit, each try cut off
        at what remains of it.
        """
        start = time.monotonic()
        deadline = start + self.dump_timeout
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                said = self.shell(f"uiautomator dump {DUMP_PATH}", timeout=remaining)
            except NotAnswering:
                return None  # still waiting for an idle UI when the time was up
            if "dumped to" in said:
                xml = self._call(
                    "reading the view hierarchy", lambda: self._adb.sync.read_text(DUMP_PATH)
                )
                try:
                    nodes = parse_uiautomator(xml)
                except DeviceError:
                    continue
                return A11yTree(nodes, elapsed=time.monotonic() - start)
            time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))
        return None

    # ---- input --------------------------------------------------------------------------------

    def perform(self, action: Action, point: Point | None = None, end: Point | None = None) -> None:
        kind = action.type
        at = self._clamp(point) if point else None
        if at is None and kind in ("click", "double_click", "right_click", "long_press", "drag"):
            raise ActionError(f"'{kind}' needs a point to act on")
        tap = f"tap {at[0]} {at[1]}" if at else ""
        if kind == "click":
            self._input(tap)
        elif kind == "double_click":
            self._input(tap, tap)
        elif kind in ("right_click", "long_press"):  # a phone's context menu is a long press
            ms = round(getattr(action, "duration", 1.0) * 1000)
            self._input(f"swipe {at[0]} {at[1]} {at[0]} {at[1]} {ms}")
        elif kind == "type":
            if at:
                self._input(tap)
            if action.clear:
                self._input("keyevent KEYCODE_MOVE_END " + " ".join(["KEYCODE_DEL"] * 80))
            self.type_text(action.text)
            if action.enter:
                self._input("keyevent KEYCODE_ENTER")
        elif kind == "hotkey":
            self.press(*action.keys)
        elif kind == "scroll":
            # Content scrolls down when the finger moves up: the swipe goes against `direction`.
            reach = min(0.8, SCROLL_STEP * action.amount)
            self._swipe(at, _opposite(action.direction), reach, centred=True)
        elif kind == "swipe":
            self._swipe(at, action.direction, action.distance, centred=at is None)
        elif kind == "drag":
            if end is None:
                raise ActionError("'drag' needs a point to drop on")
            to = self._clamp(end)
            self._input(f"draganddrop {at[0]} {at[1]} {to[0]} {to[1]} 1500")
        elif kind in ("back", "home"):
            self._input(f"keyevent KEYCODE_{kind.upper()}")
        elif kind == "launch":
            self.launch(action.app)
        elif kind not in ("wait", "done", "fail", "ask_user"):
            raise ActionError(f"the Android device cannot perform '{kind}'")

    def _input(self, *commands: str) -> None:
        """Android's `input` tool, several commands in one round trip; a refusal raises."""
        self.shell(" && ".join("input " + command for command in commands), check=True)

    def _clamp(self, point: Point) -> Point:
        width, height = self._size
        return (min(max(int(point[0]), 0), width - 1), min(max(int(point[1]), 0), height - 1))

    def _swipe(self, at: Point | None, direction: str, reach: float, centred: bool) -> None:
        """A finger movement `reach` of the screen long in `direction`, from `at` or centred on
        it (the screen's centre when there is no point); slow enough not to fling."""
        width, height = self._size
        x, y = at or (width // 2, height // 2)
        dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
        length = reach * (height if dy else width)
        if centred:
            x, y = x - dx * length / 2, y - dy * length / 2
        x1, y1 = self._clamp((round(x), round(y)))
        x2, y2 = self._clamp((round(x + dx * length), round(y + dy * length)))
        self._input(f"swipe {x1} {y1} {x2} {y2} 400")

    def press(self, *keys: str) -> None:
        """Press a key, or several together; besides keyboard keys the phone's own buttons:
        back, home, appswitch, power, wakeup, volumeup, camera, search."""
        self.shell(key_command(keys), check=True)

    def type_text(self, text: str) -> None:
        """ASCII through `input text`; anything else through the ADB Keyboard IME, switched on
        for the typing and back off afterwards."""
        if text.isascii():
            if text:
                self.shell(text_commands(text), check=True)
            return
        if ADB_KEYBOARD not in self.shell("ime list -a -s"):
            raise ActionError(
                f"cannot type non-ASCII text ({text!r}) on {self.serial}: `input text` types "
                "ASCII only",
                "install ADB Keyboard (github.com/senzhk/ADBKeyBoard: adb install "
                "ADBKeyboard.apk); clickwright switches to it while it types",
            )
        previous = self.shell("settings get secure default_input_method").strip()
        self.shell(f"ime enable {ADB_KEYBOARD}; ime set {ADB_KEYBOARD}", check=True)
        try:
            self.shell(adb_keyboard_command(text), check=True)
        finally:
            if previous and previous != ADB_KEYBOARD and previous != "null":
                self.shell(f"ime set {previous}", check=True)

    def launch(self, app: str) -> None:
        """Start an app by package ("com.android.settings", or "package/activity"), or tap the
        icon labelled `app` on the home screen."""
        if PACKAGE.fullmatch(app):
            if "/" in app:
                said = self.shell(f"am start -n {app}")
                failed = "Error" in said
            else:
                said = self.shell(f"monkey -p {app} -c android.intent.category.LAUNCHER 1")
                failed = "Events injected" not in said
            if failed:
                raise ActionError(
                    f"cannot start {app} on {self.serial}: {said.strip().splitlines()[-1]}",
                    "list the installed packages with: adb shell pm list packages",
                )
            return
        self._input("keyevent KEYCODE_HOME")
        wait_until_stable(self, timeout=3)
        tree = self.accessibility() or []
        wanted = app.strip().casefold()
        icons = [n for n in tree if n.label.casefold() == wanted and n.visible]
        if not icons:
            raise ActionError(
                f"no app labelled {app!r} on the home screen of {self.serial}",
                "name its package instead, e.g. com.android.settings (adb shell pm list packages)",
            )
        best = max(icons, key=lambda n: n.interactive)
        x, y = best.box.center
        self._input(f"tap {x} {y}")

    # ---- recording ----------------------------------------------------------------------------

    def input_events(
        self, stop: threading.Event, ready: threading.Event | None = None
    ) -> Iterator[InputEvent]:
        """Taps, long presses and swipes the person makes on the phone's touch screen, read from
        `getevent` (the rotation is read once, when listening starts).

        getevent never flushes its output, so on a plain pipe the events would wait in its
        buffer: it runs on a pty (`shell,pty:`, there since Android 7 with shell_v2; older
        phones give every shell a pty anyway), which also ends it when we hang up.
        """
        panel = find_touch_panel(self.shell("getevent -pl"))
        reader = GestureReader(panel, self._size, self.rotation(), self.density)
        features = self._call("reading adb features", self._adb.get_features)
        service = "shell,pty:" if "shell_v2" in features.split(",") else "shell:"

        def listen() -> Any:
            connection = self._adb.open_transport(timeout=COMMAND_TIMEOUT)
            connection.send_command(service + "getevent -lt")
            connection.check_okay()
            return connection

        connection = self._call("starting getevent", listen)
        connection.conn.settimeout(0.2)
        pending = b""
        if ready is not None:
            ready.set()
        try:
            while not stop.is_set():
                try:
                    chunk = connection.conn.recv(65536)
                except TimeoutError:
                    continue
                except OSError as exc:
                    raise self._diagnose("recording", exc) from None
                if not chunk:
                    raise self._diagnose("recording", EOFError("getevent ended"))
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    event = reader.feed(line.decode("utf-8", "replace"))
                    if event is not None:
                        yield event
        finally:
            connection.close()

    def describe(self) -> dict[str, Any]:
        return {
            **super().describe(),
            "serial": self.serial,
            "model": self.model,
            "density": self.density,
        }


def _opposite(direction: str) -> str:
    return {"up": "down", "down": "up", "left": "right", "right": "left"}[direction]
