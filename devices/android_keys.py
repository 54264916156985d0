"""Keys and text as Android's `input` tool takes them: key names to KEYCODE_*, and text to
`input text` command lines that survive the device shell and `input`'s own "%s" rule.

`input text` can only type what the device's virtual keyboard map has keys for (ASCII); other
text goes through the ADB Keyboard IME's broadcast (see `AndroidDevice.type_text`).
"""

from __future__ import annotations

import base64
import shlex
import string

from clickwright.errors import ActionError
from clickwright.types import normalize_key

ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"

# clickwright key names (clickwright.types.NAMED_KEYS) and the phone's own buttons. "home" is the
# phone's Home button, not the start of a line: on a phone that is what "press Home" means.
KEYCODES: dict[str, str] = {
    "enter": "ENTER", "esc": "ESCAPE", "tab": "TAB", "space": "SPACE", "backspace": "DEL",
    "delete": "FORWARD_DEL", "insert": "INSERT", "home": "HOME", "end": "MOVE_END",
    "pageup": "PAGE_UP", "pagedown": "PAGE_DOWN", "up": "DPAD_UP", "down": "DPAD_DOWN",
    "left": "DPAD_LEFT", "right": "DPAD_RIGHT", "ctrl": "CTRL_LEFT", "alt": "ALT_LEFT",
    "shift": "SHIFT_LEFT", "win": "META_LEFT", "command": "META_LEFT", "capslock": "CAPS_LOCK",
    "printscreen": "SYSRQ", "menu": "MENU", "volumeup": "VOLUME_UP",
    "volumedown": "VOLUME_DOWN", "volumemute": "VOLUME_MUTE",
    "back": "BACK", "appswitch": "APP_SWITCH", "recents": "APP_SWITCH", "power": "POWER",
    "wakeup": "WAKEUP", "search": "SEARCH", "camera": "CAMERA",
    ",": "COMMA", ".": "PERIOD", "-": "MINUS", "=": "EQUALS", "/": "SLASH", ";": "SEMICOLON",
    "'": "APOSTROPHE", "[": "LEFT_BRACKET", "]": "RIGHT_BRACKET", "\\": "BACKSLASH",
    "`": "GRAVE", "+": "PLUS", "@": "AT", "*": "STAR", "#": "POUND",
} | {f"f{n}": f"F{n}" for n in range(1, 13)} | {
    c: c.upper() for c in string.ascii_lowercase + string.digits
}  # fmt: skip


def keycode(name: str) -> str:
    """KEYCODE_* for a key name ("Enter", "ctrl", "back", "app switch", "a"), or ActionError."""
    plain = name.strip().lower().replace(" ", "").replace("_", "")
    if plain in KEYCODES:
        return "KEYCODE_" + KEYCODES[plain]
    normal = normalize_key(name)  # raises ActionError for a key no keyboard has
    if normal in KEYCODES:
        return "KEYCODE_" + KEYCODES[normal]
    raise ActionError(f"the key {name!r} has no Android key code")


def key_command(keys: tuple[str, ...] | list[str]) -> str:
    """One key as a key event; several as one chord (`input keycombination`, Android 12+)."""
    codes = " ".join(keycode(k) for k in keys)
    return f"input keyevent {codes}" if len(keys) == 1 else f"input keycombination {codes}"


def text_commands(text: str) -> str:
    """A shell line that types ASCII `text` exactly with `input text`.

    Three things break naive `input text`: the device shell splits words and expands $, quotes
    and the like (so every piece is shell-quoted); `input` turns "%s" into a space and takes one
    word only (so spaces are written "%s", and a literal "%s" is typed in two pieces); and it
    cannot type newlines or tabs (those become Enter and Tab key events).
    """
    if not text.isascii():
        raise ActionError("input text types ASCII only", "non-ASCII text needs ADB Keyboard")
    if any(c not in string.printable or c in "\r\x0b\x0c" for c in text):
        raise ActionError(f"cannot type control characters in {text!r}")
    commands: list[str] = []
    for i, line in enumerate(text.split("\n")):
        if i:
            commands.append("input keyevent KEYCODE_ENTER")
        for j, cell in enumerate(line.split("\t")):
            if j:
                commands.append("input keyevent KEYCODE_TAB")
            for piece in _pieces(cell):
                commands.append("input text " + shlex.quote(piece.replace(" ", "%s")))
    return " && ".join(commands)


def _pieces(text: str) -> list[str]:
    """Split so that no piece holds '%' followed by 's': `input` would read that as a space."""
    pieces, start = [], 0
    for i in range(1, len(text)):
        if text[i - 1] == "%" and text[i] == "s":
            pieces.append(text[start:i])
            start = i
    pieces.append(text[start:])
    return [p for p in pieces if p]


def adb_keyboard_command(text: str) -> str:
    """The ADB Keyboard broadcast that types any Unicode `text` (base64: nothing to escape)."""
    encoded = base64.b64encode(text.encode()).decode()
    return f"am broadcast -a ADB_INPUT_B64 --es msg {encoded}"
