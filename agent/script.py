"""The scripting API: drive a screen from Python by what things say, not where they are.

    from clickwright import connect

    screen = connect(display=":1")
    screen.type("Ada", into="Name")
    screen.click(text="Save")
    screen.press("ctrl+s")
    screen.wait_for(text="Saved")

Every call waits for a still screen, finds its target by text (an input by its label) and waits
up to `timeout` seconds for it to appear, so a script needs no sleeps. Every action goes through
the agent's executor: it is approved by the same policy (what the call names is consented; a
risky element reached only by a point needs `approve_risky=True`), its effect is checked by the
same critic (StepFailed when it had none), and it is logged under `runs/` like a run. It is what
`clickwright demos export --python` writes scripts against.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any, Literal

from PIL import Image

from clickwright.agent.critic import expectation_for
from clickwright.agent.demos.signature import strong_matches
from clickwright.agent.executor import Aim, Executor, Purpose
from clickwright.agent.grounding import closest_texts, rank
from clickwright.agent.runlog import RunLog
from clickwright.agent.safety import Consent
from clickwright.agent.state import RunSettings, RunState
from clickwright.devices.base import Device, wait_until_stable
from clickwright.devices.factory import DeviceSpec, open_device, start_program
from clickwright.errors import StepFailed
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import (
    Action,
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
    describe_action,
    normalize_key,
)

Direction = Literal["up", "down", "left", "right"]


class ScreenSession:
    """A live screen to act on; make one with `connect()`."""

    def __init__(
        self,
        device: Device,
        timeout: float = 10.0,
        closing: Any = None,
        runs_dir: Path | str = "runs",
        approve_risky: bool = False,
    ) -> None:
        self.device = device
        self.timeout = timeout
        self.parser = ScreenParser()
        self._closing = closing
        settings = RunSettings(
            max_steps=1_000_000, wait_timeout=timeout, approve_risky=approve_risky
        )
        log = RunLog(Path(runs_dir), "script", device=device.describe(), planner="script")
        self.state = RunState("script", device, self.parser, log, settings)
        self.executor = Executor(self.state)

    # ---- looking ---------------------------------------------------------------------------

    def look(self) -> Screen:
        """The screen once it is still, parsed into elements."""
        return self.state.observe()

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
        field = None
        if into is not None:
            field = self.find(into, "input")
            action = action.model_copy(update={"target": Target(text=into, kind="input")})
        self._act(action, field, said=f"{into or ''} {text}")

    def press(self, keys: str) -> None:
        """Press a key or a combination: "enter", "ctrl+s", "ctrl+shift+t"."""
        parts = [p for p in keys.replace(" ", "").split("+") if p] or [keys]
        self._act(Hotkey(keys=tuple(normalize_key(p) for p in parts)), None, said=keys)

    def scroll(
        self, direction: Direction = "down", amount: int = 3, within: str | None = None
    ) -> None:
        """Scroll the pane labelled or showing `within` (or the middle of the screen)."""
        pane = self.find(within, "container") if within is not None else None
        width, height = self.device.size
        middle = None if pane is not None else (width // 2, height // 2)
        self._act(Scroll(direction=direction, amount=amount), pane, at=middle)

    def drag(self, source: str, to: str) -> None:
        start, end = self.find(source), self.find(to)
        action = Drag(source=Target(text=source), to=Target(text=to))
        self._act(action, start, end=end.box.center, said=f"{source} {to}")

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
        target = Target(text=text, kind=kind) if text is not None else Target(point=point)
        self._act(make(target=target), element, at=point, said=text or "")
        return element

    def _act(
        self,
        action: Action,
        element: Element | None,
        *,
        at: tuple[int, int] | None = None,
        end: tuple[int, int] | None = None,
        said: str = "",
    ) -> None:
        """Through the executor: approved (the call's own words consent to what they name),
        acted, waited for, judged; StepFailed when the critic saw no effect."""
        state = self.state
        before = state.screen or state.observe()
        if element is None and at is not None:
            element = before.element_at(at)
        point = element.box.center if element is not None and at is None else at
        state.consent = Consent(said)
        words = describe_action(action, element.to_json() if element else None)
        done = self.executor.act(
            action,
            Aim(point, end, element, "named by the script" if said else "a point"),
            before,
            expectation_for(action, element),
            Purpose(words),
        )
        if done.verdict.status == "retry":
            raise StepFailed(f"{words}: {done.verdict.reason}")

    def close(self) -> None:
        if self.state.log.record.outcome == "running":
            self.state.log.finish("done", f"{self.state.log.steps} action(s)")
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
    runs_dir: Path | str = "runs",
    approve_risky: bool = False,
) -> ScreenSession:
    """A session on X display `display` (default $DISPLAY), on monitor `screen`; with
    `virtual=True`, on a fresh private Xvfb display that closes with the session. `launch`
    starts a program there first. Its actions are logged under `runs_dir`."""
    stack = contextlib.ExitStack()
    spec = DeviceSpec.parse(virtual=virtual, display=display, screen=screen)
    device = stack.enter_context(open_device(spec))
    session = ScreenSession(device, timeout, stack, runs_dir, approve_risky)
    if launch:
        try:
            session.launch(launch)
        except BaseException:
            stack.close()
            raise
    return session
