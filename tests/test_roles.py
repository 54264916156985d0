"""The model roles, budgets and approvals as logic: answers parsed, retried, priced, refused."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from clickwright.agent.backends.base import Backend, Message
from clickwright.agent.budget import FREE, Budget, Price, Usage, is_local, price_of, read_prices
from clickwright.agent.config import load_settings
from clickwright.agent.critic import Expectation, Verdict
from clickwright.agent.memory import Memory
from clickwright.agent.roles import (
    Actor,
    Critic,
    Grounder,
    ModelCritic,
    Planner,
    _without,
    prompt_text,
)
from clickwright.agent.runlog import RunLog
from clickwright.agent.safety import risk_of
from clickwright.agent.screen_scaling import fit_for_model
from clickwright.agent.state import RunSettings, RunState
from clickwright.app.cli import parse_role_flags
from clickwright.errors import ActionError, ClickwrightError, StepFailed
from clickwright.types import (
    Box,
    Click,
    Drag,
    Element,
    Frame,
    Hotkey,
    Screen,
    Target,
    Type,
    action_json_schema,
)

FRAME = Frame(np.zeros((800, 1280, 3), np.uint8))
SAVE = Element(3, Box(700, 600, 80, 30), "button", "Save", interactive=True)
NAME = Element(5, Box(100, 100, 300, 24), "input", "", name="Name", interactive=True)
SCREEN = Screen(FRAME, (SAVE, NAME))


class ScriptedBackend(Backend):
    """An in-process model for logic tests (the HTTP path is tested in test_backends)."""

    name = "scripted"

    def __init__(self, answers: list[str]) -> None:
        super().__init__("scripted", tries=1)
        self.answers = answers
        self.seen: list[list[Message]] = []

    def _send(self, messages: Sequence[Message], **_: object) -> tuple[str, int, int, str]:
        self.seen.append(list(messages))
        return self.answers.pop(0), 100, 10, self.model


class StubDevice:
    kind = "desktop"


@pytest.fixture
def state(tmp_path: Path) -> RunState:
    log = RunLog(tmp_path, "t")
    run = RunState("save the form", StubDevice(), None, log, RunSettings(answer_tries=3))  # type: ignore[arg-type]
    run.screen = SCREEN
    return run


def role(cls, state: RunState, answers: list[str], price: Price | None = FREE):
    backend = ScriptedBackend(answers)
    settings = load_settings({"backend": "openai", "model": "m"}, env={}, path=Path("/none"))
    return cls(backend, settings.for_role("actor"), state, price), backend


# ---- actor ------------------------------------------------------------------------------------


def test_actor_reads_fenced_json_and_bare_actions(state):
    actor, _ = role(Actor, state, [])
    fenced = '```json\n{"thought": "save", "action": {"type": "click", "target": {"id": 3}},}\n```'
    decision = actor.parse(fenced, SCREEN)
    assert decision.action == Click(target=Target(id=3)) and decision.thought == "save"
    bare = actor.parse('Sure! {"type": "hotkey", "keys": ["Control", "S"]}', SCREEN)
    assert bare.action == Hotkey(keys=("ctrl", "s"))


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ('{"action": {"type": "click", "target": {"id": 42}}}', "no element 42 on screen (ids"),
        ('{"thought": "hmm"}', 'no "action"'),
        ('{"action": {"type": "fly"}}', "unknown action type 'fly'"),
        ("I would click Save.", "no JSON object"),
    ],
)
def test_actor_names_what_is_wrong_with_an_answer(state, answer, problem):
    actor, _ = role(Actor, state, [])
    with pytest.raises(ActionError, match=problem.replace("(", r"\(")):
        actor.parse(answer, SCREEN)


def test_an_unusable_answer_goes_back_with_the_reason_then_the_next_is_used(state):
    good = json.dumps({"action": {"type": "click", "target": {"id": 3}}})
    actor, backend = role(
        Actor, state, ['{"action": {"type": "click", "target": {"id": 9}}}', good]
    )
    decision, image = actor.decide(SCREEN)
    assert decision.action.target.id == 3
    retry = backend.seen[1]
    assert retry[-2].role == "assistant" and "no element 9" in retry[-1].text
    assert state.usage.calls == 2 and state.usage.input_tokens == 200
    calls = (state.log.dir / "model_calls.jsonl").read_text().splitlines()
    assert [json.loads(c)["role"] for c in calls] == ["actor", "actor"]


def test_answers_that_stay_unusable_fail_the_step_after_the_bounded_tries(state):
    actor, backend = role(Actor, state, ["nonsense"] * 3)
    with pytest.raises(StepFailed, match="gave no usable answer in 3 tries"):
        actor.decide(SCREEN)
    assert len(backend.seen) == 3


def test_the_actor_prompt_keeps_only_the_last_screenshots(state):
    state.memory = Memory(screenshots_kept=2)
    for step in range(1, 5):
        state.memory.remember_screenshot(step, np.zeros((10, 16, 3), np.uint8))
    actor, _ = role(Actor, state, [])
    image = fit_for_model(FRAME.pixels)
    images = [p for p in actor.messages(SCREEN, image)[1].content if isinstance(p, np.ndarray)]
    assert len(images) == 2  # the one before (step 4) and the current, marked
    text = prompt_text(actor.messages(SCREEN, image))
    assert "The screen before action 4" in text and "action 3" not in text
    assert '[3] button "Save"' in text and "(label: Name)" in text


def test_desktop_prompts_leave_out_android_actions():
    schema = _without(action_json_schema(), frozenset({"swipe", "back", "home", "long_press"}))
    assert "swipe" not in schema["discriminator"]["mapping"]
    assert "Swipe" not in schema["$defs"] and "Click" in schema["$defs"]
    assert len(schema["oneOf"]) == len(schema["discriminator"]["mapping"])


# ---- planner, critic ----------------------------------------------------------------------


def test_planner_reads_subgoals(state):
    planner, _ = role(Planner, state, ['{"subgoals": ["Open  Advanced", "Set Timeout to 30"]}'])
    assert planner.plan() == ["Open Advanced", "Set Timeout to 30"]
    with pytest.raises(ActionError, match="subgoals"):
        planner.parse('{"subgoals": []}')


def test_a_planner_for_the_offline_actor_is_told_the_forms_it_understands(state):
    planner, _ = role(Planner, state, [])
    planner.for_offline_actor = True
    assert "choose Canada from the Country dropdown" in planner.messages()[0].text


def test_the_model_critic_is_asked_only_when_the_offline_check_doubts(state):
    critic_role, backend = role(ModelCritic, state, ['{"verdict": "back", "reason": "a menu"}'])
    critic = Critic(critic_role)
    changed = Screen(Frame(np.full((800, 1280, 3), 255, np.uint8)), SCREEN.elements)
    click = Click(target=Target(id=3))
    assert critic.judge(SCREEN, changed, Expectation("change"), click).status == "success"
    assert not backend.seen
    verdict = critic.judge(SCREEN, SCREEN, Expectation("change"), click, "a dialog opens")
    assert verdict == Verdict("back", "a menu")
    assert "Automatic check: retry" in backend.seen[0][1].text
    with pytest.raises(ActionError, match='needs a "question"'):
        critic_role.parse('{"verdict": "ask_user"}')


# ---- grounder -----------------------------------------------------------------------------


def test_grounder_places_ids_points_and_descriptions():
    image = fit_for_model(FRAME.pixels, max_side=640)  # the model saw half size
    grounder = Grounder(None, "pixels")
    by_id = grounder.place(Click(target=Target(id=3)), SCREEN, image)
    assert by_id.point == SAVE.box.center and by_id.element == SAVE
    by_point = grounder.place(Click(target=Target(point=(370, 307))), SCREEN, image)
    assert by_point.point == (740, 614) and by_point.element == SAVE
    by_text = grounder.place(
        Type(text="Ada", target=Target(text="Name", kind="input")), SCREEN, image
    )
    assert by_text.element == NAME
    drag = grounder.place(Drag(source=Target(id=5), to=Target(id=3)), SCREEN, image)
    assert (drag.point, drag.end) == (NAME.box.center, SAVE.box.center)
    with pytest.raises(ActionError, match="nothing on screen matches 'Delete'"):
        grounder.place(Click(target=Target(text="Delete")), SCREEN, image)
    thousandths = Grounder(None, "norm1000").place(
        Click(target=Target(point=(500, 500))), SCREEN, image
    )
    assert thousandths.point == (640, 400)


# ---- budgets and prices ---------------------------------------------------------------------


def test_prices_match_exact_names_then_families_and_local_models_are_free():
    prices = {"gpt-4o": Price(2.5, 10), "gpt-4o-mini": Price(0.15, 0.6)}
    assert price_of("gpt-4o-mini-2024-07-18", prices) == Price(0.15, 0.6)
    assert price_of("gpt-4o-2024-08-06", prices) == Price(2.5, 10)
    assert price_of("llama3", prices) is None
    assert is_local("openai", "http://localhost:11434/v1")
    assert is_local("openai", "http://192.168.1.20:8000/v1") and is_local("transformers", None)
    assert not is_local("openai", "https://api.openai.com/v1") and not is_local("openai", None)
    assert Price(2.5, 10).cost(1_000_000, 100_000) == pytest.approx(3.5)


def test_usage_with_an_unknown_price_has_no_cost_and_budgets_say_what_ran_out():
    usage = Usage()
    usage.add(1000, 100, Price(1, 2))
    assert usage.cost == pytest.approx(0.0012)
    usage.add(10, 1, None)
    assert usage.cost is None and usage.tokens == 1111
    with pytest.raises(StepFailed, match="limit of 3 steps"):
        Budget(max_steps=3).check(3, Usage())
    spent = Usage()
    spent.add(1_000_000, 0, Price(1, 1))
    with pytest.raises(StepFailed, match=r"cost limit of \$0.5 \(spent \$1.0000\)"):
        Budget(max_cost=0.5).check(0, spent)
    with pytest.raises(StepFailed, match="time limit of 0 s"):
        Budget(max_time=0).check(0, Usage())


def test_bad_prices_are_one_line_errors(tmp_path):
    with pytest.raises(ClickwrightError, match="prices.m needs input and output"):
        read_prices({"m": {"input": "cheap"}}, "config.toml")
    config = tmp_path / "config.toml"
    config.write_text('backend = "openai"\nmodel = "m"\n[prices."m"]\ninput = 1\noutput = 2\n')
    assert load_settings(env={}, path=config).prices["m"] == Price(1, 2)


def test_grounder_and_notetaker_use_a_model_only_when_named(tmp_path):
    settings = load_settings({"backend": "openai", "model": "m"}, env={}, path=tmp_path / "x")
    assert settings.for_role("actor").is_model and settings.for_role("critic").is_model
    assert not settings.for_role("grounder").is_model
    assert not settings.for_role("notetaker").is_model
    own = load_settings(
        {"backend": "openai", "model": "m"},
        parse_role_flags(
            ["grounder.backend=transformers", "grounder.model=/m", "grounder.coords=norm1000"]
        ),
        env={},
        path=tmp_path / "x",
    )
    assert own.for_role("grounder").backend == "transformers"
    assert own.for_role("grounder").coords == "norm1000"
    with pytest.raises(ClickwrightError, match="unknown coords 'inches'"):
        load_settings(None, {"actor": {"coords": "inches"}}, env={}, path=tmp_path / "x")
    with pytest.raises(ClickwrightError, match="bad --role 'actor=gpt'"):
        parse_role_flags(["actor=gpt"])


# ---- risk ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "element", "risky"),
    [
        (
            Click(target=Target(id=1)),
            Element(1, Box(0, 0, 9, 9), "button", "Delete customer"),
            "deletes",
        ),
        (Click(target=Target(id=1)), Element(1, Box(0, 0, 9, 9), "button", "Send"), "sends"),
        (Click(target=Target(id=1)), Element(1, Box(0, 0, 9, 9), "link", "Buy now"), "buys"),
        (Click(target=Target(id=1)), Element(1, Box(0, 0, 9, 9), "button", "Place order"), "order"),
        (Click(target=Target(id=1)), Element(1, Box(0, 0, 9, 9), "button", "Save"), None),
        (
            Click(target=Target(id=1)),
            Element(1, Box(0, 0, 9, 9), "checkbox", "Subscribe to newsletter"),
            None,
        ),
        (
            Click(target=Target(id=1)),
            Element(1, Box(0, 0, 9, 9), "button", "Sender settings"),
            None,
        ),
        (
            Type(text="x", target=Target(id=1)),
            Element(1, Box(0, 0, 9, 9), "input", name="Password:"),
            "secret",
        ),
        (
            Type(text="x", target=Target(id=1)),
            Element(1, Box(0, 0, 9, 9), "input", name="Name:"),
            None,
        ),
        (Hotkey(keys=("shift", "delete")), None, "for good"),
        (Hotkey(keys=("ctrl", "s")), None, None),
    ],
)
def test_risky_actions_are_recognised(action, element, risky):
    risk = risk_of(action, element)
    assert (risk is None) == (risky is None)
    if risky:
        assert risky in risk.describe()


def test_run_limits_come_from_the_config_file_and_bad_ones_are_named(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[run]\nmax_steps = 5\nmax_cost = 0.25\napprove_risky = true\n")
    run = load_settings(env={}, path=config).run
    assert (run.max_steps, run.max_time, run.max_cost, run.approve_risky) == (5, None, 0.25, True)
    config.write_text('[run]\nmax_steps = "many"\n')
    with pytest.raises(ClickwrightError, match=r"config.toml:1: run.max_steps cannot be 'many'"):
        load_settings(env={}, path=config)
    config.write_text("[run]\nspeed = 2\n")
    with pytest.raises(ClickwrightError, match="unknown run setting 'speed'"):
        load_settings(env={}, path=config)
