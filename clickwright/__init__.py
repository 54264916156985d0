"""clickwright: a GUI automation agent that sees the screen, acts, and verifies."""

from clickwright.errors import ActionError, ClickwrightError, DeviceError, StepFailed, TaskError
from clickwright.types import Action, Box, Element, Frame, Screen, parse_action

__all__ = [
    "Action",
    "ActionError",
    "Box",
    "ClickwrightError",
    "DeviceError",
    "Element",
    "Frame",
    "Screen",
    "StepFailed",
    "TaskError",
    "parse_action",
]
