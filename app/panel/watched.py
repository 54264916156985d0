"""The device the agent drives, as the panel watches it.

Every frame the agent captures and every action it takes are reported to the panel (live view,
Step), and a device that vanishes mid-run (a phone unplugged, a display gone) becomes a
one-line DeviceError instead of a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clickwright.agent.state import Stopped
from clickwright.app.panel.wrapper import DeviceWrapper
from clickwright.devices.base import Device, Point
from clickwright.errors import ClickwrightError, DeviceError
from clickwright.types import Action, Frame


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

    def capture(self) -> Frame:
        frame = self._call("capture the screen", self.inner.capture)
        self.on_frame(frame)
        return frame

    def perform(self, action: Action, point: Point | None = None, end: Point | None = None) -> None:
        self.on_action(action, point)
        self._call(f"carry out {action.type}", lambda: self.inner.perform(action, point, end))

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
