"""Model backends: one chat interface over API models and local VLMs (see `base.Backend`).

The SDK-backed modules import their SDKs lazily, so this package works without the extras.
"""

from clickwright.agent.backends.base import (
    AuthenticationFailed,
    Backend,
    BadAnswer,
    ChatResult,
    EndpointUnreachable,
    Message,
    ModelError,
    ModelNotFound,
    ModelTimeout,
    RateLimited,
    RequestRejected,
    ServerError,
)

__all__ = [
    "AuthenticationFailed",
    "Backend",
    "BadAnswer",
    "ChatResult",
    "EndpointUnreachable",
    "Message",
    "ModelError",
    "ModelNotFound",
    "ModelTimeout",
    "RateLimited",
    "RequestRejected",
    "ServerError",
]
