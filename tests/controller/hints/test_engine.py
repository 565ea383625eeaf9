"""gnubg's best play for the LED hint, in its helper process (controller.hints.engine)."""

from __future__ import annotations

import pytest

from controller.formats.notation import format_play
from controller.hints import engine
from controller.rules.moves import legal_plays
from controller.rules.position import Position


def side(**points: int) -> tuple[int, ...]:
    s = [0] * 25
    for k, n in points.items():
        s[24 if k == "bar" else int(k[1:]) - 1] = n
    return tuple(s)


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
