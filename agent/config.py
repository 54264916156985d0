"""Which model each role uses: from flags, environment, the config file and defaults, in that order.

    # ~/.config/clickwright/config.toml (or $CLICKWRIGHT_CONFIG)
    backend = "openai"
    base_url = "http://localhost:11434/v1"
    model = "qwen2.5vl:7b"

    [roles.grounder]
    backend = "transformers"
    model = "/models/UI-TARS-1.5-7B"

    [prices."my-finetune"]             # dollars per million tokens, for --max-cost
    input = 0.5
    output = 1.5

    [run]                              # limits and approval policy; flags beat them
    max_steps = 30
    max_cost = 0.50
    approve_risky = false
    hybrid = true                      # a model only for the steps the offline planner cannot do

A role's own settings (its `[roles.X]` table, its per-role flags) beat the global ones; among
settings of the same reach, flags beat the environment, which beats the file, which beats the
defaults. Settings that switch the backend drop the model, base_url and api_key_env they
override, which belonged to the old backend. API keys are never part of the settings: they
are read when a backend is made, from the environment variable named by `api_key_env` or the
system keyring (service "clickwright", user = that variable's name), and never written.

The grounder and the notetaker are opt-in: they use a model only when their own table or flags
name one, since element ids from the set-of-marks need no model to ground and a notetaker call
per step doubles the bill; otherwise the actor's own notes are the task memory.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

from clickwright.agent.backends.base import Backend, ModelError
from clickwright.agent.budget import Price, read_prices, shipped_prices
from clickwright.errors import ClickwrightError

BACKENDS = ("offline", "openai", "anthropic", "transformers")
ROLES = ("planner", "actor", "grounder", "critic", "notetaker")
OPT_IN_ROLES = ("grounder", "notetaker")
COORDS = ("auto", "pixels", "norm1000", "norm1")
PROTOCOLS = ("auto", "anthropic-computer", "openai-computer", "ui-tars", "qwen-vl", "json")
DEFAULT_KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
ENV_VARS = {
    "CLICKWRIGHT_BACKEND": "backend",
    "CLICKWRIGHT_MODEL": "model",
    "CLICKWRIGHT_BASE_URL": "base_url",
}
_BELONG_TO_BACKEND = ("model", "base_url", "api_key_env", "protocol")
NUMBERS = ("timeout", "connect_timeout", "tries")


class ConfigError(ClickwrightError):
    """The configuration is unusable (bad file, unknown backend or role, missing model)."""


@dataclass(frozen=True)
class BackendSettings:
    backend: str = "offline"
    model: str = ""
    base_url: str | None = None
    api_key_env: str | None = None
    timeout: float = 20.0
    """Seconds a try waits for the first byte of the answer; with `tries` 3 a server that
    takes requests and never answers ends the run after about a minute."""
    connect_timeout: float = 5.0
    """Seconds a try waits to connect."""
    tries: int = 3
    device: str = "auto"
    """Transformers only: "auto" (a GPU when there is one), "cpu", "cuda", "cuda:1", "mps"."""
    coords: str = "auto"
    """How the model writes points: "pixels" of the image it saw, "norm1000" (Qwen2-VL,
    UI-TARS 1.0), "norm1", or "auto" (fractions when within 0-1, else pixels)."""
    protocol: str = "auto"
    """How the actor talks to the model: "auto" (by the model's name), a native computer-use
    protocol ("anthropic-computer", "openai-computer", "ui-tars", "qwen-vl"), or "json"."""

    @property
    def is_model(self) -> bool:
        return self.backend != "offline"


_FIELDS = tuple(f.name for f in fields(BackendSettings))


@dataclass(frozen=True)
class RunLimits:
    """What a run may spend, and whether risky actions need a person's approval."""

    max_steps: int = 30
    max_time: float | None = None
    max_cost: float | None = None
    approve_risky: bool = False
    hybrid: bool = False


_RUN_FIELDS = tuple(f.name for f in fields(RunLimits))


@dataclass(frozen=True)
class ModelSettings:
    default: BackendSettings = field(default_factory=BackendSettings)
    roles: Mapping[str, BackendSettings] = field(default_factory=dict)
    prices: Mapping[str, Price] = field(default_factory=shipped_prices)
    run: RunLimits = field(default_factory=RunLimits)

    def for_role(self, role: str) -> BackendSettings:
        return self.roles.get(role, self.default)

    @property
    def uses_models(self) -> bool:
        return any(self.for_role(role).is_model for role in ROLES)


def config_path(env: Mapping[str, str] = os.environ) -> Path:
    if env.get("CLICKWRIGHT_CONFIG"):
        return Path(env["CLICKWRIGHT_CONFIG"]).expanduser()
    return Path(platformdirs.user_config_dir("clickwright")) / "config.toml"


def load_settings(
    flags: Mapping[str, Any] | None = None,
    role_flags: Mapping[str, Mapping[str, Any]] | None = None,
    env: Mapping[str, str] = os.environ,
    path: Path | None = None,
) -> ModelSettings:
    """Settings for every role. `flags` and `role_flags` are what the CLI was given (None values
    count as not given); `path` defaults to `config_path(env)`, which may be missing unless
    named by CLICKWRIGHT_CONFIG."""
    path = path or config_path(env)
    file_top, file_roles, file_prices, run = _read_file(
        path, must_exist=bool(env.get("CLICKWRIGHT_CONFIG"))
    )
    env_layer = {key: env[name] for name, key in ENV_VARS.items() if env.get(name)}
    flag_layer = {key: value for key, value in (flags or {}).items() if value is not None}
    given_roles = {
        role: {key: value for key, value in values.items() if value is not None}
        for role, values in (role_flags or {}).items()
    }
    for role, values in [(None, flag_layer), *given_roles.items()]:
        problem = _problem_in(values, role)
        if problem:
            raise ConfigError(f"flags: {problem[1]}", problem[2])

    def resolve(role: str | None) -> BackendSettings:
        own = [file_roles.get(role, {}), given_roles.get(role, {})] if role else []
        if role in OPT_IN_ROLES and not any(own):
            return BackendSettings()
        layers = [file_top, env_layer, flag_layer, *own]
        values: dict[str, Any] = {}
        for layer in layers:
            if "backend" in layer and layer["backend"] != values.get("backend"):
                values = {k: v for k, v in values.items() if k not in _BELONG_TO_BACKEND}
            values.update(layer)
        return BackendSettings(**values)

    roles = {role: resolve(role) for role in ROLES}
    return ModelSettings(resolve(None), roles, {**shipped_prices(), **file_prices}, run)


def save_settings(settings: ModelSettings, path: Path) -> None:
    """Write `settings` as a config file. ModelSettings hold no key, so none can be written."""
    lines = _toml_table(asdict(settings.default), BackendSettings())
    for role, values in settings.roles.items():
        body = _toml_table(asdict(values), settings.default)
        if body:
            lines += ["", f"[roles.{role}]", *body]
    shipped = shipped_prices()
    for model, price in settings.prices.items():
        if shipped.get(model) != price:  # the user's own prices survive a save
            lines += ["", f"[prices.{json.dumps(model)}]", f"input = {price.input}"]
            lines.append(f"output = {price.output}")
    limits = _toml_table(asdict(settings.run), RunLimits())
    if limits:
        lines += ["", "[run]", *limits]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def api_key(settings: BackendSettings) -> str | None:
    """The key for `settings`, from the environment or the keyring; None when there is none."""
    name = settings.api_key_env or DEFAULT_KEY_ENV.get(settings.backend)
    if not name:
        return None
    if os.environ.get(name):
        return os.environ[name]
    try:
        import keyring

        return keyring.get_password("clickwright", name)
    except Exception:  # not installed, or no keyring service on this machine
        return None


def make_backend(settings: BackendSettings) -> Backend:
    """The backend `settings` describe, ready to chat. Missing packages, models or keys fail
    here, in one line, before a run starts."""
    if settings.backend == "offline":
        raise ConfigError(
            "the offline backend has no chat model",
            "roles on the offline backend use the built-in interpreter and grounder",
        )
    if not settings.model:
        raise ConfigError(
            f"no model set for the {settings.backend} backend",
            "pass --model, set CLICKWRIGHT_MODEL, or add model = ... to the config file",
        )
    key = api_key(settings)
    if settings.backend == "openai":
        from clickwright.agent.backends.openai_compat import OpenAICompatBackend

        if key is None and settings.base_url is None:
            raise _no_key(settings)
        return OpenAICompatBackend(
            settings.model,
            base_url=settings.base_url,
            api_key=key,
            tries=settings.tries,
            connect_timeout=settings.connect_timeout,
        )
    if settings.backend == "anthropic":
        from clickwright.agent.backends.anthropic_api import AnthropicBackend

        if key is None:
            raise _no_key(settings)
        return AnthropicBackend(
            settings.model,
            api_key=key,
            base_url=settings.base_url,
            tries=settings.tries,
            connect_timeout=settings.connect_timeout,
        )
    from clickwright.agent.backends.transformers_vlm import TransformersVLMBackend

    return TransformersVLMBackend(settings.model, device=settings.device)


def _no_key(settings: BackendSettings) -> ModelError:
    name = settings.api_key_env or DEFAULT_KEY_ENV[settings.backend]
    return ModelError(
        f"no API key for the {settings.backend} backend",
        f"export {name}=..., or store it with `keyring set clickwright {name}`",
    )


def _read_file(
    path: Path, must_exist: bool
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, Price], RunLimits]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if must_exist:
            raise ConfigError(
                f"no config file at {path}", "create it, or unset CLICKWRIGHT_CONFIG"
            ) from None
        return {}, {}, {}, RunLimits()
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read the config file {path}: {error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"line (\d+)", str(error))
        where = f"{path}:{line[1]}" if line else str(path)
        raise ConfigError(
            f"{where}: malformed TOML ({str(error).split(' (at')[0]})",
            "fix the file, or point CLICKWRIGHT_CONFIG at another",
        ) from None
    except RecursionError:  # tomllib recurses once per nested array or table
        raise ConfigError(
            f"{path}: malformed TOML (values nested too deeply)",
            "fix the file, or point CLICKWRIGHT_CONFIG at another",
        ) from None
    roles = data.pop("roles", {})
    prices = read_prices(data.pop("prices", {}), f"{path}:{_line(text, 'prices')}")
    run = _run_limits(data.pop("run", {}), f"{path}:{_line(text, 'run')}")
    problem = _problem_in(data, None)
    if not isinstance(roles, dict):
        problem = ("roles", "roles must be tables like [roles.actor]", "")
    for role, values in roles.items() if not problem else ():
        problem = _problem_in(values, role)
        if problem:
            break
    if problem:
        key, message, hint = problem
        raise ConfigError(f"{path}:{_line(text, key)}: {message}", hint)
    return data, roles, prices, run


