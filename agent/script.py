"""The scripting API: drive a screen from Python by what things say, not where they are.

    from clickwright import connect

    screen = connect(display=":1")
    screen.type("Ada", into="Name")
    screen.click(text="Save")
    screen.press("ctrl+s")
    screen.wait_for(text="Saved")

Every call waits for a still screen, finds its target by text (an input by its label) and waits
up to `timeout` seconds for it to appear, so a script needs no sleeps. It is what
`clickwright demos export --python` writes scripts against.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any, Literal

from PIL import Image

from clickwright.agent.demos.signature import strong_matches
from clickwright.agent.grounding import closest_texts, rank
from clickwright.devices.base import Device, wait_until_stable
from clickwright.devices.factory import DeviceSpec, open_device, start_program
from clickwright.errors import StepFailed
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import (
    Click,
    DoubleClick,
    Drag,
    Element,
    Hotkey,
    RightClick,
    Screen,
    Scroll,
    Target,
    Type,
    normalize_key,
)

Direction = Literal["up", "down", "left", "right"]


class ScreenSession:
    """A live screen to act on; make one with `connect()`."""

    def __init__(self, device: Device, timeout: float = 10.0, closing: Any = None) -> None:
        self.device = device
        self.timeout = timeout
        self.parser = ScreenParser()
        self._closing = closing

    # ---- looking ---------------------------------------------------------------------------

    def look(self) -> Screen:
        """The screen once it is still, parsed into elements."""
        return self.parser.parse(wait_until_stable(self.device).frame)

    def find(self, text: str, kind: str | None = None, timeout: float | None = None) -> Element:
        """The element best matching `text` (and `kind`), waiting for it to appear; a field
        is found by its label. StepFailed says what the screen shows instead."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            screen = self.look()
            candidates = strong_matches(rank(screen, text, kind), text)
            if candidates:
                return candidates[0].element
            if time.monotonic() > deadline:
                near = ", ".join(repr(t) for t in closest_texts(screen, text))
                raise StepFailed(
                    f"nothing on screen matches '{text}'" + (f" (closest: {near})" if near else "")
                )

    def wait_for(self, text: str, timeout: float | None = None) -> Element:
        """Wait until `text` shows on screen; returns the element showing it."""
        return self.find(text, None, timeout)

    def screenshot(self, path: str | Path) -> Path:
        Image.fromarray(wait_until_stable(self.device).frame.pixels).save(path)
        return Path(path)

    # ---- acting ----------------------------------------------------------------------------

    def click(
        self,
        text: str | None = None,
        *,
        kind: str | None = None,
        point: tuple[int, int] | None = None,
    ) -> Element | None:
        """Click the element showing `text` (a radio, a tab, a menu, a button…), or `point`."""
        return self._point_at(Click, text, kind, point)

    def double_click(
        self,
        text: str | None = None,
        *,
        kind: str | None = None,
        point: tuple[int, int] | None = None,
    ) -> Element | None:
        return self._point_at(DoubleClick, text, kind, point)

    def right_click(
        self,
        text: str | None = None,
        *,
        kind: str | None = None,
        point: tuple[int, int] | None = None,
    ) -> Element | None:
        return self._point_at(RightClick, text, kind, point)

    def type(
        self, text: str, into: str | None = None, *, enter: bool = False, clear: bool = False
    ) -> None:
        """Type `text` into the field labelled `into` (or where the keyboard focus is);
        `clear` replaces what the field held, `enter` presses Enter after."""
        action = Type(text=text, enter=enter, clear=clear)
        point = None
        if into is not None:
            field = self.find(into, "input")
            action = action.model_copy(update={"target": Target(text=into, kind="input")})
            point = field.box.center
        self._act(action, point)

    def press(self, keys: str) -> None:
        """Press a key or a combination: "enter", "ctrl+s", "ctrl+shift+t"."""
        parts = [p for p in keys.replace(" ", "").split("+") if p] or [keys]
        self._act(Hotkey(keys=tuple(normalize_key(p) for p in parts)), None)

    def scroll(
        self, direction: Direction = "down", amount: int = 3, within: str | None = None
    ) -> None:
        """Scroll the pane labelled or showing `within` (or the middle of the screen)."""
        if within is not None:
            point = self.find(within, "container").box.center
        else:
            width, height = self.device.size
            point = (width // 2, height // 2)
        self._act(Scroll(direction=direction, amount=amount), point)

    def drag(self, source: str, to: str) -> None:
        start, end = self.find(source), self.find(to)
        action = Drag(source=Target(text=source), to=Target(text=to))
        self._act(action, start.box.center, end.box.center)

    def launch(self, command: str) -> None:
        """Start a program on this screen and wait until its window has drawn."""
        start_program(self.device, command)

    # ---- plumbing ----------------------------------------------------------------------------

    def _point_at(
        self,
        make: type[Click | DoubleClick | RightClick],
        text: str | None,
        kind: str | None,
        point: tuple[int, int] | None,
    ) -> Element | None:
        if (text is None) == (point is None):
            raise TypeError("give either text= or point=")
        element = self.find(text, kind) if text is not None else None
        at = element.box.center if element is not None else point
        target = Target(text=text, kind=kind) if text is not None else Target(point=point)
        self._act(make(target=target), at)
        return element

    def _act(
        self, action: Any, point: tuple[int, int] | None, end: tuple[int, int] | None = None
    ) -> None:
        self.device.perform(action, point, end)
        wait_until_stable(self.device)

    def close(self) -> None:
        closing, self._closing = self._closing, None
        if closing is not None:
            closing.close()

    def __enter__(self) -> ScreenSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(
    display: str | None = None,
    *,
    virtual: bool = False,
    screen: int = 0,
    launch: str | None = None,
    timeout: float = 10.0,
) -> ScreenSession:
    """A session on X display `display` (default $DISPLAY), on monitor `screen`; with
    `virtual=True`, on a fresh private Xvfb display that closes with the session. `launch`
    starts a program there first."""
    stack = contextlib.ExitStack()
    spec = DeviceSpec.parse(virtual=virtual, display=display, screen=screen)
    device = stack.enter_context(open_device(spec))
    session = ScreenSession(device, timeout, closing=stack)
    if launch:
        try:
            session.launch(launch)
        except BaseException:
            stack.close()
            raise
    return session
