"""Each model's own computer-use protocol: Anthropic's computer tool, OpenAI's Responses
computer tool, UI-TARS's action grammar and Qwen-VL's computer_use function; chosen by model
name (assets/model_protocols.toml) or the config's `protocol`. Models named nowhere keep
clickwright's generic JSON actions (`roles.Actor`).

`ProtocolActor` plays the actor role through one of them; `choose` says which one a model
speaks; `check` probes an endpoint for `clickwright models check`.
"""

from clickwright.agent.protocols.base import NAMES, ModelSpec, ProtocolError, choose

__all__ = ["NAMES", "ModelSpec", "ProtocolError", "choose"]
