"""What a person did, as the recorder hears it: one small value type every device reports in.

Desktops report low-level events (button down/up, moves, wheel, keys) that the recorder merges into
steps; phones report whole gestures (tap, long press, swipe) read from the touch screen. Points
are always frame pixels of the device's screen, like every other point in clickwright.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EventKind = Literal[
    "down", "up", "move", "scroll", "key_down", "key_up", "tap", "long_press", "swipe"
]


@dataclass(frozen=True)
class InputEvent:
    kind: EventKind
    time: float
    """Seconds since the epoch, as time.time() gives."""
    x: int | None = None
    y: int | None = None
    button: str = ""
    """left, right or middle, for down and up."""
    key: str = ""
    """A key name as `clickwright.types.normalize_key` writes it, for key_down and key_up."""
    char: str | None = None
    """The character the key produced, when it produced one: how typed text is rebuilt."""
    dx: int = 0
    dy: int = 0
    """Wheel clicks for scroll: positive dy is up, positive dx is right."""
    end: tuple[int, int] | None = None
    """Where a swipe ended."""
    duration: float = 0.0
    """Seconds a long press or swipe took."""
