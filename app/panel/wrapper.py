"""A Device that passes everything to another: the base of the panel's device decorators."""

from __future__ import annotations

from typing import Any

from clickwright.devices.base import Device, Point
from clickwright.devices.geometry import Monitor
from clickwright.types import Action, Frame


class DeviceWrapper(Device):
    def __init__(self, inner: Device) -> None:
        self.inner = inner
        self.kind = inner.kind

    def capture(self) -> Frame:
        return self.inner.capture()

    def perform(self, action: Action, point: Point | None = None, end: Point | None = None) -> None:
        self.inner.perform(action, point, end)

    def screens(self) -> list[Monitor]:
        return self.inner.screens()

    @property
    def size(self) -> tuple[int, int]:
        return self.inner.size

    def accessibility(self) -> Any | None:
        return self.inner.accessibility()

    def clipboard(self) -> str | None:
        return self.inner.clipboard()

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def close(self) -> None:
        self.inner.close()

    def __getattr__(self, name: str) -> Any:
        """What a particular device offers beyond the interface (its monitor, display…)."""
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)
