"""Action validation: nonsense is rejected with a message that says what is wrong."""

import json
from pathlib import Path

import pytest

from clickwright.errors import ActionError
from clickwright.types import Box, action_json_schema, action_to_json, normalize_key, parse_action

SCHEMA = Path(__file__).parents[1] / "assets" / "action.schema.json"


@pytest.mark.parametrize(
    "data",
    [
        {"type": "click", "target": {"id": 12}},
        {"type": "click", "target": {"text": "Save", "kind": "button"}},
        {"type": "double_click", "target": {"point": [10, 20]}},
        {"type": "type", "text": "Ada", "target": {"text": "Name", "kind": "input"}, "enter": True},
        {"type": "hotkey", "keys": ["ctrl", "s"]},
        {"type": "scroll", "direction": "down", "amount": 3, "target": {"id": 4}},
        {"type": "drag", "from": {"id": 1}, "to": {"text": "Archive"}},
        {"type": "wait", "until": {"text": "Saved"}, "timeout": 10},
        {"type": "wait", "until": "stable"},
        {"type": "launch", "app": "gedit"},
        {"type": "ask_user", "question": "Which file?"},
        {"type": "done", "summary": "saved"},
        {"type": "fail", "reason": "no such button"},
        {"type": "swipe", "direction": "up"},
        {"type": "long_press", "target": {"id": 3}},
        {"type": "back"},
        {"type": "home"},
    ],
)
def test_valid_actions_round_trip_through_json(data):
    action = parse_action(json.dumps(data))
    again = parse_action(action_to_json(action))
    assert again == action
    assert action_to_json(action)["type"] == data["type"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "not valid JSON"),
        ({"type": "clik", "target": {"id": 1}}, "unknown action type 'clik'"),
        ({"target": {"id": 1}}, "unknown action type None"),
        ({"type": "click"}, "click action needs 'target'"),
        ({"type": "click", "target": {}}, "exactly one of id, text or point"),
        (
            {"type": "click", "target": {"id": 1, "text": "Save"}},
            "exactly one of id, text or point",
        ),
        ({"type": "click", "target": {"point": [-5, 3]}}, "cannot be negative"),
        ({"type": "click", "target": {"text": "Save", "kind": "spaceship"}}, "target.kind"),
        ({"type": "type", "target": {"id": 1}}, "type action needs 'text'"),
        ({"type": "type", "text": "a", "colour": "red"}, "unknown field 'colour'"),
        ({"type": "hotkey", "keys": []}, "keys"),
        ({"type": "hotkey", "keys": ["ctrl", "banana"]}, "unknown key 'banana'"),
        ({"type": "scroll", "direction": "sideways"}, "direction"),
        ({"type": "scroll", "direction": "up", "amount": 0}, "amount"),
        ({"type": "wait", "until": "stable", "timeout": -1}, "timeout"),
        ({"type": "fail"}, "fail action needs 'reason'"),
        ([1, 2], "a JSON object with a .type., not list"),
    ],
)
def test_bad_actions_say_what_is_wrong(data, message):
    with pytest.raises(ActionError, match=message.replace("(", "\\(")):
        parse_action(data)


def test_key_names_are_normalised():
    assert parse_action({"type": "hotkey", "keys": ["Control", "Return"]}).keys == ("ctrl", "enter")
    assert normalize_key("ESCAPE") == "esc"
    assert normalize_key("F12") == "f12"
    assert normalize_key("+") == "+"


def test_shipped_schema_is_the_one_the_models_generate():
    assert json.loads(SCHEMA.read_text()) == action_json_schema()


def test_box_geometry():
    a, b = Box(0, 0, 10, 10), Box(5, 5, 10, 10)
    assert a.intersection(b) == 25
    assert a.union(b) == Box(0, 0, 15, 15)
    assert round(a.iou(b), 3) == round(25 / 175, 3)
    assert a.center == (5, 5)
    assert a.contains(Box(2, 2, 3, 3)) and not a.contains(b)
