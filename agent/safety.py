"""Which actions are risky, and who decides whether they happen.

An action is risky when undoing it may be impossible: deleting, sending, buying, paying,
submitting, typing into a secret field, or starting a program. One policy everywhere (runs,
replays, the panel, scripts): what the task names explicitly — its button, the text or secret it
gives, the keys it says to press — is consented by the task itself; a risky action nobody named
(a model's own choice, a demonstration's step the task does not mention) waits for a person's
approval unless the run was started with `--yes`, and a run with nobody to ask stops there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Protocol

from clickwright.agent.clauses import clauses
from clickwright.agent.lexicon import Intent, lexicon, phrase_at, words_of
from clickwright.agent.runlog import looks_secret
from clickwright.text import normalize, without_glyph
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
    "deactivate": "closes an account",
    "terminate": "ends something",
    "close account": "closes an account",
    "close my account": "closes an account",
}
_RISKY = re.compile(
    r"\b(" + "|".join(re.escape(w) for w in _RISKY_WORDS) + r")(?:s|es|ed|d|ing)?\b", re.I
)
_KIN = {
    "submit": "send", "reply": "send", "post": "send", "publish": "send",
    "purchase": "buy", "checkout": "buy", "check out": "buy", "pay": "buy", "payment": "buy",
    "remove": "delete", "erase": "delete", "trash": "delete", "wipe": "delete",
}  # fmt: skip
"""Risky words that name the same act: a task that says "submit" named the Send button, one
that says "remove" the Delete button."""
_NEGATED = re.compile(r"\b(?:don'?t|do not|never|not|no)\W*$", re.I)
"""Before a risky word, what makes the button the safe answer ("Don't send", "No, delete")."""
_ON_THE_WAY = re.compile(r"(?:continue|proceed|go|next|back|return)\b.*\bto\b", re.I)
"""A button that only moves on towards the risky step ("Continue to payment", "Proceed to
checkout"): the step itself is a later button ("Pay now", "Place order")."""
_RISKY_KEYS = {("delete",): "deletes the selection", ("delete", "shift"): "deletes for good"}
_CLICKS = ("click", "double_click", "triple_click", "middle_click", "long_press")


@dataclass(frozen=True)
class Risk:
    action: Action
    why: str
    """What the action may do that cannot be undone, in words for a person."""
    label: str = ""
    """The words on what it acts on."""

    def describe(self) -> str:
        return f"{self.action.type.replace('_', ' ')}: {self.why}"


def risk_of(action: Action, element: Element | None) -> Risk | None:
    """The risk in carrying out `action` on `element` (what it targets), or None."""
    if action.type == "launch":
        return Risk(action, f"runs the command {action.app!r}")
    label = " ".join(filter(None, (element.text, element.name))) if element else ""
    if action.type == "type" and element is not None and looks_secret(label):
        return Risk(action, f"types into the secret field '{label}'", label)
    if action.type in _CLICKS and label:
        match = _RISKY.search(label)
        safe = (
            _NEGATED.search(label[: match.start()]) or _ON_THE_WAY.match(label) if match else True
        )
        if match and not _is_option(element) and not safe:
            return Risk(action, f"'{label}' {_RISKY_WORDS[match[1].lower()]}", label)
    if action.type == "hotkey":
        keys = tuple(sorted(action.keys))
        if keys in _RISKY_KEYS:
            return Risk(action, f"{'+'.join(action.keys)} {_RISKY_KEYS[keys]}")
    return None


def _is_option(element: Element | None) -> bool:
    """Ticking "Subscribe to newsletter", picking "Order by date" or opening the "Format" menu
    changes a setting or shows a menu, not the world; a button with the same words does."""
    return element is not None and element.kind in (
        "input",  # clicking into a field ("Search by order number") puts the caret there
        "menu",  # a menu bar's "Format" opens a menu; its entries are what act
        "checkbox",
        "radio",
        "toggle",
        "list_item",
        "tab",
        "combo",
    )


@dataclass
class Flag:
    """A risk the model's vendor flagged on an action (OpenAI's pending safety checks): the
    executor's approval asks about it whatever the action is, and marks it approved when a
    person (or --yes) lets the action go ahead, the only way the checks are acknowledged."""

    why: str
    approved: bool = False


@dataclass(frozen=True)
class Consent:
    """What the person's own words name: the task's text, and values they gave (a replay's
    parameters). A risky action they named is what they asked for."""

    said: str = ""
    values: tuple[str, ...] = ()

    def covers(self, risk: Risk) -> bool:
        action = risk.action
        if action.type == "type":
            return bool(action.text) and (action.text in self.values or action.text in self.said)
        if action.type == "launch":
            return bool(action.app) and action.app in self.said
        plain = " ".join([self.said, *_meant(self.said)])  # "take X out": remove
        said = [w for w in re.split(r"[^\w]+", normalize(plain)) if w]
        words = set(said) | {a + b for a, b in zip(said, said[1:], strict=False)}  # Checkout
        if action.type == "hotkey":
            return all(key in words or _KEY_WORDS.get(key, key) in words for key in action.keys)
        label = without_glyph(risk.label)
        if _act_said(self.said, label):
            return True
        named = set(normalize(label).split()) - _FILLER
        risky = {w for w in named if _RISKY.fullmatch(w)}
        said_verb = bool(_bases(risky) & _bases(words))
        return bool(named) and (named <= words or said_verb and named - risky <= _OBJECTS | words)


def _meant(text: str, depth: int = 3) -> list[str]:
    """What the lexicon's idioms make of the clauses of `text`, and of what those make in turn
    ("give Bo the message from Cora": forward it to Bo, which is Forward, To and Send)."""
    found = [m for c in clauses(text) if (m := lexicon().rewritten(c))]
    return found + [d for m in found for d in _meant(m, depth - 1)] if depth > 1 else found


def _act_said(task: str, label: str) -> bool:
    """Whether `label` is the button of an act a clause of the task starts with: the submit
    button of its form verb ("Contact support as Lena …" sends through "Send request"), or a
    button of its intent ("throw away my changes": Discard). "sort by order date" says no verb
    "order"."""
    lex = lexicon()
    wanted = normalize(label)
    for clause in clauses(task):
        said = words_of(clause)
        start = next((i for i in range(len(said)) if not lex.longest(lex.fillers, said, i)), 0)
        for verb, labels in lex.submit.items():
            if phrase_at(said, start, verb.split()) and wanted in map(normalize, labels):
                return True
        finishing = lex.makers.get(said[start], ()) if start < len(said) else ()
        first, *named = wanted.split() or [""]
        if first in {normalize(f) for f in finishing} and set(named) <= set(said):
            return True  # "write a review …": Submit review; "add an event …": Save
        for intent in (lex.intent_at(said, start), _intent_within(said)):
            if intent is None:
                continue
            named = set(wanted.split()) - _FILLER
            rest = named - intent[0].words  # "Send request": "request" only says what is sent
            if wanted in map(normalize, intent[0].labels) or (
                named & intent[0].words and rest <= _OBJECTS | set(said)
            ):
                return True
    return False


def _intent_within(said: list[str]) -> tuple[Intent, int] | None:
    """An intent said after the clause's verb ("close it without saving": discard)."""
    lex = lexicon()
    for i in range(1, len(said)):
        found = lex.intent_at(said, i)
        if found is not None and found[1] > 1:  # a phrase, not a lone word ("it", "ok")
            return found
    return None


def _bases(words: set[str]) -> set[str]:
    """The risky words among `words`, as the act they name ("sends", "submit" -> "send")."""
    return {_KIN.get(b, b) for w in words if (m := _RISKY.fullmatch(w)) and (b := m[1].lower())}


_FILLER = frozenset({"a", "an", "the", "to", "of", "for", "and", "my", "this", "it", "all"})
_OBJECTS = frozenset(
    {"money", "message", "messages", "email", "mail", "now", "form", "request", "file", "files",
     "selected", "item", "items", "changes", "payment", "order", "invoice", "it", "them",
     "feedback", "survey", "answers", "answer", "response", "responses", "application",
     "report", "timesheet", "approval", "review", "details", "booking", "reservation",
     "appointment", "entry", "entries", "comment", "reply", "post"}
)  # fmt: skip
"""Words on a button beside its verb that only say what the verb acts on ("Send money", "Delete
selected"): the task that says "send 50 to 9988" or "delete the old files" named that button."""
_KEY_WORDS = {"ctrl": "control", "esc": "escape", "del": "delete"}


class Human(Protocol):
    """The person behind a run: the terminal, the control panel, or nobody (headless)."""

    def approve(self, risk: Risk) -> Approval: ...

    def answer(self, question: str) -> str | None:
        """The person's answer; None when there is nobody to ask."""
        ...

    def hold(self) -> bool:
        """Called before every action and model call; blocks while the person holds the run
        (pause, step). True: the person used the screen meanwhile, so the agent looks again."""
        ...


class Nobody:
    """A headless run: risky actions are denied, questions end the run, nothing holds it."""

    def approve(self, risk: Risk) -> Approval:
        return "deny"

    def answer(self, question: str) -> str | None:
        return None

    def hold(self) -> bool:
        return False
