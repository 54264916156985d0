"""The Device interface: the few things every platform must provide."""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from clickwright.a11y import A11yTree
from clickwright.devices.geometry import Monitor
from clickwright.devices.input_events import InputEvent
from clickwright.errors import DeviceError
from clickwright.types import Action, Frame

Point = tuple[int, int]


class Device(ABC):
    """A screen to capture and an input to drive. Points are always frame pixels."""

    kind: str = "device"

    @abstractmethod
    def capture(self) -> Frame: ...

    @abstractmethod
    def perform(self, action: Action, point: Point | None = None, end: Point | None = None) -> None:
        """Carry out one action; `point` is where it acts, `end` where a drag or swipe ends."""

    @abstractmethod
    def screens(self) -> list[Monitor]: ...

    @property
    @abstractmethod
    def size(self) -> tuple[int, int]: ...

    def accessibility(self) -> A11yTree | None:
        """The platform's accessibility tree of what is on screen, in screen coordinates, when
        it offers one (the parsers fuse it with the pixels); None where it has none."""
        return None

    def clipboard(self) -> str | None:
        """The text on the device's clipboard (what a copy just put there; "" when it holds
        none), or None where it cannot be read: the agent then works from the pixels alone."""
        return None

    def input_events(
        self, stop: threading.Event, ready: threading.Event | None = None
    ) -> Iterator[InputEvent]:
        """What the person at this device does, as it happens, until `stop` is set: what the
        recorder listens to. `ready` is set once nothing the person does can be missed any more
        (the recorder says "recording" only then). Devices that cannot listen say so."""
        raise DeviceError(f"recording is not supported on a {self.kind} device")

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "size": list(self.size)}

    def close(self) -> None:  # noqa: B027 - most devices hold nothing to release
        """Release the device; safe to call twice."""

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Stable:
    """The outcome of waiting for the screen to settle."""

    frame: Frame
    settled: bool
    waited: float
    captures: int


def wait_until_stable(
    device: Device,
    timeout: float = 5.0,
    quiet: float = 0.25,
    interval: float = 0.05,
    seen: Callable[[Frame], None] | None = None,
) -> Stable:
    """Capture until nothing has changed for `quiet` seconds, or `timeout` passes; `seen` gets
    every capture (a live view).

    Waiting for quiet rather than sleeping a fixed time makes fast UIs fast and slow UIs correct;
    the quiet window also covers an app that has not yet started to repaint after an action.
    """
    start = time.monotonic()
    frame = device.capture()
    if seen is not None:
        seen(frame)
    captures = 1
    last_change = start
    while True:
        now = time.monotonic()
        if now - last_change >= quiet:
            return Stable(frame, True, now - start, captures)
        if now - start >= timeout:
            return Stable(frame, False, now - start, captures)
        time.sleep(interval)
        current = device.capture()
        if seen is not None:
            seen(current)
        captures += 1
        if not current.same_as(frame):
            last_change = time.monotonic()
        frame = current
