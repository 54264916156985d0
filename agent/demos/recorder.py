"""The recorder: what a person does, heard as input events, turned into steps a person reads.

Three stages, each testable alone:
- `listen` hears the device's input events while capturing the screen continuously, and pins
  to every event the last *stable* frame before it (the screen the person was looking at).
- `merge` turns low-level events into gestures: button down+up is a click (or a drag, or half
  of a double click), keys with characters are typed text, modifiers make hotkeys, wheel clicks
  in a row are one scroll. Phones already report whole gestures (tap, long press, swipe).
- `build_steps` parses the frames and turns gestures into demonstration steps: the element
  under the pointer and its signature, "click 'Save'", "type '{name}' into 'Name'", what the
  step visibly did. Text typed into a password field becomes a secret parameter, never text.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from clickwright.agent.critic import changed_regions
from clickwright.agent.demos.format import (
    Demo,
    DemoStep,
    DemoWriter,
    Effect,
    Parameter,
    new_info,
    parameter_name,
    words_for,
)
from clickwright.agent.demos.signature import Signature, take_signature
from clickwright.agent.grounding import normalize, text_similarity
from clickwright.agent.runlog import looks_secret
from clickwright.devices.base import Device, wait_until_stable
from clickwright.devices.input_events import InputEvent
from clickwright.errors import DemoError
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import (
    Action,
    Click,
    DoubleClick,
    Drag,
    Frame,
    Hotkey,
    LongPress,
    RightClick,
    Screen,
    Scroll,
    Swipe,
    Target,
    Type,
)

MODIFIERS = ("ctrl", "alt", "shift", "win", "command")
DOUBLE_CLICK = 0.5  # s between two clicks at one place that make a double click
DRAG_DISTANCE = 8  # px the pointer must travel with a button held to drag, not click
SCROLL_GAP = 1.0  # s between wheel clicks that still belong to one scroll
STOP_KEYS = (("ctrl", "shift", "f12"), ("ctrl", "c"))  # how the person ended the recording
BULLETS = set("•●*·∙⚫◦○")
FIELD_KINDS = ("input",)  # a click on one of these, then typing, is "type into" it

GestureKind = Literal[
    "click",
    "double_click",
    "right_click",
    "long_press",
    "type",
    "hotkey",
    "scroll",
    "drag",
    "swipe",
]


@dataclass(frozen=True)
class Heard:
    """One input event and the screen as it was just before it."""

    event: InputEvent
    frame: Frame
    window: str = ""
    secret: bool = False
    """The accessibility tree said the focused field is a password field."""


@dataclass(frozen=True)
class Gesture:
    """A whole action of the person: one future step."""

    kind: GestureKind
    time: float
    frame: Frame
    window: str = ""
    at: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    text: str = ""
    keys: tuple[str, ...] = ()
    enter: bool = False
    clear: bool = False
    direction: Literal["up", "down", "left", "right"] = "down"
    amount: int = 1
    distance: float = 0.5
    duration: float = 1.0
    secret: bool = False


@dataclass(frozen=True)
class Recording:
    heard: tuple[Heard, ...]
    end: Frame
    """The screen after the last event, once it settled."""


# ---- listening ------------------------------------------------------------------------------


def listen(
    device: Device,
    stop: threading.Event,
    on_heard: Callable[[Heard], None] | None = None,
    interval: float = 0.05,
    on_ready: Callable[[], None] | None = None,
) -> Recording:
    """Record the person's input on `device` until `stop` is set or Ctrl+C; `on_ready` is
    called once the device hears everything, so "go ahead" is never said too early.

    The screen is captured every `interval` seconds; a frame equal to the one before it is
    stable, and each event gets the last stable frame from before it, so a click's frame shows
    what the person saw, not the first pixels of what the click did.
    """
    events: queue.Queue[InputEvent] = queue.Queue()
    failed: list[BaseException] = []
    ready = threading.Event()

    def pump() -> None:
        try:
            for event in device.input_events(stop, ready):
                events.put(event)
        except BaseException as exc:  # handed to the main thread, which raises it
            failed.append(exc)
            stop.set()

    listener = threading.Thread(target=pump, name="clickwright-recorder", daemon=True)
    listener.start()
    first = device.capture()
    stable: deque[Frame] = deque([first], maxlen=16)
    previous = first
    heard: list[Heard] = []
    probe = _PasswordProbe(device)
    try:
        while listener.is_alive() or not events.empty():
            frame = device.capture()
            if frame.same_as(previous) and not frame.same_as(stable[-1]):
                stable.append(frame)
            previous = frame
            if on_ready is not None and ready.is_set():
                on_ready()
                on_ready = None
            while not events.empty():
                event = events.get()
                if heard and (event.kind in ("move", "key_up", "up") or _typing_on(event, heard)):
                    pinned = heard[-1].frame  # only the start of a gesture needs its own frame
                else:
                    pinned = next((f for f in reversed(stable) if f.time <= event.time), stable[0])
                item = Heard(event, pinned, _window_title(device), probe.secret(event, heard))
                heard.append(item)
                if on_heard is not None:
                    on_heard(item)
            time.sleep(interval)
    except KeyboardInterrupt:
        stop.set()
        listener.join(timeout=2)
    if failed:
        raise failed[0]
    return Recording(tuple(heard), wait_until_stable(device, timeout=3).frame)


def _typing_on(event: InputEvent, heard: Sequence[Heard]) -> bool:
    last = heard[-1].event
    return (
        event.kind == "key_down"
        and bool(event.char)
        and last.kind.startswith("key")
        and (bool(last.char) or last.key == "shift")
    )


def _window_title(device: Device) -> str:
    """Only desktops have window titles to tell."""
    title = getattr(device, "window_title", None)
    return title() if callable(title) else ""


class _PasswordProbe:
    """Asks the accessibility tree, when typing starts, whether the focused field is a password
    field. Once the tree proves unavailable it stops asking, so recording stays cheap."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.unavailable = False

    def secret(self, event: InputEvent, heard: Sequence[Heard]) -> bool:
        if self.unavailable or event.kind != "key_down" or not event.char:
            return False
        if heard and heard[-1].event.kind in ("key_down", "key_up") and heard[-1].event.char:
            return heard[-1].secret  # the same run of typing
        tree = self.device.accessibility()
        if tree is None or (not tree and tree.reason):
            self.unavailable = True
            return False
        return any({"focused", "password"} <= node.states for node in tree)


