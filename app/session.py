"""What a command that runs the agent on a screen sets up around it: the stop keys, the device
opened from its spec with the program to launch, and the person (the terminal, or nobody when
the run is headless)."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from clickwright.agent.safety import Human, Nobody
from clickwright.app.console import out
from clickwright.app.stop_hotkey import stop_hotkey
from clickwright.devices.base import Device
from clickwright.devices.factory import DeviceSpec, open_device, start_program


@dataclass(frozen=True)
class Session:
    device: Device
    human: Human
    stop: threading.Event


@contextlib.contextmanager
def session(spec: DeviceSpec, launch: str | None, quiet: bool) -> Iterator[Session]:
    """`quiet` (--json): nothing printed and nobody asked."""
    from clickwright.app.terminal_human import TerminalHuman

    human = TerminalHuman(out) if sys.stdin.isatty() and not quiet else Nobody()
    stop = threading.Event()
    with stop_hotkey(stop) as hotkey, open_device(spec) as device:
        if hotkey and not quiet:
            out.print(f"press {hotkey} to stop")
        if launch:
            start_program(device, launch)
        yield Session(device, human, stop)
