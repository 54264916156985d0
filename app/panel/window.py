"""The panel's main window: it lays out the parts and carries a run from Run to its end.

Everything slow happens elsewhere: the run in a RunWorker on a QThread, the preview's captures
in the thread pool, a sandbox app's start in a thread of its own. The window only reacts to
their signals, so it never freezes.
"""

from __future__ import annotations

import contextlib
import json
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, Qt, QThread, QTimer, QUrl, Signal
from PySide6.QtGui import QCloseEvent, QDesktopServices, QImage
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from clickwright.agent.config import ModelSettings
from clickwright.agent.demos.format import Demo
from clickwright.agent.demos.replay import replay_task
from clickwright.agent.events import Waiting
from clickwright.agent.runlog import read_steps
from clickwright.agent.safety import Risk
from clickwright.agent.state import RunSettings
from clickwright.app.panel.aside import Curtain, PanelAside
from clickwright.app.panel.choices import SANDBOX, DeviceChoice
from clickwright.app.panel.control import RunControl
from clickwright.app.panel.demos_tab import DemosTab
from clickwright.app.panel.dialogs import ApprovalDialog, QuestionDialog
from clickwright.app.panel.history import HistoryList
from clickwright.app.panel.human import PanelHuman
from clickwright.app.panel.live_view import OVERLAYS, ScreenView, overlay_icon, to_image
from clickwright.app.panel.meter import Meter
from clickwright.app.panel.preflight import preflight
from clickwright.app.panel.prefs import PanelStore
from clickwright.app.panel.preview import Preview
from clickwright.app.panel.sandbox import Sandbox, app_presets
from clickwright.app.panel.settings_dialog import SettingsDialog
from clickwright.app.panel.task_box import TaskBox
from clickwright.app.panel.theme import Colours
from clickwright.app.panel.timeline import Timeline, step_title
from clickwright.app.panel.worker import Ended, RunRequest, RunWorker
from clickwright.app.report import write_report
from clickwright.app.stop_hotkey import stop_hotkey
from clickwright.errors import ClickwrightError
from clickwright.types import Action, Frame, Screen

OUTCOME_TEXT = {
    "done": "Done",
    "failed": "Failed",
    "stopped": "Stopped",
    "question": "Ended on a question",
    "error": "Problem",
}
OFFLINE_LABEL = "Offline — built-in planner"