# ---- merging events into gestures -----------------------------------------------------------


def merge(heard: Sequence[Heard]) -> list[Gesture]:
    """Low-level events -> gestures, in the order the person made them."""
    out: list[Gesture] = []
    held: set[str] = set()
    pressed: dict[str, Heard] = {}
    typing: Heard | None = None
    text = ""
    last_scroll = 0.0

    def flush(enter: bool = False) -> None:
        nonlocal typing, text
        if typing is not None and text:
            out.append(_gesture(typing, "type", text=text, enter=enter, secret=typing.secret))
        typing, text = None, ""

    for item in heard:
        e = item.event
        if e.kind == "down":
            flush()
            pressed[e.button] = item
        elif e.kind == "up" and e.button in pressed:
            start = pressed.pop(e.button)
            out.extend(_click_or_drag(start, item, out))
        elif e.kind == "scroll":
            flush()
            direction = (
                ("up" if e.dy > 0 else "down") if e.dy else ("right" if e.dx > 0 else "left")
            )
            clicks = abs(e.dy) or abs(e.dx)
            previous = out[-1] if out else None
            if (
                previous is not None
                and previous.kind == "scroll"
                and previous.direction == direction
                and e.time - last_scroll <= SCROLL_GAP
                and _far(previous.at, (e.x, e.y)) < 40
            ):
                out[-1] = replace(previous, amount=min(50, previous.amount + clicks))
            else:
                out.append(_gesture(item, "scroll", direction=direction, amount=min(50, clicks)))
            last_scroll = e.time
        elif e.kind in ("tap", "long_press", "swipe"):
            flush()
            out.append(_touch(item))
        elif e.kind == "key_down":
            if e.key in MODIFIERS:
                held.add(e.key)
            elif held - {"shift"}:
                flush()
                out.append(_gesture(item, "hotkey", keys=(*_ordered(held), e.key)))
            elif e.char:
                typing = typing or item
                text += e.char
            elif e.key == "backspace" and text:
                text = text[:-1]
            elif e.key == "enter" and text:
                flush(enter=True)
            else:
                flush()
                out.append(_gesture(item, "hotkey", keys=(*_ordered(held), e.key)))
        elif e.kind == "key_up":
            held.discard(e.key)
    flush()
    return _tidy(out)


