"""A simulated Android phone behind a simulated adb server, for testing the Android driver with
the real adbutils client: see `AdbSimulator`."""

from .phone import Phone
from .server import AdbSimulator, SimDevice
from .shell import Touch

__all__ = ["AdbSimulator", "Phone", "SimDevice", "Touch"]
