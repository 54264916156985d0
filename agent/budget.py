"""What a run may spend: actions, seconds and dollars; and what it has spent so far.

Prices come from `assets/prices.toml` and the `[prices]` table of the user's config file. A
model served from this machine or a private network costs nothing; a paid model with no known
price makes `--max-cost` refuse to start rather than guess.
"""

from __future__ import annotations

import ipaddress
import time
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from urllib.parse import urlparse

from clickwright.errors import ClickwrightError, StepFailed


@dataclass(frozen=True)
class Price:
    input: float
    output: float
    """US dollars per million tokens."""

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000


FREE = Price(0.0, 0.0)


def shipped_prices() -> dict[str, Price]:
    text = resources.files("clickwright.assets").joinpath("prices.toml").read_text("utf-8")
    return read_prices(tomllib.loads(text).get("prices", {}), "assets/prices.toml")


def read_prices(table: object, where: str) -> dict[str, Price]:
    """`{"model": {"input": 1.0, "output": 2.0}}` as Prices; a bad entry is a one-line error."""
    if not isinstance(table, Mapping):
        raise ClickwrightError(f"{where}: [prices] must be a table of models")
    prices = {}
    for model, entry in table.items():
        values = entry if isinstance(entry, Mapping) else {}
        amounts = [values.get("input"), values.get("output")]
        if not all(
            isinstance(v, int | float) and not isinstance(v, bool) and v >= 0 for v in amounts
        ):
            raise ClickwrightError(
                f"{where}: prices.{model} needs input and output as dollars per million tokens",
                f'e.g. [prices."{model}"] input = 0.5, output = 1.5',
            )
        prices[str(model)] = Price(float(amounts[0]), float(amounts[1]))  # type: ignore[arg-type]
    return prices


def is_local(backend: str, base_url: str | None) -> bool:
    """Whether the model runs on hardware the user owns, so its tokens cost nothing."""
    if backend == "transformers":
        return True
    if not base_url:
        return False
    host = urlparse(base_url).hostname or ""
    if host == "localhost" or host.endswith(".local"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private


def price_of(model: str, prices: Mapping[str, Price]) -> Price | None:
    """The exact model's price, else the longest listed name it starts with, else None."""
    if model in prices:
        return prices[model]
    family = max((name for name in prices if model.startswith(name)), key=len, default=None)
    return prices[family] if family else None


@dataclass
class Usage:
    """Tokens and dollars spent; `cost` is None once any call's price was unknown."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float | None = 0.0

    def add(self, input_tokens: int, output_tokens: int, price: Price | None) -> None:
        self.calls += 1
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens
        if self.cost is not None and price is not None:
            self.cost += price.cost(input_tokens, output_tokens)
        else:
            self.cost = None

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def to_json(self) -> dict[str, object]:
        return {
            "calls": self.calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost": None if self.cost is None else round(self.cost, 6),
        }


@dataclass
class Budget:
    """Limits checked before every action and after every model call."""

    max_steps: int = 30
    max_time: float | None = None
    max_cost: float | None = None
    started: float = field(default_factory=time.monotonic)

    def check(self, steps: int, usage: Usage) -> None:
        if steps >= self.max_steps:
            raise StepFailed(f"reached the limit of {self.max_steps} steps")
        elapsed = time.monotonic() - self.started
        if self.max_time is not None and elapsed >= self.max_time:
            raise StepFailed(f"reached the time limit of {self.max_time:g} s")
        if self.max_cost is not None and usage.cost is not None and usage.cost >= self.max_cost:
            raise StepFailed(
                f"reached the cost limit of ${self.max_cost:g} (spent ${usage.cost:.4f})"
            )
