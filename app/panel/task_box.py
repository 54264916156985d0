"""The task box: one line for the task, Enter runs it, Up and Down walk through past tasks."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget


class TaskBox(QLineEdit):
    submitted = Signal(str)

    def __init__(self, history: Sequence[str] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("task")
        self.setPlaceholderText(
            "Describe a task — e.g. Type 'Ada' into Name, then click Save, then click Yes"
        )
        self.setClearButtonEnabled(True)
        self.history = list(history)
        self._at = len(self.history)
        self._draft = ""
        self.returnPressed.connect(lambda: self.submitted.emit(self.text()))

    def remember(self, task: str) -> None:
        """Add a task that ran; the walk through history starts again from the newest."""
        self.history = [t for t in self.history if t != task] + [task]
        self._at = len(self.history)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's naming)
        key = event.key()
        if key == Qt.Key.Key_Up and self._at > 0:
            if self._at == len(self.history):
                self._draft = self.text()
            self._at -= 1
            self.setText(self.history[self._at])
        elif key == Qt.Key.Key_Down and self._at < len(self.history):
            self._at += 1
            at_end = self._at == len(self.history)
            self.setText(self._draft if at_end else self.history[self._at])
        else:
            super().keyPressEvent(event)
