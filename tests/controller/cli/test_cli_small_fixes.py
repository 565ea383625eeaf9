"""Small things a fresh user met: help texts, message wording, README's pointer to the nardy flavour."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from controller.cli import app
from controller.station.journal import Journal, scan
from controller.station.journal_key import station_key
from tests.controller.station.journal_files import station_journal

runner = CliRunner(env={"COLUMNS": "300"})
ROOT = Path(__file__).resolve().parents[3]


def test_verify_help_lists_every_exit_code() -> None:
    r = runner.invoke(app, ["verify", "--help"])
    assert r.exit_code == 0
    text = " ".join(r.output.split())
    assert "(0)" in text and "(1)" in text and "(3)" in text and "Exit 2" in text, text


def test_convert_force_help_names_the_target_argument() -> None:
    r = runner.invoke(app, ["match", "convert", "--help"])
    text = " ".join(r.output.split())
    assert "overwrite TARGET" in text and "OUT " not in text, text


def test_an_unkeyed_entry_in_a_keyed_journal_reads_well(tmp_path: Path) -> None:
    path = station_journal(tmp_path / "j.jsonl", station_key())
    lines = path.read_text().splitlines()
    unkeyed = tmp_path / "u.jsonl"
    with Journal(unkeyed) as j:
        from controller.station.journal import read

        for ev in read(path)[:3]:
            j.append(ev)
    entry = json.loads(unkeyed.read_text().splitlines()[2])
    path.write_text("\n".join([*lines[:2], json.dumps(entry), *lines[3:]]) + "\n")
    damage = scan(path, station_key()).damage
    assert damage is not None and "an unkeyed entry in a keyed journal" in str(damage), damage


def test_the_key_file_message_says_what_a_key_holds(tmp_path: Path) -> None:
    bad = tmp_path / "bad.key"
    bad.write_text("not a key\n")
    path = station_journal(tmp_path / "j.jsonl", station_key())
    r = runner.invoke(app, ["verify", str(path), "--key", str(bad)])
    assert r.exit_code == 2 and "(a station key holds 64 hex digits)" in r.output, r.output


def test_replay_export_to_a_file_says_it_takes_a_folder(tmp_path: Path) -> None:
    path = station_journal(tmp_path / "j.jsonl", station_key())
    target = tmp_path / "A.mat"
    target.write_text("x")
    r = runner.invoke(app, ["replay", str(path), "--export", str(target)])
    assert r.exit_code == 2 and "--export takes a folder" in r.output and "Errno" not in r.output, r.output
    assert r.output.count("\n") == 1, r.output


def test_readme_names_the_module_describing_the_nardy_flavour() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "flavour described in `controller/formats/nardy_mat.py`" in readme
