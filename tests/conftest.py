"""Shared fixtures: a private Xvfb display per test module, and the sample app on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clickwright.devices.virtual_display import VirtualDisplay

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def display() -> Iterator[VirtualDisplay]:
    with VirtualDisplay(1280, 800) as vd:
        yield vd


@pytest.fixture(scope="module")
def device(display: VirtualDisplay):
    from clickwright.devices.desktop import DesktopDevice

    with DesktopDevice(display=display.name) as device:
        yield device


class SampleApp:
    """The sample app running on a display; `state()` reads what it last saved."""

    def __init__(self, display: VirtualDisplay, tmp: Path, *args: str) -> None:
        self.state_file = tmp / "state.json"
        self.save_dir = tmp / "saved"
        self.save_dir.mkdir()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "clickwright.assets.sample_app",
                "--state-out",
                str(self.state_file),
                "--save-dir",
                str(self.save_dir),
                *args,
            ],
            env=display.env(),
            cwd=tmp,
        )

    def state(self) -> dict:
        assert self.state_file.exists(), "the app saved nothing"
        return json.loads(self.state_file.read_text())

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start_sample_app(display: VirtualDisplay, device, tmp: Path, *args: str) -> SampleApp:
    """The sample app, with extra command-line `args`, once its window has drawn."""
    from clickwright.devices.base import wait_until_stable

    blank = device.capture()
    app = SampleApp(display, tmp, *args)
    deadline = time.monotonic() + 30
    while device.capture().same_as(blank):
        assert time.monotonic() < deadline, "the sample app never showed a window"
        assert app.process.poll() is None, "the sample app exited"
        time.sleep(0.1)
    wait_until_stable(device, timeout=10, quiet=0.5)
    return app


@pytest.fixture
def sample_app(display: VirtualDisplay, device, tmp_path: Path) -> Iterator[SampleApp]:
    from clickwright.devices.base import wait_until_stable

    app = start_sample_app(display, device, tmp_path)
    yield app
    app.close()
    wait_until_stable(device, timeout=5)


def run_cli(
    *args: str, env: dict | None = None, timeout: float = 240
) -> subprocess.CompletedProcess:
    """Run the real `clickwright` command in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "clickwright.app", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env or dict(os.environ),
    )


@pytest.fixture
def adb_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests against the adb simulator: adbutils starts a real adb server when it cannot
    connect (never here), and a serial in the environment must not choose the phone."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)


@pytest.fixture
def sim(adb_env: None) -> Iterator:
    """One simulated phone (serial SIM) behind a simulated adb server on a free port."""
    from adb_simulator import AdbSimulator

    with AdbSimulator() as simulator:
        yield simulator
