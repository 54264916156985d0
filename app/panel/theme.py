"""Light and dark looks: the Fusion style, a palette, and a small style sheet built from it."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


@dataclass(frozen=True)
class Colours:
    window: str
    surface: str
    """Cards, inputs, the list behind the timeline."""
    border: str
    text: str
    muted: str
    accent: str
    accent_text: str
    danger: str
    success: str
    warning: str
    view: str
    """Behind the live screen."""


LIGHT = Colours(
    window="#f4f5f7",
    surface="#ffffff",
    border="#d9dce3",
    text="#1c2030",
    muted="#626a7f",
    accent="#4356d8",
    accent_text="#ffffff",
    danger="#d23f3f",
    success="#1f9d55",
    warning="#c77c02",
    view="#e6e8ee",
)
DARK = Colours(
    window="#1b1d24",
    surface="#252831",
    border="#383c48",
    text="#e7e9ef",
    muted="#9aa1b2",
    accent="#7186ff",
    accent_text="#10131c",
    danger="#f06262",
    success="#3ccf7f",
    warning="#f0b13c",
    view="#121319",
)
TONE_COLOURS = {"good": "success", "warn": "warning", "bad": "danger", "info": "accent"}
"""The palette's four tones (`clickwright.types.STATUS_TONE`) as this theme's colours."""


def pick(theme: str) -> Colours:
    """`light`, `dark`, or `system` (what the desktop prefers, light when it does not say)."""
    if theme == "system":
        scheme = QGuiApplication.styleHints().colorScheme()
        return DARK if scheme == Qt.ColorScheme.Dark else LIGHT
    return DARK if theme == "dark" else LIGHT


def apply(app: QApplication, theme: str) -> Colours:
    c = pick(theme)
    app.setStyle("Fusion")
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: c.window,
        QPalette.ColorRole.WindowText: c.text,
        QPalette.ColorRole.Base: c.surface,
        QPalette.ColorRole.AlternateBase: c.window,
        QPalette.ColorRole.Text: c.text,
        QPalette.ColorRole.Button: c.surface,
        QPalette.ColorRole.ButtonText: c.text,
        QPalette.ColorRole.Highlight: c.accent,
        QPalette.ColorRole.HighlightedText: c.accent_text,
        QPalette.ColorRole.ToolTipBase: c.surface,
        QPalette.ColorRole.ToolTipText: c.text,
        QPalette.ColorRole.PlaceholderText: c.muted,
        QPalette.ColorRole.Mid: c.border,
        QPalette.ColorRole.Light: c.surface,
        QPalette.ColorRole.Dark: c.border,
    }
    for role, colour in roles.items():
        palette.setColor(role, QColor(colour))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(c.muted))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor(c.muted))
    app.setPalette(palette)
    app.setStyleSheet(style_sheet(c))
    return c


def style_sheet(c: Colours) -> str:
    return f"""
    QWidget {{ font-size: 10pt; }}
    QLineEdit, QComboBox, QPlainTextEdit {{
        background: {c.surface}; border: 1px solid {c.border}; border-radius: 6px;
        padding: 5px 8px; selection-background-color: {c.accent};
    }}
    QAbstractSpinBox {{ min-width: 90px; min-height: 26px; }}
    QLineEdit:focus, QComboBox:focus {{
        border: 1px solid {c.accent};
    }}
    QComboBox QAbstractItemView {{
        background: {c.surface}; border: 1px solid {c.border};
        selection-background-color: {c.accent}; selection-color: {c.accent_text};
    }}
    QGroupBox {{
        border: 1px solid {c.border}; border-radius: 8px; margin-top: 16px;
        padding: 10px 8px 8px 8px; font-weight: 600;
    }}
    QGroupBox::title {{ subcontrol-origin: margin; left: 12px; padding: 0 4px; }}
    QGroupBox QLabel, QGroupBox QRadioButton {{ font-weight: normal; }}
    QLineEdit#task {{ font-size: 12pt; padding: 8px 12px; border-radius: 8px; }}
    QPushButton {{
        background: {c.surface}; border: 1px solid {c.border}; border-radius: 6px;
        padding: 6px 14px; color: {c.text};
    }}
    QPushButton:hover {{ border-color: {c.accent}; }}
    QPushButton:disabled {{ color: {c.muted}; background: {c.window}; }}
    QPushButton#primary {{
        background: {c.accent}; color: {c.accent_text}; border: none; font-weight: 600;
        padding: 8px 20px; border-radius: 8px;
    }}
    QPushButton#primary:disabled {{ background: {c.border}; color: {c.muted}; }}
    QPushButton#danger {{ color: {c.danger}; border-color: {c.danger}; font-weight: 600; }}
    QPushButton#danger:disabled {{ color: {c.muted}; border-color: {c.border}; }}
    QToolButton {{
        background: transparent; border: 1px solid transparent; border-radius: 5px;
        padding: 3px 8px; color: {c.muted};
    }}
    QToolButton:checked {{ background: {c.surface}; border-color: {c.border}; color: {c.text}; }}
    QToolButton:hover {{ border-color: {c.accent}; }}
    QTabWidget::pane {{ border: none; }}
    QTabBar::tab {{
        background: transparent; padding: 7px 14px; color: {c.muted};
        border-bottom: 2px solid transparent;
    }}
    QTabBar::tab:selected {{ color: {c.text}; border-bottom: 2px solid {c.accent}; }}
    QListWidget, QTableWidget {{
        background: {c.window}; border: none; outline: none;
    }}
    QListWidget::item {{ border: none; margin: 0px; padding: 0px; }}
    QListWidget::item:selected {{ background: transparent; }}
    QFrame#card {{
        background: {c.surface}; border: 1px solid {c.border}; border-radius: 8px;
    }}
    QFrame#card[selected="true"] {{ border: 2px solid {c.accent}; }}
    QFrame#viewFrame {{ background: {c.view}; border-radius: 10px; }}
    QLabel#muted {{ color: {c.muted}; }}
    QLabel#title {{ font-weight: 600; }}
    QLabel#heading {{ font-size: 11pt; font-weight: 600; }}
    QLabel#banner {{ border-radius: 6px; padding: 8px 12px; }}
    QLabel#banner[level="info"] {{ background: {c.surface}; border: 1px solid {c.border}; }}
    QLabel#banner[level="error"] {{
        background: {c.surface}; border: 1px solid {c.danger}; color: {c.danger};
    }}
    QLabel#banner[level="done"] {{
        background: {c.surface}; border: 1px solid {c.success}; color: {c.success};
    }}
    QLabel#chip {{ border-radius: 8px; padding: 1px 8px; font-size: 9pt; font-weight: 600; }}
    QProgressBar {{
        background: {c.border}; border: none; border-radius: 3px; max-height: 6px;
    }}
    QProgressBar::chunk {{ background: {c.accent}; border-radius: 3px; }}
    QSplitter::handle {{ background: {c.window}; }}
    QStatusBar {{ color: {c.muted}; }}
    QHeaderView::section {{
        background: {c.window}; color: {c.muted}; border: none; padding: 4px 6px;
    }}
    """
