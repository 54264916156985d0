"""The step timeline: one card a step with its thumbnail, action, thought, verdict, duration,
tokens and cost. Clicking a card selects the step, whose frame and elements the view shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clickwright.app.panel.live_view import CLICK_COLOUR
from clickwright.app.panel.theme import TONE_COLOURS, Colours
from clickwright.types import STATUS_TONE, StepRecord

THUMB = QSize(112, 70)


def step_title(step: dict[str, Any]) -> str:
    return StepRecord.model_validate(step).describe()


def step_meta(step: dict[str, Any]) -> str:
    """ "1.4 s · 812 tokens · $0.0031": the step's time and what its model calls cost."""
    seconds = sum(v for v in (step.get("durations") or {}).values() if isinstance(v, int | float))
    parts = [f"{seconds:.1f} s"]
    if step.get("tokens"):
        parts.append(f"{step['tokens']:,} tokens")
        cost = step.get("cost")
        parts.append("cost unknown" if cost is None else f"${cost:.4f}")
    if step.get("approval"):
        parts.append(step["approval"])
    return " · ".join(parts)


def thumbnail(image: QImage, point: list[int] | None) -> QPixmap:
    """The step's frame, small, with a red dot where it acted."""
    pixmap = QPixmap.fromImage(image).scaled(
        THUMB, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
    )
    if point and image.width():
        scale = pixmap.width() / image.width()
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("white"), 1.5))
        painter.setBrush(CLICK_COLOUR)
        painter.drawEllipse(QPointF(point[0] * scale, point[1] * scale), 4, 4)
        painter.end()
    return pixmap


class StepCard(QFrame):
    def __init__(self, step: dict[str, Any], run_dir: Path | None, colours: Colours) -> None:
        super().__init__()
        self.setObjectName("card")
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 8, 10, 8)
        row.setSpacing(10)
        thumb = QLabel()
        thumb.setFixedSize(THUMB)
        thumb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        frame = run_dir / step["frame"] if run_dir and step.get("frame") else None
        if frame is not None and frame.exists():
            thumb.setPixmap(thumbnail(QImage(str(frame)), step.get("point")))
        row.addWidget(thumb, 0, Qt.AlignmentFlag.AlignTop)
        text = QVBoxLayout()
        text.setSpacing(3)
        title = QLabel(f"{step.get('index', '?')}. {step_title(step)}")
        title.setObjectName("title")
        title.setWordWrap(True)
        text.addWidget(title)
        for line in (step.get("thought"), step.get("verdict_reason")):
            if line:
                label = QLabel(line)
                label.setObjectName("muted")
                label.setWordWrap(True)
                text.addWidget(label)
        bottom = QHBoxLayout()
        meta = QLabel(step_meta(step))
        meta.setObjectName("muted")
        bottom.addWidget(meta, 1)
        verdict = step.get("verdict", "")
        chip = QLabel(verdict.replace("_", " "))
        chip.setObjectName("chip")
        colour = getattr(colours, TONE_COLOURS[STATUS_TONE.get(verdict, "bad")])
        chip.setStyleSheet(f"color: {colour}; border: 1px solid {colour};")
        bottom.addWidget(chip)
        text.addLayout(bottom)
        row.addLayout(text, 1)

    def set_selected(self, on: bool) -> None:
        self.setProperty("selected", on)
        self.style().unpolish(self)
        self.style().polish(self)


class Timeline(QListWidget):
    selected = Signal(dict, object)
    """A step record and the run folder it belongs to."""

    def __init__(self, colours: Colours, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colours = colours
        self.steps: list[dict[str, Any]] = []
        self.run_dir: Path | None = None
        self.setSpacing(4)
        self.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.currentRowChanged.connect(self._chosen)

    def show_run(self, steps: list[dict[str, Any]], run_dir: Path | None) -> None:
        self.clear()
        self.steps = []
        self.run_dir = run_dir
        for step in steps:
            self.add_step(step)

    def add_step(self, step: dict[str, Any]) -> None:
        self.steps.append(step)
        card = StepCard(step, self.run_dir, self.colours)
        item = QListWidgetItem(self)
        self.setItemWidget(item, card)
        self._fit(item)
        self.scrollToBottom()

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's naming)
        """Cards wrap their text to the new width, so their heights change with it."""
        super().resizeEvent(event)
        for row in range(self.count()):
            self._fit(self.item(row))

    def _fit(self, item: QListWidgetItem) -> None:
        card = self.itemWidget(item)
        if card is None:  # a row being added: a scroll bar appearing resizes the list first
            return
        width = self.viewport().width() - 2 * self.spacing()
        item.setSizeHint(QSize(width, card.heightForWidth(width)))

    def _chosen(self, row: int) -> None:
        for other in range(self.count()):
            card = self.itemWidget(self.item(other))
            if isinstance(card, StepCard):
                card.set_selected(other == row)
        if 0 <= row < len(self.steps):
            self.selected.emit(self.steps[row], self.run_dir)
