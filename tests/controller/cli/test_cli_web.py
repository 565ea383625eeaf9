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
