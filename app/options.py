"""Command-line options shared by the commands that open a device (run, parse, record, replay)."""

from __future__ import annotations

from typing import Annotated

import typer

from clickwright.devices.factory import DeviceSpec

Virtual = Annotated[bool, typer.Option("--virtual", help="Work on a fresh private Xvfb display.")]
Display = Annotated[str | None, typer.Option(help="X display to work on, e.g. :1.")]
ScreenNumber = Annotated[int, typer.Option("--screen", help="Monitor number, 0 = first.")]
Launch = Annotated[str | None, typer.Option(help="Program to start on the display first.")]
DeviceOption = Annotated[
    str, typer.Option("--device", help="desktop, or android[:SERIAL] for a phone over adb.")
]
WaitDeviceOption = Annotated[
    float,
    typer.Option(
        min=0, help="Seconds to wait for the phone to appear, and to come back if it drops."
    ),
]


def device_options(
    spec: str, virtual: bool, display: str | None, screen: int, wait: float = 0.0
) -> DeviceSpec:
    """The device the shared options name together."""
    return DeviceSpec.parse(spec, virtual=virtual, display=display, screen=screen, wait=wait)
