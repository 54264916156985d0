"""The settings dialog: model backends (by environment variable name for keys, never a key),
per-role models, budgets, the approval policy and the theme; saved where the CLI reads them."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clickwright.agent.config import (
    BACKENDS,
    DEFAULT_KEY_ENV,
    OPT_IN_ROLES,
    ROLES,
    BackendSettings,
    ModelSettings,
    RunLimits,
    api_key,
)
from clickwright.app.panel.prefs import THEMES, PanelPrefs

BACKEND_LABELS = {
    "offline": "Offline — built-in planner, no model",
    "openai": "OpenAI-compatible server (OpenAI, Ollama, vLLM, LM Studio…)",
    "anthropic": "Anthropic",
    "transformers": "Local transformers model",
}
SAME = "same as above"
BUILT_IN = "built-in (no model)"


class SettingsDialog(QDialog):
    def __init__(self, models: ModelSettings, prefs: PanelPrefs, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("clickwright settings")
        self.setMinimumWidth(620)
        self.loaded, self.prefs = models, prefs
        layout = QVBoxLayout(self)
        layout.addWidget(self._model_box(models.default))
        layout.addWidget(self._roles_box(models))
        row = QHBoxLayout()
        row.addWidget(self._budget_box(models.run))
        row.addWidget(self._policy_box(models.run, prefs))
        layout.addLayout(row)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    # ---- building ---------------------------------------------------------------------------

    def _model_box(self, default: BackendSettings) -> QGroupBox:
        box = QGroupBox("Model")
        form = QFormLayout(box)
        self.backend = QComboBox()
        for name in BACKENDS:
            self.backend.addItem(BACKEND_LABELS[name], name)
        self.backend.setCurrentIndex(BACKENDS.index(default.backend))
        self.model = QLineEdit(default.model)
        self.model.setPlaceholderText(
            "e.g. gpt-4o, claude-sonnet-4-5, qwen2.5vl:7b, ~/models/UI-TARS"
        )
        self.base_url = QLineEdit(default.base_url or "")
        self.base_url.setPlaceholderText("e.g. http://localhost:11434/v1 (empty: the provider's)")
        self.key_env = QLineEdit(default.api_key_env or "")
        self.key_status = QLabel()
        self.key_status.setObjectName("muted")
        form.addRow("Backend", self.backend)
        form.addRow("Model", self.model)
        form.addRow("Server", self.base_url)
        form.addRow("API key variable", self.key_env)
        form.addRow("", self.key_status)
        self.backend.currentIndexChanged.connect(self._backend_changed)
        self.key_env.textChanged.connect(self._show_key_status)
        self._backend_changed()
        return box

    def _roles_box(self, models: ModelSettings) -> QGroupBox:
        box = QGroupBox("Per role (optional)")
        grid = QGridLayout(box)
        self.role_backend: dict[str, QComboBox] = {}
        self.role_model: dict[str, QLineEdit] = {}
        for row, role in enumerate(ROLES):
            own = models.for_role(role)
            combo = QComboBox()
            first = BUILT_IN if role in OPT_IN_ROLES else SAME
            combo.addItem(first, "")
            for name in BACKENDS:
                if name != "offline" or role not in OPT_IN_ROLES:
                    combo.addItem(name, name)
            inherited = not own.is_model if role in OPT_IN_ROLES else own == models.default
            combo.setCurrentIndex(0 if inherited else combo.findData(own.backend))
            model = QLineEdit("" if inherited else own.model)
            model.setPlaceholderText("model")
            grid.addWidget(QLabel(role.capitalize()), row, 0)
            grid.addWidget(combo, row, 1)
            grid.addWidget(model, row, 2)
            self.role_backend[role], self.role_model[role] = combo, model
        grid.setColumnStretch(2, 1)
        return box

    def _budget_box(self, limits: RunLimits) -> QGroupBox:
        box = QGroupBox("Budget per run")
        form = QFormLayout(box)
        self.max_steps = QSpinBox()
        self.max_steps.setRange(1, 1000)
        self.max_steps.setValue(limits.max_steps)
        self.max_time = QSpinBox()
        self.max_time.setRange(0, 24 * 3600)
        self.max_time.setSuffix(" s")
        self.max_time.setSpecialValueText("no limit")
        self.max_time.setValue(int(limits.max_time or 0))
        self.max_cost = QDoubleSpinBox()
        self.max_cost.setRange(0, 1000)
        self.max_cost.setDecimals(2)
        self.max_cost.setPrefix("$")
        self.max_cost.setSpecialValueText("no limit")
        self.max_cost.setValue(limits.max_cost or 0)
        form.addRow("Actions", self.max_steps)
        form.addRow("Time", self.max_time)
        form.addRow("Model cost", self.max_cost)
        return box

    def _policy_box(self, limits: RunLimits, prefs: PanelPrefs) -> QGroupBox:
        box = QGroupBox("Risky actions and look")
        layout = QVBoxLayout(box)
        self.ask_first = QRadioButton("Ask me before deleting, sending, paying…")
        self.allow = QRadioButton("Carry them out without asking")
        group = QButtonGroup(box)
        for button in (self.ask_first, self.allow):
            group.addButton(button)
            layout.addWidget(button)
        (self.allow if limits.approve_risky else self.ask_first).setChecked(True)
        self.theme = QComboBox()
        for name in THEMES:
            self.theme.addItem(name.capitalize(), name)
        self.theme.setCurrentIndex(
            max(THEMES.index(prefs.theme) if prefs.theme in THEMES else 0, 0)
        )
        row = QHBoxLayout()
        row.addWidget(QLabel("Theme"))
        row.addWidget(self.theme, 1)
        layout.addLayout(row)
        layout.addStretch(1)
        return box

    def _backend_changed(self) -> None:
        backend = self.backend.currentData()
        is_model = backend != "offline"
        for field in (self.model, self.base_url, self.key_env):
            field.setEnabled(is_model)
        self.key_env.setPlaceholderText(DEFAULT_KEY_ENV.get(backend, "no key needed"))
        self._show_key_status()

    def _show_key_status(self) -> None:
        backend = self.backend.currentData()
        name = self.key_env.text().strip() or DEFAULT_KEY_ENV.get(backend)
        if backend == "offline" or not name:
            self.key_status.setText("")
            return
        found = api_key(BackendSettings(backend=backend, api_key_env=name)) is not None
        self.key_status.setText(
            f"{name} is set" if found else f"{name} is not set in this environment or keyring"
        )

    # ---- reading --------------------------------------------------------------------------

    def model_settings(self) -> ModelSettings:
        """The settings as the dialog shows them; fields it does not show are kept."""
        default = replace(
            self.loaded.default,
            backend=self.backend.currentData(),
            model=self.model.text().strip(),
            base_url=self.base_url.text().strip() or None,
            api_key_env=self.key_env.text().strip() or None,
        )
        if default.backend != self.loaded.default.backend and not default.is_model:
            default = BackendSettings(timeout=default.timeout)
        roles = {}
        for role in ROLES:
            backend = self.role_backend[role].currentData()
            if not backend:
                roles[role] = BackendSettings() if role in OPT_IN_ROLES else default
                continue
            before = self.loaded.for_role(role)
            base = before if before.backend == backend else BackendSettings(timeout=default.timeout)
            roles[role] = replace(base, backend=backend, model=self.role_model[role].text().strip())
        limits = RunLimits(
            max_steps=self.max_steps.value(),
            max_time=float(self.max_time.value()) or None,
            max_cost=self.max_cost.value() or None,
            approve_risky=self.allow.isChecked(),
        )
        return ModelSettings(default, roles, self.loaded.prices, limits)

    def panel_prefs(self) -> PanelPrefs:
        return replace(self.prefs, theme=self.theme.currentData())
