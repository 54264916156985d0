"""The simulated device's shell: the command lines adb's shell and exec services carry, run
against a Phone the way Android's own tools answer them (`input`, `screencap`, `uiautomator`,
`wm`, `dumpsys`, `am`, `monkey`, `ime`, `settings`, `getprop`, `getevent`, `echo`, `rm`).

Output formats follow the real tools closely enough that a client parsing real phones parses
these, including their failures ("ERROR: could not get idle state.", the NullPointerException
`input text` throws for characters the keymap has no key for).
"""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from .phone import ADB_KEYBOARD, APPS, DENSITY, HEIGHT, LATIN_IME, WIDTH, Phone

# The raw panel of the touch screen: twice the display's resolution, in its natural orientation.
PANEL_X, PANEL_Y = WIDTH * 2 - 1, HEIGHT * 2 - 1
TOUCH_DEVICE, KEYS_DEVICE = "/dev/input/event2", "/dev/input/event0"
KEY_NUMBERS = {"3": "HOME", "4": "BACK", "26": "POWER", "62": "SPACE", "66": "ENTER",
               "67": "DEL", "111": "ESCAPE", "123": "MOVE_END", "187": "APP_SWITCH",
               "224": "WAKEUP"}  # fmt: skip
PROGRAMS = frozenset(
    "am dumpsys echo getevent getprop ime input monkey pm rm screencap settings true "
    "uiautomator wm".split()
)
PROPS = {
    "ro.product.model": "Clickwright Sim",
    "ro.product.name": "sdk_phone_sim",
    "ro.product.device": "sim",
    "ro.build.version.release": "14",
    "ro.build.version.sdk": "34",
}


@dataclass
class Result:
    stdout: bytes = b""
    stderr: bytes = b""
    code: int = 0


@dataclass(frozen=True)
class Touch:
    """One scripted gesture on the touch screen, in display pixels of the current orientation."""

    start: tuple[int, int]
    end: tuple[int, int] | None = None  # None: the finger does not move
    seconds: float = 0.08
    pause: float = 0.05  # quiet before the finger comes down (a person looks first)


