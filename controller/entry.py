"""The ``tavla`` console script's entry point: Ctrl-C at any moment is one line and exit 130.

Importing the command line (typer, rich and every command module) takes about half a second, and a
Ctrl-C in it used to print a KeyboardInterrupt traceback from deep inside an import (issue 15). So
this module, which imports nothing of the project, puts its SIGINT handler in place first; the app's
own handling (controller.cli.main: the station's clean stop and summary) takes over once it runs,
and the handler comes back for the interpreter's exit. It is a module of its own so that importing
controller.cli (the tests, another program) never changes a process's Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType


def _interrupted(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C while there is no app to stop cleanly (importing it, or exiting): one line, exit 130."""
    try:
        sys.stderr.write("tavla: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(130)  # no traceback: nothing is half done that a cleanup would finish


signal.signal(signal.SIGINT, _interrupted)


def main() -> None:
    """Run ``tavla``: the command line's own Ctrl-C handling while a command runs, this one around it."""
    try:
        from controller.cli import main as run_cli

        signal.signal(signal.SIGINT, signal.default_int_handler)  # the commands catch KeyboardInterrupt
        run_cli()
    except KeyboardInterrupt:  # between the two handlers, before controller.cli.main's own try
        sys.stderr.write("tavla: interrupted\n")
        sys.exit(130)
    finally:
        signal.signal(signal.SIGINT, _interrupted)
