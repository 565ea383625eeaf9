"""``tavla resume [JOURNAL]`` and ``tavla replay JOURNAL`` (issue 6 items 7 and 8).

``resume`` checks the journal's hash chain, replays its events through ``game.step`` to the state the
station had when it stopped (a crash included), prints where the game stands, and -- given a source
(``--source``, ``--events`` or ``--demo``) -- goes on from there, appending to the same journal. With
``--events`` the file's events that the journal already holds are skipped (they must agree), so a
recorded session killed at any point and resumed ends with every event journaled exactly once.

``replay`` re-runs a journal and prints every ruling with its RULES.md id, its reason and the event
that caused it (with ``--boards``, every board too). Rulings are not journaled: only input events are,
and the rulings are recomputed by the pure, deterministic ``game.step``.

Both check the chain under the station key (``--key``, default this station's own; issue 18 item 4)
and say "the last N events after the last seal may be missing" when the file does not end with a
seal. Exit 2 on a missing, unreadable or edited journal (one line saying which line is wrong).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from controller.cli.common import fail
from controller.cli.journals import (
    check_writable,
    key_for_reading,
    key_for_writing,
    load_journal,
    newest_journal,
)

_fail = fail


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_cmd(
        journal: Path = typer.Argument(..., help="a journal written by tavla run"),
        boards: bool = typer.Option(False, "--boards", help="print every board as well"),
        export: Path = typer.Option(None, "--export", help="write the match as .sgf and .mat in this folder"),
        force: bool = typer.Option(False, "--force", help="with --export: overwrite match files there"),
        until_damage: bool = typer.Option(
            False, "--until-damage", help="an edited journal: replay the entries before its first bad line"
        ),
        key: Path = typer.Option(
            None, "--key", help="the station key to check the journal with; default this station's own"
        ),
    ) -> None:
        """Re-run a journal and print every ruling it led to, with its rule and reason.

        The journal holds the input events only (boards seen, buttons, devices, the match's settings);
        the rulings are recomputed here by replaying them through the pure ``game.step``, which gives
        the same rulings the station announced (DESIGN.md "Data flow": the step is deterministic).
        Each ruling is printed as ``#<event> t=<s> RULING [<RULES.md id>] <reason> (<code>, <player>)``.
        """
        from rich.console import Console
        from rich.text import Text

        from controller import game
        from controller.game.effects import Announce, GameEnded, Show
        from controller.station import ConsolePrinter

        console = Console(highlight=False)
        if export is not None and export.exists() and not export.is_dir():
            raise _fail(f"--export takes a folder to write the .sgf and .mat in; {export} is a file")
        events = load_journal(journal, until_damage, key_for_reading(key), key_given=key is not None)
        printer = ConsolePrinter(console)
        state = game.new_state()
        rulings = 0
        notes: dict[tuple[int, int], list[str]] = {}
        for i, ev in enumerate(events):
            state, effects = game.step(state, ev)
            if export is not None:
                from controller.station.export import collect_rulings

                collect_rulings(notes, state, effects)
            for e in effects:
                if isinstance(e, Announce):
                    rulings += 1
                    r = e.ruling
                    who = {0: "light", 1: "dark"}.get(r.player or 0) if r.player is not None else "-"
                    line = f"#{i} t={ev.t:g} RULING [{r.rule}] {r.reason} ({r.code}, {who})"
                    console.print(Text(line, style="magenta"))
                elif isinstance(e, GameEnded):
                    printer.game_ended(e)
                elif boards and isinstance(e, Show):
                    printer.show(e)
        console.print(
            f"{len(events)} events, {rulings} ruling{'' if rulings == 1 else 's'}; phase {state.phase}, "
            f"score light {state.score[0]} - dark {state.score[1]}"
        )
        if export is not None:
            from controller.station.export import export_match

            names = (f"{journal.stem}.sgf", f"{journal.stem}.mat")
            taken = [export / n for n in names if (export / n).exists()]
            if taken and not force:
                raise _fail(f"{taken[0]} exists; add --force to overwrite it or give another --export folder")
            try:
                paths = export_match(state, export, journal.stem, notes=notes)
            except OSError as exc:
                raise _fail(f"cannot write the match in {export}: {exc}") from exc
            for path in paths:
                console.print(f"match written: {path}")
            if not paths:
                console.print("no game to export: the journal has no move yet")

    @app.command("resume")
    def resume_cmd(
        journal: Path = typer.Argument(None, help="the journal to resume; default the newest one"),
        source: str = typer.Option(None, "--source", help="go on with frames from this source"),
        events: Path = typer.Option(None, "--events", help="go on with recorded events (JSON Lines)"),
        demo: bool = typer.Option(False, "--demo", help="go on with the demo frames"),
        serial: str = typer.Option(None, "--serial", help="LED device port or pyserial URL"),
        no_leds: bool = typer.Option(False, "--no-leds", help="run without an LED device"),
        pace: float = typer.Option(0.0, "--pace", help="seconds between recorded events"),
        key: Path = typer.Option(
            None, "--key", help="station key file; default ~/.config/tavla/station.key (made at first run)"
        ),
    ) -> None:
        """Rebuild the game from a journal and, given a source, carry on appending to it."""
        from rich.console import Console

        from controller.cli.common import run_session
        from controller.station import replay
        from controller.station.session import Forward, demo_events, paced, source_events

        console = Console(highlight=False)
        if sum(x is not None and x is not False for x in (source, events, demo)) > 1:
            raise _fail("give one of --source, --events or --demo to go on with, not several")
        if not 0 <= pace < 86400:  # NaN and inf too: time.sleep refuses them
            raise _fail(f"--pace {pace:g}: give seconds between events, 0 or more (under a day)")
        path = journal or newest_journal()
        if path is None:
            raise _fail("no journal found; give the journal path `tavla run` printed")
        goes_on = any(x is not None and x is not False for x in (source, events, demo))
        station_key = key_for_writing(key) if goes_on else key_for_reading(key)
        done = load_journal(path, key=station_key, key_given=key is not None)
        from controller.station.session import demo_frame_of

        demo_from = demo_frame_of(done)
        if demo and demo_from is None:
            raise _fail(
                f"{path} is not a demo session: go on with its camera (--source) or recording (--events)"
            )
        if goes_on:
            check_writable(path, station_key)  # locked, or another key: refused before "resumed ..."
        if source is not None:
            from controller.cli.common import check_source as _check_source

            _check_source(source)  # one line and exit 2 when it cannot be opened or gives no frame
        serial_url = None if no_leds else (serial or "ledsim://")
        from controller.cli.common import describe_leds
        from controller.cli.common import resolved_serial as _resolved

        describe_leds(serial_url)  # `auto` finds no board: one line, before anything is done
        state, _ = replay(done)
        sink = Forward()  # the camera's lost / back notices reach the station through it
        console.print(
            f"resumed {path}: {len(done)} events; phase {state.phase}, "
            f"on roll {'-' if state.on_roll is None else ('light', 'dark')[state.on_roll]}, "
            f"score light {state.score[0]} - dark {state.score[1]}"
        )
        if events is not None:
            from controller.game.events import MatchStarted
            from controller.station.journal import read_events_file

            try:
                recorded = read_events_file(events)
            except (OSError, ValueError) as exc:
                raise _fail(f"cannot read events from {events}: {exc}") from exc
            # `tavla run --events` may have led the journal with the station's settings (with_settings)
            head = int(bool(done) and isinstance(done[0], MatchStarted) and recorded[:1] != done[:1])
            if recorded[: len(done) - head] != done[head:]:
                raise _fail(f"{events} does not continue {path}: their first {len(done)} events differ")
            stream: Any = paced(iter(recorded[len(done) - head :]), pace)
        elif source is not None:
            stream = source_events(source, console, notify=sink, t_start=done[-1].t if done else 0.0)
        elif demo:
            # the demo goes on from the frame after the last one journaled (the script is the same
            # whatever --turns was: a longer run extends it), to the end of its game
            assert demo_from is not None
            console.print(f"the demo goes on from frame {demo_from + 1}")
            stream = demo_events(console, None, start=demo_from + 1, variant=state.settings.variant)
        else:
            return
        # the board must be the journal's, as for `tavla run --journal` (issue 15 item 6): a recording
        # goes on from the journal's own events, a camera or the demo from a real board
        run_session(
            stream, state.settings, _resolved(serial_url), path, console, state=state, forward=sink,
            key=station_key, check_resume=events is None, flag_watch=events is None,
        )
