"""The home mode: hints only on request (issue 15 item 2), asked by a long press on a clock button
(gpiozero MockFactory pins) or by ``h`` and Enter on the terminal (a pty, through run_session)."""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from rich.console import Console

from controller.game.effects import Hint, Leds
from controller.game.rulings import Settings
from controller.station import ConsolePrinter, Station
from controller.station.buttons import ButtonPanel
from controller.station.demo import scripted_events
from controller.station.session import run_session

HOME = Settings(hints="home")
AIDS = ("legal play", "movable points", "* = a checker", "gnubg's best play", "LEDs (best play)")


def _asked(effects: list[Any]) -> bool:
    return any(isinstance(e, Hint) for e in effects) or any(
        isinstance(e, Leds) and e.why in ("best play", "movable points") for e in effects
    )


def _wait(cond: Any, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return False


def test_home_mode_prints_no_aid_unasked() -> None:
    console = Console(record=True, width=200)
    station = Station(HOME, printer=ConsolePrinter(console, unasked=False))
    for ev in scripted_events(3, turns=6, settings=HOME):
        station.handle(ev)
    out = console.export_text()
    for aid in AIDS:
        assert aid not in out, aid
    assert not _asked(station.effects)
    assert "pips light" in out  # the board and its pip counts are no hint


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def test_clock_buttons_tell_a_long_press_in_the_home_mode(factory: MockFactory) -> None:
    import queue

    q: queue.Queue[Any] = queue.Queue()
    with ButtonPanel({"clock_light": 17}, q.put, pin_factory=factory, long_press=0.15,
                     bounce_time=None, clock_long_press=True):
        pin = factory.pin(17)
        pin.drive_low()
        time.sleep(0.05)
        assert q.empty()  # a press may yet become a long one
        pin.drive_high()
        ev = q.get(timeout=2)
        assert (ev.button, ev.player, ev.gesture) == ("clock", 0, "short")
        pin.drive_low()
        ev = q.get(timeout=2)
        assert (ev.button, ev.player, ev.gesture) == ("clock", 0, "long")
        pin.drive_high()
        time.sleep(0.1)
        assert q.empty()  # the long press's release is no second press


def test_a_long_press_on_the_clock_button_asks_for_the_hint(factory: MockFactory) -> None:
    """The home station with its buttons on mock pins: nothing until the clock button is held."""
    console = Console(file=io.StringIO(), width=200)
    station = Station(HOME, printer=ConsolePrinter(console, unasked=False))
    panel = ButtonPanel({"clock_light": 17, "clock_dark": 27}, station.submit, pin_factory=factory,
                        long_press=0.15, bounce_time=None, clock_long_press=True)
    events = scripted_events(3, turns=6, settings=HOME)
    station.start()
    try:
        for n, ev in enumerate(events, 1):
            station.submit(ev)
            assert _wait(lambda n=n: station.queue.empty() and station.seq >= n)
            if station.state.phase == "moving":
                break
        assert not _asked(station.effects)
        player = station.state.on_roll
        pin = factory.pin(17 if player == 0 else 27)
        pin.drive_low()
        assert _wait(lambda: _asked(station.effects))
        pin.drive_high()
        assert station.state.phase == "moving"  # the long press did not end the turn
    finally:
        station.stop()
        panel.close()
        from controller.hints.engine import close_engine

        close_engine()
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "gnubg's best play" in out or "LEDs (movable points)" in out, out[-2000:]


def test_h_on_the_terminal_asks_for_the_hint(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """``tavla run``'s own session reads the terminal: a pty stands for it, ``h`` and Enter is typed
    once the roll is on the board, and the hint comes (journaled as the long press it stands for)."""
    master, slave = os.openpty()
    tty = os.fdopen(slave, "r")
    monkeypatch.setattr(sys, "stdin", tty)
    out = io.StringIO()
    console = Console(file=out, width=200)
    typed = threading.Event()

    def events() -> Iterator[Any]:
        evs = scripted_events(3, turns=6, settings=HOME)
        yield from evs[:3]  # the match, the start position, the opening roll: light to move
        time.sleep(0.5)  # the station applies them
        assert "gnubg's best play" not in out.getvalue()
        os.write(master, b"h\n")
        typed.set()
        assert _wait(lambda: "gnubg's best play" in out.getvalue() or "LEDs (movable" in out.getvalue())
        yield from evs[3:]

    try:
        station = run_session(events(), HOME, None, tmp_path / "j.jsonl", console, mode="home")
    finally:
        os.close(master)
        tty.close()
    text = out.getvalue()
    assert typed.is_set() and "hints on request: type h and Enter" in text
    assert "gnubg's best play" in text or "LEDs (movable points)" in text
    assert "legal play" not in text and "movable points (" not in text  # nothing unasked
    from controller.game.events import ButtonPressed
    from controller.station.journal import read

    pressed = [ev for ev in read(tmp_path / "j.jsonl") if isinstance(ev, ButtonPressed)]
    assert [(ev.button, ev.gesture) for ev in pressed] == [("clock", "long")]
    assert station.state.phase != "setup"


def test_home_mode_with_piped_input_says_keys_need_a_terminal():
    """Issue 15: with stdin not a terminal (a script, a service) the h key cannot be read; the
    station says so once instead of ignoring it silently, and names the button that still works."""
    import subprocess

    tavla = os.path.join(os.path.dirname(sys.executable), "tavla")
    r = subprocess.run([tavla, "run", "--mode", "home", "--turns", "1", "--plain"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "h and Enter needs a terminal" in r.stdout
    assert "type h and Enter" not in r.stdout
