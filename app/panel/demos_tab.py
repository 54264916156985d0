"""The Record / Replay tab: the demonstrations in the library, and how to make and replay one.

Recording and replaying run from the command line for now (`clickwright record` / `replay`);
this tab shows what the library holds.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clickwright.agent.demos import library_dir, list_demos, load_demo
from clickwright.errors import ClickwrightError


class DemosTab(QWidget):
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
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.refresh)
        layout.addWidget(refresh)
        self.refresh()

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
            row = [demo.name, str(len(demo.steps)), params, demo.info.description]
            self.tree.addTopLevelItem(QTreeWidgetItem(row))
        count = self.tree.topLevelItemCount()
        self.hint.setText(
            f"{count} demonstration(s) in {self.root}. Record one with "
            "<code>clickwright record NAME</code>, replay it with "
            "<code>clickwright replay NAME --param key=value</code>."
        )
