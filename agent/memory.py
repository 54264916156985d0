"""Task memory: the plan, progress, notes, recent history and values read from the screen that
every role reads.

Kept small on purpose: models see the last few turns and screenshots, not the whole run, so a
long task costs the same per step as a short one.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

RECENT_TURNS = 8


@dataclass(frozen=True)
class Turn:
    """One past action as the roles remember it."""

    index: int
    thought: str
    action: str
    verdict: str
    reason: str

    def describe(self) -> str:
        thought = f" ({self.thought})" if self.thought else ""
        return f"{self.index}. {self.action}{thought} -> {self.verdict}: {self.reason}"


@dataclass(frozen=True)
class Clip:
    """Text the task cut or copied, and whether it is whole lines (put back on lines of their
    own) or paragraphs (with a blank line between them and the text)."""

    text: str
    lines: bool = False
    paragraphs: bool = False


@dataclass
class Memory:
    screenshots_kept: int = 2
    plan: list[str] = field(default_factory=list)
    current: int = 0
    """Index in `plan` of the subgoal being worked on."""
    notes: list[str] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    feedback: str = ""
    """What went wrong with the last action, told to the actor once."""
    screenshots: deque[tuple[int, np.ndarray]] = field(default_factory=deque)
    submitted: set[str] = field(default_factory=set)
    """Form sentences already carried through by a row's own button ("Pay the invoice from
    March"): their submit step at the end of the task has nothing left to do."""
    form_verbs: list[str] = field(default_factory=list)
    """The verbs of form sentences that filled fields ("contact"), for the submit step at the
    end when the verb that was to submit turned out to be a label's word ("order number")."""
    unconfirmed: str = ""
    """The last control the run changed that no button or Enter has confirmed since ("input
    'Name'"): a task that ends so is finished with the dialog's OK."""
    acted: tuple[str, frozenset[tuple[int, int, int, int]]] | None = None
    """The label of the last button or menu entry the run pressed ("Cancel order"), and the
    boxes of every button shown then: a dialog it opened that asks to confirm the same act is
    answered by the task that named it."""
    found: str = ""
    """The row a find step found ("the email by Audrey"): a target a later step names that is
    not in view is looked for inside it, opened (once)."""
    made: tuple[str, str, str, frozenset[tuple[int, int, int, int]]] | None = None
    """A form a button opened for the thing a clause makes ("write a review …"): the clause,
    its verb, the noun made, and the boxes of the buttons shown before it opened; its own
    button (Submit review, Save) is pressed when the task ends with it still open."""
    refused: str = ""
    """A button a clause said not to press ("don't overwrite": Overwrite): a dialog that still
    shows it when the task ends is answered with its cancelling button instead."""
    edited: bool = False
    """The run changed a document's text (an editor's): "save" is then its Ctrl+S, not a
    Save button somewhere on the screen."""
    values: dict[str, str] = field(default_factory=dict)
    """Values read from the screen for later steps ("the coupon code" -> "SPRING-42"), by
    their name in normalised words."""
    clip: Clip | None = None
    """What the last cut or copy took, for the paste after it."""
    document: tuple[int, str] | None = None
    """The editor's text as the run last read or left it, and how many steps the run had
    taken then: read again only once anything else was done."""

    def remember_screenshot(self, step: int, pixels: np.ndarray) -> None:
        """Keep the model-sized screenshot the actor saw; only the last few are ever sent."""
        self.screenshots.append((step, pixels))
        while len(self.screenshots) > max(0, self.screenshots_kept - 1):
            self.screenshots.popleft()

    def note(self, text: str) -> None:
        text = " ".join(text.split())
        if text and text not in self.notes:
            self.notes.append(text)

    def advance(self) -> None:
        self.current = min(self.current + 1, len(self.plan))

    def plan_text(self) -> str:
        if not self.plan:
            return "(no plan yet)"
        marks = [
            "done" if i < self.current else "now " if i == self.current else "    "
            for i in range(len(self.plan))
        ]
        return "\n".join(
            f"[{m}] {i + 1}. {goal}"
            for i, (m, goal) in enumerate(zip(marks, self.plan, strict=True))
        )

    def recent_text(self) -> str:
        recent = self.turns[-RECENT_TURNS:]
        return "\n".join(turn.describe() for turn in recent) or "(nothing done yet)"

    def notes_text(self) -> str:
        return "\n".join(f"- {note}" for note in self.notes) or "(none)"
