"""The screen as the agent sees it, scaled to fit, with overlays that can be toggled: parsed
elements coloured by source, their set-of-marks numbers, the next target and the last click.

While the person has taken over a sandbox, clicks, scrolls and keys on the view become actions
on that screen (`acted`), since the person's own mouse cannot reach a virtual display.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QIcon,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QWheelEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from clickwright.errors import ClickwrightError
from clickwright.parsers.marks import SOURCE_COLOURS
from clickwright.types import (
    Action,
    Click,
    Hotkey,
    RightClick,
    Scroll,
    Target,
    Type,
)

OVERLAYS = {
    "ocr": "Text",
    "widgets": "Widgets",
    "a11y": "Accessibility",
    "merged": "Merged",
    "marks": "Numbers",
    "next": "Next target",
    "click": "Last click",
}
NEXT_COLOUR = QColor(245, 158, 11)
CLICK_COLOUR = QColor(220, 38, 38)
QT_KEYS = {
    Qt.Key.Key_Return: "enter",
    Qt.Key.Key_Enter: "enter",
    Qt.Key.Key_Tab: "tab",
    Qt.Key.Key_Backspace: "backspace",
    Qt.Key.Key_Escape: "esc",
    Qt.Key.Key_Delete: "delete",
    Qt.Key.Key_Left: "left",
    Qt.Key.Key_Right: "right",
    Qt.Key.Key_Up: "up",
    Qt.Key.Key_Down: "down",
    Qt.Key.Key_Home: "home",
    Qt.Key.Key_End: "end",
    Qt.Key.Key_PageUp: "pageup",
    Qt.Key.Key_PageDown: "pagedown",
}


def overlay_icon(name: str) -> QIcon:
    """A coloured dot: the colour the overlay is drawn in (numbers take their box's colour)."""
    rgb = SOURCE_COLOURS.get(name)
    colour = QColor(*rgb) if rgb else {"next": NEXT_COLOUR, "click": CLICK_COLOUR}.get(name)
    pixmap = QPixmap(12, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if colour is None:
        painter.setPen(QPen(QColor(120, 120, 130), 1.2))
        painter.drawText(pixmap.rect(), Qt.AlignmentFlag.AlignCenter, "#")
    else:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(1, 1, 10, 10)
    painter.end()
    return QIcon(pixmap)


def to_image(pixels: np.ndarray) -> QImage:
    """An RGB frame as a QImage that owns its pixels."""
    rgb = np.ascontiguousarray(pixels[:, :, :3])
    h, w = rgb.shape[:2]
    return QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()


class ScreenView(QWidget):
    acted = Signal(object, object)
    """While interactive: an `Action` the person did on the view, and its frame point."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 200)
        self.image: QImage | None = None
        self.elements: list[dict[str, Any]] = []
        self.next_target: tuple[int, int] | None = None
        self.last_click: tuple[int, int] | None = None
        self.shown = set(OVERLAYS) - {"merged"}
        self.placeholder = "No screen yet"
        self.interactive = False

    def show_frame(
        self,
        image: QImage | None,
        elements: Sequence[dict[str, Any]] = (),
        next_target: tuple[int, int] | None = None,
        last_click: tuple[int, int] | None = None,
    ) -> None:
        self.image = image
        self.elements = list(elements)
        self.next_target, self.last_click = next_target, last_click
        self.update()

    def set_overlay(self, name: str, on: bool) -> None:
        (self.shown.add if on else self.shown.discard)(name)
        self.update()

    def set_interactive(self, on: bool) -> None:
        self.interactive = on
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus if on else Qt.FocusPolicy.NoFocus)
        self.setCursor(Qt.CursorShape.CrossCursor if on else Qt.CursorShape.ArrowCursor)
        if on:
            self.setFocus()

    # ---- geometry -------------------------------------------------------------------------

    def _placement(self) -> tuple[float, float, float]:
        """Scale and offset of the frame inside the widget."""
        assert self.image is not None
        w, h = self.image.width(), self.image.height()
        scale = min(self.width() / w, self.height() / h)
        return scale, (self.width() - w * scale) / 2, (self.height() - h * scale) / 2

    def to_frame(self, x: float, y: float) -> tuple[int, int] | None:
        if self.image is None:
            return None
        scale, dx, dy = self._placement()
        fx, fy = (x - dx) / scale, (y - dy) / scale
        if 0 <= fx < self.image.width() and 0 <= fy < self.image.height():
            return int(fx), int(fy)
        return None

    # ---- painting -------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's naming)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        if self.image is None:
            painter.setPen(self.palette().placeholderText().color())
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.placeholder)
            return
        scale, dx, dy = self._placement()
        w, h = self.image.width() * scale, self.image.height() * scale
        painter.drawImage(QRectF(dx, dy, w, h), self.image)
        painter.translate(dx, dy)
        self._paint_elements(painter, scale)
        if "click" in self.shown and self.last_click:
            self._paint_click(painter, self.last_click, scale)
        if "next" in self.shown and self.next_target:
            self._paint_next(painter, self.next_target, scale)

    def _paint_elements(self, painter: QPainter, scale: float) -> None:
        font = QFont(self.font())
        font.setPointSizeF(7.5)
        font.setBold(True)
        painter.setFont(font)
        metrics = painter.fontMetrics()
        shown = [e for e in self.elements if e.get("source") in self.shown]
        for element in sorted(shown, key=lambda e: -e["box"][2] * e["box"][3]):
            x, y, w, h = (v * scale for v in element["box"])
            colour = QColor(*SOURCE_COLOURS.get(element["source"], (220, 38, 38)))
            painter.setPen(QPen(colour, 1.4))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(x, y, w, h), 2, 2)
            if "marks" in self.shown:
                label = str(element["id"])
                tw, th = metrics.horizontalAdvance(label) + 6, metrics.height()
                tag = QRectF(x - 1, max(y - th, 0), tw, th)
                painter.fillRect(tag, colour)
                painter.setPen(QColor("white"))
                painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, label)

    @staticmethod
    def _paint_click(painter: QPainter, point: tuple[int, int], scale: float) -> None:
        centre = QPointF(point[0] * scale, point[1] * scale)
        painter.setPen(QPen(CLICK_COLOUR, 2.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, 11, 11)
        painter.setBrush(CLICK_COLOUR)
        painter.drawEllipse(centre, 3.5, 3.5)

    @staticmethod
    def _paint_next(painter: QPainter, point: tuple[int, int], scale: float) -> None:
        centre = QPointF(point[0] * scale, point[1] * scale)
        pen = QPen(NEXT_COLOUR, 2.5, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, 16, 16)
        painter.setPen(QPen(NEXT_COLOUR, 2))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            painter.drawLine(centre + QPointF(10 * dx, 10 * dy), centre + QPointF(22 * dx, 22 * dy))

    # ---- the person acting through the view -------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        point = self.to_frame(event.position().x(), event.position().y())
        if not self.interactive or point is None:
            return
        kind = RightClick if event.button() == Qt.MouseButton.RightButton else Click
        self.acted.emit(kind(target=Target(point=point)), point)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        """The second press of a double click: a second click, quick enough to count as one."""
        self.mousePressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        point = self.to_frame(event.position().x(), event.position().y())
        if self.interactive and point is not None:
            up = event.angleDelta().y() > 0
            self.acted.emit(Scroll(direction="up" if up else "down", amount=2), point)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if not self.interactive:
            super().keyPressEvent(event)
            return
        action = key_action(event)
        if action is not None:
            self.acted.emit(action, None)


def key_action(event: QKeyEvent) -> Action | None:
    """A key pressed on the view as the action that presses it on the device."""
    mods = event.modifiers()
    held = [
        name
        for flag, name in (
            (Qt.KeyboardModifier.ControlModifier, "ctrl"),
            (Qt.KeyboardModifier.AltModifier, "alt"),
        )
        if mods & flag
    ]
    named = QT_KEYS.get(Qt.Key(event.key()))
    if named or held:
        key = named or (chr(event.key()).lower() if 0x20 < event.key() < 0x7F else "")
        if not key:
            return None
        if mods & Qt.KeyboardModifier.ShiftModifier:
            held.append("shift")
        try:
            return Hotkey(keys=(*held, key))
        except (ValueError, ClickwrightError):  # a key clickwright has no name for
            return None
    return Type(text=event.text()) if event.text().isprintable() and event.text() else None