class MainWindow(QMainWindow):
    _launched = Signal(str)
    """A sandbox app finished starting: '' or what went wrong."""

    def __init__(
        self,
        store: PanelStore,
        runs_dir: Path,
        colours: Colours,
        choices: list[DeviceChoice],
        sandbox: Sandbox | None,
        parser: Any,
        display: str | None = None,
        state_dump: Path | None = None,
    ) -> None:
        """`display`: the X display the panel shows on (None offscreen), where the stop hotkey
        listens and where the panel must keep out of the agent's way."""
        super().__init__()
        self.store, self.runs_dir, self.colours = store, runs_dir, colours
        self.prefs = store.prefs()
        self.choices, self.sandbox, self.parser = choices, sandbox, parser
        self.display, self.state_dump = display, state_dump
        self.worker: RunWorker | None = None
        self.thread_: QThread | None = None
        self.control: RunControl | None = None
        self.human: PanelHuman | None = None
        self.dialog: ApprovalDialog | QuestionDialog | None = None
        self.closing = False
        self.curtain: Curtain | None = None
        """Hides the panel while a run on its own screen looks and acts."""
        self.ended: Ended | None = None
        self.message = ""
        self._hotkey = contextlib.ExitStack()
        self._latest: Frame | None = None
        self._parsed: Screen | None = None
        self._drawn: Frame | None = None
        self._next: tuple[int, int] | None = None
        self._click: tuple[int, int] | None = None
        self._showing_step = False
        self._sized = False
        self.setWindowTitle("clickwright")
        self.resize(1280, 800)
        self._build()
        self.preview = Preview()
        self.preview.frame_ready.connect(self._frame_seen)
        self.preview.failed.connect(
            lambda why: self.say(f"Cannot show this screen: {why}", "error")
        )
        self._launched.connect(self._app_started)
        self._redraw = QTimer(self)
        self._redraw.setInterval(100)
        self._redraw.timeout.connect(self._draw_live)
        self._redraw.start()
        self._choose_device(self.device_box.currentIndex())
        self._set_running(False)
        self.task.setFocus()
        self._dump()

    # ---- layout -------------------------------------------------------------------------------

    def _build(self) -> None:
        root = QWidget()
        outer = QVBoxLayout(root)
        outer.setContentsMargins(14, 12, 14, 8)
        outer.setSpacing(10)
        outer.addLayout(self._task_row())
        outer.addLayout(self._target_row())
        self.banner = QLabel()
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        self.banner.hide()
        outer.addWidget(self.banner)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        split.addWidget(self._view_side())
        split.addWidget(self._side_tabs())
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 1)
        outer.addWidget(split, 1)
        self.split = split
        self.setCentralWidget(root)
        self.statusBar().setSizeGripEnabled(False)

    def _task_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(8)
        self.task = TaskBox(self.prefs.history)
        self.task.submitted.connect(lambda _: self.run())
        row.addWidget(self.task, 1)
        self.run_button = self._button("Run", "primary", self.run, "Run the task (Enter)")
        self.pause_button = self._button(
            "Pause", "", self.pause_or_resume, "Hold before the next action"
        )
        self.step_button = self._button("Step", "", self.step, "Carry out one action, then hold")
        self.stop_button = self._button(
            "Stop", "danger", self.stop, "Stop after the current action"
        )
        self.take_button = self._button(
            "Take over", "", self.take_over, "Pause and use the screen yourself"
        )
        self.take_button.setCheckable(True)
        for button in (
            self.run_button,
            self.pause_button,
            self.step_button,
            self.stop_button,
            self.take_button,
        ):
            row.addWidget(button)
        return row

    def _target_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self._muted("Screen"))
        self.device_box = QComboBox()
        self.device_box.setMinimumWidth(230)
        self._fill_devices()
        self.device_box.currentIndexChanged.connect(self._choose_device)
        row.addWidget(self.device_box)
        self.app_label = self._muted("App")
        row.addWidget(self.app_label)
        self.app_box = QComboBox()
        self.app_box.setEditable(True)
        self.app_box.setMinimumWidth(200)
        self.app_box.setMaximumWidth(420)
        for name, command in app_presets(self.runs_dir.resolve() / "sample-app-state.json"):
            self.app_box.addItem(name, command)
            self.app_box.setItemData(self.app_box.count() - 1, command, Qt.ItemDataRole.ToolTipRole)
        if self.prefs.sandbox_app:
            self.app_box.setEditText(self.prefs.sandbox_app)
        self.app_box.lineEdit().setPlaceholderText("a command to start in the sandbox")
        row.addWidget(self.app_box, 1)
        self.launch_button = self._button("Launch", "", self.launch_app, "Start it in the sandbox")
        row.addWidget(self.launch_button)
        row.addStretch()
        row.addSpacing(16)
        row.addWidget(self._muted("Model"))
        self.model_box = QComboBox()
        self.model_box.setMinimumWidth(200)
        self._fill_models()
        self.model_box.activated.connect(self._choose_model)
        row.addWidget(self.model_box)
        settings = self._button(
            "Settings", "", self.open_settings, "Models, budget, approvals, theme"
        )
        row.addWidget(settings)
        return row

    def _view_side(self) -> QWidget:
        frame = QFrame()
        frame.setObjectName("viewFrame")
        layout = QVBoxLayout(frame)
        layout.setContentsMargins(10, 8, 10, 10)
        header = QHBoxLayout()
        self.view_title = QLabel("Live")
        self.view_title.setObjectName("heading")
        header.addWidget(self.view_title)
        self.live_button = QPushButton("Back to live")
        self.live_button.clicked.connect(self.back_to_live)
        self.live_button.hide()
        header.addWidget(self.live_button)
        header.addStretch(1)
        self.overlay_buttons: dict[str, QToolButton] = {}
        for name, label in OVERLAYS.items():
            toggle = QToolButton()
            toggle.setText(label)
            toggle.setIcon(overlay_icon(name))
            toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            toggle.setCheckable(True)
            toggle.setToolTip(f"Show {label.lower()}")
            toggle.toggled.connect(lambda on, n=name: self.view.set_overlay(n, on))
            header.addWidget(toggle)
            self.overlay_buttons[name] = toggle
        layout.addLayout(header)
        self.view = ScreenView()
        self.view.acted.connect(self._person_acted)
        layout.addWidget(self.view, 1)
        for name, toggle in self.overlay_buttons.items():
            toggle.setChecked(name in self.view.shown)
        return frame

    def _side_tabs(self) -> QTabWidget:
        tabs = QTabWidget()
        steps = QWidget()
        layout = QVBoxLayout(steps)
        layout.setContentsMargins(0, 6, 0, 0)
        self.timeline = Timeline(self.colours)
        self.timeline.selected.connect(self.show_step)
        self.empty_steps = self._muted("The steps of a run appear here as the agent works.")
        self.empty_steps.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_steps.setWordWrap(True)
        layout.addWidget(self.empty_steps)
        layout.addWidget(self.timeline, 1)
        self.meter = Meter()
        layout.addWidget(self.meter)
        tabs.addTab(steps, "Steps")
        self.history = HistoryList(self.runs_dir, self.colours)
        self.history.open_report.connect(self.open_report)
        self.history.show_steps.connect(self.show_past_run)
        tabs.addTab(self.history, "History")
        self.demos = DemosTab()
        self.demos.replay_requested.connect(lambda demo: self.run(demo=demo))
        tabs.addTab(self.demos, "Record / Replay")
        tabs.setMinimumWidth(380)
        self.tabs = tabs
        return tabs

    def _button(self, text: str, name: str, slot: Any, tip: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        return button

    @staticmethod
    def _muted(text: str) -> QLabel:
        label = QLabel(text)
        label.setObjectName("muted")
        return label

    def _fill_devices(self) -> None:
        self.device_box.clear()
        for choice in self.choices:
            self.device_box.addItem(choice.label, choice.key)
        index = self.device_box.findData(self.prefs.device)
        self.device_box.setCurrentIndex(max(index, 0))

    def _fill_models(self) -> None:
        self.model_box.clear()
        self.model_box.addItem(OFFLINE_LABEL, False)
        try:
            models = self.store.models()
        except ClickwrightError as exc:
            self.say(f"The settings file cannot be used: {exc}", "error")
            models = ModelSettings()
        if models.uses_models:
            d = models.default
            label = f"{d.model} · {d.backend}" if d.is_model else "Models per role (settings)"
            self.model_box.addItem(label, True)
            self.model_box.setCurrentIndex(1 if self.prefs.use_models else 0)
        else:
            self.model_box.addItem("Set up a model…", None)

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt's naming)
        """The timeline gets about a third of the width, however wide the window first opens
        (later shows, after stepping aside, keep what the person set)."""
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            side = max(380, self.split.width() // 3)
            self.split.setSizes([self.split.width() - side, side])

    # ---- messages and state -----------------------------------------------------------------

    def say(self, text: str, level: str = "info") -> None:
        """A message above the view: what happened, and what to do about it."""
        self.message = text
        self.banner.setText(text)
        self.banner.setProperty("level", level)
        self.banner.style().unpolish(self.banner)
        self.banner.style().polish(self.banner)
        self.banner.setVisible(bool(text))
        self._dump()

    @property
    def running(self) -> bool:
        return self.worker is not None

    def current_choice(self) -> DeviceChoice | None:
        key = self.device_box.currentData()
        return next((c for c in self.choices if c.key == key), None)

    def _set_running(self, running: bool) -> None:
        paused = running and self.control is not None and self.control.paused
        self.run_button.setEnabled(not running)
        self.task.setReadOnly(running)
        self.pause_button.setEnabled(running)
        self.pause_button.setText("Resume" if paused else "Pause")
        self.stop_button.setEnabled(running)
        self.step_button.setEnabled(not running or paused)
        self.device_box.setEnabled(not running)
        is_sandbox = self.device_box.currentData() == SANDBOX
        for widget in (self.app_label, self.app_box, self.launch_button):
            widget.setVisible(is_sandbox)
        self.launch_button.setEnabled(not running)
        self.take_button.setEnabled(running or is_sandbox)
        self.model_box.setEnabled(not running)

    # ---- running --------------------------------------------------------------------------

    def run(self, step_mode: bool = False, demo: Demo | None = None) -> None:
        """Start the task in the box, or replay `demo`; `step_mode` holds before the second
        action."""
        if self.running:
            return
        task = replay_task(demo) if demo else self.task.text().strip()
        choice = self.current_choice()
        try:
            models = self._models()
            if demo is None:
                preflight(task, models)
            if choice is None:
                raise ClickwrightError("there is no screen to work on", "choose one under Screen")
            device = choice.open()
        except ClickwrightError as exc:
            self.say(_sentence(str(exc)), "error")
            return
        if self._on_own_screen(choice):
            self.curtain = Curtain(self, QRect(*choice.area))
            device = PanelAside(device, self.curtain)
        limits = models.run
        settings = RunSettings(
            max_steps=limits.max_steps,
            max_time=limits.max_time,
            max_cost=limits.max_cost,
            approve_risky=limits.approve_risky,
        )
        self.control = RunControl()
        if step_mode:
            self.control.step()
        self.human = PanelHuman(self.control)
        self.human.approval_needed.connect(self._approve)
        self.human.question_asked.connect(self._question)
        request = RunRequest(task, device, self.runs_dir, settings, models, self.parser, demo)
        self.worker = RunWorker(request, self.control, self.human)
        self.thread_ = QThread()
        self.worker.moveToThread(self.thread_)
        self.thread_.started.connect(self.worker.run)
        self.worker.step_done.connect(self._step_done)
        self.worker.frame_seen.connect(self._frame_seen)
        self.worker.screen_parsed.connect(self._screen_parsed)
        self.worker.acting.connect(self._acting)
        self.worker.waiting.connect(self._waiting)
        self.worker.held.connect(self._held)
        self.worker.ended.connect(self._ended)
        hotkey = self._hotkey.enter_context(stop_hotkey(self.control.stop_event, self.display))
        self.preview.active = False
        self.ended = None
        self.timeline.show_run([], None)
        self.empty_steps.hide()
        self.meter.reset(settings.max_steps, settings.max_cost, models.uses_models)
        self.task.setCursorPosition(0)
        self._next = self._click = None
        self.back_to_live()
        self.tabs.setCurrentIndex(0)
        self.prefs = self.prefs.remember(task)
        self.task.remember(task)
        self._save_prefs()
        stop_hint = f" — press {hotkey} anywhere to stop" if hotkey else ""
        self.say(f"Running on {choice.label}{stop_hint}", "info")
        self.statusBar().showMessage(f"Running: {task}")
        self.thread_.start()
        self._set_running(True)

    def _models(self) -> ModelSettings:
        if self.model_box.currentData() is None:
            raise ClickwrightError(
                "no model is set up", "open Settings to add one, or choose the offline planner"
            )
        saved = self.store.models_for_run()  # the offline planner keeps the saved limits
        return saved if self.model_box.currentData() else ModelSettings(run=saved.run)

    def pause_or_resume(self) -> None:
        if self.control is None:
            return
        if self.control.paused:
            self.control.resume()
            self.say("Running", "info")
        else:
            self.control.pause()
            self.say("Pausing before the next action…", "info")
        self._set_running(True)

    def step(self) -> None:
        """Idle: start the run and hold after its first action. Paused: one more action."""
        if self.control is None or not self.running:
            self.run(step_mode=True)
            return
        self.control.step()
        self.say("Carrying out one action…", "info")
        self._set_running(True)

    def stop(self) -> None:
        if self.control is not None:
            self.control.stop()
            self.say("Stopping after the current action…", "info")
        if self.dialog is not None:
            self.dialog.reject()

    def take_over(self, on: bool) -> None:
        """Pause the run and let the person use the screen; handing back resumes it, and the
        agent reads the screen again before its next action."""
        is_sandbox = self.device_box.currentData() == SANDBOX
        self.view.set_interactive(on and is_sandbox)
        self.take_button.setText("Hand back" if on else "Take over")
        if on:
            if self.control is not None:
                self.control.pause()
            where = "click and type on the view" if is_sandbox else "use your mouse and keyboard"
            self.say(f"You have the screen: {where}, then press Hand back.", "info")
        elif self.control is not None and self.worker is not None:
            self.control.handed_back()
            self.say("Handed back: the agent goes on from the screen as it is now.", "info")
        else:
            self.say("")
        self._set_running(self.running)

    def _person_acted(self, action: Action, point: tuple[int, int] | None) -> None:
        device = self.preview.device
        if device is None:
            return
        try:
            device.perform(action, point)
        except ClickwrightError as exc:
            self.say(_sentence(str(exc)), "error")

    # ---- what the worker reports ------------------------------------------------------------

    def _step_done(self, step: dict[str, Any], run_dir: Path | None) -> None:
        if self.timeline.run_dir is None:
            self.timeline.run_dir = run_dir
        self.timeline.add_step(step)
        self.meter.add(step)
        point = step.get("point")
        self._click = tuple(point) if point else self._click
        self._next = None
        self.statusBar().showMessage(f"Step {step.get('index')}: {step_title(step)}")
        self._dump()

    def _frame_seen(self, frame: Frame) -> None:
        self._latest = frame

    def _screen_parsed(self, screen: Screen) -> None:
        self._parsed = screen
        self._latest = screen.frame

    def _acting(self, action: Action, point: tuple[int, int] | None) -> None:
        self._next = point

    def _waiting(self, waiting: Waiting) -> None:
        self.statusBar().showMessage("" if waiting.over else waiting.describe())

    def _held(self, holding: bool) -> None:
        if holding:
            taken = self.take_button.isChecked()
            if not taken:
                self.say("Paused before the next action: Resume, Step, or Take over.", "info")
        self._set_running(True)

    def _draw_live(self) -> None:
        frame = self._latest
        if self._showing_step or frame is None or frame is self._drawn:
            return
        self._drawn = frame
        parsed = self._parsed
        current = parsed is not None and parsed.frame.same_as(frame)
        elements = parsed.to_json() if current else []
        self.view.show_frame(to_image(frame.pixels), elements, self._next, self._click)

    def _ended(self, ended: Ended) -> None:
        self.ended = ended
        if self.dialog is not None:
            self.dialog.reject()
        self._hotkey.close()
        if self.curtain is not None:
            self.curtain.restore()
            self.curtain = None
        if self.thread_ is not None:
            self.thread_.quit()
            self.thread_.wait()
        self.worker = self.thread_ = self.control = self.human = None
        self.take_button.setChecked(False)
        self.view.set_interactive(False)
        self.take_button.setText("Take over")
        self.preview.active = True
        self._next = None
        self._drawn = None
        self.history.refresh()
        self._set_running(False)
        if self.timeline.run_dir is None:
            self.timeline.run_dir = ended.run_dir
        title = OUTCOME_TEXT.get(ended.outcome, ended.outcome)
        level = "done" if ended.outcome == "done" else "error"
        self.say(f"{title}: {ended.reason}", level)
        self.statusBar().showMessage(f"{title} — {len(self.timeline.steps)} step(s)")
        if self.closing:
            self.close()

    # ---- the person's answers ---------------------------------------------------------------

    def _approve(self, risk: Risk) -> None:
        self._ask(ApprovalDialog(self, risk))

    def _question(self, question: str) -> None:
        self._ask(QuestionDialog(self, question))

    def _ask(self, dialog: ApprovalDialog | QuestionDialog) -> None:
        human = self.human
        self.dialog = dialog

        def decided(answer: object) -> None:
            self.dialog = None
            if human is not None:
                human.reply(answer)  # type: ignore[arg-type]

        dialog.decided.connect(decided)
        dialog.open()

    # ---- looking at steps and past runs ------------------------------------------------------

    def show_step(self, step: dict[str, Any], run_dir: Path | None) -> None:
        """The frame the step acted on, its parsed elements and where it acted."""
        frame = run_dir / step["frame"] if run_dir and step.get("frame") else None
        if frame is None or not frame.exists():
            return
        elements: list[dict[str, Any]] = []
        with contextlib.suppress(OSError, ValueError, TypeError):
            elements = json.loads((run_dir / step["elements"]).read_text(encoding="utf-8"))
        point = step.get("point")
        self._showing_step = True
        self.view.show_frame(QImage(str(frame)), elements, None, tuple(point) if point else None)
        self.view_title.setText(f"Step {step.get('index')} — the screen before it acted")
        self.live_button.show()

    def back_to_live(self) -> None:
        self._showing_step = False
        self._drawn = None
        self.view_title.setText("Live")
        self.live_button.hide()
        self.timeline.clearSelection()

    def show_past_run(self, run_dir: Path) -> None:
        steps = [step.to_json() for step in read_steps(run_dir)]
        self.timeline.show_run(steps, run_dir)
        self.empty_steps.setVisible(not steps)
        self.tabs.setCurrentIndex(0)
        if steps:
            self.timeline.setCurrentRow(0)

    def open_report(self, run_dir: Path) -> None:
        try:
            report = write_report(run_dir)
        except ClickwrightError as exc:
            self.say(_sentence(str(exc)), "error")
            return
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(report.resolve()))):
            self.say(f"No browser opened the report; it is at {report}", "info")

    # ---- devices, the sandbox, models and settings ----------------------------------------

    def _choose_device(self, index: int) -> None:
        choice = self.current_choice()
        self.view.show_frame(None)
        self._latest = self._drawn = self._parsed = None
        self.preview.set_device(None)
        self._set_running(self.running)
        if choice is None:
            self.view.placeholder = "No screen to show: choose one under Screen"
            return
        self.prefs = replace(self.prefs, device=choice.key)
        if self._on_own_screen(choice):
            self.view.placeholder = (
                "The agent works on the screen the panel is on: the panel steps aside while it "
                "looks and acts, and shows here what it saw."
            )
            return
        self.view.placeholder = "Starting…"
        try:
            self.preview.set_device(choice.open())
        except ClickwrightError as exc:
            self.view.placeholder = "This screen cannot be shown"
            self.say(_sentence(str(exc)), "error")
            return
        self.view.placeholder = "Waiting for the first picture…"
        if choice.key == SANDBOX and self.sandbox is not None and not self.sandbox.apps:
            self.say("The sandbox is a private desktop: choose an app and press Launch.", "info")

    def app_command(self) -> str:
        """The command of the chosen app: a listed app by its name, or what was typed."""
        text = self.app_box.currentText().strip()
        index = self.app_box.findText(text)
        return self.app_box.itemData(index) if index >= 0 else text

    def _on_own_screen(self, choice: DeviceChoice) -> bool:
        """Whether the agent would see the panel there (its preview would show itself)."""
        return bool(choice.area) and choice.display is not None and choice.display == self.display

    def launch_app(self) -> None:
        command = self.app_command()
        if self.sandbox is None or not command:
            self.say("Type the command of an app to start in the sandbox.", "error")
            return
        self.launch_button.setEnabled(False)
        self.say(f"Starting {self.app_box.currentText().strip()}…", "info")
        self.prefs = replace(self.prefs, sandbox_app=self.app_box.currentText().strip())
        self._save_prefs()
        sandbox = self.sandbox

        def start() -> None:
            try:
                sandbox.launch(command)
                self._launched.emit("")
            except ClickwrightError as exc:
                self._launched.emit(str(exc))

        threading.Thread(target=start, name="clickwright-launch", daemon=True).start()

    def _app_started(self, problem: str) -> None:
        self.launch_button.setEnabled(not self.running)
        if problem:
            self.say(f"The app did not start: {_sentence(problem)}", "error")
        else:
            self.say("The app is running in the sandbox. Type a task and press Run.", "info")

    def _choose_model(self, index: int) -> None:
        if self.model_box.itemData(index) is None:
            self.open_settings()
            return
        self.prefs = replace(self.prefs, use_models=bool(self.model_box.itemData(index)))
        self._save_prefs()

    def open_settings(self) -> None:
        try:
            models = self.store.models()
        except ClickwrightError as exc:
            self.say(f"The settings file cannot be used: {_sentence(str(exc))}", "error")
            return
        dialog = SettingsDialog(models, self.prefs, self)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        new_models = dialog.model_settings()
        theme_changed = dialog.panel_prefs().theme != self.prefs.theme
        self.prefs = replace(dialog.panel_prefs(), use_models=new_models.uses_models)
        try:
            self.store.save_models(new_models)
        except OSError as exc:
            self.say(f"Could not save the settings: {exc}", "error")
            return
        self._save_prefs()
        self._fill_models()
        saved = f"Settings saved to {self.store.config_path}"
        self.say(
            saved + (" — the theme changes when the panel starts again." if theme_changed else ".")
        )

    def _save_prefs(self) -> None:
        try:
            self.store.save_prefs(self.prefs)
        except OSError as exc:
            self.statusBar().showMessage(f"Could not save the panel's choices: {exc}")

    # ---- the end ----------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's naming)
        """A running task is stopped first; the window closes once it has ended."""
        if self.running:
            self.closing = True
            self.stop()
            self.say("Stopping the run before closing…", "info")
            event.ignore()
            return
        self.preview.stop()
        if self.sandbox is not None:
            self.sandbox.stop()
        self._save_prefs()
        event.accept()

    def _dump(self) -> None:
        """With --state-dump: what the panel shows, as JSON, for tests and scripts."""
        if self.state_dump is None:
            return
        state = {
            "running": self.running,
            "message": self.message,
            "outcome": self.ended.outcome if self.ended else None,
            "reason": self.ended.reason if self.ended else None,
            "run_dir": str(self.timeline.run_dir) if self.timeline.run_dir else None,
            "steps": [
                {
                    "index": s.get("index"),
                    "title": step_title(s),
                    "verdict": s.get("verdict"),
                    "reason": s.get("verdict_reason"),
                }
                for s in self.timeline.steps
            ],
        }
        partial = self.state_dump.with_name(self.state_dump.name + ".tmp")
        partial.write_text(json.dumps(state, indent=1, ensure_ascii=False), encoding="utf-8")
        partial.replace(self.state_dump)


def _sentence(text: str) -> str:
    """An error message as the panel shows it: capitalised, hint after the dash."""
    return text[:1].upper() + text[1:] if text else text
