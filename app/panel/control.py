"""Pause, step and stop for a run in the panel, through the panel's `Human.hold()`.

The worker thread calls `before_action()` (through `PanelHuman.hold`) before every action and
model call; it blocks while
the run is paused. Step lets the run go on until the device has carried out one action
(`acted()`), so one Step is one action even when a model call comes first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class RunControl:
    """Shared by the GUI thread (pause, resume, step, stop) and the worker (the hooks)."""

    def __init__(self, on_hold: Callable[[bool], None] | None = None) -> None:
        self.stop_event = threading.Event()
        self.on_hold = on_hold
        """Told (in the worker thread) when the run starts and stops waiting at the gate."""
        self._changed = threading.Condition()
        self._paused = False
        self._stepping = False
        self._handed_back = False

    @property
    def paused(self) -> bool:
        return self._paused

    def pause(self) -> None:
        with self._changed:
            self._paused, self._stepping = True, False

    def resume(self) -> None:
        with self._changed:
            self._paused = self._stepping = False
            self._changed.notify_all()

    def step(self) -> None:
        """Let exactly one more action through, then hold again."""
        with self._changed:
            self._paused, self._stepping = False, True
            self._changed.notify_all()

    def handed_back(self) -> None:
        """The person used the screen and hands it back: the agent looks again, then goes on."""
        with self._changed:
            self._handed_back = True
            self._paused = self._stepping = False
            self._changed.notify_all()

    def stop(self) -> None:
        with self._changed:
            self.stop_event.set()
            self._changed.notify_all()

    def acted(self) -> None:
        """The device carried out an action: a Step is used up."""
        with self._changed:
            if self._stepping:
                self._paused, self._stepping = True, False

    def before_action(self) -> bool:
        """Block while paused; returns at once when the run is to stop (the loop then stops).
        True once after a hand back: the screen may have changed, so the agent looks again."""
        with self._changed:
            if self._paused and not self.stop_event.is_set():
                if self.on_hold:
                    self.on_hold(True)
                while self._paused and not self.stop_event.is_set():
                    self._changed.wait(0.2)
                if self.on_hold:
                    self.on_hold(False)
            changed, self._handed_back = self._handed_back, False
            return changed
