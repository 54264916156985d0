"""A small, realistic Qt form used as the target app for clickwright's end-to-end tests.

The agent only sees pixels, so every effect of an action shows up on screen (status line), and
the app writes its full state as JSON on every save so tests can check what really happened.

    python -m clickwright.assets.sample_app --state-out PATH [--save-dir DIR]
        [--pos X,Y] [--size WxH] [--password-field] [--lag SECONDS] [--hide-button TEXT]

The last options change the app the way real apps change between a recording and its replay:
another place and size, a password row, slow responses, a button that is gone.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QStyle,
    QStyleOptionButton,
    QStylePainter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

TITLE = "Clickwright Sample — Customer Form"
GEOMETRY = (40, 40, 900, 640)
COUNTRIES = [
    "Argentina",
    "Brazil",
    "Canada",
    "Denmark",
    "Egypt",
    "France",
    "Germany",
    "Japan",
    "Kenya",
    "Mexico",
]
PLANS = ["Free", "Pro", "Team"]
COLOURS = ["Red", "Green", "Blue", "Yellow", "Purple", "Orange", "Teal", "Maroon", "Olive", "Navy"]
VISIBLE_COLOURS = 6  # the rest are reached by scrolling the list
LOG_LEVELS = ["Error", "Warning", "Info", "Debug"]
TABS = ["General", "Advanced"]

# What New, Clear Form and Cancel return the form to.
INITIAL_FORM = {
    "name": "",
    "email": "",
    "phone": "",
    "country": "Argentina",
    "plan": "Free",
    "subscribe": False,
    "notifications": True,
    "accept_terms": False,
    "favourite_colour": None,
    "timeout": 30,
    "log_level": "Warning",
    "verbose": False,
    "notes": "",
    "applied": False,
}


def light_palette() -> QPalette:
    """Fusion's light colours, fixed, so screenshots do not follow the system's dark mode."""
    window, base, text = QColor(239, 239, 239), QColor(255, 255, 255), QColor(0, 0, 0)
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: QColor(247, 247, 247),
        QPalette.ColorRole.ToolTipBase: QColor(255, 255, 220),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: QColor(0, 0, 0, 128),
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: window,
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor(255, 255, 255),
        QPalette.ColorRole.Light: window.lighter(150),
        QPalette.ColorRole.Midlight: window.darker(130).lighter(110),
        QPalette.ColorRole.Mid: window.darker(130),
        QPalette.ColorRole.Dark: window.darker(150),
        QPalette.ColorRole.Shadow: window.darker(150).darker(135),
        QPalette.ColorRole.Highlight: QColor(48, 140, 198),
        QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.Link: QColor(0, 0, 255),
        QPalette.ColorRole.LinkVisited: QColor(255, 0, 255),
    }
    for role, colour in roles.items():
        palette.setColor(role, colour)
    disabled = QPalette.ColorGroup.Disabled
    for role in (
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
    ):
        palette.setColor(disabled, role, QColor(190, 190, 190))
    palette.setColor(disabled, QPalette.ColorRole.Base, window)
    return palette


def configure_app(app: QApplication) -> None:
    """Same style, colours and font everywhere, and a steady text cursor for stable frames."""
    app.setStyle("Fusion")
    app.setPalette(light_palette())
    font = QFont("DejaVu Sans")
    font.setPixelSize(14)  # about 10.5 pt at 96 dpi, independent of the display's dpi
    app.setFont(font)
    app.setCursorFlashTime(0)  # a blinking caret would keep the screen from ever settling


class ButtonPicture(QLabel):
    """A label drawn by the style exactly as a push button: looks clickable, does nothing.

    It is the decoy that tests whether the agent checks effects instead of trusting looks.
    """

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setFixedSize(QPushButton(text).sizeHint())

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API name)
        option = QStyleOptionButton()
        option.initFrom(self)
        option.state |= QStyle.StateFlag.State_Raised
        option.text = self.text()
        QStylePainter(self).drawControl(QStyle.ControlElement.CE_PushButton, option)


class SampleWindow(QMainWindow):
    """The customer form; `state()` is what gets written on every save."""

    def __init__(
        self,
        state_out: Path,
        save_dir: Path | None = None,
        password_field: bool = False,
        lag: float = 0.0,
    ) -> None:
        super().__init__()
        self.password_field = password_field
        self.lag = lag  # seconds the app freezes before it responds to Save
        self.state_out = Path(state_out)
        self.save_dir = Path(save_dir) if save_dir else Path.cwd()
        self.applied = False
        self.saved_as: str | None = None
        self.save_count = 0
        self.undo_snapshot: dict | None = None

        self.setWindowTitle(TITLE)
        self._build_menus()
        self.tabs = QTabWidget()
        self.tabs.addTab(self._build_general_tab(), TABS[0])
        self.tabs.addTab(self._build_advanced_tab(), TABS[1])
        self.set_form(INITIAL_FORM)

        self.status_label = QLabel("Ready")
        self.save_button = QPushButton("Save")
        self.save_button.clicked.connect(self._on_save_clicked)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self._on_cancel)
        # Risky on purpose: what approval prompts are tested against.
        self.delete_button = QPushButton("Delete customer")
        self.delete_button.clicked.connect(lambda: self.save("delete"))
        bottom = QHBoxLayout()
        bottom.addWidget(self.status_label, 1)
        bottom.addWidget(self.delete_button)
        bottom.addWidget(self.save_button)
        bottom.addWidget(self.cancel_button)

        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(12, 10, 12, 8)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(bottom)
        self.setCentralWidget(central)

        # A widget, not showMessage(): hovering menu items clears temporary status messages.
        self.status_bar_label = QLabel("Ready")
        self.statusBar().addWidget(self.status_bar_label, 1)
        QShortcut(QKeySequence.StandardKey.Save, self, lambda: self.save("shortcut"))

        x, y, width, height = GEOMETRY
        self.resize(width, height)
        self.move(x, y)

    # ----- building -----

    def _build_menus(self) -> None:
        def add(menu, text, slot, shortcut=None):
            action = QAction(text, self)
            action.triggered.connect(slot)
            if shortcut is not None:
                action.setShortcut(shortcut)
            menu.addAction(action)
            return action

        file_menu = self.menuBar().addMenu("&File")
        add(file_menu, "&New", self._on_new, QKeySequence.StandardKey.New)
        add(file_menu, "&Open…", self._on_open, QKeySequence.StandardKey.Open)
        # Ctrl+S is a separate QShortcut so saves record whether the menu or the key was used;
        # the text after the tab still shows the key in the menu, as users expect.
        add(file_menu, "&Save\tCtrl+S", lambda: self.save("menu"))
        add(file_menu, "Save &As…", self._on_save_as, QKeySequence("Ctrl+Shift+S"))
        file_menu.addSeparator()
        add(file_menu, "&Quit", self.close, QKeySequence("Ctrl+Q"))

        edit_menu = self.menuBar().addMenu("&Edit")
        self.undo_action = add(edit_menu, "&Undo", self._on_undo, QKeySequence("Ctrl+Z"))
        self.undo_action.setEnabled(False)
        add(edit_menu, "&Clear Form", self._on_clear)

        help_menu = self.menuBar().addMenu("&Help")
        add(help_menu, "&About", self._on_about)

    def _build_general_tab(self) -> QWidget:
        self.name_edit = QLineEdit()
        self.email_edit = QLineEdit()
        self.phone_edit = QLineEdit()
        self.country_combo = QComboBox()
        self.country_combo.addItems(COUNTRIES)
        self.colour_list = QListWidget()
        self.colour_list.addItems(COLOURS)
        rows = self.colour_list.sizeHintForRow(0) * VISIBLE_COLOURS
        self.colour_list.setFixedHeight(rows + 2 * self.colour_list.frameWidth() + 4)

        details = QGroupBox("Customer details")
        form = QFormLayout(details)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setHorizontalSpacing(16)
        form.setVerticalSpacing(10)
        form.addRow("Name:", self.name_edit)
        form.addRow("Email:", self.email_edit)
        if self.password_field:
            self.password_edit = QLineEdit()
            self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
            form.addRow("Password:", self.password_edit)
        form.addRow("Phone:", self.phone_edit)
        form.addRow("Country:", self.country_combo)
        form.addRow("Favourite colour:", self.colour_list)

        plan_box = QGroupBox("Plan")
        plan_layout = QVBoxLayout(plan_box)
        self.plan_group = QButtonGroup(self)
        self.plan_buttons = {}
        for plan in PLANS:
            button = QRadioButton(plan)
            self.plan_group.addButton(button)
            self.plan_buttons[plan] = button
            plan_layout.addWidget(button)

        prefs_box = QGroupBox("Preferences")
        prefs_layout = QVBoxLayout(prefs_box)
        self.subscribe_check = QCheckBox("Subscribe to newsletter")
        self.notifications_check = QCheckBox("Enable notifications")
        self.terms_check = QCheckBox("Accept terms")
        for check in (self.subscribe_check, self.notifications_check, self.terms_check):
            prefs_layout.addWidget(check)

        right = QVBoxLayout()
        right.addWidget(plan_box)
        right.addWidget(prefs_box)
        right.addStretch(1)
        left = QVBoxLayout()
        left.addWidget(details)
        left.addStretch(1)

        page = QWidget()
        columns = QHBoxLayout(page)
        columns.setContentsMargins(12, 12, 12, 12)
        columns.setSpacing(16)
        columns.addLayout(left, 3)
        columns.addLayout(right, 2)
        return page

    def _build_advanced_tab(self) -> QWidget:
        self.timeout_spin = QSpinBox()
        self.timeout_spin.setRange(1, 3600)
        self.timeout_spin.setMinimumWidth(120)
        self.log_combo = QComboBox()
        self.log_combo.addItems(LOG_LEVELS)
        self.log_combo.setMinimumWidth(160)
        self.verbose_check = QCheckBox("Verbose output")
        self.notes_edit = QPlainTextEdit()
        self.notes_edit.setFixedHeight(110)

        behaviour = QGroupBox("Behaviour")
        form = QFormLayout(behaviour)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        form.setHorizontalSpacing(16)
        form.setVerticalSpacing(10)
        form.addRow("Timeout (s):", self.timeout_spin)
        form.addRow("Log level:", self.log_combo)
        form.addRow("", self.verbose_check)
        form.addRow("Notes:", self.notes_edit)
        self.notes_edit.setMinimumWidth(480)

        preview = QGroupBox("Appearance preview")
        preview_layout = QHBoxLayout(preview)
        self.apply_picture = ButtonPicture("Apply")
        preview_layout.addWidget(self.apply_picture)
        preview_layout.addStretch(1)

        self.apply_button = QPushButton("Apply")
        self.apply_button.clicked.connect(self._on_apply)
        apply_row = QHBoxLayout()
        apply_row.addWidget(self.apply_button)
        apply_row.addStretch(1)

        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(12)
        layout.addWidget(behaviour)
        layout.addWidget(preview)
        layout.addLayout(apply_row)
        layout.addStretch(1)
        return page

    # ----- state -----

    def form(self) -> dict:
        """The user-editable part of the state (what Clear, Cancel and Undo act on)."""
        colours = self.colour_list.selectedItems()
        password = {"password": self.password_edit.text()} if self.password_field else {}
        return {
            **password,
            "name": self.name_edit.text(),
            "email": self.email_edit.text(),
            "phone": self.phone_edit.text(),
            "country": self.country_combo.currentText(),
            "plan": self.plan_group.checkedButton().text(),
            "subscribe": self.subscribe_check.isChecked(),
            "notifications": self.notifications_check.isChecked(),
            "accept_terms": self.terms_check.isChecked(),
            "favourite_colour": colours[0].text() if colours else None,
            "timeout": self.timeout_spin.value(),
            "log_level": self.log_combo.currentText(),
            "verbose": self.verbose_check.isChecked(),
            "notes": self.notes_edit.toPlainText(),
            "applied": self.applied,
        }

    def set_form(self, values: dict) -> None:
        """Fill the widgets from a (possibly partial) form dict; missing keys get initial values."""
        values = {**INITIAL_FORM, **values}
        self.name_edit.setText(values["name"])
        self.email_edit.setText(values["email"])
        if self.password_field:
            self.password_edit.setText(values.get("password", ""))
        self.phone_edit.setText(values["phone"])
        self.country_combo.setCurrentText(values["country"])
        self.plan_buttons.get(values["plan"], self.plan_buttons["Free"]).setChecked(True)
        self.subscribe_check.setChecked(values["subscribe"])
        self.notifications_check.setChecked(values["notifications"])
        self.terms_check.setChecked(values["accept_terms"])
        self.colour_list.clearSelection()
        self.colour_list.setCurrentRow(-1)
        for item in self.colour_list.findItems(
            values["favourite_colour"] or "", Qt.MatchFlag.MatchExactly
        ):
            item.setSelected(True)
        self.timeout_spin.setValue(values["timeout"])
        self.log_combo.setCurrentText(values["log_level"])
        self.verbose_check.setChecked(values["verbose"])
        self.notes_edit.setPlainText(values["notes"])
        self.applied = values["applied"]

    def state(self, saved_via: str) -> dict:
        return {
            **self.form(),
            "current_tab": self.tabs.tabText(self.tabs.currentIndex()),
            "saved_via": saved_via,
            "saved_as": self.saved_as,
            "save_count": self.save_count,
        }

    def notify(self, message: str) -> None:
        """Show the outcome of an action in the window's status line and the status bar."""
        self.status_label.setText(message)
        self.status_bar_label.setText(message)

    def save(self, saved_via: str, extra_path: Path | None = None) -> bool:
        """Write the state to --state-out (and to `extra_path` for Save As)."""
        time.sleep(self.lag)
        self.save_count += 1
        text = json.dumps(self.state(saved_via), sort_keys=True, indent=2) + "\n"
        targets = [self.state_out] if extra_path is None else [extra_path, self.state_out]
        try:
            for target in targets:
                write_atomically(target, text)
        except OSError as error:
            self.save_count -= 1
            print(f"sample_app: cannot save: {error}", file=sys.stderr)
            self.notify(f"Save failed: {error.strerror}")
            return False
        self.notify("Saved" if extra_path is None else f"Saved as {extra_path.name}")
        return True

    def _reset(self, values: dict, message: str) -> None:
        """Replace the form, remembering the old one so Edit > Undo can bring it back."""
        self.undo_snapshot = self.form()
        self.undo_action.setEnabled(True)
        self.set_form(values)
        self.notify(message)

    # ----- actions -----

    def confirm_save(self) -> bool:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Confirm Save",
            "Save changes to this customer?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Yes)
        return self.run_dialog(box) == QMessageBox.StandardButton.Yes

    def run_dialog(self, dialog) -> int:
        """Run a modal dialog, then take the keyboard focus back.

        Without a window manager (bare Xvfb) X gives the focus to nobody when a dialog closes,
        and shortcuts such as Ctrl+S would silently stop working.
        """
        result = dialog.exec()
        self.activateWindow()
        return result

    def _on_save_clicked(self) -> None:
        time.sleep(self.lag)
        if self.confirm_save():
            self.save("button")
        else:
            self.notify("Not saved")

    def _on_cancel(self) -> None:
        self._reset(INITIAL_FORM, "Changes discarded")

    def _on_clear(self) -> None:
        self._reset(INITIAL_FORM, "Form cleared")

    def _on_new(self) -> None:
        self.saved_as = None
        self._reset(INITIAL_FORM, "New customer")

    def _on_undo(self) -> None:
        snapshot, self.undo_snapshot = self.undo_snapshot, None
        self.undo_action.setEnabled(False)
        self.set_form(snapshot)
        self.notify("Undo: form restored")

    def _on_apply(self) -> None:
        self.applied = True
        self.notify("Settings applied")

    def _file_dialog(self, caption: str, mode: QFileDialog.AcceptMode) -> QFileDialog:
        dialog = QFileDialog(
            self, caption, str(self.save_dir), "Customer files (*.json);;All files (*)"
        )
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
        dialog.setAcceptMode(mode)
        dialog.resize(760, 460)  # the default size truncates the Size, Type and Date columns
        return dialog

    def _on_save_as(self) -> None:
        dialog = self._file_dialog("Save Customer As", QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("json")
        dialog.selectFile("customer.json")
        if not self.run_dialog(dialog):
            self.notify("Save As cancelled")
            return
        path = Path(dialog.selectedFiles()[0]).absolute()
        previous, self.saved_as = self.saved_as, str(path)
        if not self.save("save_as", path):
            self.saved_as = previous

    def _on_open(self) -> None:
        dialog = self._file_dialog("Open Customer", QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        if not self.run_dialog(dialog):
            self.notify("Open cancelled")
            return
        path = Path(dialog.selectedFiles()[0])
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            values = {key: data[key] for key in INITIAL_FORM if key in data}
        except (OSError, ValueError, TypeError) as error:
            print(f"sample_app: cannot open {path}: {error}", file=sys.stderr)
            self.notify(f"Cannot open {path.name}")
            return
        self._reset(values, f"Opened {path.name}")

    def _on_about(self) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Information,
            "About Clickwright Sample",
            "Clickwright Sample — Customer Form\n\n"
            "A small desktop form used to test the clickwright agent.",
            QMessageBox.StandardButton.Ok,
            self,
        )
        self.run_dialog(box)


def write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file so a test polling the file never reads half a JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _pair(separator: str):
    """An argparse type for "640,480" or "900x640"."""

    def parse(text: str) -> tuple[int, int]:
        first, second = text.lower().split(separator)
        return int(first), int(second)

    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m clickwright.assets.sample_app",
        description="Sample customer form for clickwright tests.",
    )
    parser.add_argument(
        "--state-out",
        required=True,
        type=Path,
        help="file that receives the app state as JSON on every save",
    )
    parser.add_argument("--save-dir", type=Path, help="starting folder of the Save As dialog")
    parser.add_argument("--pos", type=_pair(","), help="window position X,Y (default 40,40)")
    parser.add_argument("--size", type=_pair("x"), help="window size WxH (default 900x640)")
    parser.add_argument(
        "--password-field", action="store_true", help="add a Password row below Email"
    )
    parser.add_argument(
        "--lag", type=float, default=0.0, help="seconds to freeze before answering Save"
    )
    parser.add_argument("--hide-button", help="hide the push button with this label")
    args, qt_args = parser.parse_known_args(sys.argv[1:] if argv is None else argv)

    app = QApplication([sys.argv[0], *qt_args])
    configure_app(app)
    window = SampleWindow(args.state_out.absolute(), args.save_dir, args.password_field, args.lag)
    if args.pos:
        window.move(*args.pos)
    if args.size:
        window.resize(*args.size)
    for button in window.findChildren(QPushButton):
        if args.hide_button and button.text() == args.hide_button:
            button.hide()
    window.show()
    window.raise_()
    window.activateWindow()  # without a window manager nothing else gives it keyboard focus
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
