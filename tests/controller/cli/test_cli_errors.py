"""What a new user met: `--serial auto`, Ctrl-C, bad paths and values, journals that are not journals,
each answered with one line (exit 2) or, for Ctrl-C, the summary and the resume line (exit 130)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.station.demo import scripted_events
from controller.station.journal import Journal
from firmware_bridge import ports

TAVLA = str(Path(sys.executable).parent / "tavla")
runner = CliRunner(env={"COLUMNS": "300"})


def tavla(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run([TAVLA, *args], capture_output=True, text=True, timeout=timeout, env=env)


def one_line_exit_2(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("tavla: ") and r.stderr.count("\n") == 1, r.stderr
    assert "Error" not in r.stderr.split(":")[1], r.stderr  # no exception class names
    return r.stderr


def _journal(tmp_path: Path, name: str = "j.jsonl", demo: bool = False) -> Path:
    path = tmp_path / name
    with Journal(path) as j:
        for ev in scripted_events(3):
            j.append(ev)
    return path


# --- 1. --serial auto ------------------------------------------------------------------------------


def _pico_on_the_emulator(monkeypatch) -> None:
    """A port listed with the Pico's VID:PID whose device name is the emulator's URL: `auto` must pick
    it and the whole run then talks to the emulator."""
    pico = SimpleNamespace(device="ledsim://", vid=0x2E8A, pid=0x000A, serial_number="E6", description="Pico")
    other = SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None, serial_number=None, description="n/a")
    monkeypatch.setattr(ports.list_ports, "comports", lambda: [other, pico])


def test_run_serial_auto_finds_the_board_by_usb_ids(tmp_path, monkeypatch):
    _pico_on_the_emulator(monkeypatch)
    result = runner.invoke(app, ["run", "--serial", "auto", "--turns", "1", "--journal", str(tmp_path / "j")])
    assert result.exit_code == 0, result.output
    assert "LEDs on ledsim:// (Raspberry Pi Pico (RP2040), found by --serial auto)" in result.output
    assert "-> sent" in result.output and "0 not acknowledged" in result.output


def test_led_test_serial_auto(monkeypatch):
    _pico_on_the_emulator(monkeypatch)
    result = runner.invoke(app, ["led", "test", "--serial", "auto", "--step", "0"])
    assert result.exit_code == 0, result.output
    assert "27/27 zones acknowledged" in result.output


def test_serial_auto_without_a_board_is_one_line_naming_led_ports(tmp_path, monkeypatch):
    monkeypatch.setattr(ports.list_ports, "comports", lambda: [])
    run = ["run", "--serial", "auto", "--journal", str(tmp_path / "j")]
    for args in (run, ["led", "test", "--serial", "auto"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert result.output.count("tavla led ports") == 1 and "Tavla demo" not in result.output
        assert not (tmp_path / "j").exists()


# --- 3 / 5 / 6. bad arguments: one line, before the banner -------------------------------------------


def test_run_journal_is_a_folder(tmp_path):
    r = tavla("run", "--journal", str(tmp_path))
    assert "is a folder: give the journal file" in one_line_exit_2(r) and "Tavla demo" not in r.stdout


def test_run_new_only_refuses_an_existing_journal(tmp_path):
    path = _journal(tmp_path)
    before = path.read_bytes()
    r = tavla("run", "--journal", str(path), "--new-only")
    err = one_line_exit_2(r)
    assert "exists already" in err and "--append" in err and f"tavla resume {path}" in err
    assert path.read_bytes() == before and "Tavla demo" not in r.stdout


@pytest.mark.parametrize(("flag", "value"), [("--turns", "-3"), ("--pace", "-1")])
def test_run_rejects_negative_turns_and_pace(flag, value):
    r = tavla("run", flag, value)
    assert flag in one_line_exit_2(r)


def test_run_banner_says_where_the_leds_are(tmp_path):
    r = tavla("run", "--no-leds", "--turns", "1", "--journal", str(tmp_path / "j.jsonl"))
    assert r.returncode == 0, r.stderr
    assert "no LEDs (--no-leds)" in r.stdout and "emulated device" not in r.stdout


# --- 2. Ctrl-C ---------------------------------------------------------------------------------------


def test_ctrl_c_prints_the_summary_and_the_resume_line_exit_130(tmp_path):
    journal = tmp_path / "j.jsonl"
    env = dict(os.environ, COLUMNS="200")
    proc = subprocess.Popen(
        [TAVLA, "run", "--turns", "0", "--journal", str(journal)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group: the signal goes to the gnubg helper too
        # SIGINT as a terminal gives it: a job started in the background by a non-interactive shell
        # (a CI runner's) inherits it ignored, and Python then installs no KeyboardInterrupt handler
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not (journal.exists() and journal.stat().st_size > 2000):
        time.sleep(0.2)
    time.sleep(1.0)  # let the hint helper start
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out[-2000:], err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "SpawnProcess" not in err, err
    assert "summary" in out and f"journal: {journal} (resume with `tavla resume {journal}`)" in out
    r = tavla("resume", str(journal))
    assert r.returncode == 0, r.stderr


# --- 3. resume: bad sources and journals from another version ------------------------------------------


@pytest.mark.parametrize(("source", "words"), [("/nonexist", "no such camera"), ("7", "camera 7")])
def test_resume_with_a_bad_source_is_one_line_before_anything(tmp_path, source, words):
    path = _journal(tmp_path)
    r = tavla("resume", str(path), "--source", source)
    err = one_line_exit_2(r)
    assert words in err and "resumed" not in r.stdout


def test_resume_with_a_folder_of_only_broken_images_is_one_line_as_run_is(tmp_path):
    path = _journal(tmp_path)
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "a.jpg").write_text("not a JPEG")
    before = path.read_bytes()
    err = one_line_exit_2(tavla("resume", str(path), "--source", str(folder)))
    assert "no frame could be read (1 unreadable, first: a.jpg" in err
    assert path.read_bytes() == before


def test_vision_eval_that_reads_nothing_is_one_line_exit_2(tmp_path):
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"image": "a.jpg", "points": []}\n')
    assert "is not a folder" in one_line_exit_2(tavla("vision-eval", str(labels), str(tmp_path / "nonexist")))
    (tmp_path / "a.jpg").write_text("not a JPEG")
    err = one_line_exit_2(tavla("vision-eval", str(labels), str(tmp_path)))
    assert "none of the 1 labelled images" in err
    labels.write_text('{"image": "a.jpg"}\n{"image": \n')
    assert "line 2 is not JSON" in one_line_exit_2(tavla("vision-eval", str(labels), str(tmp_path)))
    labels.write_text("\n")
    assert "labels no board photo" in one_line_exit_2(tavla("vision-eval", str(labels), str(tmp_path)))


def test_a_journal_from_another_tavla_version_says_so(tmp_path):
    from controller.game.events import MatchStarted
    from controller.game.rulings import Settings

    path = tmp_path / "new.jsonl"
    with Journal(path) as j:
        j.append(MatchStarted(t=0.0, settings=dict(Settings().to_json(), laser_cube=True)))
    for cmd in ("resume", "replay"):
        err = one_line_exit_2(tavla(cmd, str(path)))
        assert "different Tavla version" in err and "laser_cube" in err


# --- 4. resume --demo --------------------------------------------------------------------------------


def test_resume_demo_refused_on_a_journal_that_is_no_demo(tmp_path):
    path = _journal(tmp_path)  # scripted events, not the rendered demo
    before = path.read_bytes()
    assert "not a demo session" in one_line_exit_2(tavla("resume", str(path), "--demo"))
    assert "not several" in one_line_exit_2(tavla("resume", str(path), "--demo", "--source", "0"))
    assert path.read_bytes() == before


def test_resume_demo_goes_on_from_the_frame_after_the_journal(tmp_path, monkeypatch):
    import itertools

    import controller.station.demo
    from controller.game.events import BoardSeen
    from controller.station.journal import read

    whole = controller.station.demo.frames
    # the demo cut to its first 8 frames keeps the test short; `--turns 1` journals frames 0-3
    def first_8(turns=6, **kw):
        return itertools.islice(whole(turns=turns, **kw), 8)

    monkeypatch.setattr(controller.station.demo, "frames", first_8)
    path = tmp_path / "d.jsonl"
    first = runner.invoke(app, ["run", "--turns", "1", "--journal", str(path)])
    assert first.exit_code == 0, first.output
    result = runner.invoke(app, ["resume", str(path), "--demo"])
    assert result.exit_code == 0, result.output
    assert "the demo goes on from frame 4" in result.output
    sources = [ev.source.split(":")[0] for ev in read(path) if isinstance(ev, BoardSeen)]
    assert sources == [f"demo {i}" for i in range(8)]  # each frame once, in order, none replayed


# --- 5. journal messages ------------------------------------------------------------------------------


def test_a_file_that_is_no_journal(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("shopping list\nmilk\n")
    for cmd in ("resume", "replay"):
        assert "is not a Tavla journal" in one_line_exit_2(tavla(cmd, str(other)))


def test_a_journal_folder(tmp_path):
    assert "is a folder: give the journal file" in one_line_exit_2(tavla("replay", str(tmp_path)))


def test_an_edited_journal_names_the_line_and_what_to_do(tmp_path):
    path = _journal(tmp_path)
    lines = path.read_text().splitlines()
    lines[4] = lines[4].replace('"t":4.0', '"t":4.5')
    path.write_text("\n".join(lines) + "\n")
    err = one_line_exit_2(tavla("resume", str(path)))
    assert f"{path}:5" in err and "referee" in err and "--until-damage" in err
    r = tavla("replay", str(path), "--until-damage")
    assert r.returncode == 0, r.stderr
    assert "damaged from line 5: replaying the 4 events before it" in r.stdout
    assert "4 events" in r.stdout


def test_a_torn_last_line_is_dropped_with_a_note(tmp_path):
    path = _journal(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:-40])
    r = tavla("replay", str(path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("the last line was cut short") == 1 and "1 ruling;" in r.stdout


def test_run_append_goes_on_from_the_journals_state(tmp_path):
    from controller.station import replay
    from controller.station.journal import read

    path = tmp_path / "j.jsonl"
    first = runner.invoke(app, ["run", "--no-leds", "--turns", "1", "--journal", str(path)])
    assert first.exit_code == 0, first.output
    n = len(read(path))
    again = runner.invoke(app, ["run", "--no-leds", "--turns", "1", "--journal", str(path), "--append"])
    assert again.exit_code == 0, again.output
    events = read(path)
    assert len(events) == 2 * n  # appended, the first session kept as it was
    state, _ = replay(events)
    assert f"phase {state.phase}" in again.output


def test_run_refuses_in_one_line_an_led_device_that_cannot_serve_the_layout(tmp_path):
    """Issue 18: a silent or unplugged LED device no longer stops `tavla run`, but one that answers
    and drives too few LEDs for the layout will not get better by waiting."""
    args = ["run", "--serial", "ledsim://?leds=10", "--turns", "1", "--journal", str(tmp_path / "j")]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "layout needs 28 LEDs, the device on ledsim://?leds=10 drives 10" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "command", "says"),
    [
        (("read",), "tavla read", "Missing argument 'image'"),
        (("read", "x.jpg", "--bogus"), "tavla read", "No such option: --bogus"),
        (("read", "x.jpg", "--calibration"), "tavla read", "'--calibration' requires an argument"),
        (("dice", "a.jpg", "b.jpg"), "tavla dice", "unexpected extra argument"),
        (("config", "bogus"), "tavla config", "No such command 'bogus'"),
        (("led", "test", "--nonesuch"), "tavla led test", "No such option: --nonesuch"),
        (("--bogus",), "tavla", "No such option: --bogus"),
    ],
)
def test_a_usage_error_is_one_line_naming_the_command_and_its_help(
    args: tuple[str, ...], command: str, says: str
) -> None:
    r = tavla(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and "╭" not in r.stderr, r.stderr  # no rich box
    assert r.stderr.startswith(f"{command}: ") and says in r.stderr, r.stderr
    assert r.stderr.rstrip().endswith(f"(try '{command} --help')"), r.stderr


def test_no_arguments_still_prints_the_help() -> None:
    r = tavla("match")
    assert "Usage: tavla match" in r.stdout + r.stderr and "COMMAND" in r.stdout + r.stderr
