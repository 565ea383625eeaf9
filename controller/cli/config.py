"""``tavla config``: the station file (controller.station.config).

- ``tavla config example``: a commented station file with every key and its default.
- ``tavla config check FILE``: load it as ``tavla run --config`` does; one line either way.
"""

from __future__ import annotations

from pathlib import Path

import typer

from controller.cli.common import fail

config_app = typer.Typer(help="The station file: print an example, check one.", no_args_is_help=True)


@config_app.command("example")
def example() -> None:
    """Print a commented station file with every key and its default."""
    from controller.station.config import EXAMPLE

    typer.echo(EXAMPLE, nl=False)


@config_app.command("check")
def check(path: Path = typer.Argument(..., help="the station file (TOML)")) -> None:
    """Check a station file: exit 0 and its mode and rules in one line, or exit 2 and what is wrong."""
    from controller.station.config import ConfigError, load

    try:
        cfg = load(path)
    except ConfigError as exc:
        raise fail(str(exc)) from exc
    s = cfg.settings
    length = "money play" if s.match_length == 0 else f"{s.match_length}-point match"
    clock = f"clock {s.clock}" if s.clock else "no clock"
    if s.clock == "simple":
        clock += f" ({s.clock_reserve:g} s each, {s.clock_delay:g} s delay a move)"
    typer.echo(f"{path}: valid; mode {cfg.mode}, {s.variant}, {length}, {clock}")


def register(app: typer.Typer) -> None:
    """Add ``tavla config ...`` to the app."""
    app.add_typer(config_app, name="config")
