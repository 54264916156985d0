"""The control panel's behaviour, offscreen and fast: real run_task runs in the panel's worker
thread against a stand-in screen (a device whose picture changes when it acts, and a parser
that names the elements on it), real dialogs answered through their buttons, real settings
files read back the way the CLI reads them. The real screen is in test_panel_e2e.py."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, QRect, Qt  # noqa: E402
from PySide6.QtGui import QDesktopServices  # noqa: E402
from PySide6.QtWidgets import QMainWindow  # noqa: E402

from clickwright.agent.budget import Price  # noqa: E402
from clickwright.agent.config import (  # noqa: E402
    BackendSettings,
    ModelSettings,  # noqa: E402
    RunLimits,
    load_settings,
)
from clickwright.app.panel.aside import IDLE_MS, Curtain, PanelAside  # noqa: E402
from clickwright.app.panel.choices import DeviceChoice  # noqa: E402
from clickwright.app.panel.dialogs import ApprovalDialog, QuestionDialog  # noqa: E402
from clickwright.app.panel.live_view import ScreenView, to_image  # noqa: E402
from clickwright.app.panel.prefs import PanelPrefs, PanelStore  # noqa: E402
from clickwright.app.panel.settings_dialog import SettingsDialog  # noqa: E402
from clickwright.app.panel.task_box import TaskBox  # noqa: E402
from clickwright.app.panel.theme import LIGHT  # noqa: E402
from clickwright.app.panel.timeline import Timeline  # noqa: E402
from clickwright.app.panel.window import MainWindow  # noqa: E402
from clickwright.devices.base import Device  # noqa: E402
from clickwright.devices.geometry import Monitor  # noqa: E402
from clickwright.types import Box, Element, Frame, Screen  # noqa: E402
from tests.model_server import ModelServer  # noqa: E402
from tests.scripted_model import ScriptedModel, act  # noqa: E402

SAVE = Element(1, Box(300, 240, 60, 24), "button", "Save", interactive=True)
CANCEL = Element(2, Box(380, 240, 60, 24), "button", "Cancel", interactive=True)
DELETE = Element(3, Box(40, 240, 120, 24), "button", "Delete customer", interactive=True)
RUN_TIMEOUT = 20_000


class StubScreen(Device):
    """A 480×300 screen whose top-left corner changes with every action, so the critic sees an
    effect; `gone` makes it fail like a display that went away."""

    kind = "stub"

    def __init__(self) -> None:
        self.pixels = np.full((300, 480, 3), 235, np.uint8)
        self.performed: list[tuple[str, tuple[int, int] | None]] = []
        self.gone = False

    def capture(self) -> Frame:
        if self.gone:
            raise RuntimeError("connection to the display was lost")
        return Frame(self.pixels.copy())

    def perform(self, action, point=None, end=None) -> None:
        self.performed.append((action.type, point))
        self.pixels[0:20, 0:20] = (len(self.performed) * 50) % 256

    def screens(self) -> list[Monitor]:
        return [Monitor(0, 0, 480, 300)]

    @property
    def size(self) -> tuple[int, int]:
        return (480, 300)


class StubParser:
    def __init__(self, *elements: Element) -> None:
        self.elements = elements

    def parse(self, frame: Frame, nodes=None) -> Screen:
        return Screen(frame, self.elements)


@pytest.fixture
def screen() -> StubScreen:
    return StubScreen()


@pytest.fixture
def store(tmp_path: Path, monkeypatch) -> PanelStore:
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir()
    config.touch()
    monkeypatch.setenv("CLICKWRIGHT_CONFIG", str(config))
    for name in ("CLICKWRIGHT_BACKEND", "CLICKWRIGHT_MODEL", "CLICKWRIGHT_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CLICKWRIGHT_DEMOS", str(tmp_path / "demos"))
    return PanelStore(config)


def make_panel(qtbot, tmp_path: Path, store: PanelStore, screen: StubScreen, *elements: Element):
    choice = DeviceChoice("stub", "Stub screen", lambda: screen)
    panel = MainWindow(
        store,
        tmp_path / "runs",
        LIGHT,
        [choice],
        None,
        StubParser(*(elements or (SAVE, CANCEL))),
        state_dump=tmp_path / "dump.json",
    )
    qtbot.addWidget(panel)
    panel.show()
    return panel


@pytest.fixture
def panel(qtbot, tmp_path, store, screen) -> MainWindow:
    yield (window := make_panel(qtbot, tmp_path, store, screen))
    if window.running:
        window.stop()
        qtbot.waitUntil(lambda: not window.running, timeout=RUN_TIMEOUT)
    window.preview.stop()


def start(qtbot, panel: MainWindow, task: str, step: bool = False) -> None:
    panel.task.setText(task)
    qtbot.mouseClick(panel.step_button if step else panel.run_button, Qt.MouseButton.LeftButton)
    assert panel.running, panel.message


def finish(qtbot, panel: MainWindow) -> str:
    qtbot.waitUntil(lambda: not panel.running, timeout=RUN_TIMEOUT)
    assert panel.ended is not None
    return panel.ended.outcome


def held_after(qtbot, panel: MainWindow, steps: int) -> None:
    """The run has recorded `steps` steps and waits at the pause gate."""
    qtbot.waitUntil(lambda: len(panel.timeline.steps) == steps, timeout=RUN_TIMEOUT)
    qtbot.waitUntil(lambda: panel.pause_button.text() == "Resume", timeout=RUN_TIMEOUT)


# ---- the task box -----------------------------------------------------------------------------


def test_the_task_box_walks_through_history_with_up_and_down(qtbot):
    box = TaskBox(["click Save", "press Enter"])
    qtbot.addWidget(box)
    box.setText("draft")
    for key, expected in [
        (Qt.Key.Key_Up, "press Enter"),
        (Qt.Key.Key_Up, "click Save"),
        (Qt.Key.Key_Up, "click Save"),
        (Qt.Key.Key_Down, "press Enter"),
        (Qt.Key.Key_Down, "draft"),
    ]:
        qtbot.keyClick(box, key)
        assert box.text() == expected
    with qtbot.waitSignal(box.submitted) as submitted:
        qtbot.keyClick(box, Qt.Key.Key_Return)
    assert submitted.args == ["draft"]


# ---- bad input ----------------------------------------------------------------------------------


def test_an_empty_task_says_what_to_type_and_starts_nothing(qtbot, panel, tmp_path):
    panel.task.setText("   ")
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert not panel.running
    assert panel.message.startswith("Type a task first")
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_task_the_offline_planner_cannot_read_is_refused_before_running(qtbot, panel):
    panel.task.setText("click")
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert not panel.running
    assert "understood the verb 'click'" in panel.message
    assert panel.run_button.isEnabled()


def test_words_the_screen_does_not_settle_end_the_run_saying_so(qtbot, panel):
    start(qtbot, panel, "make the app nicer")
    assert finish(qtbot, panel) == "error"
    assert "none of its words name anything on the screen" in panel.message


def test_a_model_that_is_not_configured_is_named_before_running(qtbot, panel, store):
    store.save_models(ModelSettings(BackendSettings(backend="openai")))
    panel._fill_models()
    panel.model_box.setCurrentIndex(1)
    panel.task.setText("click Save")
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert not panel.running
    assert "no model is set" in panel.message and "Settings" in panel.message


def test_a_device_that_disappears_mid_run_ends_it_with_a_message(qtbot, panel, screen):
    start(qtbot, panel, "click Save, then click Cancel", step=True)
    held_after(qtbot, panel, 1)
    screen.gone = True
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)  # Resume
    assert finish(qtbot, panel) == "error"
    assert "could not capture the screen" in panel.message
    assert "connection to the display was lost" in panel.message
    assert panel.banner.property("level") == "error"
    screen.gone = False  # the panel is still usable
    start(qtbot, panel, "click Save")
    assert finish(qtbot, panel) == "done"


# ---- running, pausing, stepping, stopping -----------------------------------------------------


def test_a_run_fills_the_timeline_the_meter_and_the_history(qtbot, panel, screen, tmp_path):
    start(qtbot, panel, "click Save, then press Enter")
    assert not panel.run_button.isEnabled() and panel.stop_button.isEnabled()
    assert finish(qtbot, panel) == "done"
    assert [kind for kind, _ in screen.performed] == ["click", "hotkey"]
    assert screen.performed[0][1] == SAVE.box.center
    assert [s["verdict"] for s in panel.timeline.steps] == ["success", "success"]
    assert panel.meter.steps == 2
    assert panel.run_button.isEnabled() and not panel.stop_button.isEnabled()
    dump = json.loads((tmp_path / "dump.json").read_text())
    assert dump["outcome"] == "done" and len(dump["steps"]) == 2
    assert dump["run_dir"] and Path(dump["run_dir"], "steps.jsonl").exists()
    assert panel.history.runs[0].outcome == "done"
    assert panel.task.history[-1] == "click Save, then press Enter"
    assert PanelStore(panel.store.config_path).prefs().history[-1] == panel.task.history[-1]


def test_step_carries_out_one_action_at_a_time_and_resume_runs_on(qtbot, panel, screen):
    start(qtbot, panel, "click Save, then click Cancel, then press Enter", step=True)
    held_after(qtbot, panel, 1)
    time.sleep(0.4)
    assert len(screen.performed) == 1 and "Paused" in panel.message
    qtbot.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)
    held_after(qtbot, panel, 2)
    assert len(screen.performed) == 2
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)  # Resume
    assert finish(qtbot, panel) == "done"
    assert len(screen.performed) == 3


def test_pause_holds_before_the_next_action(qtbot, panel, screen):
    start(qtbot, panel, "click Save, then click Cancel, then press Enter")
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.pause_button.text() == "Resume", timeout=RUN_TIMEOUT)
    done = len(screen.performed)
    time.sleep(0.5)
    assert len(screen.performed) == done < 3
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)
    assert finish(qtbot, panel) == "done"


def test_stop_ends_a_paused_run_and_the_panel_can_run_again(qtbot, panel, screen):
    start(qtbot, panel, "click Save, then click Cancel", step=True)
    held_after(qtbot, panel, 1)
    qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
    assert finish(qtbot, panel) == "stopped"
    assert len(screen.performed) == 1
    assert panel.message.startswith("Stopped")
    start(qtbot, panel, "click Cancel")
    assert finish(qtbot, panel) == "done"


def test_closing_the_window_stops_the_run_cleanly(qtbot, panel):
    start(qtbot, panel, "click Save, then click Cancel", step=True)
    held_after(qtbot, panel, 1)
    thread = panel.thread_
    panel.close()
    assert panel.isVisible()  # not before the run has stopped
    qtbot.waitUntil(lambda: not panel.isVisible(), timeout=RUN_TIMEOUT)
    assert panel.ended.outcome == "stopped" and thread is not None and thread.isFinished()


# ---- approvals and questions --------------------------------------------------------------------


def answer_approval(qtbot, panel: MainWindow, button: str) -> None:
    qtbot.waitUntil(lambda: isinstance(panel.dialog, ApprovalDialog), timeout=RUN_TIMEOUT)
    dialog = panel.dialog
    assert "Delete customer" in dialog.findChildren(type(panel.view_title))[1].text()
    qtbot.mouseClick(
        next(b for b in dialog.findChildren(type(panel.run_button)) if b.text() == button),
        Qt.MouseButton.LeftButton,
    )


def test_denying_a_risky_action_stops_the_run_before_it(qtbot, tmp_path, store, screen):
    panel = make_panel(qtbot, tmp_path, store, screen, DELETE, SAVE)
    start(qtbot, panel, "click the first button")  # the task does not name it
    answer_approval(qtbot, panel, "Deny")
    assert finish(qtbot, panel) == "stopped"
    assert "not approved" in panel.message
    assert screen.performed == []
    panel.preview.stop()


def test_approving_once_carries_it_out(qtbot, tmp_path, store, screen):
    panel = make_panel(qtbot, tmp_path, store, screen, DELETE, SAVE)
    start(qtbot, panel, "click the first button")  # the task does not name it
    answer_approval(qtbot, panel, "Approve once")
    assert finish(qtbot, panel) == "done"
    assert screen.performed == [("click", DELETE.box.center)]
    panel.preview.stop()


def test_a_question_from_the_model_is_answered_in_a_dialog(qtbot, panel, store):
    model = ScriptedModel(
        plan=["Fill in the name"],
        actor=[
            act({"type": "ask_user", "question": "Which name should I use?"}),
            act({"type": "done", "summary": "used the name"}),
        ],
    )
    with ModelServer([], model) as server:
        store.save_models(
            ModelSettings(
                BackendSettings(backend="openai", model="scripted", base_url=server.url + "/v1")
            )
        )
        panel._fill_models()
        panel.model_box.setCurrentIndex(1)
        start(qtbot, panel, "Fill in the customer's name")
        qtbot.waitUntil(lambda: isinstance(panel.dialog, QuestionDialog), timeout=RUN_TIMEOUT)
        panel.dialog.field.setText("Ada Lovelace")
        qtbot.keyClick(panel.dialog.field, Qt.Key.Key_Return)
        assert finish(qtbot, panel) == "done", panel.message
    assert "Ada Lovelace" in model.prompts["actor"][1].text
    assert panel.timeline.steps[0]["verdict_reason"] == "the user answered: Ada Lovelace"


# ---- take over and hand back ---------------------------------------------------------------------


def test_handing_back_makes_the_agent_read_the_screen_again(qtbot, panel, screen):
    start(qtbot, panel, "click Save, then click Cancel", step=True)
    held_after(qtbot, panel, 1)
    qtbot.mouseClick(panel.take_button, Qt.MouseButton.LeftButton)
    assert panel.take_button.text() == "Hand back" and "You have the screen" in panel.message
    moved = Element(2, Box(100, 100, 60, 24), "button", "Cancel", interactive=True)
    panel.parser.elements = (SAVE, moved)  # the person moved Cancel while holding the screen
    qtbot.mouseClick(panel.take_button, Qt.MouseButton.LeftButton)
    assert finish(qtbot, panel) == "done", panel.message
    assert [p for _, p in screen.performed] == [SAVE.box.center, moved.box.center]


def test_handing_back_an_unchanged_target_goes_on(qtbot, panel, screen):
    start(qtbot, panel, "click Save, then click Cancel", step=True)
    held_after(qtbot, panel, 1)
    qtbot.mouseClick(panel.take_button, Qt.MouseButton.LeftButton)
    screen.pixels[280:300, 0:40] = 0  # elsewhere on the screen
    qtbot.mouseClick(panel.take_button, Qt.MouseButton.LeftButton)
    assert finish(qtbot, panel) == "done"
    assert [p for _, p in screen.performed] == [SAVE.box.center, CANCEL.box.center]


# ---- settings ---------------------------------------------------------------------------------


def test_settings_are_saved_where_the_cli_reads_them_and_read_back(qtbot, store, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-very-secret")
    dialog = SettingsDialog(store.models(), store.prefs())
    qtbot.addWidget(dialog)
    dialog.backend.setCurrentIndex(dialog.backend.findData("openai"))
    dialog.model.setText("gpt-4o")
    dialog.key_env.setText("MY_KEY")
    assert dialog.key_status.text() == "MY_KEY is set"
    grounder = dialog.role_backend["grounder"]
    grounder.setCurrentIndex(grounder.findData("transformers"))
    dialog.role_model["grounder"].setText("/models/ui-tars")
    dialog.max_steps.setValue(12)
    dialog.max_cost.setValue(0.5)
    dialog.allow.setChecked(True)
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    store.save_models(dialog.model_settings())
    store.save_prefs(dialog.panel_prefs())

    text = store.config_path.read_text()
    assert "sk-very-secret" not in text and 'api_key_env = "MY_KEY"' in text
    cli = load_settings(env={"CLICKWRIGHT_CONFIG": str(store.config_path)})
    assert (cli.default.backend, cli.default.model) == ("openai", "gpt-4o")
    assert cli.for_role("grounder").backend == "transformers"
    assert cli.for_role("notetaker").backend == "offline"
    assert cli.for_role("actor") == cli.default
    assert (cli.run.max_steps, cli.run.max_cost, cli.run.approve_risky) == (12, 0.5, True)
    assert "[run]" in text  # the CLI's `run` takes these limits when no flag is given
    prefs = PanelStore(store.config_path).prefs()
    assert prefs.theme == "dark"

    again = SettingsDialog(store.models(), prefs)
    qtbot.addWidget(again)
    assert again.backend.currentData() == "openai" and again.model.text() == "gpt-4o"
    assert again.role_backend["grounder"].currentData() == "transformers"
    assert again.role_backend["actor"].currentText() == "same as above"
    assert again.max_cost.value() == 0.5 and again.allow.isChecked()
    assert again.model_settings() == store.models()


def test_an_unreadable_panel_file_falls_back_to_defaults(store):
    store.prefs_path.write_text("{not json")
    assert store.prefs() == PanelPrefs()


def test_budgets_from_the_settings_limit_the_run(qtbot, panel, store):
    store.save_models(replace(store.models(), run=RunLimits(max_steps=1)))
    start(qtbot, panel, "click Save, then click Cancel")
    assert finish(qtbot, panel) == "failed"
    assert "limit of 1 steps" in panel.message
    assert panel.meter.max_steps == 1


# ---- history ----------------------------------------------------------------------------------


def test_history_shows_past_runs_and_opens_their_report(qtbot, panel, monkeypatch):
    start(qtbot, panel, "click Save")
    finish(qtbot, panel)
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    panel.history.tree.setCurrentItem(panel.history.tree.topLevelItem(0))
    assert panel.history.tree.topLevelItem(0).text(2) == "done"
    report_button = next(
        b for b in panel.history.findChildren(type(panel.run_button)) if b.text() == "Open report"
    )
    qtbot.mouseClick(report_button, Qt.MouseButton.LeftButton)
    assert opened and Path(opened[0].toLocalFile()).name == "report.html"
    assert Path(opened[0].toLocalFile()).exists()

    panel.timeline.show_run([], None)
    panel.show_past_run(panel.history.runs[0].run_dir)
    assert len(panel.timeline.steps) == 1
    assert panel.view_title.text().startswith("Step 1")  # its frame is shown


# ---- the same screen as the panel ---------------------------------------------------------------


def test_the_panel_steps_aside_while_the_agent_looks_and_comes_back(qtbot, screen):
    window = QMainWindow()
    qtbot.addWidget(window)
    window.setGeometry(0, 0, 300, 200)
    window.show()
    seen: list[bool] = []
    real_capture = screen.capture

    def capture() -> Frame:
        seen.append(window.isVisible())
        return real_capture()

    screen.capture = capture
    aside = PanelAside(screen, Curtain(window, QRect(0, 0, 480, 300)))
    worker = threading.Thread(target=aside.capture)
    worker.start()
    qtbot.waitUntil(lambda: not worker.is_alive(), timeout=5000)
    assert seen and not any(seen)  # hidden for every capture
    assert not window.isVisible()
    qtbot.waitUntil(window.isVisible, timeout=IDLE_MS * 4)


def test_saving_from_the_panel_keeps_the_users_own_prices(store):
    store.config_path.write_text(
        'model = "m"\n\n[prices."my-finetune"]\ninput = 0.5\noutput = 1.5\n'
    )
    store.save_models(store.models())
    assert store.models().prices["my-finetune"] == Price(0.5, 1.5)
    assert "gpt-4o" not in store.config_path.read_text()  # shipped prices stay shipped


def test_the_person_acts_on_a_sandbox_through_the_view(qtbot):
    view = ScreenView()
    qtbot.addWidget(view)
    view.resize(480, 300)
    view.show()
    view.show_frame(to_image(np.zeros((150, 240, 3), np.uint8)))  # shown at twice its size
    acted = []
    view.acted.connect(lambda action, point: acted.append((action, point)))
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(100, 60))
    assert acted == []  # only while taken over
    view.set_interactive(True)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(100, 60))
    qtbot.keyClicks(view, "Ad")
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.keyClick(view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    kinds = [(a.type, getattr(a, "text", "") or getattr(a, "keys", ()) or None) for a, _ in acted]
    assert kinds == [("click", None), ("type", "A"), ("type", "d"), ("hotkey", ("enter",)),
                     ("hotkey", ("ctrl", "s"))]  # fmt: skip
    assert acted[0][0].target.point == (50, 30) == acted[0][1]


def test_a_long_run_fills_the_timeline_past_its_height(qtbot):
    timeline = Timeline(LIGHT)
    qtbot.addWidget(timeline)
    timeline.resize(380, 300)
    timeline.show()
    step = {"action": {"type": "hotkey", "keys": ["enter"]}, "verdict": "success"}
    for index in range(1, 13):
        timeline.add_step({**step, "index": index, "thought": "a thought " * index})
    assert timeline.count() == 12 and timeline.verticalScrollBar().isVisible()
    assert all(timeline.itemWidget(timeline.item(row)) for row in range(12))


# ---- replay -----------------------------------------------------------------------------------


def test_a_demonstration_replays_from_the_record_replay_tab(qtbot, panel, screen, tmp_path):
    from clickwright.agent.demos.format import DemoStep, DemoWriter, new_info
    from clickwright.agent.demos.signature import Signature
    from clickwright.types import parse_action

    writer = DemoWriter(tmp_path / "demos", "save")
    click_save = parse_action({"type": "click", "target": {"text": "Save", "kind": "button"}})
    where = Signature(text="Save", kind="button", box=(0.6, 0.8, 0.12, 0.08), screen=(480, 300))
    writer.finish(
        new_info("save", "save the form", "desktop/linux", (480, 300)),
        [DemoStep(words="click 'Save'", action=click_save, target=where)],
    )
    panel.demos.refresh()
    panel.demos.tree.setCurrentItem(panel.demos.tree.topLevelItem(0))
    qtbot.mouseClick(panel.demos.replay_button, Qt.MouseButton.LeftButton)
    assert finish(qtbot, panel) == "done", panel.message
    assert screen.performed == [("click", SAVE.box.center)]
    assert panel.timeline.steps and panel.timeline.steps[0]["instruction"] == "click 'Save'"
