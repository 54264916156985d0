"""Tests for the sample app that the end-to-end agent tests drive.

The fast test runs Qt in a subprocess with the offscreen platform, so it needs no display and
cannot leave a QApplication (or QT_QPA_PLATFORM) behind for other tests.
"""

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

# Runs inside the subprocess: drive the window like a user would, report what the pixels say.
DRIVER = r"""
import json, sys
from pathlib import Path
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from clickwright.assets.sample_app import SampleWindow, configure_app

app = QApplication([])
configure_app(app)
window = SampleWindow(Path(sys.argv[1]))
window.show()
window.name_edit.setText("Ada Lovelace")
window.email_edit.setText("ada@example.com")
window.country_combo.setCurrentText("Japan")
window.plan_buttons["Team"].setChecked(True)
window.terms_check.setChecked(True)
window.colour_list.item(2).setSelected(True)
window.tabs.setCurrentIndex(1)
window.timeout_spin.setValue(45)
window.notes_edit.setPlainText("VIP")

QTest.mouseClick(window.apply_picture, Qt.MouseButton.LeftButton)
report = {"applied_after_decoy": window.applied}
report["decoy_matches_button"] = (
    window.apply_picture.grab().toImage() == window.apply_button.grab().toImage())
window.apply_button.click()

window.confirm_save = lambda: False
window.save_button.click()
report["after_no"] = window.status_label.text()
window.confirm_save = lambda: True
window.save_button.click()
report["after_yes"] = window.status_label.text()
report["status_bar"] = window.status_bar_label.text()

window.cancel_button.click()
report["after_cancel"] = [window.status_label.text(), window.name_edit.text()]
print(json.dumps(report))
"""


def test_save_writes_state_after_confirmation(tmp_path):
    state_out = tmp_path / "state.json"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(state_out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])

    assert report == {
        "applied_after_decoy": False,
        "decoy_matches_button": True,
        "after_no": "Not saved",
        "after_yes": "Saved",
        "status_bar": "Saved",
        "after_cancel": ["Changes discarded", ""],
    }
    text = state_out.read_text()
    assert json.loads(text) == {
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "phone": "",
        "country": "Japan",
        "plan": "Team",
        "subscribe": False,
        "notifications": True,
        "accept_terms": True,
        "favourite_colour": "Blue",
        "timeout": 45,
        "log_level": "Warning",
        "verbose": False,
        "notes": "VIP",
        "applied": True,
        "current_tab": "Advanced",
        "saved_via": "button",
        "saved_as": None,
        "save_count": 1,
    }
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2) + "\n"


def test_import_has_no_side_effects():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import clickwright.assets.sample_app; from PySide6.QtWidgets import QApplication;"
            " assert QApplication.instance() is None",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


@pytest.mark.slow
@pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool")), reason="needs Xvfb and xdotool"
)
def test_ctrl_s_on_a_real_x_display(tmp_path):
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24"],
        pass_fds=[write_fd],
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    app = None
    try:
        with os.fdopen(read_fd) as display_pipe:
            display = ":" + display_pipe.readline().strip()
        env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
        env["DISPLAY"] = display
        state_out = tmp_path / "state.json"
        app = subprocess.Popen(
            [sys.executable, "-m", "clickwright.assets.sample_app", "--state-out", str(state_out)],
            env=env,
        )
        subprocess.run(
            ["xdotool", "search", "--sync", "--onlyvisible", "--name", "Clickwright Sample"],
            env=env,
            check=True,
            timeout=30,
            stdout=subprocess.DEVNULL,
        )
        geometry = subprocess.run(
            [
                "xdotool",
                "search",
                "--onlyvisible",
                "--name",
                "Clickwright Sample",
                "getwindowgeometry",
                "--shell",
            ],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        assert "X=40\nY=40\nWIDTH=900\nHEIGHT=640" in geometry
        subprocess.run(["xdotool", "key", "ctrl+s"], env=env, check=True)
        deadline = time.monotonic() + 10
        while not state_out.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert json.loads(state_out.read_text())["saved_via"] == "shortcut"
    finally:
        if app is not None:
            app.terminate()
            app.wait(timeout=10)
        xvfb.terminate()
        xvfb.wait(timeout=10)
