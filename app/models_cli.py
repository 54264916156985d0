"""`clickwright models check`: is the configured model endpoint usable, before a run finds out.

Kept out of app/cli.py; `register(app)` adds the `models` command group to the main command.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

models = typer.Typer(no_args_is_help=True, help="Model endpoints: check one before a run.")

STYLE = {"ok": "green", "warn": "yellow", "fail": "red", "info": "cyan"}


def register(app: typer.Typer) -> None:
    app.add_typer(models, name="models")


@models.command()
def check(
    backend: Annotated[
        str | None, typer.Option(help="Model backend: openai, anthropic, transformers.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name, or a local model folder.")] = None,
    base_url: Annotated[
        str | None, typer.Option(help="API root of an OpenAI-compatible server.")
    ] = None,
    api_key_env: Annotated[
        str | None, typer.Option(help="Environment variable that holds the API key.")
    ] = None,
    role: Annotated[
        str, typer.Option(help="Whose model to check: planner, actor, grounder, critic.")
    ] = "actor",
) -> None:
    """Probe the model a run would use (flags, environment, config file): reachable, model
    listed, images taken, one image round trip with its time, the protocol it will speak. One
    line per check; exit 1 when one fails."""
    from clickwright.agent.config import ROLES, ConfigError, load_settings
    from clickwright.agent.protocols.check import check as findings
    from clickwright.app.console import out

    if role not in ROLES:
        raise ConfigError(f"unknown role {role!r}", f"use one of {', '.join(ROLES)}")
    flags = {"backend": backend, "model": model, "base_url": base_url, "api_key_env": api_key_env}
    settings = load_settings(flags).for_role(role)
    if not settings.is_model:
        raise ConfigError(
            f"no model is configured for the {role}",
            "pass --backend and --model, or set them in the config file",
        )
    failed = False
    for finding in findings(settings):
        out.print(f"[{STYLE[finding.mark]}]{escape(finding.line())}[/]")
        failed = failed or finding.mark == "fail"
    raise typer.Exit(1 if failed else 0)
