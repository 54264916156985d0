"""Keeping the panel out of the agent's way when it works on the panel's own screen.

The agent must never click the panel nor read it as part of the app it drives, so before every
capture and every action the panel window is hidden (from the worker thread, waiting until the
GUI thread has done it), and it comes back once the agent has neither looked nor acted for a
moment: while a model thinks, while the run is paused or asks something, and when it ends.
It comes back without taking the keyboard focus from the app the agent works in.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QRect, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtWidgets import QWidget

from clickwright.app.panel.wrapper import DeviceWrapper
from clickwright.devices.base import Device, Point, wait_until_stable
from clickwright.types import Action, Frame

IDLE_MS = 700
"""How long the agent must be idle before the panel comes back."""


class Curtain(QObject):
    """Hides `window` while it covers `area` (the monitor the agent works on, in the same
    desktop coordinates as the window's geometry) and shows it again when told."""

    _hide_now = Signal()
    _restore_soon = Signal()

    def __init__(self, window: QWidget, area: QRect) -> None:
        super().__init__()
        self.window = window
        self.area = area
        self.just_hidden = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(IDLE_MS)
        self._timer.timeout.connect(self.restore)
        self._hide_now.connect(self._hide, Qt.ConnectionType.BlockingQueuedConnection)
        self._restore_soon.connect(self._timer.start)

    def draw(self) -> bool:
        """Hide the panel now (from any thread); True when it was showing until now."""
        if QThread.currentThread() is self.thread():
            self._hide()
        else:
            self._hide_now.emit()
        return self.just_hidden

    def open_soon(self) -> None:
        self._restore_soon.emit()

    @Slot()
    def _hide(self) -> None:
        self._timer.stop()
        window = self.window
        self.just_hidden = window.isVisible() and window.frameGeometry().intersects(self.area)
        if self.just_hidden:
            window.hide()

    @Slot()
    def restore(self) -> None:
        self._timer.stop()
        if not self.window.isVisible():
            self.window.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
            self.window.show()
            self.window.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, False)


class PanelAside(DeviceWrapper):
    """A device on the panel's own screen that captures and acts with the panel out of sight."""

    def __init__(self, inner: Device, curtain: Curtain) -> None:
        super().__init__(inner)
        self.curtain = curtain

    def capture(self) -> Frame:
        self._aside()
        try:
            return self.inner.capture()
        finally:
            self.curtain.open_soon()

    def perform(self, action: Action, point: Point | None = None, end: Point | None = None) -> None:
        self._aside()
        try:
            self.inner.perform(action, point, end)
        finally:
            self.curtain.open_soon()

    def _aside(self) -> None:
        if self.curtain.draw():  # the windows below must repaint before anything is read or hit
            wait_until_stable(self.inner, timeout=2.0, quiet=0.15)
