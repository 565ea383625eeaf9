"""``python -m firmware_bridge.emulator --pty``: a separate process serving the emulated board on a
pty; the link opens the printed path like any serial port, and stdin commands turn the knobs."""

from __future__ import annotations

import json
import subprocess
import sys
import time

from firmware_bridge.frames import RED, LedFrame
from firmware_bridge.link import LedLink


def test_pty_emulator_process_shows_state_and_survives_an_unplug(tmp_path) -> None:
    link_path = tmp_path / "tty-led"
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.emulator", "--pty", "--link", str(link_path), "--leds", "40"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def command(line: str) -> str:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        return proc.stdout.readline().strip()

    try:
        assert proc.stdout.readline().strip() == str(link_path)
        with LedLink.open(str(link_path)) as link:
            assert link.hello is not None and link.hello.led_count == 40
            frame = LedFrame.lit({4, 24}, RED, brightness=90)
            assert link.show(frame)
            state = json.loads(command("state"))
            assert state["brightness"] == 90 and state["zones"][4] == [255, 0, 0, 0]
            assert command("unplug 0.5") == "ok unplug 0.5"
            end = time.monotonic() + 1.0
            while link.online and time.monotonic() < end:
                time.sleep(0.01)
            assert not link.online  # the pty went away
            assert link.wait_synced(2.0) and link.read_back().frame == frame
            assert command("bogus").startswith("error unknown command")
        assert command("quit") == "bye"
        assert proc.wait(5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
