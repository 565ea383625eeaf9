"""LED hints (issue 6 item 5): movable points, destinations, gnubg's best play, warning and re-throw."""

from __future__ import annotations

import pytest

from controller import hints
from controller.formats.notation import format_play
from controller.geometry import Seating
from controller.hints import engine
from controller.rules.moves import legal_plays
from controller.rules.position import Position
from firmware_bridge.frames import AMBER, BLUE, GREEN, RED, Effect

SEAT = Seating.for_home("backgammon", "bottom-right")


def side(**points: int) -> tuple[int, ...]:
    s = [0] * 25
    for k, n in points.items():
        s[24 if k == "bar" else int(k[1:]) - 1] = n
    return tuple(s)


def test_movable_points_opening_3_1():
    pos = Position.initial()
    plays = legal_plays(pos, 3, 1)
    assert hints.movable_points(pos, plays) == (24, 13, 8, 6)
    frame = hints.movable_frame(SEAT, 0, hints.movable_points(pos, plays))
    assert frame.lit_zones() == {23, 12, 7, 5} and frame.zones[5].colour == GREEN


def test_b7_only_the_bar_moves_while_a_checker_is_on_it():
    pos = Position(side(bar=1, p13=5, p8=3, p6=6), side(p13=5, p8=3, p6=5, p24=2))
    plays = legal_plays(pos, 3, 1)
    assert hints.movable_points(pos, plays)[0] == 25
    frame = hints.movable_frame(SEAT, 0, [25])
    assert frame.lit_zones() == {24}


def test_destinations_of_a_lifted_checker():
    pos = Position.initial()
    plays = legal_plays(pos, 3, 1)
    assert hints.destinations(plays, 24) == (23, 21, 20)
    frame = hints.destination_frame(SEAT, 0, 24, hints.destinations(plays, 24))
    assert frame.zones[23].effect == Effect.PULSE and frame.zones[22].colour == BLUE


def test_b8_bear_off_destination_is_the_off_tray():
    pos = Position(side(p6=2, p4=1), side(p24=2))
    plays = legal_plays(pos, 6, 4)
    assert 0 in hints.destinations(plays, 6)
    assert hints.zones_for(SEAT, 0, [0]) == {25}  # light's home is on the right: the right tray


def test_warning_and_rethrow_frames():
    w = hints.warning_frame(SEAT, 0, [8, 5])
    assert w.lit_zones() == {7, 4} and w.zones[7].colour == RED and w.zones[7].effect == Effect.BLINK
    r = hints.rethrow_frame()
    assert r.lit_zones() == set(range(24)) and r.zones[0].colour == AMBER


@pytest.mark.skipif(
    not engine.gnubg_available(), reason="gnubg bindings not installed (pip install '.[hints]')"
)
def test_gnubg_best_play_opening():
    pos = Position.initial()
    best = engine.best_play(pos, 3, 1, legal_plays(pos, 3, 1))
    assert format_play(best) == "8/5 6/5"


@pytest.mark.skipif(
    not engine.gnubg_available(), reason="gnubg bindings not installed (pip install '.[hints]')"
)
def test_gnubg_best_play_bear_off_cut_short_is_completed():
    # gnubg 1.1.0a16 reports a bear-off only up to its first "off"; the complete legal play is named
    pos = Position(side(p6=1, p5=1, p2=3), side(p24=2, p13=5))
    plays = legal_plays(pos, 6, 5)
    best = engine.best_play(pos, 6, 5, plays)
    assert best in plays and format_play(best) == "6/off 5/off"


def test_no_plays_no_hint():
    assert engine.best_play(Position.initial(), 3, 1, []) is None


def test_engine_helper_closes_cleanly_at_exit():
    """The gnubg helper (a concurrent.futures process pool) is shut down at exit: no "Exception
    ignored in ... weakref_cb" noise on stderr; close_engine is idempotent and a later hint restarts it."""
    import subprocess
    import sys

    if not engine.gnubg_available():
        pytest.skip("gnubg bindings not installed (pip install --pre gnubg gnubg-nn)")
    code = (
        "from controller.hints import engine\n"
        "from controller.rules.moves import legal_plays\n"
        "from controller.rules.position import Position\n"
        "pos = Position.initial()\n"
        "plays = legal_plays(pos, 3, 1)\n"
        "assert engine.best_play(pos, 3, 1, plays) is not None\n"
        "engine.close_engine(); engine.close_engine()\n"
        "assert engine.best_play(pos, 3, 1, plays) is not None\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Exception ignored" not in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_ctrl_c_while_the_helper_starts_reaches_the_station():
    """The helper is spawned with SIGINT ignored and blocked (so its start-up prints no traceback); a
    Ctrl-C in that window must still interrupt the station, not be dropped (it was, when the mask was
    lifted before the handler came back: the session then ran to its end and exited 0)."""
    import signal
    import subprocess
    import sys

    code = (
        "import os, signal\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from controller.hints import engine\n"
        "submit = ProcessPoolExecutor.submit\n"
        "def late(self, *a, **k):\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    return submit(self, *a, **k)\n"
        "if __name__ == '__main__':\n"
        "    ProcessPoolExecutor.submit = late\n"
        "    try:\n"
        "        engine._gnubg_process()\n"
        "        print('ran on')\n"
        "    except KeyboardInterrupt:\n"
        "        print('interrupted')\n"
        "    finally:\n"
        "        engine.close_engine()\n"
    )
    # a job started in the background by a non-interactive shell inherits SIGINT ignored, and Python
    # then installs no KeyboardInterrupt handler: give the child the default, as a terminal would
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert r.stdout.strip() == "interrupted", (r.stdout, r.stderr)
