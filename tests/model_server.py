"""A real HTTP model server on loopback for tests: speaks the OpenAI chat-completions and the
Anthropic Messages wire formats, Anthropic's computer tool and OpenAI's Responses computer tool,
plays a scripted list of replies and records every request.

    with ModelServer([openai_answer("hi"), Reply(500)]) as server:
        OpenAI(base_url=server.url + "/v1", ...)

With `strict=True` it also holds the computer-use conversations to their documented rules
(`computer_use_problem`) and answers a request that breaks one with 400, as the real APIs do;
GET /v1/models lists `models`.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: dict[str, Any] | bytes = field(default_factory=dict)
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before answering: longer than the client's timeout makes it time out."""


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def openai_answer(text: str, *, prompt_tokens: int = 11, completion_tokens: int = 3) -> Reply:
    return Reply(
        body={
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "served-model",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
    )


def anthropic_answer(text: str, *, input_tokens: int = 11, output_tokens: int = 3) -> Reply:
    return Reply(
        body={
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "served-model",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        }
    )


_ids = itertools.count(1)


def anthropic_tool_use(
    *inputs: dict[str, Any], text: str = "", input_tokens: int = 1500, output_tokens: int = 60
) -> Reply:
    """Claude asking for computer actions, shaped as the computer-use docs' examples: optional
    text, then one `tool_use` block per action, `stop_reason: tool_use`."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content += [
        {"type": "tool_use", "id": f"toolu_{next(_ids):05d}", "name": "computer", "input": given}
        for given in inputs
    ]
    return Reply(
        body={
            "id": f"msg_{next(_ids):05d}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": content,
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        }
    )


def openai_computer_call(
    *actions: dict[str, Any],
    checks: tuple[dict[str, str], ...] = (),
    summary: str = "",
    batched: bool = False,
) -> Reply:
    """computer-use-preview asking for an action, shaped as the Responses API reference's
    `ResponseComputerToolCall` (the GA `computer` tool: `batched`, a list of `actions`)."""
    number = next(_ids)
    call: dict[str, Any] = {
        "type": "computer_call",
        "id": f"cu_{number:05d}",
        "call_id": f"call_{number:05d}",
        "pending_safety_checks": list(checks),
        "status": "completed",
    }
    if batched:
        call["actions"] = list(actions)
    else:
        (call["action"],) = actions
    reasoning = {
        "type": "reasoning",
        "id": f"rs_{number:05d}",
        "summary": [{"type": "summary_text", "text": summary}] if summary else [],
    }
    return _response(number, [reasoning, call])


def openai_message(text: str) -> Reply:
    """The model ending its turn with a message (done, or a question)."""
    number = next(_ids)
    message = {
        "type": "message",
        "id": f"msg_{number:05d}",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }
    return _response(number, [message])


def _response(number: int, output: list[dict[str, Any]]) -> Reply:
    return Reply(
        body={
            "id": f"resp_{number:05d}",
            "object": "response",
            "created_at": 1741476542,
            "status": "completed",
            "model": "computer-use-preview-2025-03-11",
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "truncation": "auto",
            "usage": {
                "input_tokens": 1800,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": 40,
                "output_tokens_details": {"reasoning_tokens": 20},
                "total_tokens": 1840,
            },
        }
    )


def openai_error(status: int, message: str) -> Reply:
    return Reply(status, {"error": {"message": message, "type": "error", "code": None}})


def anthropic_error(status: int, kind: str, message: str) -> Reply:
    return Reply(status, {"type": "error", "error": {"type": kind, "message": message}})


Responder = Callable[[Request], Reply]


class ModelServer:
    """Serves `replies` in order, one per request, on http://127.0.0.1:<free port>; once they
    are used up, `responder` answers (a scripted model that reads each request)."""

    def __init__(
        self,
        replies: list[Reply],
        responder: Responder | None = None,
        *,
        strict: bool = False,
        models: tuple[str, ...] = ("served-model",),
    ) -> None:
        self.replies = list(replies)
        self.responder = responder
        self.strict = strict
        self.models = models
        self.requests: list[Request] = []
        self.answered: list[dict[str, Any]] = []
        """Every JSON body sent back, in order: what a strict check compares requests with."""
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> ModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stopping.set()  # wakes handlers sleeping through a slow reply
        self._httpd.shutdown()
        self._httpd.server_close()

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            problem = computer_use_problem(request, self.answered) if self.strict else None
            if problem:
                error = {"type": "invalid_request_error", "message": problem}
                return Reply(400, {"type": "error", "error": error})
            if self.replies:
                reply = self.replies.pop(0)
            elif self.responder is not None:
                reply = self.responder(request)
            else:
                reply = Reply(599, {"error": {"message": "the test scripted no more replies"}})
            if isinstance(reply.body, dict) and reply.status == 200:
                self.answered.append(reply.body)
            return reply

    def _listing(self, path: str) -> dict[str, Any]:
        """GET /v1/models in the asking SDK's shape (Anthropic's has `type` and `has_more`)."""
        if "anthropic" in path:
            made = "2025-01-01T00:00:00Z"
            data = [
                {"type": "model", "id": m, "display_name": m, "created_at": made}
                for m in self.models
            ]
            return {"data": data, "has_more": False, "first_id": None, "last_id": None}
        data = [{"id": m, "object": "model", "created": 1, "owned_by": "test"} for m in self.models]
        return {"object": "list", "data": data}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                headers = {key.lower(): value for key, value in self.headers.items()}
                with server._lock:
                    server.requests.append(Request(self.path, headers, {}))
                sdk = "anthropic" if "anthropic-version" in headers else "openai"
                if self.path.split("?")[0].endswith("/models"):
                    self._send(Reply(body=server._listing(sdk)))
                else:
                    self._send(Reply(404, {"error": {"message": f"no {self.path} here"}}))

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                headers = {key.lower(): value for key, value in self.headers.items()}
                reply = server._next(Request(self.path, headers, json.loads(raw or b"{}")))
                if reply.delay and server._stopping.wait(reply.delay):
                    return
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                body = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body)
                data = body.encode() if isinstance(body, str) else body
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", reply.content_type)
                    self.send_header("content-length", str(len(data)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): what the test wanted

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


@contextlib.contextmanager
def unconnectable() -> Iterator[str]:
    """The URL of a loopback port that neither refuses nor accepts a connection (its listen
    queue is full), as a server behind a firewall that drops packets looks to a client."""
    with socket.socket() as server, contextlib.ExitStack() as fillers:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        address = server.getsockname()
        for _ in range(16):  # connect until the queue takes no more
            filler = fillers.enter_context(socket.socket())
            filler.settimeout(0.5)
            try:
                filler.connect(address)
            except TimeoutError:
                break
        else:
            raise RuntimeError("the listen queue never filled")
        yield f"http://{address[0]}:{address[1]}/v1"


# ---- the computer-use conversations' documented rules --------------------------------------

ANTHROPIC_TOOLS = {
    "computer_20250124": "computer-use-2025-01-24",
    "computer_20251124": "computer-use-2025-11-24",
}


def computer_use_problem(request: Request, answered: list[dict[str, Any]]) -> str | None:
    """What a computer-use request does wrong by the vendor's documentation, or None.

    Anthropic (computer-use-tool docs): the tool's type needs its beta header; the tool is named
    `computer` with positive `display_width_px`/`display_height_px`; `enable_zoom` only with
    computer_20251124; every `tool_use` of an assistant turn is answered by a `tool_result` with
    its id in the next user turn; screenshots are base64 PNGs as large as the declared display.
    OpenAI (Responses API reference): `previous_response_id` names a response this server gave;
    the `computer_call_output` answers that response's `call_id` with a `computer_screenshot`;
    `acknowledged_safety_checks` are exactly that call's pending checks; the preview tool
    declares its display, and the screenshot has that size.
    """
    body = request.body
    if request.path.startswith("/v1/messages"):
        tools = [t for t in body.get("tools", []) if str(t.get("type", "")).startswith("computer_")]
        if not tools:
            return None
        (tool,) = tools
        beta = ANTHROPIC_TOOLS.get(tool["type"])
        if beta is None:
            return f"unknown tool type {tool['type']}"
        if beta not in request.headers.get("anthropic-beta", ""):
            return f"{tool['type']} needs the anthropic-beta header {beta}"
        if tool.get("name") != "computer":
            return "the computer tool must be named computer"
        size = (tool.get("display_width_px", 0), tool.get("display_height_px", 0))
        if min(size) <= 0:
            return "display_width_px and display_height_px must be positive"
        if "enable_zoom" in tool and tool["type"] != "computer_20251124":
            return "enable_zoom is only for computer_20251124"
        return _anthropic_turns_problem(body.get("messages", []), size)
    if request.path.startswith("/v1/responses"):
        return _responses_problem(body, answered)
    return None


def _anthropic_turns_problem(messages: list[dict[str, Any]], size: tuple[int, int]) -> str | None:
    asked: dict[str, str] = {}
    for number, message in enumerate(messages):
        content = message["content"]
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        if message["role"] == "user":
            results = [b for b in blocks if b.get("type") == "tool_result"]
            if set(asked) != {b.get("tool_use_id") for b in results}:
                return f"messages.{number}: tool_use ids {sorted(asked)} need tool_result blocks"
            if blocks[: len(results)] != results:
                return f"messages.{number}: tool_result blocks come first in the user turn"
            screenshots = [b for b in blocks if b.get("type") == "image"]
            for result in results:
                inner = result["content"] if isinstance(result.get("content"), list) else []
                images = [b for b in inner if b.get("type") == "image"]
                if asked[result["tool_use_id"]] != "zoom":  # a zoom shows a region, any size
                    screenshots += images
            for image in screenshots:
                source = image.get("source", {})
                if source.get("type") != "base64" or source.get("media_type") != "image/png":
                    return f"messages.{number}: screenshots go as base64 PNG"
                if png_size(source["data"]) != size:
                    return f"messages.{number}: a screenshot is not the declared {size}"
            asked = {}
        else:
            asked = {
                b["id"]: b.get("input", {}).get("action", "")
                for b in blocks
                if b.get("type") == "tool_use"
            }
    return None


def _responses_problem(body: dict[str, Any], answered: list[dict[str, Any]]) -> str | None:
    tools = body.get("tools", [])
    preview = [t for t in tools if t.get("type") == "computer_use_preview"]
    for tool in preview:
        if tool.get("environment") not in ("windows", "mac", "linux", "ubuntu", "browser"):
            return f"environment {tool.get('environment')!r} is not one the tool knows"
    previous = body.get("previous_response_id")
    items = body.get("input", [])
    if previous is None:
        return None
    given = {a["id"]: a for a in answered if a.get("object") == "response"}
    if previous not in given:
        return f"previous_response_id {previous} is not a response of this server"
    calls = [o for o in given[previous]["output"] if o.get("type") == "computer_call"]
    outputs = [i for i in items if i.get("type") == "computer_call_output"]
    if not calls:
        return "the last response made no computer_call to answer" if outputs else None
    call = calls[-1]
    if [o.get("call_id") for o in outputs] != [call["call_id"]]:
        return f"input must answer call_id {call['call_id']} with one computer_call_output"
    (output,) = outputs
    if output["output"].get("type") != "computer_screenshot":
        return "a computer_call_output's output is a computer_screenshot"
    acknowledged = output.get("acknowledged_safety_checks")
    if acknowledged is not None and acknowledged != call["pending_safety_checks"]:
        return "acknowledged_safety_checks must be the call's pending_safety_checks"
    url = output["output"].get("image_url", "")
    if not url.startswith("data:image/png;base64,"):
        return "the screenshot goes as a PNG data URL"
    for tool in preview:
        if png_size(url.split(",", 1)[1]) != (tool["display_width"], tool["display_height"]):
            return "the screenshot is not the size of the declared display"
    return None


def png_size(data: str) -> tuple[int, int]:
    """A base64 PNG's width and height, from its header."""
    head = base64.b64decode(data[:44])
    return struct.unpack(">II", head[16:24])
