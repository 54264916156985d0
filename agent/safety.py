"""Which actions are risky, and who decides whether they happen.

An action is risky when undoing it may be impossible: deleting, sending, buying, paying,
submitting, or typing into a secret field. Risky actions wait for a person's approval unless
the run was started with `--yes`; a run with nobody to ask stops before such an action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Protocol

from clickwright.agent.runlog import looks_secret
from clickwright.types import Action, Element

Approval = Literal["once", "always", "deny"]

# whole words (and their -s/-ed/-ing forms) on what is clicked
_RISKY_WORDS = {
    "delete": "deletes something",
    "remove": "removes something",
    "erase": "erases something",
    "trash": "throws something away",
    "discard": "discards something",
    "wipe": "wipes something",
    "uninstall": "uninstalls something",
    "format": "formats something",
    "send": "sends something",
    "reply": "sends something",
    "post": "publishes something",
    "publish": "publishes something",
    "submit": "submits something",
    "buy": "buys something",
    "purchase": "buys something",
    "order": "places an order",
    "checkout": "buys something",
    "check out": "buys something",
    "pay": "pays",
    "payment": "pays",
    "transfer": "moves money",
    "subscribe": "signs up for something",
}
_RISKY = re.compile(
    r"\b(" + "|".join(re.escape(w) for w in _RISKY_WORDS) + r")(?:s|es|ed|d|ing)?\b", re.I
)
_RISKY_KEYS = {("delete",): "deletes the selection", ("delete", "shift"): "deletes for good"}
_CLICKS = ("click", "double_click", "long_press")


@dataclass(frozen=True)
class Risk:
    action: Action
    why: str
    """What the action may do that cannot be undone, in words for a person."""

    def describe(self) -> str:
        return f"{self.action.type.replace('_', ' ')}: {self.why}"


def risk_of(action: Action, element: Element | None) -> Risk | None:
    """The risk in carrying out `action` on `element` (what it targets), or None."""
    label = " ".join(filter(None, (element.text, element.name))) if element else ""
    if action.type == "type" and element is not None and looks_secret(label):
        return Risk(action, f"types into the secret field '{label}'")
    if action.type in _CLICKS and label:
        match = _RISKY.search(label)
        if match and not _is_option(element):
            return Risk(action, f"'{label}' {_RISKY_WORDS[match[1].lower()]}")
    if action.type == "hotkey":
        keys = tuple(sorted(action.keys))
        if keys in _RISKY_KEYS:
            return Risk(action, f"{'+'.join(action.keys)} {_RISKY_KEYS[keys]}")
    return None


def _is_option(element: Element | None) -> bool:
    """Ticking "Subscribe to newsletter" or picking "Order by date" changes a setting, not the
    world; a button with the same words does."""
    return element is not None and element.kind in (
        "checkbox",
        "radio",
        "toggle",
        "list_item",
        "tab",
        "combo",
    )


class Human(Protocol):
    """The person behind a run: the terminal, the control panel, or nobody (headless)."""

    def approve(self, risk: Risk) -> Approval: ...

    def answer(self, question: str) -> str | None:
        """The person's answer; None when there is nobody to ask."""
        ...


class Nobody:
    """A headless run: risky actions are denied and questions end the run."""

    def approve(self, risk: Risk) -> Approval:
        return "deny"

    def answer(self, question: str) -> str | None:
        return None
