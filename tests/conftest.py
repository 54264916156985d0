"""Shared fixtures: a private Xvfb display per test module, and the sample app on it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sample_app_driver import SampleApp, start_sample_app

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
