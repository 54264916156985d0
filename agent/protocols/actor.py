"""The actor role spoken in a model's own computer-use protocol.

A drop-in for `roles.Actor`: `decide(screen)` gives one Decision and the image its points are
in. The points are already frame pixels (the protocol mapped them through screen_scaling), so
the image returned is the frame itself. Between calls the actor reads what the executor left in
the run's memory: whether the last action worked (`memory.feedback`) and what the person
answered (`memory.notes`), and tells the protocol before asking the model again.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from clickwright.agent.backends.base import Backend, Message
from clickwright.agent.budget import Price
from clickwright.agent.config import BackendSettings
from clickwright.agent.protocols.anthropic_computer import AnthropicComputer
from clickwright.agent.protocols.base import (
    ChatRequest,
    ModelSpec,
    Outcome,
    Protocol,
    Reading,
    Request,
)
from clickwright.agent.protocols.openai_computer import OpenAIComputer
from clickwright.agent.protocols.preview import render
from clickwright.agent.protocols.qwen_vl import QwenVL
from clickwright.agent.protocols.ui_tars import UITars
from clickwright.agent.roles import Decision, ModelRole
from clickwright.agent.screen_scaling import ScaledImage, region_around
from clickwright.agent.state import RunState
from clickwright.errors import ActionError, StepFailed
from clickwright.types import Action, Screen, Target

PROTOCOLS: dict[str, type[Protocol]] = {
    p.name: p for p in (AnthropicComputer, OpenAIComputer, UITars, QwenVL)
}
LOOKS = 8
"""Answers in a row that only look (screenshots, zooms, pointer moves) before the model is
taken to be stuck."""
FOCUS_BELOW = 0.75
"""A model seeing fewer image pixels than this per screen pixel gets a closer look at where
it points, when its protocol has one."""


class ProtocolActor(ModelRole):
    """Decides each step through the model's own protocol (see agent/protocols)."""

    role = "actor"

    def __init__(
        self,
        backend: Backend,
        config: BackendSettings,
        state: RunState,
        price: Price | None,
        spec: ModelSpec,
    ) -> None:
        super().__init__(backend, config, state, price)
        if backend.name == "transformers":  # the local processor's own rule is what it sees
            spec = replace(spec, limits=backend.image_limits)
        self.protocol = PROTOCOLS[spec.protocol](
            spec, state.task, state.device.kind, state.settings.screenshots
        )
        self.queue: list[Decision] = []
        """Further actions of the model's last answer, handed out one a step."""
        self.handed = 0
        """Actions of the model's last answer handed out so far."""
        self.notes_seen = len(state.memory.notes)

    def decide(self, screen: Screen) -> tuple[Decision, ScaledImage]:
        frame = ScaledImage(screen.frame.pixels, screen.frame.size)
        memory = self.state.memory
        if self.queue and not memory.feedback:
            self.handed += 1
            return self._hand_out(self.queue.pop(0)), frame
        carried_out = self.handed - (1 if memory.feedback else 0)
        notes = tuple(memory.notes[self.notes_seen :])
        self.protocol.observe(Outcome(screen, max(carried_out, 0), memory.feedback, notes))
        reading = self._ask()
        self.notes_seen = len(memory.notes)
        if reading.actions and self.protocol.focusable:
            reading = self._focus(reading, screen)
        decisions = [Decision(reading.thought, a, flag=reading.flag) for a in reading.actions]
        self.queue, self.handed = decisions[1:], 1
        return self._hand_out(decisions[0]), frame

    def _hand_out(self, decision: Decision) -> Decision:
        """The pointer goes where the action acts (a later click "at the cursor" needs it)."""
        self.protocol.pointer.follow(decision.action)
        return decision

    def _ask(self) -> Reading:
        """Ask until the model asks for an action: answers that only look are answered by the
        protocol; unusable ones are sent back with the problem, a bounded number of times."""
        tries = self.state.settings.answer_tries
        problems = looks = 0
        while True:
            self.state.check_budget()
            reading = self.protocol.read(self._send(self.protocol.request()))
            if reading.problem:
                problems += 1
                if problems >= tries:
                    raise StepFailed(
                        f"the actor ({self.config.model}) gave no usable answer in {tries} "
                        f"tries; last problem: {reading.problem}"
                    )
            elif reading.actions:
                return reading
            else:
                looks += 1
                if looks >= LOOKS:
                    raise StepFailed(
                        f"the actor ({self.config.model}) only looked at the screen "
                        f"{looks} times in a row without acting"
                    )

    def _send(self, request: Request) -> Any:
        """One call, counted and logged: the answer as the protocol reads it."""
        if isinstance(request, ChatRequest):
            result = self.backend.chat(
                list(request.messages), max_tokens=request.max_tokens, timeout=self.config.timeout
            )
            self.count(result, render(request, self.backend, indent=None), result.text)
            return result.text
        posted = self.backend.post(request, timeout=self.config.timeout)
        self.count(posted, render(request, self.backend, indent=None), json.dumps(posted.body))
        return posted.body

    def _focus(self, reading: Reading, screen: Screen) -> Reading:
        """On a screen denser than the model sees, one more look at the first action's point on
        a crop at full resolution; the refined point replaces it. A look that finds nothing
        leaves the point as it was."""
        protocol = self.protocol
        image = protocol.image(screen)
        first = reading.actions[0]
        target = getattr(first, "target", None)
        if image.scale >= FOCUS_BELOW or not isinstance(target, Target) or target.point is None:
            return reading
        region = region_around(target.point, image.size, screen.frame.size)
        crop = protocol.spec.limits.crop(screen.frame.pixels, region)
        self.state.check_budget()
        text = self._send(protocol.focus_request(reading, crop))
        try:
            point = protocol.focus_point(text, crop)
        except ActionError:
            return reading
        refined: Action = first.model_copy(update={"target": Target(point=point)})
        return Reading(reading.thought, (refined, *reading.actions[1:]), reading.flag)

    def preview(self, screen: Screen) -> str:
        """The exact first request, sent nowhere (`--dry-run`)."""
        self.protocol.observe(Outcome(screen))
        return render(self.protocol.request(), self.backend)

    def messages(self, screen: Screen, image: ScaledImage) -> list[Message]:
        """What a dry run shows for the actor, where it shows an Actor's prompt: the request."""
        return [Message("user", [self.preview(screen)])]
