"""Command-line options shared by the commands that open a device (run, parse, record, replay).

`@device_command` adds `--device`, `--virtual`, `--display`, `--screen`, `--wait-device` and
`--launch` to a command and hands it one `spec: DeviceSpec` (and `launch`); the options are
declared once, here, and every command reads the same spec the same way.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from clickwright.devices.factory import DeviceSpec

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = {
    "device_spec": (
        Annotated[
            str,
            typer.Option(
                "--device", help="desktop, virtual, or android[:SERIAL] for a phone over adb."
            ),
        ],
        "desktop",
    ),
    "virtual": (
        Annotated[bool, typer.Option("--virtual", help="Work on a fresh private Xvfb display.")],
        False,
    ),
    "display": (Annotated[str | None, typer.Option(help="X display to work on, e.g. :1.")], None),
    "screen": (Annotated[int, typer.Option("--screen", help="Monitor number, 0 = first.")], 0),
    "wait_device": (
        Annotated[
            float,
            typer.Option(
                min=0, help="Seconds to wait for the phone to appear, and to come back if it drops."
            ),
        ],
        0.0,
    ),
}
Launch = Annotated[str | None, typer.Option(help="Program to start on the display first.")]


def device_command(command: F) -> F:
    """The command with the device options in place of its `spec: DeviceSpec` parameter
    (it declares `launch: Launch` itself where it launches programs)."""
    signature = inspect.signature(command, eval_str=True)
    kept = [p for p in signature.parameters.values() if p.name != "spec"]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind)
        for name, (kind, default) in _OPTIONS.items()
    ]

    @functools.wraps(command)
    def with_device(
        *args: Any,
        device_spec: str,
        virtual: bool,
        display: str | None,
        screen: int,
        wait_device: float,
        **kwargs: Any,
    ) -> Any:
        spec = DeviceSpec.parse(
            device_spec, virtual=virtual, display=display, screen=screen, wait=wait_device
        )
        return command(*args, spec=spec, **kwargs)

    parameters = [*kept, *added]
    with_device.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    with_device.__annotations__ = {p.name: p.annotation for p in parameters}
    return with_device  # type: ignore[return-value]
