"""The desktop's clipboard: read after a copy, written before a paste.

On X11 the clipboard belongs to the display the device drives (which may not be this process's
`DISPLAY`), so it goes through xclip with that display; elsewhere through pyperclip (which
pyautogui already brings). A clipboard that cannot be reached reads as None: callers fall back
to working from the pixels.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

from clickwright.errors import DeviceError

TIMEOUT = 3.0


def _x11(display: str | None) -> dict[str, str] | None:
    if not sys.platform.startswith("linux") or shutil.which("xclip") is None:
        return None
    return dict(os.environ, DISPLAY=display or os.environ.get("DISPLAY", ""))


def read(display: str | None) -> str | None:
    """The clipboard's text ("" when it holds none), or None when it cannot be read."""
    env = _x11(display)
    if env is not None:
        try:
            done = subprocess.run(
                ["xclip", "-selection", "clipboard", "-o", "-t", "UTF8_STRING"],
                env=env, capture_output=True, timeout=TIMEOUT, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return None
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
    try:
        import pyperclip

        return pyperclip.paste()
    except Exception:  # noqa: BLE001 - no clipboard mechanism on this system
        return None


def write(display: str | None, text: str) -> None:
    """Put `text` on the clipboard (xclip stays behind to hand it out until something else
    takes the clipboard, as a program that copied does)."""
    env = _x11(display)
    if env is not None:
        try:
            subprocess.run(
                ["xclip", "-selection", "clipboard", "-i"], input=text.encode("utf-8"), env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT, check=True,
            )  # fmt: skip
        except (subprocess.SubprocessError, OSError) as e:
            raise DeviceError(f"could not put text on the clipboard: {e}") from None
        deadline = time.monotonic() + TIMEOUT  # xclip's child takes the clipboard a moment later
        while read(display) != text:
            if time.monotonic() > deadline:
                raise DeviceError("could not put text on the clipboard: nothing took it")
            time.sleep(0.02)
        return
    try:
        import pyperclip

        pyperclip.copy(text)
    except Exception as e:  # noqa: BLE001 - pyperclip raises its own kinds per platform
        raise DeviceError(
            f"could not put text on the clipboard: {e}",
            "install xclip on Linux (sudo apt-get install -y xclip)",
        ) from None
