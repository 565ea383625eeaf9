"""A `--key` that is not the journal's is refused by `tavla replay` and `tavla resume` (one line naming
both key ids, exit 2); without `--key` and without the journal's key on this machine they keep the
note that only the order was checked. `resume --demo` refuses before saying it resumed."""

from __future__ import annotations

import itertools

from typer.testing import CliRunner

from controller.cli import app
from controller.station.journal import Journal
from controller.station.journal_key import default_key_path, station_key

from .journal_files import station_journal

runner = CliRunner(env={"COLUMNS": "300"})


def test_an_explicit_wrong_key_is_refused_naming_both_keys(tmp_path):
    written = station_key(tmp_path / "station.key")
    path = station_journal(tmp_path / "j.jsonl", written)
    other = station_key(tmp_path / "other.key")
    for cmd in ("replay", "resume"):
        r = runner.invoke(app, [cmd, str(path), "--key", str(other.path)])
        assert r.exit_code == 2, (cmd, r.output)
        assert written.id in r.output and other.id in r.output and "--key" in r.output, r.output
        assert r.output.count("\n") == 1 and "Traceback" not in r.output, r.output
    r = runner.invoke(app, ["replay", str(path), "--key", str(written.path)])
    assert r.exit_code == 0 and "not given here" not in r.output, r.output


def test_without_key_and_without_the_journals_key_only_a_note(tmp_path):
    path = station_journal(tmp_path / "j.jsonl", station_key(tmp_path / "station.key"))
    for make_default in (False, True):
        if make_default:
            station_key()  # this machine's own key, not the journal's
        r = runner.invoke(app, ["replay", str(path)])
        assert r.exit_code == 0 and "which is not given here" in r.output, r.output


def _demo_journal(tmp_path, monkeypatch):
    import controller.station.demo

    whole = controller.station.demo.frames

    def first_8(turns=6, **kw):
        return itertools.islice(whole(turns=turns, **kw), 8)

    monkeypatch.setattr(controller.station.demo, "frames", first_8)
    path = tmp_path / "d.jsonl"
    first = runner.invoke(app, ["run", "--turns", "1", "--journal", str(path)])
    assert first.exit_code == 0, first.output
    return path


def test_resume_demo_refuses_a_locked_journal_before_saying_it_resumed(tmp_path, monkeypatch):
    path = _demo_journal(tmp_path, monkeypatch)
    with Journal(path, key=station_key()):
        r = runner.invoke(app, ["resume", str(path), "--demo"])
    assert r.exit_code == 2 and "being written by" in r.output, r.output
    assert "resumed" not in r.output and "goes on from" not in r.output, r.output


def test_resume_demo_refuses_another_key_before_saying_it_resumed(tmp_path, monkeypatch):
    path = _demo_journal(tmp_path, monkeypatch)
    before = path.read_bytes()
    other = station_key(tmp_path / "other.key")
    r = runner.invoke(app, ["resume", str(path), "--demo", "--key", str(other.path)])
    assert r.exit_code == 2 and other.id in r.output and "resumed" not in r.output, r.output
    default_key_path().unlink()
    station_key()  # a new key for this machine: the journal is chained under the old one
    r = runner.invoke(app, ["resume", str(path), "--demo"])
    assert r.exit_code == 2 and "chained under key" in r.output, r.output
    assert "resumed" not in r.output and "goes on from" not in r.output, r.output
    assert path.read_bytes() == before
