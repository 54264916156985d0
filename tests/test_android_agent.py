"""The agent on a (simulated) phone, end to end: the real loop, OCR and adbutils against the adb
simulator, checked by what the phone's state is afterwards."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from adb_simulator import AdbSimulator, Touch
from conftest import run_cli

from clickwright.agent.demos.format import DemoWriter
from clickwright.agent.demos.recorder import Heard, listen, save_recording
from clickwright.agent.demos.replay import replay_demo
from clickwright.agent.events import OnStep
from clickwright.agent.loop import run_task
from clickwright.devices.android import AndroidDevice
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import StepRecord

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("adb_env")]

WIFI_ON = "Click Settings, then check Wi-Fi"


def test_the_agent_turns_wifi_on(sim: AdbSimulator, tmp_path: Path) -> None:
    with AndroidDevice(port=sim.port) as device:
        result = run_task(WIFI_ON, device, tmp_path)
    assert result.ok, result.reason
    assert sim.phone.wifi and sim.phone.package() == "com.android.settings"
    run = json.loads((result.run_dir / "run.json").read_text())
    assert run["device"]["kind"] == "android" and run["device"]["serial"] == "SIM"


def test_the_agent_types_a_search(sim: AdbSimulator, tmp_path: Path) -> None:
    task = "Click Contacts, then type 'Ada' into Search, then press Enter"
    with AndroidDevice(port=sim.port) as device:
        result = run_task(task, device, tmp_path)
    assert result.ok, result.reason
    assert sim.phone.search == "Ada" and sim.phone.submitted == ["Ada"]


def test_a_phone_lost_mid_run_ends_it_clearly_and_keeps_the_log(
    sim: AdbSimulator, tmp_path: Path
) -> None:
    def pull_the_cable_after_the_first_step(step: StepRecord) -> None:
        sim.device().disconnect_after = len(sim.device().commands) + 2

    with AndroidDevice(port=sim.port) as device:
        watch = OnStep(pull_the_cable_after_the_first_step)
        result = run_task(WIFI_ON, device, tmp_path, observer=watch)
    assert result.outcome == "error" and result.steps == 1
    assert "the Android device SIM disconnected while" in result.reason
    run = json.loads((result.run_dir / "run.json").read_text())
    assert run["outcome"] == "error" and "disconnected" in run["reason"]
    assert len((result.run_dir / "steps.jsonl").read_text().splitlines()) == 1


def test_with_wait_device_a_run_survives_a_reconnect(sim: AdbSimulator, tmp_path: Path) -> None:
    def unplug_for_a_second(step: StepRecord) -> None:
        if step.index == 1:
            sim.unplug()
            threading.Timer(1.0, sim.plug_in).start()

    with AndroidDevice(port=sim.port, wait=10) as device:
        result = run_task(WIFI_ON, device, tmp_path, observer=OnStep(unplug_for_a_second))
    assert result.ok, result.reason
    assert sim.phone.wifi


def test_a_ui_that_never_idles_is_read_from_pixels(sim: AdbSimulator, tmp_path: Path) -> None:
    sim.phone.never_idle = True
    with AndroidDevice(port=sim.port, dump_timeout=0.8) as device:
        assert device.accessibility() is None
        result = run_task(WIFI_ON, device, tmp_path)
    assert result.ok, result.reason
    assert sim.phone.wifi


def test_the_view_hierarchy_fuses_with_the_pixels(sim: AdbSimulator) -> None:
    sim.phone.start("com.android.settings")
    sim.phone.toggle("wifi")
    with AndroidDevice(port=sim.port) as device:
        screen = ScreenParser().parse(device.capture(), device.accessibility())
    toggles = {e.text: e.state for e in screen.elements if e.kind == "toggle"}
    assert toggles == {"Wi-Fi": frozenset({"checked"}), "Bluetooth": frozenset()}


def test_touches_recorded_on_the_phone_replay(sim: AdbSimulator, tmp_path: Path) -> None:
    settings_icon, wifi_label = (67, 141), (45, 141)
    sim.script_touches([Touch(settings_icon, pause=0.6), Touch(wifi_label, pause=0.8)])
    stop = threading.Event()
    heard: list[Heard] = []

    def hear(item: Heard) -> None:
        heard.append(item)
        if len(heard) == 2:
            threading.Timer(0.8, stop.set).start()  # the person watches the switch turn on

    with AndroidDevice(port=sim.port) as device:
        recording = listen(device, stop, on_heard=hear)
        demo = save_recording(
            recording, DemoWriter(tmp_path, "wifi"), ScreenParser(), "Wi-Fi on", "android"
        )
        assert [s.words for s in demo.steps][1] == "click 'Wi-Fi'"
        sim.phone.key("HOME")
        sim.phone.wifi = False
        result = replay_demo(demo, device, tmp_path / "runs")
    assert result.ok, result.reason
    assert sim.phone.wifi


def _cli_has_device_option() -> bool:
    return "--device" in run_cli("run", "--help").stdout


def test_clickwright_run_on_a_phone(sim: AdbSimulator, tmp_path: Path) -> None:
    if not _cli_has_device_option():
        pytest.skip("`clickwright run` has no --device option yet")
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(sim.port))
    done = run_cli(
        "run", "--device", "android:SIM", WIFI_ON, "--runs-dir", str(tmp_path), "--json", env=env
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["outcome"] == "done" and sim.phone.wifi
    sim.unplug()
    missing = run_cli("run", "--device", "android:SIM", WIFI_ON, env=env)
    assert missing.returncode == 2
    assert missing.stderr.strip().startswith("error: no Android device 'SIM' is connected")
