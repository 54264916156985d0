"""Runs become demonstrations: an agent's finished run folder turned into a replayable demo.

A run log keeps, for every step, the action, the element it resolved to, the point it acted
on and the frame before (with its parsed elements); that is all a signature needs. Failed
attempts, undone wrong turns and steps that did nothing are left out. Typed text becomes a
parameter; text the run log redacted as secret becomes a secret parameter.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, get_args

import cv2
import numpy as np

from clickwright.agent.demos.format import (
    Demo,
    DemoStep,
    DemoWriter,
    Parameter,
    new_info,
    parameter_name,
    words_for,
)
from clickwright.agent.demos.recorder import effect_between
from clickwright.agent.demos.signature import Signature, take_signature
from clickwright.agent.runlog import REDACTED, is_file, read_run, read_steps
from clickwright.errors import ClickwrightError, DemoError
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import (
    Action,
    Box,
    Element,
    ElementKind,
    Frame,
    Screen,
    StepRecord,
    Target,
)

KEPT_VERDICTS = ("success", "unverified")
SKIPPED_ACTIONS = ("done", "fail", "ask_user")


def run_folder(run: str, runs_dir: Path) -> Path:
    """A run folder from its path or its id under `runs_dir`."""
    for folder in (Path(run), runs_dir / run):
        if is_file(folder / "run.json"):
            return folder
    raise ClickwrightError(
        f"no run '{run}' (looked for run.json in {run} and {runs_dir / run})",
        "pass a run folder such as runs/20261122-081500-ab12, or its id with --runs-dir",
    )


def demo_from_run(folder: Path, writer: DemoWriter, description: str = "") -> Demo:
    """Write the run in `folder` as a demonstration; only a finished (done) run qualifies."""
    run = read_run(folder)
    if run is None:
        raise DemoError(f"run {folder.name} has no readable run.json", "it was cut off or damaged")
    if run.outcome != "done":
        raise DemoError(
            f"run {folder.name} ended '{run.outcome}': {run.reason}",
            "only a run that finished its task makes a demonstration",
        )
    logged = read_steps(folder)
    if len(logged) != run.steps:
        raise DemoError(
            f"run {folder.name} logged {run.steps} step(s) but {len(logged)} can be read from "
            "its steps.jsonl",
            "the run's log is damaged or cut short; save another run",
        )
    records = _kept(logged)
    if not records:
        raise DemoError(f"run {folder.name} has no step that acted", "nothing to demonstrate")
    screens = [_screen(folder, record) for record in records]
    end = _end_screen(folder, records[-1])
    started = records[0].time
    steps: list[DemoStep] = []
    parameters: dict[str, Parameter] = {}
    for index, (record, before) in enumerate(zip(records, screens, strict=True)):
        after = screens[index + 1] if index + 1 < len(screens) else end
        name = f"{index + 1:04d}"
        action = record.action
        assert action is not None  # _kept keeps steps that acted
        target = to = None
        if record.point is not None:
            target = _sign(before, record.point, writer, name, action.type == "scroll")
        if action.type == "drag":
            to_element = _element_by_id(before, getattr(action.to, "id", None))
            if to_element is not None:
                to = _sign(before, to_element.box.center, writer, name + "-to", False)
        typed = ""
        if action.type == "type":
            typed = action.text
            label = target.words if target is not None else ""
            secret = typed == REDACTED
            key = parameter_name(label or ("secret" if secret else "text"), parameters)
            parameters[key] = Parameter(secret=True) if secret else Parameter(default=typed)
            action = action.model_copy(update={"text": "{" + key + "}"})
        action = _by_words(action, target, to)
        steps.append(
            DemoStep(
                words=words_for(action, target, to),
                action=action,
                target=target,
                to=to,
                frame=writer.image("frames", name, before.frame.pixels),
                time=round(max((record.time or started) - started, 0.0), 3),
                effect=effect_between(before, after, "" if typed == REDACTED else typed),
            )
        )
    writer.image("frames", "end", end.frame.pixels)
    afters = [s.frame for s in steps[1:]] + ["frames/end.png"]
    steps = [s.model_copy(update={"after": a}) for s, a in zip(steps, afters, strict=True)]
    info = new_info(
        writer.folder.name,
        description or run.task,
        f"{run.device.get('kind', 'desktop')}/{sys.platform}",
        screens[0].frame.size,
        parameters=parameters,
        source="run",
        duration=round(max((run.ended or 0.0) - run.started, 0.0), 3),
    )
    return writer.finish(info, steps)


def _kept(records: list[StepRecord]) -> list[StepRecord]:
    """Steps that acted and worked; a step the critic sent back is dropped with its undo."""
    kept = []
    undo_next = False
    for record in records:
        if undo_next:
            undo_next = False
            continue
        if record.verdict == "back":
            undo_next = True
            continue
        if record.action is None or record.action.type in SKIPPED_ACTIONS:
            continue
        if record.verdict in KEPT_VERDICTS and record.frame:
            kept.append(record)
    return kept


def _screen(folder: Path, record: StepRecord) -> Screen:
    """The step's frame with the elements the run parsed on it."""
    frame = _frame(folder / (record.frame or ""))
    elements: list[Element] = []
    path = folder / (record.elements or "")
    if record.elements and is_file(path):
        try:
            elements = [_element(item) for item in json.loads(path.read_bytes())]
        except (OSError, ValueError, TypeError, KeyError, RecursionError) as exc:
            detail = (repr(exc).splitlines() or [""])[0]  # a validation error runs to lines
            raise DemoError(
                f"{path}: not the elements of a step ({detail})", "the run folder is damaged"
            ) from None
    return Screen(frame, tuple(elements))