def _click_or_drag(start: Heard, end: Heard, out: list[Gesture]) -> list[Gesture]:
    a, b = start.event, end.event
    if _far((a.x, a.y), (b.x, b.y)) > DRAG_DISTANCE:
        return [_gesture(start, "drag", end=(b.x, b.y))] if a.button == "left" else []
    kind = {"left": "click", "right": "right_click"}.get(a.button)
    if kind is None:
        return []  # a middle click pastes on X11; too rare and too ambiguous to replay
    previous = out[-1] if out else None
    if (
        kind == "click"
        and previous is not None
        and previous.kind == "click"
        and a.time - previous.time <= DOUBLE_CLICK
        and _far(previous.at, (a.x, a.y)) <= 6
    ):
        out.pop()
        return [replace(previous, kind="double_click")]
    return [_gesture(start, kind)]


def _touch(item: Heard) -> Gesture:
    e = item.event
    if e.kind == "tap":
        return _gesture(item, "click")
    if e.kind == "long_press":
        return _gesture(item, "long_press", duration=max(e.duration, 0.1))
    x, y = e.end or (e.x, e.y)
    dx, dy = x - (e.x or 0), y - (e.y or 0)
    direction = (
        ("right" if dx > 0 else "left") if abs(dx) > abs(dy) else ("down" if dy > 0 else "up")
    )
    width, height = item.frame.size
    distance = abs(dx) / width if abs(dx) > abs(dy) else abs(dy) / height
    return _gesture(item, "swipe", direction=direction, distance=min(max(distance, 0.05), 1.0))


def _gesture(item: Heard, kind: GestureKind, **fields: object) -> Gesture:
    e = item.event
    at = (e.x, e.y) if e.x is not None and e.y is not None else None
    return Gesture(kind, e.time, item.frame, item.window, at, **fields)  # type: ignore[arg-type]


def _tidy(gestures: list[Gesture]) -> list[Gesture]:
    """Drop the keys that ended the recording, and fold Ctrl+A before typing into the typing
    ("replace what was there")."""
    out: list[Gesture] = []
    for gesture in gestures:
        if gesture.kind == "hotkey" and gesture.keys in STOP_KEYS:
            continue
        previous = out[-1] if out else None
        if gesture.kind == "type" and previous is not None and previous.keys == ("ctrl", "a"):
            out[-1] = replace(gesture, clear=True, frame=previous.frame, time=previous.time)
            continue
        out.append(gesture)
    return out


def _ordered(held: set[str]) -> tuple[str, ...]:
    return tuple(k for k in MODIFIERS if k in held)


def _far(a: tuple[int | None, int | None] | None, b: tuple[int | None, int | None]) -> float:
    if a is None or a[0] is None or b[0] is None:
        return float("inf")
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))  # type: ignore[operator]


# ---- gestures into demonstration steps ----------------------------------------------------


def build_steps(
    gestures: Sequence[Gesture], end: Frame, parser: ScreenParser, writer: DemoWriter
) -> tuple[list[DemoStep], dict[str, Parameter]]:
    """Parse each gesture's frame, find and sign its target, and write frames and crops
    (named by step number, like the steps `clickwright demos show` lists)."""
    screens = [parser.parse(g.frame) for g in gestures] + [parser.parse(end)]
    started = gestures[0].time if gestures else 0.0
    steps: list[DemoStep] = []
    parameters: dict[str, Parameter] = {}
    index = 0
    while index < len(gestures):
        gesture, before = gestures[index], screens[index]
        name = f"{len(steps) + 1:04d}"
        target = None
        if gesture.at is not None:
            target = _sign(before, gesture.at, gesture, writer, name)
        following = gestures[index + 1] if index + 1 < len(gestures) else None
        if (
            gesture.kind == "click"
            and target is not None
            and target.kind in FIELD_KINDS
            and following is not None
            and following.kind == "type"
        ):  # a click into a field, then typing: one step, "type … into …"
            gesture = replace(following, time=gesture.time, at=gesture.at)
            index += 1
        to = None
        if gesture.kind == "drag" and gesture.end is not None:
            to = _sign(before, gesture.end, gesture, writer, name + "-to")
        after = screens[index + 1]
        steps.append(_step(gesture, target, to, before, after, name, started, writer, parameters))
        index += 1
    writer.image("frames", "end", end.pixels)
    return _link_frames(steps), parameters


def _sign(
    screen: Screen, point: tuple[int, int], gesture: Gesture, writer: DemoWriter, name: str
) -> Signature:
    signature, crop, _ = take_signature(
        screen, point, gesture.window, scroll=gesture.kind == "scroll"
    )
    return signature.model_copy(update={"crop": writer.image("crops", name, crop)})


