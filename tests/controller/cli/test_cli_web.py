"""`tavla run --web`: the demo prints the page's address and the page follows its game; an address
other machines can reach needs a referee PIN, else one line and exit 2 before anything starts."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

TAVLA = str(Path(sys.executable).parent / "tavla")


def test_run_web_on_a_public_address_without_a_pin_is_refused(tmp_path):
    env = dict(os.environ, COLUMNS="200")
    r = subprocess.run(
        [TAVLA, "run", "--web", "0.0.0.0:0", "--journal", str(tmp_path / "j.jsonl")],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "PIN" in r.stderr, r.stderr
    assert not (tmp_path / "j.jsonl").exists()


def test_run_web_prints_the_address_and_the_page_follows_the_demo(tmp_path):
    env = dict(os.environ, COLUMNS="200")
    proc = subprocess.Popen(
        [TAVLA, "run", "--web", "127.0.0.1:0", "--turns", "1", "--pace", "0.3", "--no-leds",
         "--journal", str(tmp_path / "j.jsonl")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        url = None
        for line in proc.stdout:
            m = re.search(r"the station's page: (http://127\.0\.0\.1:\d+/)", line)
            if m:
                url = m.group(1)
                break
        assert url, "no address printed"
        seen = set()
        frames = 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            try:
                with urllib.request.urlopen(url + "api/state", timeout=5) as r:
                    state = json.loads(r.read())
                seen.add((state["seq"], state["phase"]))
                with urllib.request.urlopen(url + "api/frame.jpg", timeout=5) as r:
                    frames += r.headers["Content-Type"] == "image/jpeg"
            except urllib.error.HTTPError:
                continue  # no camera frame before the first one is read
            except OSError:
                break  # the demo ended and the page with it
        proc.stdout.read()
        assert proc.wait(60) == 0
    finally:
        proc.kill()
    assert len({s for s, _ in seen}) >= 3  # the page followed the game event by event
    assert any(phase == "moving" for _, phase in seen)
    assert frames  # the camera's frames with the reader's overlay


def _first_url(proc) -> tuple[str, list[str]]:
    """The page's address from the run's output, and the lines read up to it."""
    lines = []
    for line in proc.stdout:
        lines.append(line)
        m = re.search(r"the station's page: (http://127\.0\.0\.1:\d+/)", line)
        if m:
            return m.group(1), lines
    raise AssertionError(f"no address printed: {''.join(lines)}")


def test_run_web_auto_moves_off_a_taken_port_and_hold_keeps_the_page_after_the_game(tmp_path):
    """`make run` is `tavla run --web auto`: 8080, or a free port with a line saying 8080 is taken;
    `--hold` keeps the page up after the last event, then the run ends by itself (exit 0)."""
    import socket

    blocker = socket.socket()
    try:
        blocker.bind(("127.0.0.1", 8080))
        blocker.listen()
    except OSError:
        pass  # something else holds 8080 already: it is taken either way
    env = dict(os.environ, COLUMNS="200")
    proc = subprocess.Popen(
        [TAVLA, "run", "--web", "auto", "--turns", "1", "--pace", "0.05", "--hold", "3", "--no-leds",
         "--plain", "--journal", str(tmp_path / "j.jsonl")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        url, before = _first_url(proc)
        assert ":8080/" not in url
        assert any("port 8080 is taken" in line for line in before), before
        assert any("--hold" not in line and "stays open 3 s" in line for line in before), before
        for line in proc.stdout:
            if "the page stays open 3 s" in line:
                break
        with urllib.request.urlopen(url + "api/state", timeout=5) as r:
            state = json.loads(r.read())
        from controller.station.demo import scenes

        assert state["seq"] == len(scenes(turns=1)) + 1  # the whole demo is on the page, still served
        start = time.monotonic()
        proc.stdout.read()
        assert proc.wait(30) == 0 and time.monotonic() - start < 15
    finally:
        proc.kill()
        blocker.close()


def test_during_the_hold_the_station_still_takes_the_referees_actions(tmp_path):
    """`make run HOLD=400 PIN=246813`: once the demo's events are over the page stays up and the
    station with it -- a referee action is accepted and journaled, not "the station is stopped"."""
    from controller.game.events import RefereeAction
    from controller.station.journal import read

    journal = tmp_path / "j.jsonl"
    proc = subprocess.Popen(
        [TAVLA, "run", "--web", "127.0.0.1:0", "--turns", "1", "--pace", "0.05", "--hold", "20",
         "--pin", "246813", "--no-leds", "--plain", "--journal", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, COLUMNS="200"),
    )
    try:
        assert proc.stdout is not None
        url, _ = _first_url(proc)
        for line in proc.stdout:
            if "the page stays open 20 s" in line:
                assert "referee" in line, line
                break
        with urllib.request.urlopen(url + "api/state", timeout=5) as r:
            seq = json.loads(r.read())["seq"]
        body = json.dumps({"pin": "246813", "action": "pause"}).encode()
        headers = {"Content-Type": "application/json"}
        req = urllib.request.Request(url + "api/action", data=body, headers=headers)
        with urllib.request.urlopen(req, timeout=5) as r:
            assert r.status == 202
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with urllib.request.urlopen(url + "api/state", timeout=5) as r:
                if json.loads(r.read())["seq"] == seq + 1:
                    break
            time.sleep(0.05)
        else:
            raise AssertionError("the action was not applied during the hold")
        proc.send_signal(2)  # Ctrl-C ends the hold; the session ends as usual
        proc.stdout.read()
        proc.wait(30)
    finally:
        proc.kill()
    last = read(journal)[-1]
    assert isinstance(last, RefereeAction) and last.action == "pause"


def test_a_short_referee_pin_is_refused_in_one_line(tmp_path):
    for args in (["--pin", "12"], ["--pin", "12345", "--web", "0"]):
        r = subprocess.run(
            [TAVLA, "run", *args, "--journal", str(tmp_path / "j.jsonl")],
            capture_output=True, text=True, timeout=120, env=dict(os.environ, COLUMNS="200"),
        )
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        assert "--pin is" in r.stderr and "6 or more" in r.stderr, r.stderr
        assert not (tmp_path / "j.jsonl").exists()
    config = tmp_path / "station.toml"
    config.write_text('pin = "4711"\n')
    r = subprocess.run(
        [TAVLA, "run", "--config", str(config), "--web", "0", "--journal", str(tmp_path / "j.jsonl")],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, COLUMNS="200"),
    )
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert 'pin = "4711" is 4 characters; a referee PIN needs 6 or more' in r.stderr, r.stderr


def test_make_run_serves_the_page_and_ends_by_itself():
    """The Makefile's run target: the page by default (--web auto), HOLD and PIN passed on."""
    makefile = (Path(__file__).resolve().parents[3] / "Makefile").read_text()
    assert "WEB ?= auto" in makefile
    target = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "--web $(WEB)" in target and "--hold $(HOLD)" in target and "--pin $(PIN)" in target


def test_a_paced_demo_without_a_page_does_not_speak_of_the_page(tmp_path):
    r = subprocess.run(
        [TAVLA, "run", "--pace", "0.01", "--turns", "1", "--no-leds", "--plain",
         "--journal", str(tmp_path / "j.jsonl")],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, COLUMNS="200"),
    )
    assert r.returncode == 0, r.stderr
    assert "the demo plays an event every 0.01 s" in r.stdout
    assert "the page" not in r.stdout and "--hold" not in r.stdout, r.stdout
