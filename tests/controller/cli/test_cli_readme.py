"""The README tells a new user what works: its first two commands, the Pi camera set-up it documents
(and the Makefile variable that set-up relies on), every `tavla` command it shows exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
README = (ROOT / "README.md").read_text()


def test_the_first_two_commands_stay_make_run_and_make_test():
    block = README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert [line.split("#")[0].strip() for line in block[:2]] == ["make run", "make test"]


def test_the_pi_camera_set_up_is_documented_and_the_makefile_supports_it():
    assert "--source picamera" in README and "apt install python3-picamera2" in README
    assert "VENV_FLAGS=--system-site-packages" in README
    makefile = (ROOT / "Makefile").read_text()
    assert "VENV_FLAGS ?=" in makefile and "-m venv $(VENV_FLAGS) $(VENV)" in makefile


def test_every_tavla_command_in_the_readme_exists():
    import typer.main

    from controller.cli import app

    names = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    used = set(re.findall(r"tavla (\w[\w-]*)", README))
    assert used <= names, used - names