def _step(
    gesture: Gesture,
    target: Signature | None,
    to: Signature | None,
    before: Screen,
    after: Screen,
    name: str,
    started: float,
    writer: DemoWriter,
    parameters: dict[str, Parameter],
) -> DemoStep:
    typed = ""
    if gesture.kind == "type":
        label = target.words if target is not None else ""
        secret = (
            gesture.secret or looks_secret(label) or _shows_bullets(after, target, gesture.text)
        )
        key = parameter_name(label or ("secret" if secret else "text"), parameters)
        parameters[key] = Parameter(secret=True) if secret else Parameter(default=gesture.text)
        typed = gesture.text
        gesture = replace(gesture, text="{" + key + "}")
    action = _action(gesture, target, to)
    return DemoStep(
        words=words_for(action, target, to),
        action=action,
        target=target,
        to=to,
        frame=writer.image("frames", name, before.frame.pixels),
        time=round(max(gesture.time - started, 0.0), 3),
        effect=effect_between(before, after, typed),
    )


def _action(g: Gesture, target: Signature | None, to: Signature | None) -> Action:
    """The step's Action JSON, its targets by text and kind where they have words, else by
    the recorded point."""

    def aim(signature: Signature | None, point: tuple[int, int] | None) -> Target:
        if signature is not None and signature.words:
            return Target(text=signature.words, kind=signature.kind)
        return Target(point=point or (0, 0))

    pointed = {"click": Click, "double_click": DoubleClick, "right_click": RightClick}
    if g.kind in pointed:
        return pointed[g.kind](target=aim(target, g.at))
    if g.kind == "long_press":
        return LongPress(target=aim(target, g.at), duration=min(g.duration, 30))
    if g.kind == "type":
        into = aim(target, g.at) if target is not None else None
        return Type(text=g.text, target=into, enter=g.enter, clear=g.clear)
    if g.kind == "hotkey":
        return Hotkey(keys=g.keys)
    if g.kind == "scroll":
        return Scroll(direction=g.direction, amount=g.amount, target=aim(target, g.at))
    if g.kind == "drag":
        return Drag(source=aim(target, g.at), to=aim(to, g.end))
    return Swipe(direction=g.direction, distance=g.distance, target=aim(target, g.at))


def effect_between(before: Screen, after: Screen, typed: str) -> Effect:
    """Texts the step made appear or disappear (not the typed text itself: a replay may type
    another), and whether it changed the screen at all."""

    def new_in(a: Screen, b: Screen) -> tuple[str, ...]:
        old = a.texts()
        found = []
        for text in b.texts():
            if len(normalize(text)) < 2 or set(text.strip()) <= BULLETS:
                continue
            if typed and text_similarity(typed, text) >= 80:
                continue
            if all(text_similarity(text, o) < 90 for o in old) and text not in found:
                found.append(text)
        return tuple(found[:5])

    changed = bool(changed_regions(before.frame, after.frame))
    return Effect(appeared=new_in(before, after), gone=new_in(after, before), changed=changed)


def _shows_bullets(after: Screen, target: Signature | None, typed: str) -> bool:
    """A field that shows dots where text was typed is a password field, whatever its label."""
    if target is None or not typed:
        return False
    width, height = after.frame.size
    x, y, w, h = target.box
    box = (x * width, y * height, (x + w) * width, (y + h) * height)
    for element in after.elements:
        cx, cy = element.box.center
        if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]:
            shown = element.text.replace(" ", "")
            if shown and set(shown) <= BULLETS:
                return True
    return False


def _link_frames(steps: list[DemoStep]) -> list[DemoStep]:
    """Each step's after-frame is the next step's before-frame (the last one's, the end)."""
    afters = [s.frame for s in steps[1:]] + ["frames/end.png"]
    return [s.model_copy(update={"after": a}) for s, a in zip(steps, afters, strict=True)]


def save_recording(
    recording: Recording,
    writer: DemoWriter,
    parser: ScreenParser,
    description: str,
    platform: str,
) -> Demo:
    """Merge, parse and write the recording into the writer's folder."""
    gestures = merge(recording.heard)
    if not gestures:
        raise DemoError(
            "nothing was recorded: no clicks, keys or scrolls were heard",
            "work in the app while recording, then press Ctrl+C",
        )
    steps, parameters = build_steps(gestures, recording.end, parser, writer)
    duration = gestures[-1].time - gestures[0].time if gestures else 0.0
    info = new_info(
        writer.folder.name,
        description,
        platform,
        recording.end.size,
        parameters=parameters,
        duration=round(duration, 3),
    )
    return writer.finish(info, steps)
