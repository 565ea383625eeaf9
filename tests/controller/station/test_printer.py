"""What the station prints (controller.station.printer) and the resume check (issue 15 items 2, 4, 6)."""

from __future__ import annotations

from dataclasses import replace

from rich.console import Console

from controller.game.clock import Clock
from controller.game.effects import Announce, Leds
from controller.game.rulings import Settings
from controller.station import ConsolePrinter, Station, replay
from controller.station.demo import scripted_events, seen
from controller.station.printer import clock_text, turn_line


def _printed(settings: Settings, events: list, **kw: object) -> str:
    console = Console(record=True, width=200)
    station = Station(settings, printer=ConsolePrinter(console, **kw))  # type: ignore[arg-type]
    for ev in events:
        station.handle(ev)
    return console.export_text()


def test_one_line_per_play_with_its_hits():
    events = scripted_events(3)
    state = replay(events[:1])[0]
    lines = []
    for ev in events[1:]:
        before = state
        state = _step(state, ev)
        line = turn_line(before, state)
        if line:
            lines.append(line)
    assert lines and all(line.split(":")[0].rsplit(" ", 1)[1][1] == "-" for line in lines)
    assert any("*" in line for line in lines), lines  # seed 3's game has hits, and they are starred


def _step(state, ev):
    from controller import game

    return game.step(state, ev)[0]


def test_the_legend_is_printed_once_and_boards_only_when_they_change():
    out = _printed(Settings(), scripted_events(3, turns=4))
    assert out.count("numbers: ") == 1
    titles = [line for line in out.splitlines() if line.startswith("───")]
    assert len(titles) == len(set(zip(titles, range(len(titles)), strict=True)))


def test_tournament_mode_prints_no_aid():
    """Issue 15 item 2: under the tournament mode (hints = referee) nothing on screen helps a player."""
    settings = Settings(hints="referee", match_length=5)
    out = _printed(settings, scripted_events(3, turns=6, settings=settings), hints=False)
    for aid in ("legal plays", "movable points", "best play", "* = a checker", "LEDs (movable"):
        assert aid not in out, aid
    assert "RULING [B15]" in out  # the rulings stay


def test_quiet_keeps_only_plays_rulings_and_ends():
    out = _printed(Settings(), scripted_events(3, turns=4), verbosity=0)
    assert "RULING [B15]" in out and "───" not in out and "LEDs" not in out


def test_leds_are_named_by_points():
    out = _printed(Settings(), scripted_events(3, turns=2))
    assert "LEDs (movable points): points " in out and "zones" not in out


def test_clock_text_shows_each_players_reserve_and_who_runs():
    clock = Clock((600.0, 545.2), 12.0, running=1, since=100.0)
    want = "clock: light 10:00, dark 8:48 (dark's runs: delay spent, the reserve runs)"
    assert clock_text(clock, 130.0) == want


def test_a_board_that_differs_at_resume_is_a_ruling_with_the_points_and_dark_leds():
    """Issue 15 item 6: LEDs stay off and boards are held back until the board is the journal's."""
    events = scripted_events(3, turns=3)
    state = replay(events[:5])[0]
    assert state.seen is not None
    console = Console(record=True, width=200)
    station = Station(state=state, printer=ConsolePrinter(console), check_resume=True)
    light, dark = state.seen
    moved = list(light)
    moved[5] -= 1
    moved[4] += 1
    wrong = seen((tuple(moved), dark), t=10.0)
    assert station.handle(wrong) == []  # held back: not refereed
    rulings = [e for e in station.effects if isinstance(e, Announce)]
    assert [r.ruling.code for r in rulings] == ["position_mismatch"]
    assert "light's 6: " in rulings[0].ruling.reason and "light's 5: " in rulings[0].ruling.reason
    lit = [e for e in station.effects if isinstance(e, Leds)]
    assert lit and not lit[-1].frame.lit_zones() and station.leds_held
    right = replace(events[5], t=11.0)
    station.handle(right)
    assert not station.leds_held and not station.resume_pending


