"""The stop hotkey, pressed for real on an X display, ends a run after its current action."""

from __future__ import annotations

import os
import subprocess
import threading

import pytest

from clickwright.agent.events import OnStep
from clickwright.agent.loop import run_task
from clickwright.app.stop_hotkey import STOP_KEYS_LABEL, stop_hotkey

pytestmark = pytest.mark.slow


def press_stop_keys(display: str) -> None:
    subprocess.run(
        ["xdotool", "key", "ctrl+shift+F12"], env=dict(os.environ, DISPLAY=display), check=True
    )


def test_pressing_the_hotkey_sets_stop(display):
    stop = threading.Event()
    with stop_hotkey(stop, display=display.name) as label:
        assert label == STOP_KEYS_LABEL
        press_stop_keys(display.name)
        assert stop.wait(5)


def test_no_display_means_no_hotkey_and_no_error(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    with stop_hotkey(threading.Event()) as label:
        assert label is None


def test_hotkey_mid_run_stops_after_the_current_action(display, device, sample_app, tmp_path):
    stop = threading.Event()
    with stop_hotkey(stop, display=display.name):
        result = run_task(
            "select Pro, select Team, select Free, select Pro",
            device,
            tmp_path / "runs",
            stop=stop,
            observer=OnStep(lambda step: press_stop_keys(display.name)),
        )
    assert result.outcome == "stopped"
    assert result.steps == 1


def test_keys_held_by_another_program_mean_no_hotkey_and_no_noise(display):
    """Two runs on one desktop: the second goes without a hotkey and prints nothing."""
    import sys

    with stop_hotkey(threading.Event(), display.name) as first:
        assert first == STOP_KEYS_LABEL
        second = subprocess.run(
            [sys.executable, "-c", "import threading\n"
             "from clickwright.app.stop_hotkey import stop_hotkey\n"
             f"with stop_hotkey(threading.Event(), {display.name!r}) as keys: print(keys)"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert second.stdout.strip() == "None"
    assert second.stderr == ""
