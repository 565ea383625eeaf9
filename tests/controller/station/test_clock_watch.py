"""The clock on screen and the flag fall while nobody moves (issue 15 item 3), under the USBGF preset:
each player's reserve and the running player's delay as they count down, and the flag ruled."""

from __future__ import annotations

from dataclasses import replace

from rich.console import Console

from controller.game.clock import Clock
from controller.game.effects import Announce, GameEnded
from controller.game.events import Tick
from controller.game.rulings import Settings
from controller.station import Station
from controller.station.clock_watch import FlagWatch, StationTime, flag_due
from controller.station.demo import scripted_events
from controller.station.live import LivePrinter
from controller.station.printer import clock_text

USBGF_5 = replace(Settings().with_preset("usbgf"), match_length=5, hints="referee")


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _to_the_opening_move(printer: object = None) -> Station:
    """A station whose light has just rolled the opening roll (his clock runs since t = 2)."""
    station = Station(USBGF_5, printer=printer)  # type: ignore[arg-type]
    for ev in scripted_events(7, turns=4, settings=USBGF_5)[:3]:
        station.handle(ev)
    assert station.state.phase == "moving" and station.state.clock is not None
    assert station.state.clock.running == 0
    return station


def test_usbgf_5_point_reserves_and_the_flag_time() -> None:
    station = _to_the_opening_move()
    clock = station.state.clock
    assert clock is not None
    # USBGF: 2 minutes a match point less one a point scored, 12 s delay a move
    assert clock.reserve == (600.0, 600.0) and clock.delay == 12.0
    assert flag_due(clock) == 2.0 + 12.0 + 600.0
    assert flag_due(replace(clock, paused=True)) is None
    assert flag_due(replace(clock, running=None)) is None


def test_clock_text_counts_the_delay_then_the_reserve() -> None:
    clock = Clock((600.0, 545.2), 12.0, running=1, since=100.0)
    head = "clock: light 10:00, dark "
    assert clock_text(clock, 100.0) == head + "9:06 (dark's runs: 12 s of the 12 s delay left)"
    assert clock_text(clock, 105.0) == head + "9:06 (dark's runs: 7 s of the 12 s delay left)"
    assert clock_text(clock, 130.0) == head + "8:48 (dark's runs: delay spent, the reserve runs)"
    stopped = replace(clock, running=None, since=None)
    assert clock_text(stopped, 130.0).endswith("(stopped; 12 s delay a move)")
    assert "paused" in clock_text(replace(clock, paused=True), 130.0)


def test_the_live_view_counts_down_between_events() -> None:
    """Each player's reserve and the running player's delay, read at each redraw, not at events."""
    fake = FakeTime()
    console = Console(record=True, width=120)
    printer = LivePrinter(console, hints=False, now=fake)
    station = _to_the_opening_move(printer)

    def clock_line() -> str:
        console.print(printer.render())
        text = console.export_text(clear=True)
        return next(line for line in text.splitlines() if "clock: " in line)

    assert "light 10:00, dark 10:00 (light's runs: 12 s of the 12 s delay left)" in clock_line()
    fake.t += 5
    assert "light 10:00, dark 10:00 (light's runs: 7 s of the 12 s delay left)" in clock_line()
    fake.t += 67  # 72 s into the turn: 60 s beyond the delay
    assert "light 9:00, dark 10:00 (light's runs: delay spent, the reserve runs)" in clock_line()
    assert station.state.clock is not None and station.state.clock.reserve == (600.0, 600.0)


def test_the_flag_falls_while_nobody_moves() -> None:
    """No board changes, yet at 2 + 12 + 600 s light's flag falls: the watch submits one Tick and the
    step rules it as the USBGF preset says (the match lost on time)."""
    station = _to_the_opening_move()
    fake = FakeTime()
    now = StationTime(station, now=fake)
    watch = FlagWatch(station, now)
    assert station.last_t == 2.0
    fake.t += 600.0  # station time 602: not yet
    assert not watch.check() and station.queue.empty()
    fake.t += 12.5  # 614.5: delay and reserve spent
    assert watch.check()
    assert not watch.check()  # one Tick a flag
    tick = station.queue.get_nowait()
    assert isinstance(tick, Tick) and tick.t >= 614.0
    effects = station.handle(tick)
    flag = [e.ruling for e in effects if isinstance(e, Announce)]
    assert [(r.rule, r.code, r.player) for r in flag][0] == ("clock", "flag", 0)
    assert "light's time ran out: dark wins the match" in flag[0].reason
    ended = [e for e in effects if isinstance(e, GameEnded)]
    assert ended and ended[0].match_over and station.state.score == (0, 5)
    assert station.state.phase == "match_over"


def test_station_time_goes_on_from_the_last_event() -> None:
    station = Station(USBGF_5)
    station.last_t = 300.0  # a resumed journal's last event
    fake = FakeTime()
    now = StationTime(station, now=fake)
    fake.t += 2.5
    assert now() == 302.5
    station.handle(replace(scripted_events(7, turns=1, settings=USBGF_5)[0], t=310.0))
    assert now() == 310.0
