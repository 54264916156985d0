"""A private Xvfb display that clickwright starts and always stops.

Xvfb is started directly (not through pyvirtualdisplay) for one reason: the child must die with
us even when we are killed without a chance to clean up, which needs PR_SET_PDEATHSIG at fork
time. `-displayfd` lets Xvfb pick a free display number and tells us once it accepts clients.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import select
import shutil
import signal
import subprocess
import time

from clickwright.errors import DeviceError

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class VirtualDisplay:
    """`with VirtualDisplay() as vd:` gives a display name such as ':12' for apps and devices."""

    def __init__(self, width: int = 1280, height: int = 800, depth: int = 24) -> None:
        self.width, self.height, self.depth = width, height, depth
        self.name = ""
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> VirtualDisplay:
        if shutil.which("Xvfb") is None:
            raise DeviceError(
                "Xvfb is not installed, so --virtual cannot start a display",
                "install it with: sudo apt-get install -y xvfb (or run 'make demo' once)",
            )
        read_fd, write_fd = os.pipe()
        command = [
            "Xvfb",
            "-displayfd",
            str(write_fd),
            "-screen",
            "0",
            f"{self.width}x{self.height}x{self.depth}",
            "-nolisten",
            "tcp",
            "-noreset",
        ]
        self._process = subprocess.Popen(
            command,
            pass_fds=(write_fd,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_die_with_parent,
        )
        os.close(write_fd)
        atexit.register(self.stop)
        try:
            self.name = ":" + self._read_display_number(read_fd, timeout)
        finally:
            os.close(read_fd)
        return self

    def _read_display_number(self, fd: int, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        data = b""
        while not data.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(remaining, 0))
            chunk = os.read(fd, 64) if ready else b""
            if not chunk:
                error = self._failure_output()
                self.stop()
                raise DeviceError(f"Xvfb did not start: {error or 'no display within time limit'}")
            data += chunk
        return data.decode().strip()

    def _failure_output(self) -> str:
        process = self._process
        if process is None or process.poll() is None or process.stderr is None:
            return ""
        lines = process.stderr.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit status {process.returncode}"

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        atexit.unregister(self.stop)
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stderr:
            process.stderr.close()

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def env(self) -> dict[str, str]:
        """The environment for a program that should show its windows on this display."""
        env = dict(os.environ, DISPLAY=self.name)
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("QT_QPA_PLATFORM", None)
        return env

    def __enter__(self) -> VirtualDisplay:
        return self.start() if self._process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()
