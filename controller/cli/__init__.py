"""The ``tavla`` command line (typer + rich).

Each command lives in its own module of this package with a ``register(app)`` function; the modules
are listed in ``COMMAND_MODULES``. They share :mod:`controller.cli.common` (:func:`fail`, the source
and LED checks) and never import one another; the station session they run is
:mod:`controller.station.session`. Exit codes: 0 success, 2 bad input (one line on stderr saying what
to do next), 3 "no board" for ``tavla read``, 1 for anything unexpected -- still one line, never a
traceback (set ``TAVLA_DEBUG=1`` to see one).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from controller.cli.common import fail

__all__ = ["app", "fail", "main"]

# typer carries its own copy of click (typer._click, private); its UsageError is reached through
# the public BadParameter, which derives from it.
_UsageError: type[Exception] = typer.BadParameter.__mro__[1]


def _say_usage_error(exc: Any, fallback: str = "tavla") -> typer.Exit:
    """A usage error as one line on stderr that says what to do next, exit 2 (typer's own is a
    five-line box); ``no_args_is_help`` keeps printing the help it stands for."""
    if type(exc).__name__ == "NoArgsIsHelpError":
        raise exc
    where = exc.ctx.command_path if exc.ctx is not None else fallback
    message = " ".join(exc.format_message().split())
    typer.echo(f"{where}: {message} (try '{where} --help')", err=True)
    return typer.Exit(2)


class _OneLineUsageErrors(TyperGroup):
    """The root group: every sub-command's context is made inside its ``invoke``, so catching usage
    errors here and in its own ``make_context`` covers the whole command tree."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None,
                     **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except _UsageError as exc:
            raise _say_usage_error(exc) from exc

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except _UsageError as exc:  # an option's missing value has no context: name the command
            command = " ".join(filter(None, (ctx.command_path, ctx.invoked_subcommand)))
            raise _say_usage_error(exc, command) from exc


app = typer.Typer(
    name="tavla",
    cls=_OneLineUsageErrors,
    help="Tavla: a camera, LED and referee station for a physical backgammon or long nardy board.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"tavla {version('tavla')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("tavla (not installed: no version)")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="print Tavla's version", metavar=""
    ),
) -> None:
    """Tavla: a camera, LED and referee station for a physical backgammon or long nardy board."""


# One module per command group; a module that is not written yet is simply not offered.
COMMAND_MODULES = (
    "legal",
    "read",
    "calibrate",
    "dice",
    "vision_eval",
    "run",
    "journal",
    "verify",
    "match",
    "led",
    "director",
    "config",
)

for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(f"{__name__}.{_name}")
    except ModuleNotFoundError as _exc:
        if _exc.name != f"{__name__}.{_name}":
            raise
        continue
    _module.register(app)


def _bare_interrupt(exc: SystemExit) -> bool:
    """True when typer turned a Ctrl-C no command handled into a silent exit 130 (its ``Exit(130)``
    raised from the KeyboardInterrupt); a command that stopped cleanly raises its own Exit, which
    has said what happened already (the session's summary, the LED test's line)."""
    context = exc.__context__
    typer_ctrl_c = isinstance(context, typer.Exit) and isinstance(context.__cause__, KeyboardInterrupt)
    return exc.code == 130 and typer_ctrl_c


def main() -> None:
    """Console-script entry point: runs the app; turns any unexpected error into one line, exit 1."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("tavla: interrupted", err=True)
        sys.exit(130)
    except SystemExit as exc:
        if _bare_interrupt(exc):
            typer.echo("tavla: interrupted", err=True)
        raise
    except Exception as exc:  # the last line of defence: the user sees one line, not a traceback
        if os.environ.get("TAVLA_DEBUG"):
            raise
        typer.echo(f"tavla: {type(exc).__name__}: {exc} (run again with TAVLA_DEBUG=1 for details)", err=True)
        sys.exit(1)
