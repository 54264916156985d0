"""`clickwright app`: builds the panel from the user's settings and runs Qt until it closes."""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from clickwright.app.panel import theme as themes
from clickwright.app.panel.choices import SANDBOX, android_choices, desktop_choices
from clickwright.app.panel.prefs import THEMES, PanelStore
from clickwright.app.panel.sandbox import Sandbox
from clickwright.app.panel.window import MainWindow
from clickwright.errors import ClickwrightError


def run_panel(
    device: str | None = None,
    launch: str | None = None,
    runs_dir: Path = Path("runs"),
    theme: str | None = None,
    size: str | None = None,
    state_dump: Path | None = None,
) -> int:
    """Show the panel; returns Qt's exit status once the window has closed."""
    from clickwright.devices.factory import parse_size
    from clickwright.parsers.screen_parser import ScreenParser

    if theme is not None and theme not in THEMES:
        raise ClickwrightError(f"unknown theme {theme!r}", f"use one of {', '.join(THEMES)}")
    width, height = parse_size(size) if size else (1280, 800)
    shown = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    if sys.platform.startswith("linux") and not any(os.environ.get(name) for name in shown):
        raise ClickwrightError(
            "no display to show the panel on: DISPLAY is not set",
            "run it in a desktop session, or use `clickwright run` for headless work",
        )
    app = QApplication.instance() or QApplication(["clickwright"])
    app.setApplicationName("clickwright")
    store = PanelStore()
    prefs = store.prefs()
    colours = themes.apply(app, theme or prefs.theme)
    display = os.environ.get("DISPLAY") if QGuiApplication.platformName() == "xcb" else None
    sandbox = Sandbox()
    choices = [*desktop_choices(display), sandbox.choice(), *android_choices()]
    if device is not None:
        keys = [c.key for c in choices]
        if device not in keys:
            raise ClickwrightError(f"no screen {device!r} here", f"choose one of {', '.join(keys)}")
        store.save_prefs(replace(prefs, device=device))
    if launch and (device or prefs.device) != SANDBOX:
        raise ClickwrightError("--launch starts an app in the sandbox", "add --device sandbox")
    runs_dir.mkdir(parents=True, exist_ok=True)
    window = MainWindow(
        store, runs_dir, colours, choices, sandbox, ScreenParser(), display, state_dump
    )
    screen = app.primaryScreen().availableGeometry()
    window.resize(min(width, screen.width()), min(height, screen.height()))
    window.show()
    if launch:
        listed = window.app_box.findData(launch)
        if listed >= 0:
            window.app_box.setCurrentIndex(listed)
        else:
            window.app_box.setEditText(launch)
        window.launch_app()
    for number in (signal.SIGINT, signal.SIGTERM):  # closing stops a run and the sandbox cleanly
        signal.signal(number, lambda *_: window.close())
    wake = QTimer()  # Python runs signal handlers only between Qt events
    wake.start(200)
    wake.timeout.connect(lambda: None)
    return app.exec()
