"""The device the agent drives, as the panel watches it.

Every frame the agent captures and every action it takes are reported to the panel (live view,
Step), a device that vanishes mid-run (a phone unplugged, a display gone) becomes a one-line
DeviceError instead of a crash, and after the person took over the screen an action is carried
out only where the screen still looks as the agent saw it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from clickwright.agent.state import Stopped
from clickwright.app.panel.wrapper import DeviceWrapper
from clickwright.devices.base import Device, Point
from clickwright.errors import ClickwrightError, DeviceError
from clickwright.types import Action, Frame

GUARD_RADIUS = 24
"""Half the side of the square around a target that must be unchanged after a take over."""


class WatchedDevice(DeviceWrapper):
    def __init__(
        self,
        inner: Device,
        on_frame: Callable[[Frame], None],
        on_action: Callable[[Action, Point | None], None],
    ) -> None:
        super().__init__(inner)
        self.on_frame = on_frame
        self.on_action = on_action
        self._seen: Frame | None = None
        self._before_takeover: Frame | None = None

    def taken_over(self) -> None:
        """The person used the screen: the next target is checked against what the agent saw
        (the last frame before the pause) before anything is done there."""
        self._before_takeover = self._seen

    def capture(self) -> Frame:
        frame = self._call("capture the screen", self.inner.capture)
        self._seen = frame
        self.on_frame(frame)
        return frame

    def perform(self, action: Action, point: Point | None = None, end: Point | None = None) -> None:
        if self._before_takeover is not None:
            self._check_unchanged(point)
        self.on_action(action, point)
        self._call(f"carry out {action.type}", lambda: self.inner.perform(action, point, end))

    def _check_unchanged(self, point: Point | None) -> None:
        seen, self._before_takeover = self._before_takeover, None
        now = self.capture()
        if point is None or seen is None or seen.pixels.shape != now.pixels.shape:
            return
        x, y, r = point[0], point[1], GUARD_RADIUS
        area = (slice(max(y - r, 0), y + r), slice(max(x - r, 0), x + r))
        if not np.array_equal(seen.pixels[area], now.pixels[area]):
            raise DeviceError(
                "the screen changed where the agent was about to act while you had it",
                "the run stopped rather than act on what it did not see; run the task again",
            )

    def _call(self, doing: str, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except ClickwrightError:
            raise
        except Exception as exc:
            if type(exc).__name__ == "FailSafeException":  # pyautogui: mouse thrown into a corner
                raise Stopped("stopped: the mouse was moved into a screen corner") from None
            raise DeviceError(
                f"could not {doing} on the {self.kind} device: {exc}".splitlines()[0],
                "check that it is still there (a display, a phone), then run again",
            ) from None
