"""Errors a user can cause. The CLI prints them in one line with what to do, never a traceback."""


class ClickwrightError(Exception):
    """Base class: message says what went wrong, `hint` says what to do about it."""

    exit_code = 2

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint

    def __str__(self) -> str:
        message = super().__str__()
        return f"{message} — {self.hint}" if self.hint else message


class TaskError(ClickwrightError):
    """The task text cannot be understood by the configured planner."""


class DeviceError(ClickwrightError):
    """The screen or input device is missing or unusable."""


class ActionError(ClickwrightError):
    """An action is malformed (bad JSON, unknown type, missing field)."""


class StepFailed(ClickwrightError):
    """The agent could not complete a step; the run ends as failed (exit 1)."""

    exit_code = 1


class DemoError(ClickwrightError):
    """A demonstration is missing, damaged or hand-edited into something invalid."""


class StorageError(ClickwrightError):
    """A folder clickwright must write to is not a folder, cannot be written, or is full."""
