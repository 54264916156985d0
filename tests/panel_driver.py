"""`clickwright app` in a subprocess on a virtual display, driven through real X input
(xdotool) and read through its --state-dump file: for the panel's end-to-end test and for
scripts/panel_screenshots.py."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clickwright.devices.virtual_display import VirtualDisplay


class PanelProcess:
    def __init__(self, display: VirtualDisplay, tmp: Path, *args: str) -> None:
        self.display = display
        self.dump = tmp / "panel-state.json"
        self.runs = tmp / "runs"
        env = {
            **display.env(),
            "QT_QPA_PLATFORM": "xcb",
            "CLICKWRIGHT_CONFIG": str(tmp / "config.toml"),
            "CLICKWRIGHT_DEMOS": str(tmp / "demos"),
        }
        (tmp / "config.toml").touch()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "clickwright.app",
                "app",
                "--runs-dir",
                str(self.runs),
                "--state-dump",
                str(self.dump),
                *args,
            ],  # fmt: skip
            env=env,
            cwd=tmp,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def state(self) -> dict[str, Any]:
        try:
            return json.loads(self.dump.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def wait_for(
        self, check: Callable[[dict[str, Any]], bool], timeout: float = 60, what: str = ""
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if state and check(state):
                return state
            if self.process.poll() is not None:
                raise AssertionError(f"the panel exited: {self.output()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"the panel never showed {what or check}: {state}")
            time.sleep(0.1)

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(
            ["xdotool", *args], env=self.display.env(), capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def enter_task(self, task: str) -> None:
        """Type `task` into the task box with real key presses, then press Enter."""
        window = self.xdotool("search", "--sync", "--name", "^clickwright$").splitlines()[0]
        self.xdotool("windowfocus", "--sync", window)
        self.xdotool("type", "--delay", "15", "--", task)
        self.xdotool("key", "Return")

    def screenshot(self, path: Path) -> None:
        import mss
        import mss.tools

        with mss.MSS(display=self.display.name) as shot:
            image = shot.grab(shot.monitors[1])
            mss.tools.to_png(image.rgb, image.size, output=str(path))

    def output(self) -> str:
        if self.process.poll() is None:
            return ""
        return self.process.stdout.read() if self.process.stdout else ""

    def close(self, timeout: float = 30) -> int:
        """Close the panel as a window manager would (SIGTERM): it stops its run and sandbox."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
