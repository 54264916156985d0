"""Anthropic Messages: the system prompt travels apart from the turns, images as base64 blocks."""

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
from clickwright.agent.screen_scaling import ImageLimits

try:
    import anthropic
except ImportError:  # the base package works without the `api` extra
    anthropic = None  # type: ignore[assignment]

ANTHROPIC_URL = "https://api.anthropic.com"


class AnthropicBackend(Backend):
    name = "anthropic"
    # Anthropic's documented limits: 1568 pixels on the long side, about 1.15 megapixels.
    image_limits = ImageLimits(max_side=1568, factor=None, max_pixels=1_150_000)

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        tries: int = 3,
        backoff: float = 0.5,
        connect_timeout: float = 5.0,
    ) -> None:
        if anthropic is None:
            raise ModelError(
                "the anthropic backend needs the anthropic package",
                "pip install 'clickwright[api]'",
            )
        super().__init__(model, tries=tries, backoff=backoff, connect_timeout=connect_timeout)
        self.base_url = (base_url or ANTHROPIC_URL).rstrip("/")
        # Retries are ours (Backend.chat), so the SDK's own are off.
        self._client = anthropic.Anthropic(api_key=api_key, base_url=self.base_url, max_retries=0)

    def _send(
        self, messages: Sequence[Message], *, max_tokens: int, temperature: float, timeout: float
    ) -> tuple[str, int, int, str]:
        system = "\n\n".join(m.text for m in messages if m.role == "system")
        turns = [_wire_turn(m) for m in messages if m.role != "system"]
        with self._sdk_call(anthropic, timeout) as limit:
            answer = self._client.messages.create(
                model=self.model,
                max_tokens=max_tokens,
                messages=turns,
                timeout=limit,
                # Recent SDKs dropped `temperature` (current models decide it themselves); a
                # caller that asks for sampling still gets it sent, for the models that take it.
                extra_body={"temperature": temperature} if temperature > 0 else None,
                **({"system": system} if system else {}),
            )
        blocks = getattr(answer, "content", None)
        if not isinstance(blocks, list):  # a non-JSON body arrives as str
            raise bad_answer(self.base_url, repr(answer))
        text = "".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", "") == "text")
        if not text:
            raise bad_answer(self.base_url, f"no text in the answer {blocks!r}")
        usage = getattr(answer, "usage", None)
        return (
            text,
            getattr(usage, "input_tokens", 0) or 0,
            getattr(usage, "output_tokens", 0) or 0,
            getattr(answer, "model", None) or self.model,
        )

    def models(self, *, timeout: float) -> list[str]:
        with self._sdk_call(anthropic, timeout) as limit:
            return [model.id for model in self._client.models.list(timeout=limit)]

    def _post(
        self, request: WireRequest, *, timeout: float
    ) -> tuple[dict[str, Any], int, int, str]:
        """A Messages request with beta tools (the computer tool), as the protocol built it."""
        with self._sdk_call(anthropic, timeout) as limit:
            answer = self._client.beta.messages.create(
                **request.body, extra_headers=dict(request.headers), timeout=limit
            )
        if not isinstance(getattr(answer, "content", None), list):
            raise bad_answer(self.base_url, repr(answer))
        usage = getattr(answer, "usage", None)
        return (
            answer.model_dump(mode="json"),
            getattr(usage, "input_tokens", 0) or 0,
            getattr(usage, "output_tokens", 0) or 0,
            getattr(answer, "model", None) or self.model,
        )


def _wire_turn(message: Message) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = []
    for part in message.content:
        if isinstance(part, str):
            blocks.append({"type": "text", "text": part})
        else:
            source = {"type": "base64", "media_type": "image/png", "data": png_base64(part)}
            blocks.append({"type": "image", "source": source})
    return {"role": message.role, "content": blocks}
