"""What must be right before a run starts, checked in the panel so a mistake costs nothing:
a task, a planner that can read it, and models that are fully configured."""

from __future__ import annotations

from clickwright.agent.config import ROLES, ConfigError, ModelSettings, make_backend
from clickwright.agent.interpreter import interpret
from clickwright.errors import TaskError


def preflight(task: str, models: ModelSettings) -> None:
    """Raises the ClickwrightError that says what to fix."""
    if not task.strip():
        raise TaskError("type a task first", "for example: Type 'Ada' into Name, then click Save")
    checked = set()
    for role in ROLES:
        settings = models.for_role(role)
        if not settings.is_model or settings in checked:
            continue
        checked.add(settings)
        if not settings.model:
            raise ConfigError(
                f"the {role} uses the {settings.backend} backend but no model is set",
                "open Settings and name a model, or choose Offline in the model selector",
            )
        if settings.backend in ("openai", "anthropic"):
            make_backend(settings)  # a missing key or SDK fails here, in one line
    if not models.for_role("planner").is_model and not models.for_role("actor").is_model:
        interpret(task)  # the offline planner must be able to read it
