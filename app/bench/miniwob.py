"""One MiniWoB++ episode from pixels: a headful Chromium on a private Xvfb display, the task's
utterance given to the agent as its task, the agent acting through the desktop device with the
real mouse and keyboard, and the reward read from the page at the end (the only use of the DOM).

A worker process keeps its display, browser and device between episodes of the same task, so
only the first episode of a task pays for starting them.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from clickwright.errors import ClickwrightError

DEV_SET = (
    "click-test",
    "click-test-2",
    "click-button",
    "click-button-sequence",
    "click-link",
    "click-dialog",
    "click-dialog-2",
    "click-option",
    "click-checkboxes",
    "click-tab",
    "click-widget",
    "click-collapsible",
    "enter-text",
    "enter-text-2",
    "enter-password",
    "focus-text",
    "focus-text-2",
    "login-user",
    "use-autocomplete",
    "choose-list",
    "navigate-tree",
    "search-engine",
)
WINDOW = (360, 280)
"""The browser window in CSS pixels: the task (160x210) plus MiniWoB's score panel; the display
is this times the device scale."""
DEVICE_SCALES = (1.0, 1.5, 2.0)
BROWSER_FLAGS = (
    "--no-sandbox",  # Chromium refuses to run as root without it
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",  # no network here: its attempts only slow the start
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-position=0,0",
    f"--window-size={WINDOW[0]},{WINDOW[1]}",
)
DEBIAN_PACKAGES = "chromium chromium-driver"


@dataclass(frozen=True)
class EpisodeSpec:
    task: str
    seed: int
    runs_dir: str
    time_limit: float | None = None
    """Seconds MiniWoB's own timer allows; None keeps the task's default (usually 10 s)."""
    max_steps: int = 15
    models: dict[str, Any] = field(default_factory=dict)
    """CLI-style model flags (backend, model, base_url, api_key_env) and `roles`; empty: offline."""
    browser: str = "/usr/bin/chromium"
    chromedriver: str = "/usr/bin/chromedriver"
    device_scale: float = 2.0
    """Chromium's device scale: 2 (a HiDPI screen: 10 px fonts become readable pixels) or the
    ordinary 1."""


def screen_size(device_scale: float) -> tuple[int, int]:
    """The display that holds the browser window at this scale."""
    return round(WINDOW[0] * device_scale), round(WINDOW[1] * device_scale)


def check_device_scale(device_scale: float) -> None:
    if device_scale not in DEVICE_SCALES:
        raise ClickwrightError(
            f"unsupported --device-scale {device_scale:g}",
            "use " + ", ".join(f"{s:g}" for s in DEVICE_SCALES),
        )


@dataclass(frozen=True)
class EpisodeResult:
    task: str
    seed: int
    success: bool
    reward: float
    steps: int
    seconds: float
    outcome: str
    reason: str
    run_dir: str
    time_limit: float | None
    device_scale: float = 2.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check_browser(browser: str, chromedriver: str) -> None:
    """A one-line error naming the Debian packages when Chromium or ChromeDriver is missing."""
    for what, path in (("Chromium", browser), ("ChromeDriver", chromedriver)):
        if not (shutil.which(path) or os.access(path, os.X_OK)):
            raise ClickwrightError(
                f"{what} not found at {path}",
                f"install it: sudo apt-get install -y {DEBIAN_PACKAGES}",
            )


def check_tasks(tasks: list[str]) -> None:
    import gymnasium
    import miniwob

    gymnasium.register_envs(miniwob)
    known = sorted(
        name.removeprefix("miniwob/").removesuffix("-v1")
        for name in gymnasium.registry
        if name.startswith("miniwob/")
    )
    for task in tasks:
        if task not in known:
            close = difflib.get_close_matches(task, known, n=3)
            hint = f"did you mean {', '.join(close)}?" if close else "see `miniwob` task names"
            raise ClickwrightError(f"unknown MiniWoB task {task!r}", hint)


class _Worker:
    """The display, browser and device of this process, kept while the task stays the same."""

    def __init__(self) -> None:
        self.key: tuple[str, str, str, float] | None = None
        self.env: Any = None
        self.display: Any = None
        self.device: Any = None
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def open(self, spec: EpisodeSpec) -> None:
        key = (spec.task, spec.browser, spec.chromedriver, spec.device_scale)
        if key == self.key and self.env is not None:
            return
        self.close()
        import gymnasium
        import miniwob

        from clickwright.devices.desktop import DesktopDevice
        from clickwright.devices.virtual_display import VirtualDisplay

        gymnasium.register_envs(miniwob)
        _quiet_page_server()
        self.folder = tempfile.TemporaryDirectory(prefix="clickwright-miniwob-")
        wrapper = Path(self.folder.name) / "chromium"
        flags = " ".join((*BROWSER_FLAGS, f"--force-device-scale-factor={spec.device_scale:g}"))
        wrapper.write_text(  # less ChromeDriver's --enable-automation: no browser a person
            # uses shows its "controlled by automated test software" bar over the page
            '#!/bin/sh\nfor a do shift; [ "$a" = --enable-automation ] || set -- "$@" "$a"; done\n'
            f'exec {spec.browser} {flags} "$@"\n'
        )
        wrapper.chmod(0o755)
        self.display = VirtualDisplay(*screen_size(spec.device_scale)).start()
        os.environ.update(
            DISPLAY=self.display.name,
            MINIWOB_CHROME_BINARY=str(wrapper),
            MINIWOB_CHROMEDRIVER=spec.chromedriver,
        )
        self.key = key
        self.env = gymnasium.make(f"miniwob/{spec.task}-v1", render_mode="human")
        self.device = DesktopDevice(display=self.display.name)

    def close(self) -> None:
        """The browser, the device and the display: each episode's task that differs from the
        last opens new ones, so none may outlive its task."""
        parts = [part.close for part in (self.env, self.device) if part is not None]
        for close in [*parts, *([self.display.stop] if self.display is not None else [])]:
            try:
                close()
            except Exception:  # a crashed browser cannot be closed politely
                pass
        if self.folder is not None:
            self.folder.cleanup()
        self.env = self.device = self.display = self.folder = None
        self.key = None


_worker = _Worker()


def run_episode(spec: EpisodeSpec) -> EpisodeResult:
    """One episode; whatever goes wrong (a crashed browser included) is a failed episode with
    its reason, never an exception, so a benchmark run always goes on."""
    from clickwright.agent.config import load_settings
    from clickwright.agent.loop import run_task
    from clickwright.agent.state import RunSettings
    from clickwright.app.cli import parse_role_flags
    from clickwright.app.report import write_report

    start = time.monotonic()
    run_dir, steps, outcome, reason = "", 0, "error", ""
    try:
        _worker.open(spec)
        instance = _worker.env.unwrapped.instance
        if spec.time_limit is not None:
            limit = f"core.EPISODE_MAX_TIME = {spec.time_limit * 1000:.0f};"
            instance.driver.execute_script(limit)
        observation, _ = _worker.env.reset(seed=spec.seed)
        flags = {k: v for k, v in spec.models.items() if k != "roles"}
        models = load_settings(flags, parse_role_flags(spec.models.get("roles", [])))
        result = run_task(
            observation["utterance"],
            _worker.device,
            spec.runs_dir,
            RunSettings(max_steps=spec.max_steps, settle_timeout=2.0),
            models=models,
        )
        run_dir, steps, outcome = str(result.run_dir), result.steps, result.outcome
        write_report(result.run_dir)
        metadata = instance.get_metadata()
        reward = float(metadata["raw_reward"]) if metadata["done"] else 0.0
        if not metadata["done"]:
            reason = f"the episode did not end; the agent: {outcome}: {result.reason}"
        elif reward <= 0:
            reason = f"the page gave reward {reward:g}; the agent: {outcome}: {result.reason}"
    except ClickwrightError as error:
        reward, reason = 0.0, str(error)
    except Exception as error:  # the browser or driver died: this episode failed, go on
        _worker.close()
        reward, reason = 0.0, f"the browser failed: {' '.join(str(error).split())[:200]}"
    return EpisodeResult(
        task=spec.task,
        seed=spec.seed,
        success=reward > 0,
        reward=reward,
        steps=steps,
        seconds=round(time.monotonic() - start, 2),
        outcome=outcome,
        reason=reason,
        run_dir=run_dir,
        time_limit=spec.time_limit,
        device_scale=spec.device_scale,
    )


def _quiet_page_server() -> None:
    """miniwob serves its flight pages from one shared server that prints every request (a
    hundred lines a task); the same server, started first and silent."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    from miniwob import http_server
    from miniwob.selenium_instance import HTML_DIR

    if http_server.SERVER_SINGLETON is not None:
        return

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (its name)
            pass

    server = ThreadingHTTPServer(("localhost", 0), functools.partial(Quiet, directory=HTML_DIR))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    http_server.SERVER_SINGLETON = server
