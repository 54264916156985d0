"""The agent loop, read top to bottom: plan, then observe -> decide -> act -> verify -> record.

With no model configured, the offline interpreter plans and the offline actor carries out each
instruction. With models, the planner writes subgoals and either the model actor picks one
action a turn (`_act_with_model`) or the offline actor follows the model's subgoals
(`_follow_plan`); the critic's verdict decides between going on, trying again, undoing, making
a new plan, or asking the person.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from clickwright.agent.actor import OfflineActor
from clickwright.agent.config import ModelSettings
from clickwright.agent.critic import Expectation, Verdict, complaint, expectation_for
from clickwright.agent.demos.knowledge import Knowledge
from clickwright.agent.events import Outcome, RunObserver, RunResult
from clickwright.agent.executor import CHANGE, Aim, Executor, Purpose, Verify, wait_for_text
from clickwright.agent.interpreter import Step, interpret
from clickwright.agent.memory import Turn
from clickwright.agent.roles import Decision, prompt_text
from clickwright.agent.runlog import RunLog, looks_secret
from clickwright.agent.safety import Consent, Human
from clickwright.agent.state import NeedsAnswer, RunSettings, RunState, ScreenChanged, Stopped
from clickwright.agent.team import Team, build_team, describe_roles
from clickwright.devices.base import Device, wait_until_stable
from clickwright.errors import ActionError, ClickwrightError, StepFailed, TaskError
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Action, Back, Hotkey, Screen, Wait, describe_action

PROMPTS_FILE = "prompts.md"


_NAMED_SECRET = re.compile(
    r"\b(?:password|passwd|passcode|pin|secret|token|api key)\b[^'\"“‘`]{0,20}?"
    r"(?:['\"“‘`])(?P<secret>[^'\"”’`]+)['\"”’`]",
    re.I,
)


def secrets_in(steps: list[Step], task: str = "") -> list[str]:
    """Texts typed into fields whose names say they are secret, and quoted texts the task calls
    a password or the like ('log in with the password "hunter2"'): kept out of every log and,
    for the second kind, out of the model call log too."""
    typed = [s.text for s in steps if s.verb == "type" and s.text and looks_secret(s.target or "")]
    return typed + [m["secret"] for m in _NAMED_SECRET.finditer(task)]


def run_task(
    task: str,
    device: Device,
    runs_dir: Path | str = "runs",
    settings: RunSettings | None = None,
    *,
    models: ModelSettings | None = None,
    parser: ScreenParser | None = None,
    observer: RunObserver | None = None,
    human: Human | None = None,
    stop: threading.Event | None = None,
    knowledge: Knowledge | None = None,
) -> RunResult:
    """Carry out `task` on `device`. A task the offline planner must read and cannot raises
    TaskError first; bad model settings raise ClickwrightError before any action.

    `observer` hears the run's events; `human` approves risky actions the task did not name,
    answers questions, and may hold the run before any action (default: nobody, headless);
    after a hold in which the person used the screen, the screen is read again and the current
    step starts over. `knowledge` (from `use_demos`): a demonstration
    that does the whole task is replayed first, and the closest demonstrations are shown to a
    model planner as examples.
    """
    settings = settings or RunSettings()
    observer = observer or RunObserver()
    shortcut = knowledge.shortcut if knowledge and not settings.dry_run else None
    if shortcut is not None:
        replayed = shortcut.replay(
            device, runs_dir, settings, task=task, parser=parser, observer=observer,
            human=human, stop=stop,
        )  # fmt: skip
        if replayed.ok or replayed.outcome == "stopped":
            return replace(replayed, reason=f"{shortcut.describe()}: {replayed.reason}")
    models = models or ModelSettings()
    planner_is_model = models.for_role("planner").is_model
    actor_is_model = models.for_role("actor").is_model
    offline_reads = settings.hybrid or not planner_is_model
    steps = _interpret(task, required=not actor_is_model) if offline_reads else []
    log = RunLog(
        Path(runs_dir),
        task,
        secrets=secrets_in(steps, task),
        device=device.describe(),
        roles=describe_roles(models),
        settings={
            "max_steps": settings.max_steps,
            "max_time": settings.max_time,
            "max_cost": settings.max_cost,
            "dry_run": settings.dry_run,
            "approve_risky": settings.approve_risky,
        },
    )
    state = RunState(
        task,
        device,
        parser or ScreenParser(),
        log,
        settings,
        observer=observer,
        stop=stop or threading.Event(),
        consent=Consent(task),
    )
    if human is not None:
        state.human = human
    state.examples = knowledge.examples if knowledge else ""
    observer.started(log.dir, log.record)
    outcome: Outcome = "error"
    reason = "internal error"
    try:
        team = build_team(models, state)
        state.first_look()
        if team.planner is None and team.actor is None:
            outcome, reason = _follow_steps(state, team, steps)
        elif settings.hybrid and team.actor is not None and steps and not settings.dry_run:
            outcome, reason = _hybrid(state, team, steps)
        elif settings.dry_run:
            outcome, reason = _write_prompts(state, team, steps)
        else:
            state.memory.plan = team.planner.plan() if team.planner else _clauses(task, steps)
            log.record.plan = state.memory.plan
            if team.actor is None:
                outcome, reason = _follow_plan(state, team)
            else:
                outcome, reason = _act_with_model(state, team)
    except StepFailed as exc:
        outcome, reason = "failed", str(exc)
    except KeyboardInterrupt:
        outcome, reason = "stopped", "stopped by the user"
    except Stopped as exc:
        outcome, reason = "stopped", str(exc)
    except NeedsAnswer as exc:
        outcome, reason = "question", f"the agent needs an answer: {exc.question}"
    except ClickwrightError as exc:
        outcome, reason = "error", str(exc)
    except Exception as exc:
        reason = f"internal error: {exc!r}"
        raise
    finally:
        log.record.usage = state.usage.to_json()
        log.record.notes = state.memory.notes
        log.finish(outcome, log.redact(reason))
    seconds = round((log.record.ended or 0.0) - log.record.started, 3)
    result = RunResult(
        outcome, log.redact(reason), log.dir, log.steps, log.record.usage, seconds=seconds
    )
    observer.ended(result)
    return result


def _interpret(task: str, required: bool) -> list[Step]:
    """The offline planner's steps; when a model actor can take the task whole, an unreadable
    task is one goal rather than an error."""
    try:
        return interpret(task)
    except TaskError:
        if required:
            raise
        return []


def _clauses(task: str, steps: list[Step]) -> list[str]:
    return [step.clause for step in steps] or [task]


# ---- the offline planner's steps, or a model's subgoals, by the offline actor ------------------


def _follow_steps(state: RunState, team: Team, steps: list[Step]) -> tuple[Outcome, str]:
    actor = OfflineActor(state, judge=team.critic.judge)
    for step in steps:
        actor.carry_out(step)
    if state.settings.dry_run:
        return "done", "dry run: planned every step, acted on nothing"
    actor.confirm()
    _not_refused(state)
    return "done", f"all {len(steps)} instruction(s) carried out"


def _not_refused(state: RunState) -> None:
    """A run whose last action made the screen complain ("Please agree to the terms to
    continue.") did not do its task: it fails, saying what the screen said."""
    if state.acted_on is None or state.screen is None:
        return
    if (said := complaint(state.acted_on, state.screen)) is not None:
        raise StepFailed(
            f"the screen says {said!r} after the last step",
            "do what it asks in the task's words, or run with a model backend",
        )


def _hybrid(state: RunState, team: Team, steps: list[Step]) -> tuple[Outcome, str]:
    """The offline actor carries out what the interpreter read; a step it cannot do is handed,
    alone, to the model actor as the one subgoal, and the offline actor goes on after it. A run
    the offline actor can do alone makes no model call."""
    actor, memory = OfflineActor(state, judge=team.critic.judge), state.memory
    handed = []
    for step in steps:
        try:
            actor.carry_out(step)
        except (StepFailed, TaskError) as failure:  # TaskError: words the screen did not settle
            handed.append(step.clause)
            memory.plan, memory.current = [step.clause], 0
            state.log.record.plan = memory.plan
            memory.feedback = f"the built-in planner could not do it: {failure}"
            _act_with_model(state, team, one_goal=True)
    actor.confirm()
    _not_refused(state)
    by_model = f", {len(handed)} of them by the model" if handed else ", no model call needed"
    return "done", f"all {len(steps)} instruction(s) carried out{by_model}"


def _follow_plan(state: RunState, team: Team) -> tuple[Outcome, str]:
    """Each model subgoal read by the offline interpreter and carried out; a subgoal that cannot
    be read or done makes the planner plan what remains, a bounded number of times."""
    memory, actor = state.memory, OfflineActor(state, judge=team.critic.judge)
    replans = 0
    while memory.current < len(memory.plan):
        goal = memory.plan[memory.current]
        try:
            for step in interpret(goal):
                actor.carry_out(step)
        except (TaskError, StepFailed) as error:
            if replans >= state.settings.max_replans or team.planner is None:
                raise StepFailed(f"subgoal {goal!r} failed: {error}") from None
            replans += 1
            _replan(state, team, f"{goal!r} failed: {error}")
            continue
        memory.turns.append(Turn(len(memory.turns) + 1, "", goal, "success", "carried out"))
        memory.advance()
    return "done", f"all {len(memory.plan)} subgoal(s) carried out"


def _replan(state: RunState, team: Team, failure: str) -> None:
    memory = state.memory
    done = memory.plan[: memory.current]
    state.observe()
    memory.plan = done + (team.planner.plan(failure) if team.planner else memory.plan[len(done) :])
    state.log.record.plan = memory.plan


# ---- the model actor ---------------------------------------------------------------------------


def _act_with_model(state: RunState, team: Team, one_goal: bool = False) -> tuple[Outcome, str]:
    """Model decisions until the actor says the task is done (with `one_goal`, as soon as it
    says the current subgoal is)."""
    assert team.actor is not None
    memory, settings = state.memory, state.settings
    failures = replans = 0
    while True:
        try:
            state.check_budget()
            before = state.screen or state.observe()
            started = time.perf_counter()
            decision, image = team.actor.decide(before)
        except ScreenChanged:
            continue
        memory.remember_screenshot(state.log.steps + 1, image.pixels)
        memory.feedback = ""
        if decision.note:
            memory.note(decision.note)
        action = decision.action
        if action.type == "done":
            _record(state, decision, before, Verdict("success", "the task is done"))
            return "done", action.summary or "the actor says the task is done"
        if action.type == "fail":
            _record(state, decision, before, Verdict("failed", action.reason))
            raise StepFailed(f"the actor gave up: {action.reason}")
        if action.type == "ask_user":
            answer = state.human.answer(action.question)
            said = "nobody to ask" if answer is None else f"the user answered: {answer}"
            _record(state, decision, before, Verdict("success", said))
            if answer is None:
                raise NeedsAnswer(action.question)
            memory.note(f"The user answered {action.question!r}: {answer}")
            continue
        try:
            verdict = _carry_out(state, team, decision, before, image, started)
        except ScreenChanged:
            continue  # decided on a screen the person has since changed: decide again
        if verdict.status in ("success", "unverified"):
            failures = 0
            if decision.subgoal_done:
                memory.advance()
                if one_goal:
                    return "done", "the actor says the step is done"
            if team.notetaker is not None and state.screen is not None:
                team.notetaker.update(state.screen)
            continue
        failures += 1
        memory.feedback = f"{describe_action(action)} did not work: {verdict.reason}"
        if verdict.status == "back":
            _go_back(state)
        elif verdict.status == "ask_user":
            answer = state.human.answer(verdict.question)
            if answer is None:
                raise NeedsAnswer(verdict.question)
            memory.note(f"The user answered {verdict.question!r}: {answer}")
        if verdict.status == "replan" or failures >= settings.max_attempts:
            if replans >= settings.max_replans:
                raise StepFailed(
                    f"gave up after {failures} failed attempt(s) and {replans} new plan(s); "
                    f"last: {memory.feedback}"
                )
            replans += 1
            failures = 0
            _replan(state, team, memory.feedback)


def _carry_out(
    state: RunState, team: Team, decision: Decision, before: Screen, image: Any, started: float
) -> Verdict:
    """Ground one model action, then hand it to the executor."""
    action = decision.action
    executor = Executor(state, team.critic.judge)
    purpose = Purpose(_goal(state), decision.thought, {"expect": decision.expect})
    try:
        placed = team.grounder.place(action, before, image)
    except ActionError as error:
        verdict = Verdict("retry", f"could not find the target: {error}")
        executor.record(action, None, before, None, verdict, purpose)
        return verdict
    element = placed.element
    if action.type == "type" and element is not None and looks_secret(element.name):
        state.log.add_secret(action.text)
    decided = time.perf_counter() - started - state.model_seconds
    aim = Aim(placed.point, placed.end, element, placed.how)
    expect: Expectation | Verify = expectation_for(action, element)
    if isinstance(action, Wait):
        expect = functools.partial(_wait, state, action)
    verdict = executor.act(action, aim, before, expect, purpose, decided, decision.flag).verdict
    state.memory.turns.append(
        Turn(state.log.steps, decision.thought, describe_action(action), verdict.status,
             verdict.reason)
    )  # fmt: skip
    return verdict


def _wait(state: RunState, action: Wait, before: Screen) -> tuple[Screen, Verdict]:
    """Wait until the text shows (or the screen is still), up to the action's timeout."""
    if action.until == "stable":
        settled = wait_until_stable(state.device, timeout=action.timeout, quiet=1.0).settled
        still = Verdict("success", "the screen is still")
        return state.observe(), still if settled else Verdict("retry", "the screen kept changing")
    return wait_for_text(state, action.until.text or "", action.timeout, before)


def _go_back(state: RunState) -> None:
    """Undo a wrong turn the critic saw: Back on a phone, Escape on a desktop."""
    undo: Action = Back() if state.device.kind == "android" else Hotkey(keys=("esc",))
    purpose = Purpose("undo the last action, as the critic asked", "going back")
    Executor(state).act(undo, Aim(), state.screen or state.observe(), CHANGE, purpose)


def _goal(state: RunState) -> str:
    memory = state.memory
    return memory.plan[memory.current] if memory.current < len(memory.plan) else state.task


def _record(state: RunState, decision: Decision, before: Screen, verdict: Verdict) -> None:
    """A model decision that acts on nothing (done, give up, a question)."""
    purpose = Purpose(_goal(state), decision.thought, {"expect": decision.expect})
    Executor(state).record(decision.action, None, before, None, verdict, purpose)


def _write_prompts(state: RunState, team: Team, steps: list[Step]) -> tuple[Outcome, str]:
    """--dry-run with models: the first prompts each model role would get, written and shown,
    nothing sent and nothing done."""
    memory, screen = state.memory, state.screen or state.observe()
    sections = []
    if team.planner is not None:
        sections.append(("planner", team.planner.messages()))
        memory.plan = ["(the planner's subgoals)"]
    else:
        memory.plan = _clauses(state.task, steps)
    if team.actor is not None:
        image = team.actor.fit(screen.frame.pixels)
        sections.append(("actor", team.actor.messages(screen, image)))
    text = "\n\n".join(f"# {role}\n\n{prompt_text(messages)}" for role, messages in sections)
    (state.log.dir / PROMPTS_FILE).write_text(text + "\n", encoding="utf-8")
    return "done", f"dry run: the prompts are in {state.log.dir / PROMPTS_FILE}; nothing was sent"
