"""The one interface every model sits behind: chat with text and images, get text and token usage.

Backends differ in wire format only; retries, timing and the error vocabulary live here, so a
role can swap an API model for a local one without knowing which it talks to.
"""

from __future__ import annotations

import base64
import contextlib
import re
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal, TypeVar

import cv2
import numpy as np

from clickwright.agent.events import Waiting
from clickwright.agent.screen_scaling import ImageLimits
from clickwright.errors import ClickwrightError

Role = Literal["system", "user", "assistant"]
Part = str | np.ndarray | bytes
"""Text, an RGB image as a numpy array, or an image already encoded as PNG bytes."""


@dataclass(frozen=True)
class Message:
    role: Role
    content: Sequence[Part]

    @property
    def text(self) -> str:
        """The text parts joined: what a backend sends where images cannot go (system prompts)."""
        return "\n".join(part for part in self.content if isinstance(part, str))


@dataclass(frozen=True)
class ChatResult:
    text: str
    input_tokens: int
    output_tokens: int
    model: str
    seconds: float
    """Wall time of the whole call, retries included: what a budget must count."""


@dataclass(frozen=True)
class WireRequest:
    """One request of a vendor's own computer-use protocol, exactly as it goes on the wire:
    the API path, the extra headers (beta flags) and the JSON body. What `--dry-run` prints."""

    path: str
    body: Mapping[str, Any]
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Posted:
    """The JSON answer to a WireRequest, with what it cost."""

    body: dict[str, Any]
    input_tokens: int
    output_tokens: int
    model: str
    seconds: float


T = TypeVar("T")


class ModelError(ClickwrightError):
    """A model could not answer. Subclasses say why; `retryable` ones are tried again."""

    retryable = False


class EndpointUnreachable(ModelError):
    """No connection to the server (refused, DNS, TLS)."""


class AuthenticationFailed(ModelError):
    """The server rejected the API key (401/403)."""


class ModelNotFound(ModelError):
    """The server does not know the model (404)."""


class RequestRejected(ModelError):
    """The server refused the request itself (400/422: e.g. no image support, prompt too long)."""


class ModelTimeout(ModelError):
    """No answer within the timeout; a busy server may answer the next try."""

    retryable = True


class RateLimited(ModelError):
    """Too many requests (429); tried again after the server's Retry-After when it gives one."""

    retryable = True

    def __init__(self, message: str, hint: str = "", retry_after: float | None = None) -> None:
        super().__init__(message, hint)
        self.retry_after = retry_after


class ServerError(ModelError):
    """The server failed (5xx); often transient."""

    retryable = True


class BadAnswer(ModelError):
    """The server answered with something that is not a chat answer (garbage, empty)."""


OnWait = Callable[[Waiting], None]
PROGRESS_EVERY = 1.0
"""Seconds between two `Waiting` reports while a call has no answer."""


