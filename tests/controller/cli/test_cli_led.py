"""`tavla led test`'s rough edges (issue 15): Ctrl-C is one line, --step is bounded, and it takes the
station file's [leds] layout as `tavla run` does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.controller.station.journal_files import key

TAVLA = str(Path(sys.executable).parent / "tavla")


def test_ctrl_c_in_led_test_is_one_line_exit_130():
    proc = subprocess.Popen(
        [TAVLA, "led", "test", "--step", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal gives it
    )
    # the chase begins once the device's table is printed (a loaded machine may take long to start)
    end = time.monotonic() + 60
    assert proc.stdout is not None
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if not line or line.startswith("\u2514"):  # the table's last line
            break
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err == "tavla: stopped (Ctrl-C) before the test finished\n", err


def test_step_inf_is_refused_not_an_overflow():
    r = subprocess.run([TAVLA, "led", "test", "--step", "inf"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--step" in r.stderr and "OverflowError" not in r.stderr


def test_led_test_and_run_agree_on_the_station_files_layout(tmp_path):
    """A fresh user's [leds] (80 LEDs) passed `tavla run` -- which sizes the default emulator to the
    strip -- but `tavla led test` refused it on the same default. Both now size the default emulator;
    an explicit device that drives too few is refused by both in the same line saying what to do."""
    station = tmp_path / "leds.toml"
    station.write_text(
        "[leds]\ncount = 80\n[leds.serpentine]\nleds_per_point = 3\nbar_leds = 2\noff_leds = 1\n"
    )
    env = dict(os.environ, COLUMNS="300")
    test = [TAVLA, "led", "test", "--config", str(station), "--step", "0"]
    run = [TAVLA, "run", "--config", str(station), "--turns", "1", "--quiet",
           "--key", str(key(tmp_path).path), "--journal", str(tmp_path / "j.jsonl")]
    ok = subprocess.run(test, capture_output=True, text=True, timeout=120, env=env)
    assert ok.returncode == 0 and "read back identical" in ok.stdout, ok.stderr
    assert "80 LEDs" in ok.stdout  # the layout's, on an emulator given as many
    short = ["--serial", "ledsim://?leds=28"]
    refusals = [subprocess.run(cmd + short, capture_output=True, text=True, timeout=300, env=env)
                for cmd in (test, run)]
    want = ("tavla: the layout needs 80 LEDs, the device on ledsim://?leds=28 drives 28: fix [leds] in "
            "the station file or give the emulator as many (ledsim://?leds=80)\n")
    for r in refusals:
        assert r.returncode == 2 and r.stderr == want, r.stderr