@dataclass
class Shell:
    phone: Phone
    files: dict[str, bytes] = field(default_factory=dict)
    touches: list[Touch] = field(default_factory=list)
    """What `getevent -lt` plays, once, to the first client that listens."""
    raw_header: int = 16
    """Bytes before the pixels in raw `screencap` output: 16 on Android 9+, 12 before."""

    def run(self, line: str) -> Result | Iterator[bytes]:
        """Run a command line; `getevent -lt` alone is a stream that never ends by itself."""
        words = _split(line)
        if words[:2] == ["getevent", "-lt"] and len(words) == 2:
            return self._getevent_stream()
        out, err, code = b"", b"", 0
        skip = False
        for word_list, joiner in _commands(words):
            if not skip:
                result = self._one([w.replace(STATUS, str(code)) for w in word_list])
                out, err, code = out + result.stdout, err + result.stderr, result.code
            skip = (joiner == "&&" and code != 0) or (joiner == "||" and code == 0)
        return Result(out, err, code)

    def _one(self, words: list[str]) -> Result:
        if not words:
            return Result()
        if words[0] not in PROGRAMS:
            return Result(
                stderr=f"/system/bin/sh: {words[0]}: inaccessible or not found\n".encode(), code=127
            )
        return getattr(self, "_" + words[0])(words[1:])

    # ---- programs -----------------------------------------------------------------------------

    def _echo(self, args: list[str]) -> Result:
        return Result((" ".join(args) + "\n").encode())

    def _true(self, args: list[str]) -> Result:
        return Result()

    def _rm(self, args: list[str]) -> Result:
        for path in (a for a in args if not a.startswith("-")):
            self.files.pop(path, None)
        return Result()

    def _getprop(self, args: list[str]) -> Result:
        if args:
            return Result((PROPS.get(args[0], "") + "\n").encode())
        return Result("".join(f"[{k}]: [{v}]\n" for k, v in PROPS.items()).encode())

    def _wm(self, args: list[str]) -> Result:
        if args[:1] == ["size"]:
            return Result(f"Physical size: {WIDTH}x{HEIGHT}\n".encode())
        if args[:1] == ["density"]:
            return Result(f"Physical density: {DENSITY}\n".encode())
        return Result(stderr=b"Unknown command\n", code=255)

    def _dumpsys(self, args: list[str]) -> Result:
        phone = self.phone
        w, h = phone.size
        if args[:1] == ["display"]:
            return Result(
                "DISPLAY MANAGER (dumpsys display)\n  mOnlyCore=false\n"
                "  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, "
                f"displayId=0, uniqueId='local:0', physicalPort=0, orientation={phone.rotation}, "
                f"logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect(0, 0 - {w}, {h}), "
                f"deviceWidth={w}, deviceHeight={h}}}]\n".encode()
            )
        if args[:1] == ["window"]:
            package = phone.package()
            return Result(
                "WINDOW MANAGER POLICY STATE (dumpsys window policy)\n"
                f"    mDreamingLockscreen={str(phone.locked).lower()}\n"
                f"    isKeyguardShowing={str(phone.locked).lower()}\n"
                f"  mCurrentFocus=Window{{1a2b3c u0 {package}/{package}.MainActivity}}\n".encode()
            )
        if args[:1] == ["power"]:
            return Result(b"POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n")
        return Result(b"")

    def _input(self, args: list[str]) -> Result:
        phone = self.phone
        if args and args[0] in ("touchscreen", "keyboard", "mouse", "dpad", "trackball"):
            args = args[1:]
        if not args:
            return Result(stderr=b"Error: Unknown command: \n", code=255)
        command, rest = args[0], args[1:]
        try:
            if command == "tap":
                phone.tap(float(rest[0]), float(rest[1]))
            elif command in ("swipe", "draganddrop"):
                x1, y1, x2, y2 = (float(v) for v in rest[:4])
                ms = float(rest[4]) if len(rest) > 4 else 300
                if command == "swipe":
                    phone.swipe(x1, y1, x2, y2, ms / 1000)
                else:
                    phone.log.append(f"drag {x1:g} {y1:g} {x2:g} {y2:g}")
            elif command == "text":
                return self._text(rest[0])
            elif command == "keyevent":
                for name in (r for r in rest if r != "--longpress"):
                    phone.key(_keycode(name))
            elif command == "keycombination":
                codes = [_keycode(name) for name in rest]
                if codes[-1] == "A" and codes[0].startswith("CTRL"):
                    phone.select_all()
            else:
                return Result(stderr=f"Error: Unknown command: {command}\n".encode(), code=255)
        except (IndexError, ValueError, KeyError) as exc:
            return Result(stderr=f"Error: bad arguments for {command}: {exc}\n".encode(), code=255)
        return Result()

    def _text(self, text: str) -> Result:
        """`input text`: "%s" is a space; a character the keymap cannot type throws."""
        chars: list[str] = []
        escape = False
        for c in text:
            if escape and c == "s":
                chars[-1], escape = " ", False
                continue
            chars.append(c)
            escape = c == "%"
        if not "".join(chars).isascii():
            return Result(
                stderr=b"Exception occurred while executing 'text':\njava.lang."
                b"NullPointerException: Attempt to get length of null array\n",
                code=255,
            )
        self.phone.type_text("".join(chars))
        return Result()

    def _screencap(self, args: list[str]) -> Result:
        png = "-p" in args
        paths = [a for a in args if a.startswith("/")]
        data = self.phone.png_screencap() if png else self.phone.raw_screencap(self.raw_header)
        if paths:
            self.files[paths[0]] = data
            return Result()
        return Result(data)

    def _uiautomator(self, args: list[str]) -> Result:
        if args[:1] != ["dump"]:
            return Result(stderr=b"Usage: uiautomator <subcommand> [options]\n", code=1)
        phone = self.phone
        if phone.never_idle:
            time.sleep(phone.idle_wait)
            return Result(b"ERROR: could not get idle state.\n")
        time.sleep(0.05)  # a real dump takes a moment
        path = next((a for a in args[1:] if a.startswith("/")), "/sdcard/window_dump.xml")
        xml = phone.hierarchy_xml().encode()
        done = f"UI hierchary dumped to: {path}\n".encode()  # sic: Android's own spelling
        if path == "/dev/tty":
            return Result(xml + done)
        self.files[path] = xml
        return Result(done)

    def _am(self, args: list[str]) -> Result:
        if args[:1] == ["start"]:
            component = args[args.index("-n") + 1] if "-n" in args else ""
            package = component.partition("/")[0]
            if not self.phone.start(package):
                return Result(
                    b"Starting: Intent { cmp=" + component.encode() + b" }\n",
                    b"Error: Activity not started, unable to resolve Intent\n",
                    1,
                )
            return Result(f"Starting: Intent {{ cmp={component} }}\n".encode())
        if args[:1] == ["force-stop"] and args[1:]:
            if self.phone.package() == args[1]:
                self.phone.key("HOME")
            return Result()
        if args[:1] == ["broadcast"]:
            return self._broadcast(args[1:])
        return Result(stderr=b"Error: unknown command\n", code=1)

    def _broadcast(self, args: list[str]) -> Result:
        """ADB Keyboard types what the ADB_INPUT_TEXT / ADB_INPUT_B64 broadcasts carry, but only
        while it is the current input method."""
        action = args[args.index("-a") + 1] if "-a" in args else ""
        message = args[args.index("msg") + 1] if "msg" in args else ""
        phone = self.phone
        if phone.adb_keyboard and phone.ime == ADB_KEYBOARD:
            if action == "ADB_INPUT_B64":
                phone.type_text(base64.b64decode(message).decode())
            elif action == "ADB_INPUT_TEXT":
                phone.type_text(message)
        return Result(
            f"Broadcasting: Intent {{ act={action} flg=0x400000 (has extras) }}\n"
            "Broadcast completed: result=0\n".encode()
        )

    def _monkey(self, args: list[str]) -> Result:
        package = args[args.index("-p") + 1] if "-p" in args else ""
        if not self.phone.start(package):
            return Result(b"** No activities found to run, monkey aborted.\n", code=252)
        return Result(b"Events injected: 1\n## Network stats: elapsed time=9ms\n")

    def _pm(self, args: list[str]) -> Result:
        if args[:2] == ["list", "packages"]:
            return Result("".join(f"package:{a.package}\n" for a in APPS).encode())
        return Result(stderr=b"Unknown command\n", code=255)

    def _ime(self, args: list[str]) -> Result:
        phone = self.phone
        installed = [LATIN_IME, *([ADB_KEYBOARD] if phone.adb_keyboard else [])]
        if args[:1] == ["list"]:
            return Result("".join(f"{name}\n" for name in installed).encode())
        if args[:1] in (["enable"], ["set"]) and args[1:]:
            if args[1] not in installed:
                return Result(
                    stderr=f"Unknown input method {args[1]} cannot be selected for "
                    "user #0\n".encode(),
                    code=255,
                )
            if args[0] == "set":
                phone.ime = args[1]
                return Result(f"Input method {args[1]} selected for user #0\n".encode())
            return Result(f"Input method {args[1]}: now enabled for user #0\n".encode())
        return Result(stderr=b"Unknown command\n", code=255)

    def _settings(self, args: list[str]) -> Result:
        if args == ["get", "secure", "default_input_method"]:
            return Result(f"{self.phone.ime}\n".encode())
        return Result(b"null\n")

    def _getevent(self, args: list[str]) -> Result:
        if not any(a.startswith("-p") for a in args):
            return Result(stderr=b"getevent: only -pl and -lt are simulated\n", code=1)
        return Result(
            f"add device 1: {KEYS_DEVICE}\n"
            '  name:     "gpio-keys"\n'
            "  events:\n"
            "    KEY (0001): KEY_VOLUMEDOWN        KEY_VOLUMEUP          KEY_POWER\n"
            "  input props:\n"
            "    <none>\n"
            f"add device 2: {TOUCH_DEVICE}\n"
            '  name:     "sim_touchscreen"\n'
            "  events:\n"
            "    KEY (0001): BTN_TOUCH\n"
            "    ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, "
            "resolution 0\n"
            "                ABS_MT_TOUCH_MAJOR    : value 0, min 0, max 255, fuzz 0, flat 0, "
            "resolution 0\n"
            f"                ABS_MT_POSITION_X     : value 0, min 0, max {PANEL_X}, fuzz 0, "
            "flat 0, resolution 0\n"
            f"                ABS_MT_POSITION_Y     : value 0, min 0, max {PANEL_Y}, fuzz 0, "
            "flat 0, resolution 0\n"
            "                ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, "
            "resolution 0\n"
            "  input props:\n"
            "    INPUT_PROP_DIRECT\n".encode()
        )

    def _getevent_stream(self) -> Iterator[bytes]:
        """`getevent -lt`: the scripted touches in real time (each also acts on the phone), a key
        press from another input device between them, then silence until the client leaves;
        an empty chunk means "nothing yet"."""
        script, self.touches = self.touches, []
        boot = time.monotonic() - 5000.0  # device uptime starts long before we listen
        for n, touch in enumerate(script):
            time.sleep(touch.pause)
            yield b""
            yield from _key_lines(KEYS_DEVICE, time.monotonic() - boot)
            yield from self._touch_lines(touch, n, boot)
        while True:
            time.sleep(0.1)
            yield b""

    def _touch_lines(self, touch: Touch, n: int, boot: float) -> Iterator[bytes]:
        end = touch.end or touch.start
        steps = max(1, round(touch.seconds / 0.016))
        points = [
            (
                touch.start[0] + (end[0] - touch.start[0]) * i / steps,
                touch.start[1] + (end[1] - touch.start[1]) * i / steps,
            )
            for i in range(steps + 1)
        ]
        began = time.monotonic()
        for i, (x, y) in enumerate(points):
            time.sleep(max(0.0, began + touch.seconds * i / steps - time.monotonic()))
            stamp = time.monotonic() - boot
            raw_x, raw_y = self.to_panel(x, y)
            events = (
                [
                    ("EV_ABS", "ABS_MT_TRACKING_ID", f"{100 + n:08x}"),
                    ("EV_KEY", "BTN_TOUCH", "DOWN"),
                ]
                if i == 0
                else []
            )
            events += [
                ("EV_ABS", "ABS_MT_POSITION_X", f"{raw_x:08x}"),
                ("EV_ABS", "ABS_MT_POSITION_Y", f"{raw_y:08x}"),
                ("EV_ABS", "ABS_MT_TOUCH_MAJOR", "00000006"),
                ("EV_SYN", "SYN_REPORT", "00000000"),
            ]
            yield _lines(TOUCH_DEVICE, stamp, events)
        time.sleep(0.01)
        up = [
            ("EV_ABS", "ABS_MT_TRACKING_ID", "ffffffff"),
            ("EV_KEY", "BTN_TOUCH", "UP"),
            ("EV_SYN", "SYN_REPORT", "00000000"),
        ]
        yield _lines(TOUCH_DEVICE, time.monotonic() - boot, up)
        self.phone.swipe(*touch.start, *end, time.monotonic() - began)

    def to_panel(self, x: float, y: float) -> tuple[int, int]:
        """Display pixels of the current orientation -> raw panel units (natural orientation),
        the inverse of what Android's touch input mapper does."""
        rotation = self.phone.rotation % 4
        nx, ny = {
            0: (x, y),
            1: (WIDTH - y, x),
            2: (WIDTH - x, HEIGHT - y),
            3: (y, HEIGHT - x),
        }[rotation]
        return round(nx * PANEL_X / WIDTH), round(ny * PANEL_Y / HEIGHT)


