"""A protocol request as a person reads it: the exact JSON that goes on the wire, with image
data shortened to its size. What `--dry-run` prints and the model call log keeps."""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Mapping
from typing import Any

from clickwright.agent.backends.base import Backend
from clickwright.agent.protocols.base import ChatRequest, Request
from clickwright.agent.roles import prompt_text


def render(request: Request, backend: Backend, indent: int | None = 2) -> str:
    """The request as sent: path, headers and body for a vendor tool; for a grammar protocol
    the chat-completions body an OpenAI-compatible server gets (or, for a local transformers
    model, the conversation it is given). `indent=None`: on one line, for the call log."""
    if isinstance(request, ChatRequest):
        if backend.name != "openai":
            return prompt_text(request.messages)
        from clickwright.agent.backends.openai_compat import chat_body

        body = chat_body(backend.model, request.messages, request.max_tokens, 0.0)
        path, headers = "/chat/completions", {}
    else:
        path, headers, body = request.path, dict(request.headers), dict(request.body)
    head = [f"POST {path}"] + [f"{key}: {value}" for key, value in headers.items()]
    shown = json.dumps(_shortened(body), indent=indent, ensure_ascii=False)
    return "\n".join(head) + "\n\n" + shown


def _shortened(value: Any) -> Any:
    """`value` with every base64 image replaced by `<PNG WxH, N bytes base64>`."""
    if isinstance(value, Mapping):
        if value.get("type") == "base64" and isinstance(value.get("data"), str):
            return {**value, "data": _describe(value["data"])}
        return {key: _shortened(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_shortened(item) for item in value]
    if isinstance(value, str) and value.startswith("data:image/") and ";base64," in value:
        head, data = value.split(",", 1)
        return f"{head},{_describe(data)}"
    return value


def _describe(data: str) -> str:
    """The image's size from its PNG header (no decoding)."""
    head = base64.b64decode(data[:44])
    size = "?"
    if head.startswith(b"\x89PNG") and len(head) >= 24:
        size = "{}x{}".format(*struct.unpack(">II", head[16:24]))
    return f"<PNG {size}, {len(data)} bytes base64>"
