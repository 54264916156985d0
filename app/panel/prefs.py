"""What the panel remembers between sessions, and where.

Model settings (backends, models, servers, the *names* of key variables) and the run limits
(budgets, approval policy) go to the config file the CLI reads, through agent/config.py, so
`clickwright run` uses what the panel set. The panel's own choices (theme, task history, device,
sandbox app) go to panel.json beside it.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from clickwright.agent.config import ModelSettings, config_path, load_settings, save_settings
from clickwright.app.panel.choices import SANDBOX

HISTORY = 50
THEMES = ("system", "light", "dark")


@dataclass(frozen=True)
class PanelPrefs:
    use_models: bool = True
    """Use the models in the settings; False runs the offline planner whatever is configured."""
    theme: str = "system"
    device: str = SANDBOX
    sandbox_app: str = ""
    history: tuple[str, ...] = ()

    def remember(self, task: str) -> PanelPrefs:
        """With `task` as the newest history entry (moved there when it was already in)."""
        kept = [t for t in self.history if t != task] + [task]
        return replace(self, history=tuple(kept[-HISTORY:]))


class PanelStore:
    def __init__(self, config: Path | None = None) -> None:
        self.config_path = config or config_path()
        self.prefs_path = self.config_path.with_name("panel.json")

    def models(self) -> ModelSettings:
        """The model settings in the file alone, for editing (the environment not mixed in)."""
        return load_settings(env={}, path=self.config_path)

    def models_for_run(self) -> ModelSettings:
        """The file under CLICKWRIGHT_BACKEND / _MODEL / _BASE_URL, as the CLI reads them."""
        return load_settings(env=os.environ, path=self.config_path)

    def save_models(self, settings: ModelSettings) -> None:
        save_settings(settings, self.config_path)

    def prefs(self) -> PanelPrefs:
        """The saved choices; the defaults when there are none or the file is unreadable."""
        try:
            data = json.loads(self.prefs_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return PanelPrefs()
        known = {f.name for f in fields(PanelPrefs)}
        values: dict[str, Any] = {k: v for k, v in data.items() if k in known}
        values["history"] = tuple(str(t) for t in values.get("history", ()))
        try:
            return PanelPrefs(**values)
        except TypeError:
            return PanelPrefs()

    def save_prefs(self, prefs: PanelPrefs) -> None:
        self.prefs_path.parent.mkdir(parents=True, exist_ok=True)
        data = asdict(prefs)
        data["history"] = list(prefs.history)
        self.prefs_path.write_text(json.dumps(data, indent=1, ensure_ascii=False), "utf-8")
