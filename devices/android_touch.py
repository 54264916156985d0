"""Recording on a phone: the touch screen's raw `getevent -lt` events turned into gestures
(tap, long press, swipe) at frame pixels.

The panel reports raw units in its natural (portrait) orientation; `getevent -pl` gives their
range. A point is normalised by that range, rotated as Android's touch input mapper rotates it
for the current display rotation, and scaled to the frame, so it lands where a screenshot shows
the finger, whatever the panel's resolution, the display's override size or the rotation.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from clickwright.devices.input_events import InputEvent
from clickwright.errors import DeviceError

LONG_PRESS = 0.5  # seconds: Android's long-press timeout
TOUCH_SLOP_DP = 8  # how far a finger may wander and still tap (ViewConfiguration's touch slop)

_DEVICE = re.compile(r"^add device \d+: (\S+)")
_AXIS = re.compile(r"^\s*(?:ABS \(0003\):)?\s*(ABS_\w+)\s*: value -?\d+, min (-?\d+), max (-?\d+)")
_EVENT = re.compile(r"^\[\s*(\d+)\.(\d+)\]\s+(\S+):\s+(\S+)\s+(\S+)\s+(\S+)")


@dataclass(frozen=True)
class TouchPanel:
    """The input device that is the touch screen, with the raw range of each axis."""

    device: str
    x_axis: str  # ABS_MT_POSITION_X (multi-touch) or ABS_X (single-touch panels)
    y_axis: str
    x_range: tuple[int, int]
    y_range: tuple[int, int]


def find_touch_panel(description: str) -> TouchPanel:
    """The touch screen among the devices `getevent -pl` lists (the first with position axes)."""
    axes: dict[str, dict[str, tuple[int, int]]] = {}
    device = ""
    for line in description.splitlines():
        if match := _DEVICE.match(line):
            device = match.group(1)
            axes[device] = {}
        elif device and (match := _AXIS.match(line)):
            axes[device][match.group(1)] = (int(match.group(2)), int(match.group(3)))
    for path, found in axes.items():
        for x, y in (("ABS_MT_POSITION_X", "ABS_MT_POSITION_Y"), ("ABS_X", "ABS_Y")):
            if x in found and y in found:
                return TouchPanel(path, x, y, found[x], found[y])
    raise DeviceError(
        "no touch screen found among the phone's input devices",
        "recording needs a touch screen that `adb shell getevent -pl` lists",
    )


class GestureReader:
    """Feeds on `getevent -lt` lines; gives an InputEvent each time a finger lifts.

    One finger is followed (the first down); other fingers of a multi-touch gesture are ignored.
    """

    def __init__(
        self,
        panel: TouchPanel,
        frame_size: tuple[int, int],
        rotation: int = 0,
        density: int = 160,
    ) -> None:
        self.panel = panel
        self.frame_size = frame_size
        self.rotation = rotation % 4
        self.slop = TOUCH_SLOP_DP * density / 160
        self._clock: float | None = None  # wall time minus device uptime
        self._slot = 0
        self._finger_slot: int | None = None
        self._raw: list[int | None] = [None, None]
        self._down: tuple[float, tuple[int, int]] | None = None
        self._last: tuple[int, int] | None = None
        self._far = False
        self._lifted = False

    def feed(self, line: str) -> InputEvent | None:
        match = _EVENT.match(line)
        if match is None or match.group(3).rstrip(":") != self.panel.device:
            return None
        stamp = int(match.group(1)) + int(match.group(2)) / 1e6
        if self._clock is None:
            self._clock = time.time() - stamp
        kind, code, value = match.group(4), match.group(5), match.group(6)
        if code == "ABS_MT_SLOT":
            self._slot = int(value, 16)
        elif code == "ABS_MT_TRACKING_ID":
            if value == "ffffffff":
                self._lifted = self._lifted or self._slot == self._finger_slot
            elif self._finger_slot is None:
                self._finger_slot = self._slot
        elif code == "BTN_TOUCH" and kind == "EV_KEY":
            if value == "UP":
                self._lifted = True
            elif self._finger_slot is None:
                self._finger_slot = self._slot
        elif code in (self.panel.x_axis, self.panel.y_axis):
            if self._finger_slot in (None, self._slot):
                self._raw[code == self.panel.y_axis] = int(value, 16)
        elif code == "SYN_REPORT":
            return self._report(stamp)
        return None

    def _report(self, stamp: float) -> InputEvent | None:
        """A frame of the gesture is complete: move the finger, or end the gesture."""
        if self._finger_slot is not None and None not in self._raw:
            point = self.to_frame(*self._raw)  # type: ignore[arg-type]
            if self._down is None:
                self._down = (stamp, point)
            start = self._down[1]
            self._far = self._far or max(abs(point[0] - start[0]), abs(point[1] - start[1])) > (
                self.slop
            )
            self._last = point
        if not self._lifted:
            return None
        event = self._gesture(stamp)
        self._finger_slot, self._down, self._last = None, None, None
        self._far = self._lifted = False
        self._raw = [None, None]
        return event

    def _gesture(self, stamp: float) -> InputEvent | None:
        if self._down is None or self._last is None:
            return None
        began, (x, y) = self._down
        duration = stamp - began
        when = began + (self._clock or 0.0)
        if self._far:
            return InputEvent("swipe", when, x, y, end=self._last, duration=duration)
        kind = "long_press" if duration >= LONG_PRESS else "tap"
        return InputEvent(kind, when, x, y, duration=duration)

    def to_frame(self, raw_x: int, raw_y: int) -> tuple[int, int]:
        """Raw panel units -> frame pixels in the current rotation."""
        (x0, x1), (y0, y1) = self.panel.x_range, self.panel.y_range
        u = (raw_x - x0) / (x1 - x0 + 1)
        v = (raw_y - y0) / (y1 - y0 + 1)
        u, v = ((u, v), (v, 1 - u), (1 - u, 1 - v), (1 - v, u))[self.rotation]
        width, height = self.frame_size
        return (min(width - 1, round(u * width)), min(height - 1, round(v * height)))