class Backend(ABC):
    """A chat model. `chat` adds bounded retries with exponential backoff around `_send`, and
    reports each try that has no answer yet to `on_wait` (which may raise to give up)."""

    name: str
    image_limits = ImageLimits()

    def __init__(
        self,
        model: str,
        *,
        tries: int = 3,
        backoff: float = 0.5,
        connect_timeout: float = 5.0,
    ) -> None:
        self.model = model
        self.tries = max(1, tries)
        self.backoff = backoff
        self.connect_timeout = connect_timeout
        self.on_wait: OnWait | None = None
        """Told about every try still waiting for its answer; set by whoever runs the calls."""

    @property
    def endpoint(self) -> str:
        """Where the model answers from: an API's root URL, or this machine for a local one."""
        return str(getattr(self, "base_url", "") or "this machine")

    def chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        timeout: float,
    ) -> ChatResult:
        start = time.monotonic()
        text, input_tokens, output_tokens, model = self._retrying(
            lambda: self._send(
                messages, max_tokens=max_tokens, temperature=temperature, timeout=timeout
            )
        )
        return ChatResult(text, input_tokens, output_tokens, model, time.monotonic() - start)

    def post(self, request: WireRequest, *, timeout: float) -> Posted:
        """Send a vendor protocol's own request (Anthropic's computer tool, OpenAI's Responses
        API), with the same retries and errors as `chat`."""
        start = time.monotonic()
        body, input_tokens, output_tokens, model = self._retrying(
            lambda: self._post(request, timeout=timeout)
        )
        return Posted(body, input_tokens, output_tokens, model, time.monotonic() - start)

    def _retrying(self, call: Callable[[], T]) -> T:
        """`call` tried up to `tries` times while it fails in a way a later try may not; the
        last failure says how many tries it took."""
        attempt, retrying, started = 1, "", time.monotonic()
        while True:
            try:
                return self._watched(call, attempt, retrying)
            except ModelError as error:
                if not error.retryable or attempt >= self.tries:
                    if attempt == 1:
                        raise
                    spent = time.monotonic() - started
                    raise type(error)(
                        f"{error.args[0]} ({attempt} tries, {spent:.0f} s in all)", error.hint
                    ) from error
                delay = self.backoff * 2 ** (attempt - 1)
                if isinstance(error, RateLimited) and error.retry_after is not None:
                    delay = max(delay, min(error.retry_after, 60.0))
                time.sleep(delay)
                attempt, retrying = attempt + 1, error.args[0]

    def _watched(self, call: Callable[[], T], attempt: int, retrying: str) -> T:
        """One try, made on a thread of its own so that this one can tell `on_wait` about the
        wait every PROGRESS_EVERY seconds (and give up when it raises); the try itself ends
        by its own time-outs."""
        if self.on_wait is None:
            return call()
        ended: list[tuple[bool, Any]] = []
        done = threading.Event()

        def attempt_call() -> None:
            try:
                ended.append((True, call()))
            except BaseException as error:  # noqa: BLE001 - raised again on the caller's thread
                ended.append((False, error))
            finally:
                done.set()

        def report(seconds: float, over: bool = False) -> None:
            args = (self.model, self.endpoint, seconds, attempt, self.tries, retrying, over)
            self.on_wait(Waiting(*args))

        started = time.monotonic()
        threading.Thread(target=attempt_call, name="clickwright-model-call", daemon=True).start()
        waited = bool(retrying)
        if retrying:
            report(0.0)  # a retry is told at once, with why
        while not done.wait(PROGRESS_EVERY):
            waited = True
            report(time.monotonic() - started)
        if waited:
            report(time.monotonic() - started, over=True)
        ok, value = ended[0]
        if not ok:
            raise value
        return value

    @contextlib.contextmanager
    def _sdk_call(self, sdk: ModuleType, timeout: float) -> Iterator[Any]:
        """One request through a vendor SDK: yields its time-outs (`connect_timeout` to connect,
        `timeout` for the first byte of the answer), and turns its errors into ModelErrors."""
        try:
            yield sdk.Timeout(timeout, connect=self.connect_timeout)
        except Exception as error:
            mapped = from_sdk_error(
                sdk,
                error,
                url=self.endpoint,
                model=self.model,
                timeout=timeout,
                connect=self.connect_timeout,
            )
            if mapped is None:
                raise
            raise mapped from error

    def models(self, *, timeout: float) -> list[str]:
        """The model names the server lists (GET /models); `clickwright models check` asks."""
        raise ModelError(f"the {self.name} backend has no model list", "")

    def _post(
        self, request: WireRequest, *, timeout: float
    ) -> tuple[dict[str, Any], int, int, str]:
        """One protocol request: (JSON answer, input tokens, output tokens, model name)."""
        raise ModelError(
            f"the {self.name} backend cannot send {request.path} requests",
            'use protocol = "json" for this model, or the backend its vendor serves it on',
        )

    @abstractmethod
    def _send(
        self, messages: Sequence[Message], *, max_tokens: int, temperature: float, timeout: float
    ) -> tuple[str, int, int, str]:
        """One request: (text, input tokens, output tokens, model name the server reports)."""


