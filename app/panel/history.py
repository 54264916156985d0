"""Past runs from the runs folder, newest first, with their outcome; a run's steps or its report
can be opened from here."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clickwright.app.panel.theme import TONE_COLOURS, Colours
from clickwright.types import OUTCOME_TONE


@dataclass(frozen=True)
class PastRun:
    run_dir: Path
    task: str
    outcome: str
    reason: str
    steps: int
    started: float


def past_runs(runs_dir: Path) -> list[PastRun]:
    """Every readable run under `runs_dir`, newest first (run ids start with their time)."""
    runs = []
    for info in sorted(runs_dir.glob("*/run.json"), reverse=True):
        try:
            data = json.loads(info.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        runs.append(
            PastRun(
                info.parent,
                str(data.get("task", "")),
                str(data.get("outcome", "?")),
                str(data.get("reason", "")),
                int(data.get("steps") or 0),
                float(data.get("started") or 0),
            )
        )
    return runs


class HistoryList(QWidget):
    open_report = Signal(object)
    show_steps = Signal(object)
    """Both carry the run folder (a Path)."""

    def __init__(self, runs_dir: Path, colours: Colours, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs_dir = runs_dir
        self.colours = colours
        self.runs: list[PastRun] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["When", "Task", "Outcome", "Steps"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(False)
        header = self.tree.header()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for column in (0, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemDoubleClicked.connect(lambda *_: self._emit(self.show_steps))
        layout.addWidget(self.tree, 1)
        buttons = QHBoxLayout()
        steps = QPushButton("Show steps")
        steps.clicked.connect(lambda: self._emit(self.show_steps))
        report = QPushButton("Open report")
        report.clicked.connect(lambda: self._emit(self.open_report))
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.refresh)
        buttons.addWidget(steps)
        buttons.addWidget(report)
        buttons.addStretch(1)
        buttons.addWidget(refresh)
        layout.addLayout(buttons)
        self.refresh()

    def refresh(self) -> None:
        self.tree.clear()
        self.runs = past_runs(self.runs_dir)
        for run in self.runs:
            when = time.strftime("%d %b %H:%M", time.localtime(run.started)) if run.started else ""
            item = QTreeWidgetItem([when, run.task, run.outcome, str(run.steps)])
            item.setToolTip(1, run.task)
            item.setToolTip(2, run.reason)
            colour = getattr(self.colours, TONE_COLOURS[OUTCOME_TONE.get(run.outcome, "bad")])
            item.setForeground(2, QColor(colour))
            item.setTextAlignment(3, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.tree.addTopLevelItem(item)

    def _emit(self, signal: Signal) -> None:
        row = self.tree.indexOfTopLevelItem(self.tree.currentItem())
        if 0 <= row < len(self.runs):
            signal.emit(self.runs[row].run_dir)
