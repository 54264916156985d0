"""The person at the terminal: approves risky actions and answers the agent's questions."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt

from clickwright.agent.safety import Approval, Risk

_CHOICES: dict[str, Approval] = {"y": "once", "a": "always", "n": "deny"}


class TerminalHuman:
    def __init__(self, console: Console) -> None:
        self.console = console

    def hold(self) -> bool:
        """The terminal holds a run only through Ctrl+C and the stop keys."""
        return False

    def approve(self, risk: Risk) -> Approval:
        self.console.print(f"[yellow]risky action[/]: {escape(risk.describe())}")
        choice = Prompt.ask(
            "allow it? y = this once, a = always in this run, n = no (stops the run)",
            choices=list(_CHOICES),
            default="n",
            console=self.console,
        )
        return _CHOICES[choice]

    def answer(self, question: str) -> str | None:
        self.console.print(f"[cyan]the agent asks[/]: {escape(question)}")
        reply = Prompt.ask("your answer (empty ends the run)", default="", console=self.console)
        return reply.strip() or None