def test_live_view_shows_board_clock_score_and_the_last_lines():
    from controller.station.live import LivePrinter

    console = Console(record=True, width=120)
    printer = LivePrinter(console, hints=False)
    settings = Settings(hints="referee", clock="usbgf", match_length=5)
    station = Station(settings, printer=printer)
    for ev in scripted_events(3, turns=2, settings=settings):
        station.handle(ev)
    console.print(printer.render())
    out = console.export_text()
    assert "clock: light " in out and "score: light 0 - dark 0" in out and "RULING [B15]" in out
    assert "legal" not in out.split("RULING")[-1] and "best play" not in out


def test_a_legal_play_made_while_the_station_was_down_is_no_mismatch():
    """The journal stopped with dark to move 5-2; the board now shows a legal play of it (the demo's
    next frame after a SIGTERM): the game goes on, no ruling, the LEDs stay on."""
    events = scripted_events(3, turns=3)
    state = replay(events[:3])[0]
    assert state.phase == "moving"
    station = Station(state=state, check_resume=True)
    effects = station.handle(events[3])
    assert effects and not station.resume_pending and not station.leds_held
    assert not [e for e in station.effects if isinstance(e, Announce)]
    station.handle(events[4])  # dark picks up his dice: the play is committed
    assert station.state.turns and station.state.turns[-1].moves


def _boards(out: str) -> list[tuple[str, dict[int, str], tuple[int, int]]]:
    """Each drawn board of ``out``: the player named beside its numbers, label -> cell, and the pips
    of the status line after it."""
    lines = out.splitlines()
    boards = []
    for i, line in enumerate(lines):
        if not line.endswith(("light's", "dark's")) or "|" not in line:
            continue
        who = line.split()[-1][:-2]
        top = line.replace("|", " ").split()[:-1]
        bottom = lines[i + 3].replace("|", " ").split()
        cells: dict[int, str] = {}
        for labels, row in ((top, lines[i + 1]), (bottom, lines[i + 2])):
            for k, label in enumerate(labels):
                cells[int(label)] = row[1 + 5 * k + (3 if k >= 6 else 0) :][:4].strip()
        status = next(s for s in lines[i + 4 :] if "; pips light " in s)
        light, dark = status.split("; pips light ")[1].split(", dark ")
        boards.append((who, cells, (int(light), int(dark.split(";")[0]))))
    return boards


def test_every_nardy_board_is_numbered_as_the_named_players_moves():
    """A fresh user's nardy run: the start board and the boards after a move were numbered as in
    backgammon, so light's head sat under 7. Every board now uses the variant's numbering of the
    player named beside it (RULES.md N2): his pip count is the sum of the labels under his checkers,
    and his head (24) holds his 15 checkers at the start."""
    settings = Settings(variant="nardy")
    out = _printed(settings, scripted_events(7, 6, settings, variant="nardy"))
    boards = _boards(out)
    assert len(boards) > 8 and {who for who, _, _ in boards} == {"light", "dark"}
    for who, cells, pips in boards:
        letter = "L" if who == "light" else "D"
        sum_ = sum(label * int(c[1:].rstrip("*")) for label, c in cells.items() if c.startswith(letter))
        assert sum_ == pips[0 if who == "light" else 1], (who, cells, pips)
    start = boards[0][1]
    assert boards[0][0] == "light" and start[24] == "L15" and start[12] == "D15"


def test_nardy_bear_offs_are_written_off_as_everywhere_else():
    """RULES.md N8: the printed plays and the prompts write a bear-off ``6/off``, not ``6/0``."""
    from controller.formats.notation import format_play
    from controller.rules.nardy import NardyPosition, legal_plays

    settings = Settings(variant="nardy")
    events = scripted_events(7, None, settings, variant="nardy")
    state = replay(events[:1])[0]
    lines = []
    for ev in events[1:]:
        before, state = state, _step(state, ev)
        line = turn_line(before, state)
        if line:
            lines.append(line)
    offs = [line for line in lines if "/off" in line]
    assert offs and not [line for line in lines if "/0" in line], lines
    home = NardyPosition(tuple([0] * 5 + [2] + [0] * 18), tuple([0] * 23 + [15]))
    assert {format_play(p) for p in legal_plays(home, 6, 6)} == {"6/off(2)"}
