"""Every command's --help shows its flags without a value type (controller.cli.common): typer drew
``--mqtt-anonymous``, ``--no-leds``, ``--demo`` and even ``--help`` with ``<bool>``, though passing
``true`` to one is refused as an extra argument."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

from controller.cli import app

TAVLA = str(Path(sys.executable).parent / "tavla")


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """The command and every sub-command under it (typer's own click: groups have ``commands``)."""
    found = [(path, command)]
    for name, sub in getattr(command, "commands", {}).items():
        found += _commands(sub, (*path, name))
    return found


def test_no_command_shows_a_type_on_a_flag():
    runner = CliRunner()
    commands = _commands(typer.main.get_command(app))
    assert len(commands) > 15  # every command and sub-command, not just the top
    flags = 0
    for path, command in commands:
        result = runner.invoke(app, [*path, "--help"], terminal_width=200, env={"COLUMNS": "200"})
        assert result.exit_code == 0, (path, result.output)
        assert "<bool>" not in result.output and "--help" in result.output, (path, result.output)
        for param in command.params:
            if param.param_type_name == "option" and param.is_flag and not param.hidden:
                flags += 1
                assert param.opts[0] in result.output, (path, param.opts)
    assert flags > 15  # --quiet, --no-leds, --demo, --mqtt-anonymous, ... were all looked at


def test_other_options_keep_their_types_and_a_flag_takes_no_value():
    r = subprocess.run([TAVLA, "run", "--help"], capture_output=True, text=True, timeout=60,
                       env={"COLUMNS": "200", "PATH": ""})
    assert r.returncode == 0 and "<bool>" not in r.stdout and "<int>" in r.stdout, r.stdout
    refused = subprocess.run([TAVLA, "resume", "--no-leds", "true"], capture_output=True, text=True,
                             timeout=60, env={"COLUMNS": "200", "PATH": ""})
    assert refused.returncode == 2 and "true" in refused.stderr


def test_every_command_takes_h_for_help():
    """``-h`` is the short help flag users try first; it was refused as "No such option"."""
    runner = CliRunner()
    for path, _command in _commands(typer.main.get_command(app)):
        long = runner.invoke(app, [*path, "--help"], terminal_width=200, env={"COLUMNS": "200"})
        short = runner.invoke(app, [*path, "-h"], terminal_width=200, env={"COLUMNS": "200"})
        assert short.exit_code == 0, (path, short.output)
        assert short.output == long.output, path
