"""The sample app on a virtual display, driven as a person would (xdotool), and a real
`clickwright record` of a person filling it in: for the replay end-to-end test and for
benchmarks/replay.py."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from clickwright.agent.demos.signature import strong_matches
from clickwright.agent.grounding import rank
from clickwright.devices.base import wait_until_stable
from clickwright.devices.virtual_display import VirtualDisplay
from clickwright.parsers.screen_parser import ScreenParser

SECRET = "s3cret-Pa55"
"""What the person types into the Password field while recorded."""


class SampleApp:
    """The sample app running on a display; `state()` reads what it last saved."""

    def __init__(
        self, display: VirtualDisplay, tmp: Path, *args: str, env: dict[str, str] | None = None
    ) -> None:
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
            env={**display.env(), **(env or {})},
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


def start_sample_app(
    display: VirtualDisplay, device, tmp: Path, *args: str, env: dict[str, str] | None = None
) -> SampleApp:
    """The sample app, with extra command-line `args` (and environment `env`), once its
    window has drawn."""
    blank = device.capture()
    app = SampleApp(display, tmp, *args, env=env)
    deadline = time.monotonic() + 30
    while device.capture().same_as(blank):
        assert time.monotonic() < deadline, "the sample app never showed a window"
        assert app.process.poll() is None, "the sample app exited"
        time.sleep(0.1)
    wait_until_stable(device, timeout=10, quiet=0.5)
    return app


def xdotool(display: str, *args: str) -> None:
    subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=display), check=True)


def press_on(display: str, device, parser: ScreenParser, text: str, kind: str) -> None:
    """Click what a person would: the element showing `text`, found on the screen as it is."""
    screen = parser.parse(wait_until_stable(device).frame)
    (best, *_) = strong_matches(rank(screen, text, kind), text)
    x, y = best.element.box.center
    xdotool(display, "mousemove", str(x), str(y), "click", "1")


def wait_for_file(path: Path, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.1)


@dataclass(frozen=True)
class Recording:
    """What `record_customer` leaves: the recorder's output and the demonstrations folder."""

    out: str
    err: str
    code: int
    demos: Path
    took: float
    """Seconds the person (xdotool) spent, from the first click to the saved state."""
    state: dict


def record_customer(display: VirtualDisplay, device, parser: ScreenParser, tmp: Path) -> Recording:
    """The demonstration 'customer' (9 steps: name, email, password, country, plan,
    newsletter, Save, Yes), recorded by the real `clickwright record` while xdotool works."""
    demos = tmp / "demos"
    app = start_sample_app(display, device, tmp, "--password-field")
    recorder = subprocess.Popen(
        [sys.executable, "-m", "clickwright.app", "record", "customer", "--display", display.name]
        + ["--demos-dir", str(demos), "--describe", "Sign up a customer on the Pro plan"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, DISPLAY=display.name),
        # a background job (`cmd &`) ignores SIGINT, and its children inherit that: the
        # recorder must hear the Ctrl+C that stops it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert "recording on display" in recorder.stdout.readline()  # said once it listens
        started = time.monotonic()
        for label, text in (("Name", "Ada Lovelace"), ("Email", "ada@example.com")):
            press_on(display.name, device, parser, label, "input")
            xdotool(display.name, "type", "--delay", "40", text)
        press_on(display.name, device, parser, "Password", "input")
        xdotool(display.name, "type", "--delay", "40", SECRET)
        press_on(display.name, device, parser, "Country", "combo")
        for text, kind in (("Canada", "list_item"), ("Pro", "radio")):
            press_on(display.name, device, parser, text, kind)
        press_on(display.name, device, parser, "Subscribe to newsletter", "checkbox")
        press_on(display.name, device, parser, "Save", "button")
        press_on(display.name, device, parser, "Yes", "button")
        wait_for_file(app.state_file)
        took = time.monotonic() - started
        wait_until_stable(device)
        recorder.send_signal(signal.SIGINT)  # Ctrl+C: stop and save
        out, err = recorder.communicate(timeout=240)  # reading the screens, on a busy machine
    finally:
        if recorder.poll() is None:
            recorder.kill()
        app.close()
    return Recording(out, err, recorder.returncode, demos, took, app.state())
