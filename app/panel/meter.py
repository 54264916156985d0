"""The live meter: steps, tokens and dollars spent by the run so far, against its budget."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QVBoxLayout, QWidget


class Meter(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 6, 4, 2)
        layout.setSpacing(4)
        row = QHBoxLayout()
        self.steps_label = QLabel()
        self.tokens_label = QLabel()
        self.cost_label = QLabel()
        for label in (self.steps_label, self.tokens_label, self.cost_label):
            label.setObjectName("muted")
            row.addWidget(label)
        row.insertStretch(1)
        row.insertStretch(3)
        layout.addLayout(row)
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        layout.addWidget(self.bar)
        self.reset(30, None, models=False)

    def reset(self, max_steps: int, max_cost: float | None, models: bool = True) -> None:
        """`models`: whether the run may call models at all (else there is nothing to count)."""
        self.max_steps, self.max_cost, self.models = max_steps, max_cost, models
        self.steps, self.tokens = 0, 0
        self.cost: float | None = 0.0
        self._show()

    def add(self, step: dict[str, Any]) -> None:
        self.steps = max(self.steps, int(step.get("index", self.steps + 1)))
        self.tokens += int(step.get("tokens") or 0)
        cost = step.get("cost", 0.0)
        self.cost = None if cost is None or self.cost is None else self.cost + cost
        self._show()

    def _show(self) -> None:
        self.steps_label.setText(f"Steps {self.steps} / {self.max_steps}")
        spent = "unknown" if self.cost is None else f"${self.cost:.4f}"
        budget = f" of ${self.max_cost:g}" if self.max_cost is not None else ""
        self.tokens_label.setText(f"Tokens {self.tokens:,}" if self.models else "Offline")
        self.cost_label.setText(f"Cost {spent}{budget}" if self.models else "no model cost")
        if self.max_cost and self.cost is not None:
            self.bar.setRange(0, 1000)
            self.bar.setValue(min(1000, round(1000 * self.cost / self.max_cost)))
        else:
            self.bar.setRange(0, self.max_steps)
            self.bar.setValue(min(self.steps, self.max_steps))
