"""`tavla led test`'s rough edges (issue 15): Ctrl-C is one line, --step is bounded."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

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
