"""The two questions the agent can put to the person: may it do something risky, and a
question in words. Both open without blocking the panel; `decided` carries the answer."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clickwright.agent.safety import Risk


class _Ask(QDialog):
    decided = Signal(object)

    def __init__(self, parent: QWidget, title: str, heading: str, detail: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(True)
        self.setMinimumWidth(440)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setSpacing(10)
        top = QLabel(heading)
        top.setObjectName("heading")
        top.setWordWrap(True)
        self.layout_.addWidget(top)
        text = QLabel(detail)
        text.setWordWrap(True)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.layout_.addWidget(text)
        self.buttons = QHBoxLayout()
        self.buttons.addStretch(1)
        self._answer: object = None

    def add_button(self, label: str, answer: Callable[[], object], name: str = "") -> QPushButton:
        button = QPushButton(label)
        button.setObjectName(name)
        button.clicked.connect(lambda: self.finish(answer()))
        self.buttons.addWidget(button)
        return button

    def finish(self, answer: object) -> None:
        self._answer = answer
        self.accept()

    def done(self, result: int) -> None:
        """Every way out (a button, Escape, closing the window) answers exactly once."""
        if self.isVisible():
            super().done(result)
            self.decided.emit(self._answer)


class ApprovalDialog(_Ask):
    def __init__(self, parent: QWidget, risk: Risk) -> None:
        super().__init__(
            parent,
            "Approve a risky action?",
            "The agent wants to do something that may not be undone",
            f"{risk.describe()}.\n\nDeny stops the run.",
        )
        self.add_button("Deny", lambda: "deny", "danger")
        self.add_button("Always in this run", lambda: "always")
        self.add_button("Approve once", lambda: "once", "primary").setDefault(True)
        self.layout_.addLayout(self.buttons)


class QuestionDialog(_Ask):
    def __init__(self, parent: QWidget, question: str) -> None:
        super().__init__(parent, "The agent asks", "The agent needs an answer", question)
        self.field = QLineEdit()
        self.field.setPlaceholderText("Your answer")
        self.layout_.addWidget(self.field)
        self.add_button("No answer (ends the run)", lambda: None)
        answer = self.add_button("Answer", lambda: self.field.text().strip() or None, "primary")
        answer.setDefault(True)
        self.layout_.addLayout(self.buttons)
