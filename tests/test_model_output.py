"""Model answers -> actions: what models really write, and what they should be told when wrong."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clickwright.agent.model_output import action_from_answer, retry_message
from clickwright.errors import ActionError


@pytest.mark.parametrize(
    "answer",
    [
        '{"type": "click", "target": {"id": 3}}',
        '```json\n{"type": "click", "target": {"id": 3}}\n```',
        'Thought: Save is element 3.\nAction: {"type": "click", "target": {"id": 3},}',
        "{'type': 'click', 'target': {'id': 3}}",
        '{"type": "click", "target": {"id": 3}',
        '[{"type": "click", "target": {"id": 3}}]',
    ],
)
def test_slightly_broken_answers_still_give_the_action(answer):
    action = action_from_answer(answer)
    assert action.type == "click" and action.target.id == 3


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("I would click the Save button.", "no JSON object"),
        ("", "no JSON object"),
        ('{"type": "teleport"}', "unknown action type 'teleport'"),
        ('{"type": "click"}', "needs 'target'"),
    ],
)
def test_nonsense_is_a_clear_error(answer, message):
    with pytest.raises(ActionError, match=message):
        action_from_answer(answer)


def test_the_retry_message_names_the_problem_and_shows_the_schema():
    with pytest.raises(ActionError) as caught:
        action_from_answer('{"type": "click"}')
    message = retry_message(caught.value)
    assert "needs 'target'" in message and '"discriminator"' in message


@given(st.text(max_size=200))
def test_any_answer_gives_an_action_or_an_action_error(answer):
    try:
        action_from_answer(answer)
    except ActionError:
        pass
