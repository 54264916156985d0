"""The desktop driver's richer pointer actions, with real X input on the real sample app."""

from __future__ import annotations

import pytest

from clickwright.devices.base import wait_until_stable
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Box, parse_action

pytestmark = pytest.mark.slow


def act(device, action: dict, point=None) -> None:
    """Like the agent: act, then wait for a still screen (longer than the app's double-click
    interval, so one action's click never joins the next one's)."""
    device.perform(parse_action(action), point)
    wait_until_stable(device, quiet=0.5)


def field_box(device, label: str) -> Box:
    screen = ScreenParser().parse(wait_until_stable(device).frame)
    (field,) = [e for e in screen.elements if e.kind == "input" and e.name.startswith(label)]
    return field.box


def test_a_triple_click_selects_a_fields_text_and_typing_replaces_it(device, sample_app):
    name = field_box(device, "Name").center
    act(device, {"type": "type", "text": "Ada Lovelace"}, name)
    act(device, {"type": "triple_click", "target": {"point": list(name)}}, name)
    act(device, {"type": "type", "text": "Grace"})
    act(device, {"type": "hotkey", "keys": ["ctrl", "s"]})
    assert sample_app.state()["name"] == "Grace"


def test_a_click_with_shift_held_extends_the_selection(device, sample_app):
    box = field_box(device, "Name")
    act(device, {"type": "type", "text": "Ada Lovelace"}, box.center)
    act(device, {"type": "hotkey", "keys": ["home"]})
    end = (box.right - 4, box.center[1])  # past the text's end, still inside the field
    shift_click = {"type": "click", "target": {"point": list(end)}, "keys": ["shift"]}
    act(device, shift_click, end)
    act(device, {"type": "type", "text": "Grace"})
    act(device, {"type": "hotkey", "keys": ["ctrl", "s"]})
    assert sample_app.state()["name"] == "Grace"
