"""Actions from what a model wrote: fenced, chatty or slightly broken JSON is accepted; anything
else becomes an error message worded so it can be sent back to the model for a retry."""

from __future__ import annotations

import json
from typing import Any

from json_repair import loads as repair_loads

from clickwright.errors import ActionError
from clickwright.types import Action, action_json_schema, parse_action


def extract_json(text: str) -> dict[str, Any]:
    """The JSON object in a model's answer, repaired if needed (fences, prose, trailing commas,
    single quotes, a missing closing brace)."""
    try:
        data = repair_loads(text)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, list):  # several objects or a wrapped one: the first object counts
        data = next((item for item in data if isinstance(item, dict)), None)
    if not isinstance(data, dict) or not data:
        raise ActionError(f"no JSON object in the answer: {text.strip()[:80]!r}")
    return data


def action_from_answer(text: str) -> Action:
    """The action in a model's answer, validated against the action schema."""
    return parse_action(extract_json(text))


def retry_message(error: ActionError) -> str:
    """What to tell a model whose answer was not a valid action, so its next answer can be."""
    return (
        f"Your last answer was not a valid action: {error}. Answer with exactly one JSON object "
        "that follows this schema, and nothing else:\n" + json.dumps(action_json_schema())
    )
