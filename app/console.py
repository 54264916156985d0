"""What the commands print: the consoles, one line per step, and a run's last lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.status import Status

from clickwright.agent.events import RunObserver, RunResult, Waiting
from clickwright.types import OUTCOME_TONE, STATUS_TONE, Action, StepRecord

out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False)
TONE_STYLE = {"good": "green", "warn": "yellow", "bad": "red", "info": "cyan"}


def print_step(step: StepRecord, run_dir: Path | None = None) -> None:
    """One line per step, as written to the log (secrets redacted)."""
    style = TONE_STYLE[STATUS_TONE[step.verdict]]
    attempt = f" (attempt {step.attempt})" if step.attempt > 1 else ""
    spent = ""
    if step.tokens:
        cost = "" if step.cost is None else f", ${step.cost:.4f}"
        spent = f" [dim]({step.tokens} tokens{cost})[/]"
    out.print(
        f"  {step.index:>3}. {escape(step.describe())}{attempt} [{style}]{step.verdict}[/] — "
        f"{escape(step.verdict_reason)}{spent}"
    )


PROGRESS_LINE = 10
"""Seconds between two lines saying a model call still waits, when the output is no terminal."""


class Printer(RunObserver):
    """The terminal's view of a run: one line per step, and how long a model call has waited
    (a status line on a terminal, else a line every PROGRESS_LINE seconds and at every retry)."""

    def __init__(self) -> None:
        self._status: Status | None = None
        self._said: tuple[int, int] = (0, 0)

    def waiting(self, waiting: Waiting) -> None:
        if waiting.over:
            self._done_waiting()
            return
        line = f"  [dim]{escape(waiting.describe())}[/]"
        if waiting.retrying and not waiting.seconds:
            self._done_waiting()
            out.print(line)
            return
        if out.is_terminal:
            if self._status is None:
                self._status = out.status(line)
                self._status.start()
            self._status.update(line)
            return
        said = (waiting.attempt, int(waiting.seconds) // PROGRESS_LINE)
        if said[1] and said != self._said:
            self._said = said
            out.print(line)

    def _done_waiting(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None

    def action(self, action: Action, point: tuple[int, int] | None) -> None:
        self._done_waiting()

    def step(self, step: StepRecord, run_dir: Path) -> None:
        self._done_waiting()
        print_step(step, run_dir)

    def ended(self, result: RunResult) -> None:
        self._done_waiting()


EXIT_CODES = {"done": 0, "error": 2}
"""A run's exit status by its outcome: an error is the environment's (a display, a disk, a
model endpoint, a damaged demonstration); anything else not done is 1."""


def exit_code(outcome: str) -> int:
    return EXIT_CODES.get(outcome, 1)


def outcome_line(outcome: str, reason: str) -> str:
    style = TONE_STYLE[OUTCOME_TONE.get(outcome, "bad")]
    return f"[{style}]{outcome}[/]: {escape(reason)}"


def usage_line(usage: dict[str, Any]) -> str:
    cost = usage.get("cost")
    spent = "cost unknown" if cost is None else f"${cost:.4f}"
    return (
        f"models: {usage['calls']} call(s), {usage['input_tokens']} tokens in, "
        f"{usage['output_tokens']} out, {spent}"
    )


def report_line(report: Path | None, why_not: str) -> str:
    return f"report: {report}" if report else f"[red]no report:[/] {escape(why_not)}"


def visible(text: str) -> str:
    """`text` for the terminal, escaped for rich, with characters that could hide or rewrite
    what is shown (carriage returns, escape codes) spelt out: a demonstration's description
    comes from whoever shared it."""
    return escape(text if text.isprintable() else json.dumps(text, ensure_ascii=False))