def _run_limits(table: Any, where: str) -> RunLimits:
    """The [run] table: each limit of the right type, or a one-line error naming it."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where}: [run] must be a table of limits")
    for key, value in table.items():
        if key not in _RUN_FIELDS:
            raise ConfigError(
                f"{where}: unknown run setting {key!r}", f"use {', '.join(_RUN_FIELDS)}"
            )
        flags = ("approve_risky", "hybrid")
        wanted = bool if key in flags else int if key == "max_steps" else (int, float)
        if isinstance(value, bool) != (wanted is bool) or not isinstance(value, wanted):
            raise ConfigError(f"{where}: run.{key} cannot be {value!r}")
        if wanted is not bool and value <= 0:
            raise ConfigError(f"{where}: run.{key} must be positive, not {value!r}")
    return RunLimits(**table)


def _problem_in(values: Any, role: str | None) -> tuple[str, str, str] | None:
    """The first bad entry of a settings table as (key, message, hint), or None."""
    where = f"[roles.{role}] " if role else ""
    if role is not None and role not in ROLES:
        return (role, f"unknown role {role!r}", f"use one of {', '.join(ROLES)}")
    if not isinstance(values, Mapping):
        return (role or "", f"roles.{role} must be a table like [roles.{role}]", "")
    for key, value in values.items():
        problem = _problem(key, value)
        if problem:
            return (key, where + problem[0], problem[1])
    return None


def _problem(key: str, value: Any) -> tuple[str, str] | None:
    if key in ("api_key", "key", "token", "secret"):
        return (
            f"{key} does not belong in the configuration",
            "put the key in the environment variable named by api_key_env, or in the keyring",
        )
    if key not in _FIELDS:
        return (f"unknown setting {key!r}", f"use one of {', '.join(_FIELDS)}")
    if key == "backend" and value not in BACKENDS:
        return (f"unknown backend {value!r}", f"use one of {', '.join(BACKENDS)}")
    if key == "coords" and value not in COORDS:
        return (f"unknown coords {value!r}", f"use one of {', '.join(COORDS)}")
    if key == "protocol" and value not in PROTOCOLS:
        return (f"unknown protocol {value!r}", f"use one of {', '.join(PROTOCOLS)}")
    if key in NUMBERS:
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1e9:
            return (f"{key} must be a positive number, not {value!r}", "")
        if key == "tries" and not isinstance(value, int):
            return (f"tries must be a whole number, not {value!r}", "")
    elif not isinstance(value, str):
        return (f"{key} must be a string, not {value!r}", "")
    return None


def _line(text: str, key: str) -> int:
    """The line that sets `key` (or names table `key`), for error messages; 1 when not found."""
    pattern = re.compile(rf"^\s*(\[\s*roles\.)?[\"']?{re.escape(key)}[\"']?\s*[=\]]")
    for number, line in enumerate(text.splitlines(), 1):
        if key and pattern.search(line):
            return number
    return 1


def _toml_table(values: Mapping[str, Any], base: object) -> list[str]:
    """`key = value` lines for the values that differ from `base` (None is left out)."""
    lines = []
    for key, value in values.items():
        if value is not None and value != getattr(base, key):
            lines.append(f"{key} = {json.dumps(value)}")
    return lines