def _end_screen(folder: Path, record: StepRecord) -> Screen:
    """The screen after the last step, parsed (the run kept its frame, not its elements)."""
    after = record.after_frame
    if after and is_file(folder / after):
        frame = _frame(folder / after)
        return ScreenParser().parse(frame)
    return _screen(folder, record)


def _frame(path: Path) -> Frame:
    pixels = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if pixels is None:
        raise DemoError(f"{path}: missing or unreadable frame", "the run folder is incomplete")
    return Frame(np.ascontiguousarray(pixels[:, :, ::-1]))


KINDS = frozenset(get_args(ElementKind))


def _element(item: dict[str, Any]) -> Element:
    if item["kind"] not in KINDS:
        raise ValueError(f"unknown element kind {item['kind']!r}")
    return Element(
        id=int(item["id"]),
        box=Box(*item["box"]),
        kind=item["kind"],
        text=item.get("text", ""),
        source=item.get("source", "ocr"),
        score=float(item.get("score", 1.0)),
        interactive=bool(item.get("interactive", False)),
        name=item.get("name", ""),
        state=frozenset(item.get("state", ())),
    )


def _element_by_id(screen: Screen, element_id: int | None) -> Element | None:
    return next((e for e in screen.elements if e.id == element_id), None)


def _sign(
    screen: Screen, point: tuple[int, int], writer: DemoWriter, name: str, scroll: bool
) -> Signature:
    signature, crop, _ = take_signature(screen, point, scroll=scroll)
    return signature.model_copy(update={"crop": writer.image("crops", name, crop)})


def _by_words(action: Action, target: Signature | None, to: Signature | None) -> Action:
    """Element ids mean nothing outside their run: name the targets by their words."""

    def aim(old: Target | None, signature: Signature | None) -> Target | None:
        if old is None or old.id is None:
            return old
        if signature is not None and signature.words:
            return Target(text=signature.words, kind=signature.kind)
        if signature is not None:
            x, y, w, h = signature.box
            width, height = signature.screen
            return Target(point=(round((x + w / 2) * width), round((y + h / 2) * height)))
        raise DemoError(f"a {action.type} step names element {old.id} but logged no point")

    if action.type == "drag":
        return action.model_copy(
            update={"source": aim(action.source, target), "to": aim(action.to, to)}
        )
    if isinstance(getattr(action, "target", None), Target):
        return action.model_copy(update={"target": aim(action.target, target)})
    return action
