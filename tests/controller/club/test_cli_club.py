"""``tavla run --mqtt`` and ``tavla director`` as a user runs them (issue 17 items 1 and 3)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.controller.club.sim import director, game, wait_until

TAVLA = [str(Path(sys.executable).parent / "tavla")]


def _events_file(folder: Path, board: str) -> Path:
    path = folder / f"game-{board}.jsonl"
    path.write_text("".join(json.dumps(e.to_json()) + "\n" for e in game(board)))
    return path


def test_tavla_run_publishes_its_whole_journal(broker, tmp_path):
    d = director(broker.director_url())
    journal = tmp_path / "board-1.jsonl"
    try:
        wait_until(d.connected.is_set, 10, "the director connects")
        done = subprocess.run(
            [*TAVLA, "run", "--events", str(_events_file(tmp_path, "1")), "--no-leds", "--journal",
             str(journal), "--mqtt", broker.station_url("1"), "--club", "club", "--board", "1"],
            capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "connected as board 1 of club" in done.stdout
        assert "disconnected cleanly" in done.stdout and "connection lost" not in done.stdout
        lines = [json.loads(x) for x in journal.read_text().splitlines()]
        wait_until(lambda: "1" in d.view.boards and d.view.boards["1"].held == len(lines) - 1, 20,
                   "the director holds the journal")
        assert d.view.boards["1"].ordered() == lines
        wait_until(lambda: d.view.boards["1"].online is False, 10, "the station says it went offline")
    finally:
        d.close()


def test_tavla_run_refuses_a_broker_url_without_a_user(tmp_path):
    done = subprocess.run(
        [*TAVLA, "run", "--mqtt", "mqtt://127.0.0.1:1", "--club", "c", "--board", "1", "--journal",
         str(tmp_path / "j.jsonl")], capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and "--mqtt-anonymous" in done.stderr
    assert not (tmp_path / "j.jsonl").exists()
    done = subprocess.run([*TAVLA, "run", "--mqtt", "mqtt://u:p@127.0.0.1:1"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "--club" in done.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_tavla_director_serves_the_club(broker, tmp_path):
    port = _free_port()
    page = subprocess.Popen(
        [*TAVLA, "director", "--mqtt", broker.director_url(), "--club", "club", "--web", str(port),
         "--team", "Reds:Blues:1,2,3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        def club() -> dict:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/club", timeout=2) as r:
                return json.load(r)

        def up() -> bool:
            try:
                club()
                return True
            except OSError:
                return False

        wait_until(up, 30, "the page answers")
        subprocess.run(
            [*TAVLA, "run", "--events", str(_events_file(tmp_path, "2")), "--no-leds", "--journal",
             str(tmp_path / "b2.jsonl"), "--mqtt", broker.station_url("2"), "--club", "club", "--board", "2"],
            capture_output=True, timeout=120, check=True,
        )
        wait_until(lambda: any(b["board"] == "2" and b["winner"] for b in club()["boards"]), 20,
                   "the page shows board 2's result")
        (b2,) = [b for b in club()["boards"] if b["board"] == "2"]
        assert (b2["light"], b2["dark"]) == ("L2", "D2")
        assert club()["teams"][0]["by_board"][1][1] in ("Reds", "Blues")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/round.csv", timeout=2) as r:
            assert "L2,D2" in r.read().decode()
    finally:
        page.terminate()
        page.wait(10)


def test_tavla_director_off_loopback_needs_a_pin(tmp_path):
    """The station page's rule: another address than the machine's own needs a PIN, checked before
    the director connects anywhere; a weak PIN is refused too."""
    base = [*TAVLA, "director", "--mqtt", "mqtt://director:pw@127.0.0.1:1", "--club", "club"]
    done = subprocess.run([*base, "--web", "0.0.0.0:8091"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "set a director PIN" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([*base, "--web", "0.0.0.0:8091", "--pin", "123"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "a director PIN needs 6" in done.stderr
    done = subprocess.run([*base, "--web", "8091", "--host", "0.0.0.0"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2  # no --host: the address is --web's, as the station's page


def test_tavla_director_commands_need_its_pin(broker, tmp_path):
    port = _free_port()
    conf = tmp_path / "director.toml"
    conf.write_text('pin = "s3cret-pin"\n')
    page = subprocess.Popen(
        [*TAVLA, "director", "--mqtt", broker.director_url(), "--club", "club", "--web", f"0.0.0.0:{port}",
         "--config", str(conf)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )

    def post(body: dict) -> int:
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/command", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=2) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code

    try:
        def up() -> bool:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/club", timeout=2).close()
                return True
            except OSError:
                return False

        wait_until(up, 30, "the page answers")
        assert post({"command": "pause"}) == 401
        assert post({"command": "pause", "pin": "s3cret-pin"}) == 200
    finally:
        page.terminate()
        page.wait(10)