def _lines(device: str, stamp: float, events: list[tuple[str, str, str]]) -> bytes:
    seconds, micros = int(stamp), int((stamp % 1) * 1e6)
    return "".join(
        f"[{seconds:8d}.{micros:06d}] {device}: {kind:<12.12s} {code:<20.20s} {value}\n"
        for kind, code, value in events
    ).encode()


def _key_lines(device: str, stamp: float) -> Iterator[bytes]:
    for value in ("DOWN", "UP"):
        yield _lines(
            device,
            stamp,
            [("EV_KEY", "KEY_VOLUMEDOWN", value), ("EV_SYN", "SYN_REPORT", "00000000")],
        )


def _keycode(name: str) -> str:
    name = KEY_NUMBERS.get(name, name)
    return name.removeprefix("KEYCODE_")


class _Operator(str):
    """A ;, && or || that was not quoted: it separates commands."""


STATUS = "\x00?"  # where an unquoted $? stood: the previous command's exit status


def _split(line: str) -> list[str]:
    """Words of a command line as sh reads them: '...' is literal, "..." keeps its spaces,
    a backslash escapes a character, and only unquoted ;, && and || separate commands."""
    words: list[str] = []
    word: list[str] = []
    started = False
    i = 0

    def flush() -> None:
        nonlocal word, started
        if started:
            words.append("".join(word))
        word, started = [], False

    while i < len(line):
        c = line[i]
        if c == "'":
            end = line.index("'", i + 1)
            word.append(line[i + 1 : end])
            i, started = end + 1, True
        elif c == '"':
            i += 1
            while line[i] != '"':
                if line[i] == "\\" and line[i + 1] in '"\\$`':
                    i += 1
                word.append(STATUS if line.startswith("$?", i) else line[i])
                i += 2 if line.startswith("$?", i) else 1
            i, started = i + 1, True
        elif c == "\\":
            word.append(line[i + 1])
            i, started = i + 2, True
        elif c.isspace():
            flush()
            i += 1
        elif c in ";&|":
            flush()
            operator = line[i : i + 2] if line[i : i + 2] in ("&&", "||") else c
            words.append(_Operator(operator))
            i += len(operator)
        else:
            word.append(STATUS if line.startswith("$?", i) else c)
            i += 2 if line.startswith("$?", i) else 1
            started = True
    flush()
    return words


def _commands(words: list[str]) -> Iterator[tuple[list[str], str]]:
    """Simple commands and the operator after each (";", "&&", "||" or "" at the end)."""
    current: list[str] = []
    for word in words:
        if isinstance(word, _Operator):
            yield current, word
            current = []
        else:
            current.append(word)
    yield current, ""
