"""Native protocols end to end: the real `clickwright run` command speaking Anthropic's computer
tool and OpenAI's Responses computer tool through the real SDKs over real HTTP to a scripted
model that reads the screenshots it is sent, driving the real sample app on a 1920x1080 Xvfb
(so the screenshots are scaled as the vendors prescribe and every point is mapped back)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.model_server import ModelServer
from tests.scripted_model import ComputerUseModel, Look

pytestmark = pytest.mark.slow

WIDTH, HEIGHT = 1920, 1080
TASK = "Register Ada Lovelace (ada@example.com) on the Pro plan, accept the terms and save"


class FixedDisplay:
    """Xvfb on a display number of this module's own (:93), at a size the vendors must scale."""

    name = ":93"

    def __init__(self) -> None:
        if shutil.which("Xvfb") is None:
            pytest.skip("Xvfb is not installed")
        self.process = subprocess.Popen(
            ["Xvfb", self.name, "-screen", "0", f"{WIDTH}x{HEIGHT}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        socket = Path("/tmp/.X11-unix/X93")
        deadline = time.monotonic() + 10
        while not socket.exists():
            assert time.monotonic() < deadline and self.process.poll() is None, "no Xvfb :93"
            time.sleep(0.05)

    def env(self) -> dict[str, str]:
        env = dict(os.environ, DISPLAY=self.name)
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("QT_QPA_PLATFORM", None)
        return env

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=5)


@pytest.fixture(scope="module")
def display() -> Iterator[FixedDisplay]:
    display = FixedDisplay()
    yield display
    display.stop()


def run(display: FixedDisplay, url: str, model: str, backend: str, tmp_path: Path, *flags: str):
    config = tmp_path / "config.toml"
    config.write_text("")
    result = run_cli(
        "run", TASK, "--display", display.name, "--backend", backend, "--base-url", url,
        "--model", model, "--runs-dir", str(tmp_path / "runs"), "--json", *flags,
        env={**display.env(), "CLICKWRIGHT_CONFIG": str(config), "ANTHROPIC_API_KEY": "k",
             "OPENAI_API_KEY": "k"},
    )  # fmt: skip
    assert result.stdout.strip(), result.stderr
    return result, json.loads(result.stdout.strip().splitlines()[-1])


def zoom_on_the_plans(look: Look) -> dict:
    x, y = look.find("Pro", "radio")
    return {"action": "zoom", "region": [max(x - 120, 0), max(y - 40, 0), x + 120, y + 40]}


def the_zoom_reads_pro(look: Look) -> list[dict]:
    """After the zoom: the zoomed image is what was asked for, sharper than the screenshot."""
    assert look.last.shape[:2] != look.screen.shape[:2] and look.reads("Pro", look.last)
    return [
        {"action": "left_click", "coordinate": look.find("Name", "input")},
        {"action": "type", "text": "Ada Lovelace"},
    ]


def test_claude_fills_the_form_through_the_computer_tool_with_zoom(display, sample_app, tmp_path):
    model = ComputerUseModel(
        [
            zoom_on_the_plans,
            the_zoom_reads_pro,
            lambda look: {"action": "left_click", "coordinate": look.find("Email", "input")},
            lambda look: {"action": "type", "text": "ada@example.com"},
            lambda look: {"action": "left_click", "coordinate": look.find("Pro", "radio")},
            lambda look: {"action": "left_click", "coordinate": look.find("Accept terms")},
            lambda look: {"action": "key", "text": "ctrl+s"},
        ],
        finish="Ada Lovelace is registered on the Pro plan.",
    )
    with ModelServer([], model, strict=True) as server:
        result, summary = run(display, server.url, "claude-opus-4-5", "anthropic", tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    saved = sample_app.state()
    assert saved["name"] == "Ada Lovelace" and saved["email"] == "ada@example.com"
    assert saved["plan"] == "Pro" and saved["accept_terms"] is True
    assert saved["saved_via"] == "shortcut"
    first = server.requests[0]
    assert first.headers["anthropic-beta"] == "computer-use-2025-11-24"
    tool = first.body["tools"][0]
    assert (tool["display_width_px"], tool["display_height_px"]) == (1429, 804)
    assert len(server.requests) == 8  # zoom, click+type, 5 more actions, the last word
    run_json = json.loads((Path(summary["run_dir"]) / "run.json").read_text())
    assert run_json["roles"]["actor"] == "anthropic:claude-opus-4-5 (anthropic-computer)"
    assert run_json["roles"]["planner"] == "offline" and run_json["roles"]["critic"] == "offline"
    steps = [json.loads(line) for line in (Path(summary["run_dir"]) / "steps.jsonl").open()]
    assert [s["action"]["type"] for s in steps] == [
        "click", "type", "click", "type", "click", "click", "hotkey", "done",
    ]  # fmt: skip
    assert summary["usage"]["calls"] == 8


def test_computer_use_preview_fills_the_form_through_the_responses_api(
    display, sample_app, tmp_path
):
    def click(text: str, kind: str | None = None):
        def step(look: Look) -> dict:
            x, y = look.find(text, kind)
            return {"type": "click", "button": "left", "x": x, "y": y}

        return step

    model = ComputerUseModel(
        [
            click("Name", "input"),
            lambda look: {"type": "type", "text": "Ada Lovelace"},
            click("Pro", "radio"),
            lambda look: {"type": "keypress", "keys": ["CTRL", "S"]},
        ],
        finish="Saved.",
    )
    with ModelServer([], model, strict=True) as server:
        result, _ = run(display, server.url + "/v1", "computer-use-preview", "openai", tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    saved = sample_app.state()
    assert saved["name"] == "Ada Lovelace" and saved["plan"] == "Pro"
    tool = server.requests[0].body["tools"][0]
    assert (tool["display_width"], tool["display_height"]) == (1365, 768)
    previous = [r.body.get("previous_response_id") for r in server.requests]
    assert previous[0] is None and all(previous[1:])
