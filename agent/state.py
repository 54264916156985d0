"""The one state object the roles share: what each reads and writes is visible here."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from clickwright.agent.runlog import RunLog
from clickwright.devices.base import Device, wait_until_stable
from clickwright.errors import StepFailed
from clickwright.parsers.a11y import A11yNode, A11yTree, read_atspi
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Box, Screen


def read_device_tree(device: Device) -> A11yTree | None:
    """The AT-SPI tree of the active window on a Linux desktop device's monitor; None where
    this platform's tree comes another way (Android and Windows arrive with their devices)."""
    monitor = getattr(device, "monitor", None)
    if device.kind != "desktop" or monitor is None or not sys.platform.startswith("linux"):
        return None
    box = Box(monitor.left, monitor.top, monitor.width, monitor.height)
    return read_atspi(box, timeout=0.5, scope="active", display=getattr(device, "display", None))


@dataclass(frozen=True)
class Settings:
    max_steps: int = 30
    max_attempts: int = 3
    dry_run: bool = False
    settle_timeout: float = 5.0
    wait_timeout: float = 10.0
    accessibility: bool = True

    def __post_init__(self) -> None:
        if self.max_steps < 1 or self.max_attempts < 1:
            raise ValueError("max_steps and max_attempts must be at least 1")


class Stopped(Exception):
    """The user asked the run to stop (stop button, hotkey); not an error."""


@dataclass
class RunState:
    """Everything a run knows: the device, the latest parsed screen, the log, the settings."""

    task: str
    device: Device
    parser: ScreenParser
    log: RunLog
    settings: Settings
    screen: Screen | None = None
    on_step: Callable[[dict[str, Any]], None] | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    capture_seconds: float = 0.0
    parse_seconds: float = 0.0
    tree_unavailable: str = ""

    def observe(self) -> Screen:
        """Wait for a stable screen and parse it; timings go to the next recorded step."""
        if self.stop.is_set():
            raise Stopped("stopped by request")
        start = time.perf_counter()
        stable = wait_until_stable(self.device, timeout=self.settings.settle_timeout)
        parsed_at = time.perf_counter()
        self.screen = self.parser.parse(stable.frame, self.accessibility_nodes())
        self.capture_seconds += parsed_at - start
        self.parse_seconds += time.perf_counter() - parsed_at
        return self.screen

    def accessibility_nodes(self) -> list[A11yNode] | None:
        """The AT-SPI tree of a Linux desktop's active window, read after the frame settled.

        Once the tree proves unavailable (no session bus, nothing registered) the run stops
        asking, so a desktop without accessibility pays nothing per step.
        """
        if not self.settings.accessibility or self.tree_unavailable:
            return None
        tree = read_device_tree(self.device)
        if tree is not None and not tree and tree.reason:
            self.tree_unavailable = tree.reason
        return list(tree or ()) or None

    def record(self, step: dict[str, Any], before: Screen, after: Screen | None) -> None:
        """Write one step with its frames and timings, and tell whoever watches the run."""
        name = f"{self.log.steps + 1:04d}"
        step["frame"] = self.log.save_frame(before.frame, name)
        step["elements"] = self.log.save_elements(before, name)
        step["after_frame"] = self.log.save_frame(after.frame, name + "-after") if after else None
        step.setdefault("durations", {})
        step["durations"] = {
            "capture": round(self.capture_seconds, 4),
            "parse": round(self.parse_seconds, 4),
            **step["durations"],
        }
        self.capture_seconds = self.parse_seconds = 0.0
        step.setdefault("tokens", 0)
        step.setdefault("cost", 0.0)
        step["time"] = time.time()
        written = self.log.add_step(step)
        if self.on_step is not None:
            self.on_step(written)

    def check_budget(self) -> None:
        """Called before every action, so a run never acts more than max_steps times."""
        if self.stop.is_set():
            raise Stopped("stopped by request")
        if self.log.steps >= self.settings.max_steps:
            raise StepFailed(f"reached the limit of {self.settings.max_steps} steps")
