"""A real HTTP model server on loopback for tests: speaks the OpenAI chat-completions and the
Anthropic Messages wire formats, plays a scripted list of replies and records every request.

    with ModelServer([openai_answer("hi"), Reply(500)]) as server:
        OpenAI(base_url=server.url + "/v1", ...)
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
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


def openai_error(status: int, message: str) -> Reply:
    return Reply(status, {"error": {"message": message, "type": "error", "code": None}})


def anthropic_error(status: int, kind: str, message: str) -> Reply:
    return Reply(status, {"type": "error", "error": {"type": kind, "message": message}})


Responder = Callable[[Request], Reply]


class ModelServer:
    """Serves `replies` in order, one per request, on http://127.0.0.1:<free port>; once they
    are used up, `responder` answers (a scripted model that reads each request)."""

    def __init__(self, replies: list[Reply], responder: Responder | None = None) -> None:
        self.replies = list(replies)
        self.responder = responder
        self.requests: list[Request] = []
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
            if self.replies:
                return self.replies.pop(0)
            if self.responder is not None:
                return self.responder(request)
        return Reply(599, {"error": {"message": "the test scripted no more replies"}})

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                headers = {key.lower(): value for key, value in self.headers.items()}
                reply = server._next(Request(self.path, headers, json.loads(raw or b"{}")))
                if reply.delay and server._stopping.wait(reply.delay):
                    return
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
