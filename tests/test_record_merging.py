"""The recorder's merging: low-level events (and phone gestures) into steps a person reads."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clickwright.agent.demos.format import DemoWriter, load_demo
from clickwright.agent.demos.recorder import Heard, Recording, merge, save_recording
from clickwright.devices.input_events import InputEvent
from clickwright.types import Box, Element, Frame, Screen

FRAME = Frame(np.full((300, 400, 3), 240, np.uint8), time=0.0)


def heard(*events: InputEvent) -> list[Heard]:
    return [Heard(e, FRAME, "Form") for e in events]


def click(x: int, y: int, at: float, button: str = "left") -> list[InputEvent]:
    return [InputEvent("down", at, x, y, button), InputEvent("up", at + 0.05, x, y, button)]


def keys(text: str, at: float) -> list[InputEvent]:
    """Typing `text` as a keyboard reports it: shift held for capitals."""
    out = []
    for i, char in enumerate(text):
        t = at + i * 0.05
        if char.isupper():
            out.append(InputEvent("key_down", t, key="shift"))
        out += [
            InputEvent("key_down", t, key=" " if char == " " else char.lower(), char=char),
            InputEvent("key_up", t + 0.01, key=char.lower()),
        ]
        if char.isupper():
            out.append(InputEvent("key_up", t + 0.02, key="shift"))
    return out


def combo(*names: str, at: float) -> list[InputEvent]:
    down = [InputEvent("key_down", at, key=k, char=k if len(k) == 1 else None) for k in names]
    return down + [InputEvent("key_up", at + 0.05, key=k) for k in reversed(names)]


def test_a_press_and_release_in_one_place_is_a_click_and_two_quick_ones_a_double_click():
    gestures = merge(heard(*click(10, 10, 0), *click(50, 50, 1), *click(51, 50, 1.2)))
    assert [(g.kind, g.at) for g in gestures] == [("click", (10, 10)), ("double_click", (50, 50))]
    assert gestures[0].window == "Form"


def test_right_click_and_drag():
    events = [
        *click(5, 5, 0, "right"),
        InputEvent("down", 1, 20, 20, "left"),
        InputEvent("move", 1.1, 60, 40),
        InputEvent("up", 1.2, 120, 90, "left"),
    ]
    gestures = merge(heard(*events))
    assert [(g.kind, g.at, g.end) for g in gestures] == [
        ("right_click", (5, 5), None),
        ("drag", (20, 20), (120, 90)),
    ]


def test_typing_keeps_capitals_spaces_and_corrections_and_enter_ends_it():
    events = [
        *keys("Adx", 0),
        InputEvent("key_down", 0.5, key="backspace"),
        *keys("a L", 0.6),
        InputEvent("key_down", 1, key="enter"),
    ]
    (typed,) = merge(heard(*events))
    assert (typed.kind, typed.text, typed.enter) == ("type", "Ada L", True)


def test_modifiers_make_hotkeys_and_lone_special_keys_are_presses():
    events = [*combo("ctrl", "s", at=0), *combo("shift", "tab", at=1), *combo("f5", at=2)]
    gestures = merge(heard(*events))
    assert [g.keys for g in gestures] == [("ctrl", "s"), ("shift", "tab"), ("f5",)]


def test_wheel_clicks_in_a_row_are_one_scroll_and_a_pause_starts_another():
    events = [InputEvent("scroll", t, 100, 100, dy=-1) for t in (0, 0.1, 0.2)]
    events += [InputEvent("scroll", 3, 100, 100, dy=-1), InputEvent("scroll", 3.1, 100, 100, dy=2)]
    gestures = merge(heard(*events))
    assert [(g.direction, g.amount) for g in gestures] == [("down", 3), ("down", 1), ("up", 2)]


def test_ctrl_a_before_typing_replaces_the_text_and_the_stop_keys_are_not_steps():
    events = [
        *combo("ctrl", "a", at=0),
        *keys("new", 0.5),
        *combo("ctrl", "shift", "f12", at=2),
        *combo("ctrl", "c", at=3),
    ]
    (typed,) = merge(heard(*events))
    assert (typed.text, typed.clear) == ("new", True)


def test_phone_gestures_become_tap_long_press_and_swipe_steps():
    events = [
        InputEvent("tap", 0, 10, 20),
        InputEvent("long_press", 1, 30, 40, duration=1.5),
        InputEvent("swipe", 2, 200, 250, end=(200, 70), duration=0.3),
    ]
    gestures = merge(heard(*events))
    assert [g.kind for g in gestures] == ["click", "long_press", "swipe"]
    assert gestures[1].duration == 1.5
    assert (gestures[2].direction, round(gestures[2].distance, 2)) == ("up", 0.6)


class ScriptedParser:
    """Stands in for the OCR parser: each frame's elements are given by the test."""

    def __init__(self, screens: dict[int, tuple[Element, ...]]) -> None:
        self.screens = screens

    def parse(self, frame: Frame) -> Screen:
        return Screen(frame, self.screens[int(frame.pixels[0, 0, 0])])


def frame(marker: int, at: float) -> Frame:
    pixels = np.full((300, 400, 3), 240, np.uint8)
    pixels[0, 0] = marker
    pixels[100:130, 150:350] = 255  # the field
    return Frame(pixels, time=at)


def test_click_into_a_field_then_typing_is_one_step_and_a_password_is_never_stored(tmp_path):
    label = Element(1, Box(40, 105, 80, 20), "text", "Password:")
    field = Element(2, Box(150, 100, 200, 30), "input", "", name="Password:", interactive=True)
    save = Element(3, Box(300, 250, 60, 25), "button", "Save", interactive=True)
    saved = Element(4, Box(20, 270, 60, 20), "text", "Saved")
    dots = Element(5, Box(155, 105, 60, 20), "text", "•••••••")
    parser = ScriptedParser(
        {1: (label, field, save), 2: (label, field, save, dots), 3: (label, field, save, saved)}
    )
    f1, f2, f3 = frame(1, 0), frame(2, 1), frame(3, 2)
    events = [
        Heard(InputEvent("down", 0.1, 200, 115, "left"), f1),
        Heard(InputEvent("up", 0.15, 200, 115, "left"), f1),
        *(Heard(e, f1) for e in keys("hunter2", 0.3)),
        Heard(InputEvent("down", 1.1, 330, 262, "left"), f2),
        Heard(InputEvent("up", 1.15, 330, 262, "left"), f2),
    ]
    writer = DemoWriter(tmp_path, "login")
    demo = save_recording(Recording(tuple(events), f3), writer, parser, "log in", "desktop/linux")
    assert [s.words for s in demo.steps] == ["type '{password}' into 'Password'", "click 'Save'"]
    assert demo.info.parameters["password"].secret
    typed = demo.steps[0].action
    assert (typed.text, typed.target.text, typed.target.kind) == ("{password}", "Password", "input")
    assert demo.steps[1].effect.appeared == ("Saved",)
    assert demo.steps[0].after == demo.steps[1].frame and demo.steps[1].after == "frames/end.png"
    for path in demo.dir.rglob("*"):
        if path.is_file():
            assert b"hunter2" not in path.read_bytes(), path
    assert json.loads((demo.dir / "demo.json").read_text())["duration"] == 1.0
    assert load_demo(demo.dir).steps == demo.steps


def test_a_recording_with_nothing_in_it_is_a_clear_error(tmp_path):
    from clickwright.errors import DemoError

    with pytest.raises(DemoError, match="nothing was recorded"):
        save_recording(
            Recording((), FRAME), DemoWriter(tmp_path, "empty"), ScriptedParser({}), "", "x"
        )
