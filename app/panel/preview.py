"""The live view between runs: the chosen screen captured a few times a second, off the GUI
thread (a phone takes a while to answer), never while a run owns the device."""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal

from clickwright.devices.base import Device

INTERVAL_MS = 400


class Preview(QObject):
    frame_ready = Signal(object)
    """A `Frame` of the chosen screen."""
    failed = Signal(str)
    """The screen could not be captured (once per problem, not every tick)."""
    _captured = Signal(object, object, str)

    def __init__(self) -> None:
        super().__init__()
        self.device: Device | None = None
        self.active = True
        self._busy: Device | None = None
        self._retired: list[Device] = []
        self._problem = ""
        self._captured.connect(self._arrived)
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    def set_device(self, device: Device | None) -> None:
        """Show `device` from now on; the previous one is closed once no capture uses it."""
        old, self.device = self.device, device
        self._problem = ""
        if old is not None:
            self._retire(old)
        self._tick()

    def stop(self) -> None:
        self._timer.stop()
        self.set_device(None)
        QThreadPool.globalInstance().waitForDone(3000)

    def _tick(self) -> None:
        device = self.device
        if not self.active or device is None or self._busy is not None:
            return
        self._busy = device
        QThreadPool.globalInstance().start(lambda: self._grab(device))

    def _grab(self, device: Device) -> None:
        try:
            self._captured.emit(device, device.capture(), "")
        except Exception as exc:  # whatever the device raises: shown as a message, not a crash
            self._captured.emit(device, None, str(exc).splitlines()[0] if str(exc) else repr(exc))

    def _arrived(self, device: Device, frame: object, problem: str) -> None:
        self._busy = None
        if device in self._retired:
            self._retire(device)
            return
        if device is not self.device:
            return
        if frame is not None:
            self._problem = ""
            self.frame_ready.emit(frame)
        elif problem != self._problem:
            self._problem = problem
            self.failed.emit(problem)

    def _retire(self, device: Device) -> None:
        if self._busy is device:
            if device not in self._retired:
                self._retired.append(device)
            return
        if device in self._retired:
            self._retired.remove(device)
        with contextlib.suppress(Exception):
            device.close()