def png_bytes(image: np.ndarray | bytes) -> bytes:
    """PNG bytes for an image part; fast compression, as a step's budget is tenths of a second."""
    if isinstance(image, bytes):
        return image
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
    ok, encoded = cv2.imencode(
        ".png", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_PNG_COMPRESSION, 1]
    )
    if not ok:
        raise ModelError(f"cannot encode a {image.shape} image as PNG")
    return encoded.tobytes()


def png_base64(image: np.ndarray | bytes) -> str:
    return base64.b64encode(png_bytes(image)).decode("ascii")


def error_for_status(
    status: int,
    server_says: str,
    *,
    url: str,
    model: str,
    retry_after: float | None = None,
) -> ModelError:
    """The ModelError for an HTTP error status, worded the same for every API backend."""
    said = f": {server_says}" if server_says else ""
    if status in (401, 403):
        return AuthenticationFailed(
            f"{url} rejected the API key ({status}){said}",
            "set the key in the environment variable named by --api-key-env, or in the keyring",
        )
    if status == 404:
        return ModelNotFound(
            f"model {model!r} not found at {url}{said}",
            "check --model against the server's model list (GET /v1/models, `ollama list`)",
        )
    if status == 429:
        return RateLimited(
            f"{url} is rate limiting requests{said}",
            "wait, or lower the request rate",
            retry_after=retry_after,
        )
    if status >= 500:
        return ServerError(f"{url} failed ({status}){said}", "the server's log says why")
    return RequestRejected(
        f"{url} refused the request ({status}){said}",
        "the model may not take images, or the prompt is too long for it",
    )


def server_message(body: object) -> str:
    """The error message inside an API error body, on one short line."""
    message = body
    while isinstance(message, dict):
        message = message.get("error", message.get("message"))
    return one_line(str(message)) if message else ""


def unreachable(url: str, error: BaseException) -> EndpointUnreachable:
    """'cannot reach URL: connection refused', from the innermost cause of a connect error."""
    while error.__cause__ is not None or error.__context__ is not None:
        error = error.__cause__ or error.__context__  # type: ignore[assignment]
    reason = re.sub(r"^\[Errno -?\d+\]\s*", "", str(error)).strip().lower() or type(error).__name__
    return EndpointUnreachable(
        f"cannot reach {url}: {one_line(reason)}", "is the server running? check --base-url"
    )


def timed_out(url: str, timeout: float) -> ModelTimeout:
    return ModelTimeout(
        f"{url} did not answer within {timeout:g} s",
        "if the model is slow, raise --timeout (seconds per try); else check the server",
    )


def one_line(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def from_sdk_error(
    sdk: ModuleType, error: Exception, *, url: str, model: str, timeout: float, connect: float
) -> ModelError | None:
    """The ModelError for an exception of the `openai` or `anthropic` SDK (both generated from
    one template, so their exception classes have the same names and fields)."""
    if isinstance(error, sdk.APITimeoutError):
        if type(error.__cause__).__name__ == "ConnectTimeout":  # of the SDK's HTTP client
            return ModelTimeout(
                f"cannot connect to {url} within {connect:g} s",
                "is the server up, and reachable from here? check --base-url",
            )
        return timed_out(url, timeout)
    if isinstance(error, sdk.APIConnectionError):
        return unreachable(url, error)
    if isinstance(error, sdk.APIStatusError):
        retry_after = error.response.headers.get("retry-after", "")
        return error_for_status(
            error.status_code,
            server_message(error.body),
            url=url,
            model=model,
            retry_after=float(retry_after) if retry_after.replace(".", "", 1).isdigit() else None,
        )
    if isinstance(error, sdk.APIResponseValidationError | ValueError):
        return bad_answer(url, str(error))
    return None


def bad_answer(url: str, what: str) -> BadAnswer:
    return BadAnswer(
        f"{url} sent something that is not a chat answer: {one_line(what, 80)}",
        "is --base-url the root of the model API (e.g. http://host:8000/v1)?",
    )
