"""Anthropic's computer use tool (`computer_20250124`, `computer_20251124` with `zoom`).

As documented at platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool and
done by anthropic-quickstarts' computer-use-demo: the tool is declared with the size of the
screenshot Claude sees (`display_width_px`/`display_height_px`) under its beta header; the
screenshot is shrunk to at most 1568 pixels on the long side and about 1.15 megapixels (the
model table says more for models that take more); Claude answers with `tool_use` blocks whose
coordinates are pixels of that screenshot, and each gets a `tool_result` in the next user turn,
with a new screenshot. Only the last few screenshots stay in the conversation, as the demo's
`only_n_most_recent_images` does.

Every action has its clickwright action: clicks of each button and count with the modifier
keys the model holds (`text` on a click, as the 2025-01-24 tool defines it), `mouse_move` as a
hover, `hold_key` for its `duration`; lookups (`screenshot`, `zoom`, `cursor_position`) are
answered by the protocol itself, and a press and release become one click or drag.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from clickwright.agent.backends.base import WireRequest, png_base64
from clickwright.agent.protocols.base import (
    ModelSpec,
    Outcome,
    Protocol,
    Reading,
    finished,
    key_combos,
)
from clickwright.agent.screen_scaling import ScaledImage, to_frame_point
from clickwright.errors import ActionError
from clickwright.types import (
    Action,
    Click,
    DoubleClick,
    Drag,
    Fail,
    HoldKey,
    Hotkey,
    Hover,
    MiddleClick,
    RightClick,
    Scroll,
    Target,
    TripleClick,
    Type,
    Wait,
)


@dataclass(frozen=True)
class Version:
    tool: str
    beta: str
    zoom: bool


VERSIONS = {
    "computer_20251124": Version("computer_20251124", "computer-use-2025-11-24", zoom=True),
    "computer_20250124": Version("computer_20250124", "computer-use-2025-01-24", zoom=False),
}
PATH = "/v1/messages"
MAX_TOKENS = 1024
SYSTEM = """You are operating a computer through clickwright for a user. The screenshots show \
the screen as it is now; act only through the computer tool. When the task is done, say so in \
one sentence without calling a tool. If only the user can decide something, ask them one \
question without calling a tool."""
CLICKS = {
    "left_click": Click,
    "right_click": RightClick,
    "double_click": DoubleClick,
    "triple_click": TripleClick,
    "middle_click": MiddleClick,
}
OMITTED = {"type": "text", "text": "(an older screenshot, left out)"}


class AnthropicComputer(Protocol):
    name = "anthropic-computer"

    def __init__(self, spec: ModelSpec, task: str, device_kind: str, screenshots: int) -> None:
        super().__init__(spec, task, device_kind, screenshots)
        self.version = VERSIONS[spec.tool]
        self.history: list[dict[str, Any]] = []
        self.outcome: Outcome | None = None
        self.results: list[Result] = []
        """The tool_use blocks of Claude's last turn, each with its answer when it has one."""
        self.problem = ""
        self._shot: tuple[ScaledImage, dict[str, Any]] | None = None

    def shot(self, image: ScaledImage) -> dict[str, Any]:
        """The screenshot as an image block, encoded once however often it is sent."""
        if self._shot is None or self._shot[0] is not image:
            self._shot = (image, _image_block(image))
        return self._shot[1]

    # ---- the request ----------------------------------------------------------------------

    def observe(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def request(self) -> WireRequest:
        assert self.outcome is not None, "observe the first screen before asking"
        image = self.image(self.outcome.screen)
        tool: dict[str, Any] = {
            "type": self.version.tool,
            "name": "computer",
            "display_width_px": image.size[0],
            "display_height_px": image.size[1],
        }
        if self.version.zoom:
            tool["enable_zoom"] = True
        body = {
            "model": self.spec.model,
            "max_tokens": MAX_TOKENS,
            "system": SYSTEM,
            "tools": [tool],
            "messages": self._recent([*self.history, self._turn(image)]),
        }
        return WireRequest(PATH, body, {"anthropic-beta": self.version.beta})

    def _turn(self, image: ScaledImage) -> dict[str, Any]:
        """The user turn to send now: the task and the screen at first, then a result for every
        tool_use of Claude's last turn, then what the person answered and what went wrong."""
        outcome = self.outcome
        assert outcome is not None
        shot = self.shot(image)
        if not self.history:
            return {"role": "user", "content": [{"type": "text", "text": self.task}, shot]}
        content: list[dict[str, Any]] = []
        pending = [r for r in self.results if r.content is None]
        for result in self.results:
            if result.content is not None:
                content.append(result.block())
                continue
            index = pending.index(result)
            if index < outcome.carried_out:
                last = index == len(pending) - 1
                content.append(result.answered([_text("done"), *([shot] if last else [])]))
            elif index == outcome.carried_out and outcome.feedback:
                content.append(result.answered([_text(outcome.feedback), shot], error=True))
            else:
                skipped = "not done: an earlier action of this turn did not work"
                content.append(result.answered([_text(skipped)], error=True))
        texts = list(outcome.notes)
        if self.problem:
            texts.append(self.problem)
        if not self.results:  # Claude ended its turn (a question): the screen as it is now
            content.append(shot)
        content += [_text(t) for t in texts]
        return {"role": "user", "content": content}

    def _recent(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The messages with all but the last `screenshots` images left out."""
        seen = 0
        kept: list[dict[str, Any]] = []
        for message in reversed(messages):
            content = message["content"]
            if isinstance(content, list):
                content, seen = _without_old_images(content, seen, self.screenshots)
            kept.append({**message, "content": content})
        return kept[::-1]

    # ---- the answer -----------------------------------------------------------------------

    def read(self, reply: Mapping[str, Any] | str) -> Reading:
        assert isinstance(reply, Mapping) and self.outcome is not None
        image = self.image(self.outcome.screen)
        self.history.append(self._turn(image))
        self.outcome = Outcome(self.outcome.screen)  # told once
        blocks = [_clean(b) for b in reply.get("content", []) if isinstance(b, Mapping)]
        self.history.append({"role": "assistant", "content": blocks})
        self.problem = ""
        said = [b.get("text") for b in blocks if b.get("type") == "text"]
        thought = " ".join(text for text in said if isinstance(text, str)).strip()
        uses = [b for b in blocks if b.get("type") == "tool_use"]
        self.results = [Result(str(u.get("id", ""))) for u in uses]
        if not uses:
            if reply.get("stop_reason") == "refusal":
                return Reading(thought, (Fail(reason=thought or "the model refused"),))
            if reply.get("stop_reason") == "max_tokens":
                self.problem = "Your answer was cut off; answer with one action."
                return Reading(thought, problem="the answer was cut off at max_tokens")
            return Reading(thought, (finished(thought),))
        actions: list[Action] = []
        problems: list[str] = []
        for use, result in zip(uses, self.results, strict=True):
            try:
                if use.get("name") != "computer":
                    raise ActionError(f"there is no tool {use.get('name')!r}; use computer")
                given = use.get("input") or {}
                if not isinstance(given, Mapping):
                    raise ActionError("the computer tool's input must be an object")
                answer = self._act(given, image)
            except ActionError as error:
                result.content, result.error = [_text(f"Error: {error}")], True
                problems.append(str(error))
                continue
            if isinstance(answer, list):
                result.content = answer
            else:
                actions.extend(answer.actions)
        if actions:
            return Reading(thought, tuple(actions))
        if problems:
            return Reading(thought, problem="; ".join(problems))
        return Reading(thought)

    def _act(self, given: Mapping[str, Any], image: ScaledImage) -> Acts | list[dict[str, Any]]:
        """One tool input -> the actions it asks for, or the tool result answering it now."""
        action = str(given.get("action", ""))
        pointer = self.pointer
        if action in CLICKS or action in ("scroll", "mouse_move"):
            where = self._point(given, "coordinate", image)
            if action == "mouse_move" and where is None:
                raise ActionError("mouse_move needs a coordinate")
            target = Target(point=where) if where else pointer.target(action)
            if action == "mouse_move":
                return Acts(Hover(target=target))
            held = _modifiers(given)
            if action == "scroll":
                return Acts(_scroll(given, target, held))
            return Acts(CLICKS[action](target=target, keys=held))
        if action == "hold_key":
            duration = given.get("duration", 1)
            if not isinstance(duration, int | float) or not 0 < duration <= 30:
                raise ActionError(f"duration={duration!r} must be a number of seconds, up to 30")
            keys = [k for combo in key_combos(_text_of(given, action)) for k in combo]
            return Acts(HoldKey(keys=tuple(keys), duration=float(duration)))
        if action == "key":
            return Acts(*(Hotkey(keys=k) for k in key_combos(_text_of(given, action))))
        if action == "type":
            return Acts(Type(text=_text_of(given, action)))
        if action == "left_click_drag":
            start = self._point(given, "start_coordinate", image)
            end = self._point(given, "coordinate", image)
            if end is None:
                raise ActionError("left_click_drag needs a coordinate")
            source = Target(point=start) if start else pointer.target(action)
            return Acts(Drag(**{"from": source, "to": Target(point=end)}))
        if action == "wait":
            duration = given.get("duration", 1)
            if not isinstance(duration, int | float) or not 0 <= duration <= 100:
                raise ActionError(f"duration={duration!r} must be a number of seconds, 0-100")
            return Acts(Wait(timeout=max(float(duration), 0.5)))
        if action == "left_mouse_up":
            if pointer.pressed is None:
                raise ActionError("the left button is not down; use left_mouse_down first")
            start, pointer.pressed = pointer.pressed, None
            end = pointer.target(action)
            if Target(point=start) == end:
                return Acts(Click(target=end))
            return Acts(Drag(**{"from": Target(point=start), "to": end}))
        return self._look(action, given, image)

    def _look(
        self, action: str, given: Mapping[str, Any], image: ScaledImage
    ) -> list[dict[str, Any]]:
        """Actions answered without acting: the result content to send back."""
        pointer = self.pointer
        shot = self.shot(image)
        if action == "screenshot":
            return [shot]
        if action == "left_mouse_down":
            pointer.pressed = pointer.target(action).point  # type: ignore[assignment]
            return [_text("the left button is down; release it with left_mouse_up")]
        if action == "cursor_position":
            if pointer.at is None:
                raise ActionError("the pointer position is not known yet")
            x, y = image.to_model(*pointer.at)
            return [_text(f"X={round(x)},Y={round(y)}")]
        if action == "zoom":
            if not self.version.zoom:
                raise ActionError(f"zoom is not part of {self.version.tool}")
            region = given.get("region")
            if not _numbers(region, 4):
                raise ActionError(f"region={region!r} must be [x1, y1, x2, y2]")
            x1, y1, x2, y2 = region  # type: ignore[misc]
            width, height = image.size
            if not (0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height):
                raise ActionError(
                    f"region {region} is not a rectangle within the display ({width}x{height})"
                )
            outcome = self.outcome
            assert outcome is not None
            box = image.box_to_frame(x1, y1, x2, y2)
            return [_image_block(self.spec.limits.crop(outcome.screen.frame.pixels, box))]
        raise ActionError(f"unknown action {action!r}")

    def _point(
        self, given: Mapping[str, Any], name: str, image: ScaledImage
    ) -> tuple[int, int] | None:
        """A coordinate Claude gave, checked against the display and mapped to frame pixels."""
        value = given.get(name)
        if value is None:
            return None
        if not _numbers(value, 2) or min(value) < 0:
            raise ActionError(f"{name}={value!r} must be [x, y], two non-negative numbers")
        x, y = value
        width, height = image.size
        if x >= width or y >= height:
            raise ActionError(
                f"Coordinates ({x}, {y}) are outside display bounds ({width}x{height})."
            )
        return to_frame_point((x, y), image, "pixels")


class Acts:
    """The device actions one tool_use asks for (a key text may hold several combinations)."""

    def __init__(self, *actions: Action) -> None:
        self.actions = actions


@dataclass
class Result:
    """The tool_result for one tool_use: known at once for lookups and errors, after acting
    for actions."""

    tool_use_id: str
    content: list[dict[str, Any]] | None = None
    error: bool = False

    def block(self) -> dict[str, Any]:
        block: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": self.tool_use_id,
            "content": self.content,
        }
        if self.error:
            block["is_error"] = True
        return block

    def answered(self, content: list[dict[str, Any]], error: bool = False) -> dict[str, Any]:
        return Result(self.tool_use_id, content, error).block()


def _scroll(given: Mapping[str, Any], target: Target, held: tuple[str, ...] = ()) -> Scroll:
    direction, amount = given.get("scroll_direction"), given.get("scroll_amount", 3)
    if direction not in ("up", "down", "left", "right"):
        raise ActionError(f"scroll_direction={direction!r} must be up, down, left or right")
    if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 50:
        raise ActionError(f"scroll_amount={amount!r} must be a whole number from 1 to 50")
    return Scroll(direction=direction, amount=amount, target=target, keys=held)


def _modifiers(given: Mapping[str, Any]) -> tuple[str, ...]:
    """The keys a click or scroll holds: its `text` ("shift", "ctrl+alt")."""
    held = given.get("text") or given.get("key")
    if not held:
        return ()
    if not isinstance(held, str):
        raise ActionError(f"text={held!r} must name the keys to hold, e.g. shift")
    return tuple(k for combo in key_combos(held) for k in combo)


def _text_of(given: Mapping[str, Any], action: str) -> str:
    text = given.get("text")
    if not isinstance(text, str) or not text:
        raise ActionError(f"{action} needs text")
    return text


def _numbers(value: object, count: int) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == count
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def _image_block(image: ScaledImage) -> dict[str, Any]:
    source = {"type": "base64", "media_type": "image/png", "data": png_base64(image.pixels)}
    return {"type": "image", "source": source}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _clean(block: Mapping[str, Any]) -> dict[str, Any]:
    """An answer's content block as it goes back in the history: without the nulls the SDK
    fills in for absent fields."""
    return {key: value for key, value in block.items() if value is not None}


def _without_old_images(
    content: list[dict[str, Any]], seen: int, keep: int
) -> tuple[list[dict[str, Any]], int]:
    """`content` (read from its end) with images beyond the `keep` most recent left out."""
    kept: list[dict[str, Any]] = []
    for block in reversed(content):
        if block.get("type") == "image":
            seen += 1
            kept.append(block if seen <= keep else OMITTED)
        elif block.get("type") == "tool_result" and isinstance(block.get("content"), list):
            inner, seen = _without_old_images(block["content"], seen, keep)
            kept.append({**block, "content": inner})
        else:
            kept.append(block)
    return kept[::-1], seen
