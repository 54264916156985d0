"""Where a frame pixel lands on the input device: monitor offsets and HiDPI scale in one place.

Screenshots are in device pixels; the mouse moves in the desktop's input coordinates. They differ
by the monitor's origin (a second monitor left of the primary has a negative x) and by its scale
(a Retina or un-aware Windows capture has 2 pixels per input unit).
"""

from __future__ import annotations

from dataclasses import dataclass

from clickwright.errors import DeviceError


@dataclass(frozen=True)
class Monitor:
    """A monitor in the desktop's input coordinates."""

    left: int
    top: int
    width: int
    height: int

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.left + self.width and self.top <= y < self.top + self.height


@dataclass(frozen=True)
class Mapping:
    """Maps frame pixels of one monitor's capture to input coordinates and back."""

    monitor: Monitor
    frame_width: int
    frame_height: int

    @property
    def scale(self) -> float:
        """Frame pixels per input unit (1.0 normally, 2.0 on a 200% HiDPI capture)."""
        return self.frame_width / self.monitor.width

    def to_input(self, x: float, y: float) -> tuple[int, int]:
        """The input point for frame pixel (x, y), clamped onto the monitor."""
        sx = self.frame_width / self.monitor.width
        sy = self.frame_height / self.monitor.height
        ix = self.monitor.left + min(max(x, 0), self.frame_width - 1) / sx
        iy = self.monitor.top + min(max(y, 0), self.frame_height - 1) / sy
        return (round(ix), round(iy))

    def to_frame(self, x: float, y: float) -> tuple[int, int]:
        """The frame pixel under input point (x, y) (used by the recorder)."""
        sx = self.frame_width / self.monitor.width
        sy = self.frame_height / self.monitor.height
        return (round((x - self.monitor.left) * sx), round((y - self.monitor.top) * sy))


def choose_monitor(monitors: list[Monitor], screen: int) -> Monitor:
    """Monitor number `screen` (0 = first), or a DeviceError listing what exists."""
    if not monitors:
        raise DeviceError("no monitors found", "is the display running?")
    if not 0 <= screen < len(monitors):
        listing = "; ".join(
            f"{i}: {m.width}x{m.height} at ({m.left}, {m.top})" for i, m in enumerate(monitors)
        )
        raise DeviceError(f"there is no screen {screen}", f"choose --screen from {listing}")
    return monitors[screen]
