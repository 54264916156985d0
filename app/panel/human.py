"""The person at the panel, as the agent's `Human`: approvals and questions become dialogs.

The agent calls `approve` and `answer` from its worker thread; each call emits a signal that the
GUI thread turns into a dialog, then blocks until the GUI thread calls `reply`, or the run is
stopped (then a risky action is denied and a question has no answer).
"""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

from clickwright.agent.safety import Approval, Risk
from clickwright.app.panel.control import RunControl


class PanelHuman(QObject):
    approval_needed = Signal(object)
    """A `Risk` waiting for approve once / always / deny."""
    question_asked = Signal(str)

    def __init__(self, control: RunControl) -> None:
        super().__init__()
        self.control = control
        self._stop = control.stop_event
        self._answered = threading.Event()
        self._reply: Any = None

    def approve(self, risk: Risk) -> Approval:
        reply = self._ask(self.approval_needed, risk)
        return reply if reply in ("once", "always") else "deny"

    def answer(self, question: str) -> str | None:
        reply = self._ask(self.question_asked, question)
        return reply.strip() or None if isinstance(reply, str) else None

    def hold(self) -> bool:
        """Pause and Step, through the panel's run control."""
        return self.control.before_action()

    def reply(self, value: Approval | str | None) -> None:
        """The person's choice, from the GUI thread."""
        self._reply = value
        self._answered.set()

    def _ask(self, signal: Any, payload: Any) -> Any:
        self._answered.clear()
        self._reply = None
        signal.emit(payload)
        while not self._answered.wait(0.1):
            if self._stop.is_set():
                return None
        return self._reply
