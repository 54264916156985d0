"""Who plays each role in a run: a model from the configuration, or the offline default."""

from __future__ import annotations

from dataclasses import dataclass

from clickwright.agent.backends.base import Backend
from clickwright.agent.budget import FREE, Price, is_local, price_of
from clickwright.agent.config import BackendSettings, ConfigError, ModelSettings, make_backend
from clickwright.agent.events import Waiting
from clickwright.agent.protocols import ModelSpec, choose
from clickwright.agent.protocols.actor import ProtocolActor
from clickwright.agent.roles import (
    Actor,
    Critic,
    Grounder,
    ModelCritic,
    ModelGrounder,
    ModelRole,
    Notetaker,
    Planner,
)
from clickwright.agent.state import RunState, Stopped


@dataclass(frozen=True)
class Team:
    planner: Planner | None
    actor: Actor | ProtocolActor | None
    grounder: Grounder
    critic: Critic
    notetaker: Notetaker | None


def describe_roles(config: ModelSettings) -> dict[str, str]:
    """`{"planner": "openai:gpt-4o", "grounder": "offline", ...}` for the run log; an actor
    speaking its model's own protocol says which."""
    spec = _protocol(config)
    names = {}
    for role in ("planner", "actor", "grounder", "critic", "notetaker"):
        settings = config.for_role(role)
        if not _plays(role, settings, config, spec):
            names[role] = "offline"
        else:
            names[role] = f"{settings.backend}:{settings.model}"
            if spec is not None and role == "actor":
                names[role] += f" ({spec.protocol})"
    return names


def _protocol(config: ModelSettings) -> ModelSpec | None:
    """The vendor protocol the actor's model speaks, None for clickwright's JSON actions."""
    acting = config.for_role("actor")
    return choose(acting.backend, acting.model, acting.protocol) if acting.is_model else None


def _plays(
    role: str, settings: BackendSettings, config: ModelSettings, spec: ModelSpec | None
) -> bool:
    """Whether `role` is a model: a model speaking its own protocol only acts, unless another
    role's settings set it apart."""
    if not settings.is_model:
        return False
    return spec is None or role == "actor" or settings != config.for_role("actor")


def price_for(
    settings: BackendSettings, config: ModelSettings, max_cost: float | None
) -> Price | None:
    """The role's price; a paid model with no known price cannot run under a cost limit. A
    price listed for the exact model name wins, so a user can bill a local model too."""
    if settings.model in config.prices:
        return config.prices[settings.model]
    if is_local(settings.backend, settings.base_url):
        return FREE
    price = price_of(settings.model, config.prices)
    if price is None and max_cost is not None:
        raise ConfigError(
            f"no price known for model {settings.model!r}, so --max-cost cannot be kept",
            f'add [prices."{settings.model}"] with input and output dollars per million tokens '
            "to the config file",
        )
    return price


def build_team(config: ModelSettings, state: RunState) -> Team:
    """Make every role's backend (one backend object per distinct setting, so a local model
    shared by several roles is loaded once). Bad settings fail here, before any action."""
    backends: dict[BackendSettings, Backend] = {}

    spec = _protocol(config)

    def model(role: str, cls: type[ModelRole], **extra: bool) -> ModelRole | None:
        settings = config.for_role(role)
        if not _plays(role, settings, config, spec):
            return None
        if settings not in backends:
            backends[settings] = made = make_backend(settings)
            made.on_wait = lambda waiting: _waiting(state, waiting)
        price = price_for(settings, config, state.settings.max_cost)
        if spec is not None and role == "actor":
            return ProtocolActor(backends[settings], settings, state, price, spec)
        return cls(backends[settings], settings, state, price, **extra)

    actor = model("actor", Actor)
    planner = model("planner", Planner, for_offline_actor=actor is None)
    return Team(
        planner=planner,  # type: ignore[arg-type]
        actor=actor,  # type: ignore[arg-type]
        grounder=Grounder(
            model("grounder", ModelGrounder),  # type: ignore[arg-type]
            # a protocol actor's points are frame pixels already
            "pixels" if spec is not None else config.for_role("actor").coords,
        ),
        critic=Critic(model("critic", ModelCritic)),  # type: ignore[arg-type]
        notetaker=model("notetaker", Notetaker),  # type: ignore[arg-type]
    )


def _waiting(state: RunState, waiting: Waiting) -> None:
    """A model call still waiting: the run's observers hear of it, and a stop (the hotkey, the
    panel's button) or the time limit ends the wait instead of coming after the answer."""
    state.observer.waiting(waiting)
    if state.stop.is_set():
        raise Stopped("stopped by the user")
    state.budget.check(state.log.steps, state.usage)
