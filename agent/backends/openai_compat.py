"""OpenAI-compatible chat completions: one backend for OpenAI, vLLM, Ollama, LM Studio, OpenRouter
and anything else that serves `POST {base_url}/chat/completions`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clickwright.agent.backends.base import (
    Backend,
    Message,
    ModelError,
    WireRequest,
    bad_answer,
    png_base64,
)

try:
    import openai
except ImportError:  # the base package works without the `api` extra
    openai = None  # type: ignore[assignment]

OPENAI_URL = "https://api.openai.com/v1"


class OpenAICompatBackend(Backend):
    name = "openai"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        tries: int = 3,
        backoff: float = 0.5,
        connect_timeout: float = 5.0,
    ) -> None:
        if openai is None:
            raise ModelError(
                "the openai backend needs the openai package", "pip install 'clickwright[api]'"
            )
        super().__init__(model, tries=tries, backoff=backoff, connect_timeout=connect_timeout)
        self.base_url = (base_url or OPENAI_URL).rstrip("/")
        # Local servers (vLLM, Ollama, LM Studio) take any key; the SDK insists on one.
        # Retries are ours (Backend.chat), so the SDK's own are off.
        self._client = openai.OpenAI(
            base_url=self.base_url, api_key=api_key or "none", max_retries=0
        )

    def _send(
        self, messages: Sequence[Message], *, max_tokens: int, temperature: float, timeout: float
    ) -> tuple[str, int, int, str]:
        with self._sdk_call(openai, timeout) as limit:
            completion = self._client.chat.completions.create(
                **chat_body(self.model, messages, max_tokens, temperature), timeout=limit
            )
        choices = getattr(completion, "choices", None)
        if not choices:  # a non-JSON body arrives as str, foreign JSON as a model without fields
            raise bad_answer(self.base_url, repr(completion))
        text = getattr(choices[0].message, "content", None)
        if not text:
            raise bad_answer(self.base_url, f"no text in the answer {choices[0]!r}")
        usage = getattr(completion, "usage", None)
        return (
            text,
            getattr(usage, "prompt_tokens", 0) or 0,
            getattr(usage, "completion_tokens", 0) or 0,
            getattr(completion, "model", None) or self.model,
        )

    def models(self, *, timeout: float) -> list[str]:
        with self._sdk_call(openai, timeout) as limit:
            return [model.id for model in self._client.models.list(timeout=limit)]

    def _post(
        self, request: WireRequest, *, timeout: float
    ) -> tuple[dict[str, Any], int, int, str]:
        """A Responses API request (the computer tool), as the protocol built it."""
        with self._sdk_call(openai, timeout) as limit:
            response = self._client.responses.create(
                **request.body, extra_headers=dict(request.headers) or None, timeout=limit
            )
        if not isinstance(getattr(response, "output", None), list):
            raise bad_answer(self.base_url, repr(response))
        usage = getattr(response, "usage", None)
        return (
            response.model_dump(mode="json"),
            getattr(usage, "input_tokens", 0) or 0,
            getattr(usage, "output_tokens", 0) or 0,
            getattr(response, "model", None) or self.model,
        )


def chat_body(
    model: str, messages: Sequence[Message], max_tokens: int, temperature: float
) -> dict[str, Any]:
    """The JSON body of a chat-completions request: what is sent, and what a dry run shows."""
    return {
        "model": model,
        "messages": [_wire_message(message) for message in messages],
        "max_tokens": max_tokens,
        "temperature": temperature,
    }


def _wire_message(message: Message) -> dict[str, Any]:
    """Text-only content as a plain string (which every server takes), else typed parts with
    images as PNG data URLs."""
    if all(isinstance(part, str) for part in message.content):
        return {"role": message.role, "content": message.text}
    parts: list[dict[str, Any]] = []
    for part in message.content:
        if isinstance(part, str):
            parts.append({"type": "text", "text": part})
        else:
            url = f"data:image/png;base64,{png_base64(part)}"
            parts.append({"type": "image_url", "image_url": {"url": url}})
    return {"role": message.role, "content": parts}
