"""`clickwright models check`: is the configured model endpoint usable, one finding a line.

In order, each only when the one before it passed: the backend can be made (package, key,
folder); the server answers its model list (and how fast); the model is on that list; the
server takes an image; one image round trip gives a sensible answer (and how long it took). The
protocol the model will be spoken in is said at the end.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np

from clickwright.agent.backends.base import (
    Backend,
    EndpointUnreachable,
    Message,
    ModelError,
    RequestRejected,
    one_line,
)
from clickwright.agent.config import BackendSettings, make_backend
from clickwright.agent.protocols.base import ModelSpec, Outcome, choose
from clickwright.errors import ClickwrightError
from clickwright.types import Frame, Screen

Mark = Literal["ok", "warn", "fail", "info"]
CHATTY = ("ui-tars", "qwen-vl")
"""Protocols over plain chat: the round trip asks them the question as a chat."""
QUESTION = "What colour is the square in the middle of this picture? Answer with one word."


@dataclass(frozen=True)
class Finding:
    mark: Mark
    check: str
    detail: str

    def line(self) -> str:
        return f"{self.mark.upper():<5} {self.check:<13} {self.detail}"


def test_picture() -> np.ndarray:
    """A red square on white, 224 pixels a side: big enough for every vision encoder."""
    picture = np.full((224, 224, 3), 255, np.uint8)
    picture[56:168, 56:168] = (220, 20, 20)
    return picture


def check(settings: BackendSettings) -> Iterator[Finding]:
    """The findings for the model `settings` name, as they come."""
    where = settings.base_url or settings.backend
    started = time.monotonic()
    try:
        backend = make_backend(settings)
    except ClickwrightError as error:
        yield Finding("fail", "configured", str(error))
        return
    if settings.backend == "transformers":
        yield Finding("ok", "loaded", f"{settings.model} in {_took(started)}")
    elif not (yield from _listing(backend, settings, where)):
        return
    yield from _round_trip(backend, settings)


def _listing(
    backend: Backend, settings: BackendSettings, where: str
) -> Generator[Finding, None, bool]:
    """The server's model list; False when the server cannot be reached at all."""
    started = time.monotonic()
    try:
        listed = backend.models(timeout=settings.timeout)
    except EndpointUnreachable as error:
        yield Finding("fail", "reachable", str(error))
        return False
    except ModelError as error:
        yield Finding("warn", "reachable", f"{where} answers, but lists no models: {error}")
        return True
    yield Finding("ok", "reachable", f"{where} answered in {_took(started)}")
    names = set(listed) | {name.removesuffix(":latest") for name in listed}
    if settings.model in names:
        yield Finding("ok", "model listed", settings.model)
    else:
        some = ", ".join(sorted(listed)[:8]) or "nothing"
        yield Finding("fail", "model listed", f"{settings.model} is not among: {some}")
    return True


def _round_trip(backend: Backend, settings: BackendSettings) -> Iterator[Finding]:
    spec = choose(settings.backend, settings.model, settings.protocol)
    started = time.monotonic()
    try:
        answer = _ask(backend, settings, spec)
    except RequestRejected as error:
        yield Finding("fail", "vision", f"the server refused an image: {error}")
        return
    except ModelError as error:
        yield Finding("fail", "round trip", str(error))
        return
    yield Finding("ok", "vision", "the server takes images")
    said = f"answered {one_line(answer, 60)!r} in {_took(started)}"
    chatted = spec is None or spec.protocol in CHATTY
    if chatted and "red" not in answer.lower():
        yield Finding("warn", "round trip", f"{said}: the model may not see images")
    else:
        yield Finding("ok", "round trip", said)
    if spec is None:
        yield Finding("info", "protocol", "json (clickwright's own actions and prompts)")
    else:
        tool = f" ({spec.tool})" if spec.tool else ""
        yield Finding("info", "protocol", f"{spec.protocol}{tool}, the model's own")


def _ask(backend: Backend, settings: BackendSettings, spec: ModelSpec | None) -> str:
    """One image and a question: through chat, or as the protocol's first request."""
    picture = test_picture()
    if spec is None or spec.protocol in CHATTY:
        messages = [Message("user", [QUESTION, picture])]
        return backend.chat(messages, max_tokens=16, timeout=settings.timeout).text
    from clickwright.agent.protocols.actor import PROTOCOLS

    protocol = PROTOCOLS[spec.protocol](spec, QUESTION, "desktop", 1)
    protocol.observe(Outcome(Screen(Frame(picture))))
    request = protocol.request()
    reading = protocol.read(backend.post(request, timeout=settings.timeout).body)  # type: ignore[arg-type]
    if reading.problem:
        raise ModelError(f"the answer could not be read: {reading.problem}")
    asked = ", ".join(action.type for action in reading.actions) or "a look at the screen"
    return reading.thought or asked


def _took(started: float) -> str:
    seconds = time.monotonic() - started
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"
