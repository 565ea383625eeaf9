"""`tavla run`, `tavla replay`, `tavla resume` as a user runs them (subprocesses of the real console
script), plus the match export and the config file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller.formats.matchfile import read_record
from controller.formats.replay import replay_match
from controller.game.rulings import Settings, SettingsError
from controller.station import config, replay
from controller.station.demo import scripted_events
from controller.station.export import export_match, match_record
from controller.station.journal import Journal
from tests.conftest import shared_data

TAVLA = str(Path(sys.executable).parent / "tavla")


def tavla(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200")  # rich wraps at the terminal width: keep lines whole
    return subprocess.run([TAVLA, *args], capture_output=True, text=True, timeout=timeout, env=env)


def test_run_demo_prints_boards_dice_legal_counts_and_acknowledged_leds(tmp_path):
    r = tavla("run", "--turns", "1", "--journal", str(tmp_path / "j.jsonl"))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "light's home board: bottom-right" in out  # the board diagram
    assert "dice 2-3" in out and "17 legal plays" in out and "movable points" in out
    assert "-> sent" in out and "NOT sent" not in out  # handed to the link, never waited on
    acked = re.search(r"(\d+) LED frames acknowledged, \d+ replaced by a newer one first, 0 not ", out)
    assert acked and int(acked.group(1)) >= 1, out[-400:]


@pytest.mark.slow
def test_run_over_a_webcam_session_processes_every_frame(tmp_path):
    folder = shared_data("boards-webcam") / "frames" / "2024-03-17_12_26_46"
    r = tavla("run", "--source", str(folder), "--journal", str(tmp_path / "j.jsonl"), "--verbose")
    assert r.returncode == 0, r.stderr
    frames = sorted(p.name for p in folder.iterdir())
    for name in frames:
        assert f"frame: {name}" in r.stdout  # --verbose names every frame
    assert f"{len(frames)} frames (" in r.stdout


def test_run_over_a_folder_of_only_unreadable_images_exits_2_with_one_line(tmp_path):
    """It used to read 0 frames and exit 0, as if a game had been watched."""
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "a.jpg").write_text("not a JPEG")
    (folder / "b.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(20))
    r = tavla("run", "--source", str(folder), "--journal", str(tmp_path / "j.jsonl"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "no frame could be read (2 unreadable, first: a.jpg" in r.stderr


def test_run_bad_arguments_exit_2_with_one_line(tmp_path):
    r = tavla("run", "--source", str(tmp_path / "nothing-here"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "tavla:" in r.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules]\npremature_roll = 'sometimes'\n")
    r = tavla("run", "--config", str(bad))
    assert r.returncode == 2 and "premature_roll" in r.stderr


def _journal(tmp_path: Path, settings: Settings | None = None) -> Path:
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        for ev in scripted_events(3, settings=settings):
            j.append(ev)
    return path


def test_replay_prints_the_rulings_and_exports(tmp_path):
    path = _journal(tmp_path, Settings(match_length=3))
    r = tavla("replay", str(path), "--export", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert "RULING [B15] re-throw both dice: a die is cocked" in r.stdout
    assert "RULING [B9]" in r.stdout and "game 1 over" in r.stdout
    assert (tmp_path / "out" / "j.sgf").exists() and (tmp_path / "out" / "j.mat").exists()


def test_replay_refuses_an_edited_journal(tmp_path):
    path = _journal(tmp_path)
    lines = path.read_text().splitlines()
    lines[5] = lines[5].replace('"t":5.0', '"t":5.5')
    path.write_text("\n".join(lines) + "\n")
    r = tavla("replay", str(path))
    assert r.returncode == 2 and "edited" in r.stderr and "j.jsonl:6" in r.stderr


def test_resume_reports_where_the_game_stands(tmp_path):
    path = _journal(tmp_path)
    r = tavla("resume", str(path))
    assert r.returncode == 0, r.stderr
    assert "phase game_over" in r.stdout


def test_export_round_trips_and_replays_legally(tmp_path):
    state, _ = replay(scripted_events(5, settings=Settings(match_length=5)))
    paths = export_match(state, tmp_path)
    assert [p.suffix for p in paths] == [".sgf", ".mat"]
    for p in paths:
        record = read_record(p)
        assert record.games[0].winner == state.records[0].winner
        check = replay_match(record)
        assert not check.illegal_plays and check.final_score == state.score
    assert match_record(state).length == 5


@pytest.mark.parametrize(
    ("light", "dark", "fmt"),
    [
        ("Ana & Ion", "Petra [box]", "consultation"),
        ("Team Riga (Ozols, Kalns, Liepa)", "Team Brno", "team"),
        ("Box Erik", "Team Lena (captain), Ola", "chouette"),
    ],
)
def test_b18_team_formats_are_recorded_as_games_with_named_sides(tmp_path, light, dark, fmt):
    settings = Settings(match_length=5, light_player=light, dark_player=dark, team_format=fmt)
    state, _ = replay(scripted_events(5, settings=settings))
    paths = export_match(state, tmp_path)
    assert [p.suffix for p in paths] == [".sgf", ".mat"]
    for p in paths:
        record = read_record(p)
        assert tuple(record.players) == (light, dark), p.suffix
        check = replay_match(record)
        assert not check.illegal_plays and check.final_score == state.score


@pytest.mark.parametrize("bad", ["", "   ", " Ana", "two\nlines", "Box: Erik", "x" * 61])
def test_b18_side_names_must_be_one_printable_line(bad):
    with pytest.raises(SettingsError, match="light_player"):
        Settings(light_player=bad)


def test_config_file(tmp_path):
    f = tmp_path / "station.toml"
    f.write_text(
        'preset = "usbgf"\nserial = "loop://"\n[rules]\nmatch_length = 7\nlight_home = "bottom-left"\n'
        "[buttons]\nclock_light = 17\n"
    )
    cfg = config.load(f)
    assert cfg.settings.premature_roll == "stands" and cfg.settings.match_length == 7
    assert cfg.settings.light_home == "bottom-left" and cfg.buttons == {"clock_light": 17}
    f.write_text("[buttons]\nhorn = 3\n")
    with pytest.raises(config.ConfigError, match="buttons"):
        config.load(f)
    with pytest.raises(config.ConfigError, match="does not exist"):
        config.load(tmp_path / "none.toml")
    assert json.loads(json.dumps(cfg.settings.to_json())) == cfg.settings.to_json()


def test_unplugged_led_device_pauses_the_clock_and_the_game_goes_on(tmp_path):
    """The LED device vanishes mid-session: the station journals it (DeviceChanged), the clock pauses,
    LED frames are kept (the newest replacing the older), nothing stops; when it is back the newest
    frame is sent and the clock runs again."""
    import time as _time

    from rich.console import Console

    from controller.game.events import DeviceChanged
    from controller.station.session import run_session
    from firmware_bridge import sim

    board = sim.board("tavla-test-unplug")
    events = scripted_events(3, turns=3, settings=Settings(clock="simple", hints="referee"))

    journal = tmp_path / "j.jsonl"

    def wait_journaled(online: bool) -> None:
        # the link notices the silence (or the answer) in its own time: wait for its journal line, not a
        # fixed sleep, so a loaded machine cannot send the next events before the station knows
        deadline = _time.monotonic() + 20.0
        while _time.monotonic() < deadline:
            if any(isinstance(ev, DeviceChanged) and ev.online is online for ev in station_events(journal)):
                return
            _time.sleep(0.05)

    def stream():
        for i, ev in enumerate(events):
            if i == 4:
                board.unplug()
                wait_journaled(False)
            if i == 8:
                board.replug()
                wait_journaled(True)
            yield ev

    console = Console(file=open(tmp_path / "out.txt", "w"), width=120)  # noqa: SIM115
    station = run_session(stream(), Settings(), "ledsim://tavla-test-unplug", journal, console)
    sim.forget("tavla-test-unplug")
    changes = [ev for ev in station_events(journal) if isinstance(ev, DeviceChanged)]
    assert [c.online for c in changes] == [False, True]
    # the frame lit while unplugged was kept, and shown by the device once it was back
    assert "kept until the LED device is back" in " ".join((tmp_path / "out.txt").read_text().split())
    assert station.acks >= 1 and station.led_failures == 0
    assert station.state.clock is not None and not station.state.clock.paused
    assert station.state.phase in ("moving", "to_roll")


def test_run_starts_without_the_led_device_and_lights_it_when_it_answers(tmp_path):
    """Issue 18 item 5: an unplugged LED device does not stop `tavla run`; the station says so in one
    line, plays on, and the device shows the newest frame once it is plugged in."""
    import time as _time

    from rich.console import Console

    from controller.cli.run import run_session
    from controller.game.effects import Leds
    from firmware_bridge import sim

    board = sim.board("tavla-test-offline")
    board.unplug()
    events = scripted_events(3, turns=2)

    journal = tmp_path / "j.jsonl"

    def handled() -> int:
        return len(journal.read_text().splitlines()) if journal.exists() else 0

    def stream():
        for i, ev in enumerate(events):
            if i == 4:
                end = _time.monotonic() + 20
                while handled() < 4 and _time.monotonic() < end:  # the opening roll's LEDs are lit
                    _time.sleep(0.05)
                board.replug()
                _time.sleep(1.5)  # the link retries twice a second
            yield ev

    console = Console(file=open(tmp_path / "out.txt", "w"), width=200)  # noqa: SIM115
    try:
        url = "ledsim://tavla-test-offline"
        station = run_session(stream(), Settings(), url, journal, console)
    finally:
        sim.forget("tavla-test-offline")
    out = " ".join((tmp_path / "out.txt").read_text().split())
    assert "no LED device answers on ledsim://tavla-test-offline yet" in out
    assert "kept until the LED device is back" in out
    last = [e for e in station.effects if isinstance(e, Leds)][-1]
    assert board.device.state == last.frame and station.acks >= 1


def station_events(path):
    from controller.station.journal import read

    return read(path)


def test_b11_beavered_game_exports_with_the_rules_core_cube_values(tmp_path):
    """A double, a beaver and the original doubler's drop (RULES.md B10-B11) are written with the
    values the rules core's cube gives, and the formats' own replay finds no cube problem."""
    from controller.formats.replay import ProblemKind
    from tests.controller.game.scripted import Script

    s = Script(beaver=True)
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    s.press("double", player=1)
    s.press("take", player=0, gesture="double")
    s.press("drop", player=1)
    assert s.state.score == (2, 0)
    skipped: list[str] = []
    [path] = export_match(s.state, tmp_path, skipped=skipped)  # gnubg's SGF has no beaver: .mat only
    assert path.suffix == ".mat" and "beaver" in skipped[0]
    check = replay_match(read_record(path))
    assert not [p for p in check.problems if p.kind is ProblemKind.ILLEGAL_CUBE], check.problems
    assert check.final_score == (2, 0)
