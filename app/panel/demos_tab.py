"""The Record / Replay tab: the demonstrations in the library, replayed on the chosen screen
with the values they were recorded with. Recording runs from the command line
(`clickwright record`), which is also where a replay takes new parameter values.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clickwright.agent.demos.format import Demo, library_dir, list_demos, load_demo
from clickwright.errors import ClickwrightError


class DemosTab(QWidget):
    replay_requested = Signal(object)
    """The demonstration (a `Demo`) the person asked to replay."""

    def __init__(self, root: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.root = root or library_dir()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Demonstration", "Steps", "Parameters", "Description"])
        self.tree.setRootIsDecorated(False)
        self.tree.header().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.tree, 1)
        self.hint = QLabel()
        self.hint.setObjectName("muted")
        self.hint.setWordWrap(True)
        layout.addWidget(self.hint)
        buttons = QHBoxLayout()
        self.replay_button = QPushButton("Replay")
        self.replay_button.setToolTip("Replay the chosen demonstration on the chosen screen")
        self.replay_button.clicked.connect(self._replay)
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.refresh)
        buttons.addWidget(self.replay_button)
        buttons.addWidget(refresh)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.tree.itemSelectionChanged.connect(self._selection_changed)
        self.refresh()

    def _selection_changed(self) -> None:
        self.replay_button.setEnabled(self._chosen() is not None)

    def _chosen(self) -> Demo | None:
        item = self.tree.currentItem()
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None

    def _replay(self) -> None:
        demo = self._chosen()
        if demo is not None:
            self.replay_requested.emit(demo)

    def refresh(self) -> None:
        self.tree.clear()
        for folder in list_demos(self.root):
            try:
                demo = load_demo(folder)
            except ClickwrightError as exc:
                self.tree.addTopLevelItem(
                    QTreeWidgetItem([folder.name, "—", "", f"damaged: {exc}"])
                )
                continue
            params = ", ".join(demo.info.parameters)
            row = QTreeWidgetItem([demo.name, str(len(demo.steps)), params, demo.info.description])
            row.setData(0, Qt.ItemDataRole.UserRole, demo)
            self.tree.addTopLevelItem(row)
        self._selection_changed()
        count = self.tree.topLevelItemCount()
        self.hint.setText(
            f"{count} demonstration(s) in {self.root}. Record one with "
            "<code>clickwright record NAME</code>, replay it with "
            "<code>clickwright replay NAME --param key=value</code> (new values), or choose "
            "one here and press Replay (the recorded values)."
        )
