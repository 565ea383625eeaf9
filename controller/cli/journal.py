"""``tavla resume [JOURNAL]`` and ``tavla replay JOURNAL`` (issue 6 items 7 and 8).

``resume`` checks the journal's hash chain, replays its events through ``game.step`` to the state the
station had when it stopped (a crash included), prints where the game stands, and -- given a source
(``--source``, ``--events`` or ``--demo``) -- goes on from there, appending to the same journal. With
``--events`` the file's events that the journal already holds are skipped (they must agree), so a
recorded session killed at any point and resumed ends with every event journaled exactly once.

``replay`` re-runs a journal and prints every ruling with its RULES.md id, its reason and the event
that caused it (with ``--boards``, every board too). Rulings are not journaled: only input events are,
and the rulings are recomputed by the pure, deterministic ``game.step``.

Exit 2 on a missing, unreadable or edited journal (one line saying which line is wrong).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from controller.journal import JournalTampered


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"tavla: {message}", err=True)
    return typer.Exit(code)


def _newest_journal() -> Path | None:
    from controller.cli.run import default_journal_path

    folder = default_journal_path().parent
    found = sorted(folder.glob("journal-*.jsonl"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    return found[-1] if found else None


def _load(path: Path, until_damage: bool = False) -> list[Any]:
    """The journal's events, checked; every way it can be wrong is one line saying what to do (exit 2).

    A last line cut short by a crash is dropped with a one-line note (it was never acted on). With
    ``until_damage`` an edited journal gives the events before its first bad line (with a note).
    """
    from controller.journal import JournalError, NotAJournal, read_until_damage, torn_tail

    if path.is_dir():
        raise _fail(f"{path} is a folder: give the journal file (journal-*.jsonl in it)")
    try:
        events, damage = read_until_damage(path)
        torn = torn_tail(path)
    except FileNotFoundError as exc:
        raise _fail(f"journal {path} does not exist; give the path `tavla run` printed") from exc
    except NotAJournal as exc:
        raise _fail(
            f"{path} is not a Tavla journal; give the journal-*.jsonl file `tavla run` printed"
        ) from exc
    except (JournalError, OSError) as exc:
        raise _fail(f"cannot read journal {path}: {exc}") from exc
    if damage is not None:
        if not until_damage:
            raise _fail(_damage_message(path, damage))
        typer.echo(
            f"note: {path} is damaged from line {damage.line}: replaying the {len(events)} events before it"
        )
    elif torn:
        typer.echo(
            f"note: {path}: the last line was cut short (a crash mid-write) and is dropped; "
            "it was never acted on"
        )
    _check_settings(path, events)
    return events


def _damage_message(path: Path, damage: JournalTampered) -> str:
    good = damage.line - 1
    return (
        f"{damage}; nothing from there on can be trusted: keep the file as it is for the referee; "
        f"`tavla replay {path} --until-damage` shows the game up to line {good}"
    )


def _check_settings(path: Path, events: list[Any]) -> None:
    """A match's settings this Tavla does not know (a journal from a newer or older version)."""
    from controller.events import MatchStarted
    from controller.rulings import Settings, SettingsError

    for ev in events:
        if isinstance(ev, MatchStarted):
            try:
                Settings.from_json(ev.settings)
            except (SettingsError, TypeError) as exc:
                raise _fail(
                    f"{path} comes from a different Tavla version ({exc}); "
                    "replay it with the version that wrote it, or update Tavla"
                ) from exc


def _is_demo(events: list[Any]) -> int | None:
    """The last demo frame's number when the journal is a `tavla run` demo session (every board it
    saw came from the demo), else None."""
    from controller.events import BoardSeen

    boards = [ev for ev in events if isinstance(ev, BoardSeen)]
    if not boards or not all(ev.source.startswith("demo ") for ev in boards):
        return None
    try:
        return int(boards[-1].source.split()[1].rstrip(":"))
    except (IndexError, ValueError):
        return None


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
        from controller.effects import Announce, GameEnded, Show
        from controller.station import ConsolePrinter

        console = Console(highlight=False)
        events = _load(journal, until_damage)
        printer = ConsolePrinter(console)
        state = game.new_state()
        rulings = 0
        notes: dict[tuple[int, int], list[str]] = {}
        for i, ev in enumerate(events):
            state, effects = game.step(state, ev)
            if export is not None:
                from controller.export import collect_rulings

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
            from controller.export import export_match

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
    ) -> None:
        """Rebuild the game from a journal and, given a source, carry on appending to it."""
        from rich.console import Console

        from controller.cli.run import Forward, demo_events, paced, run_session, source_events
        from controller.station import replay

        console = Console(highlight=False)
        if sum(x is not None and x is not False for x in (source, events, demo)) > 1:
            raise _fail("give one of --source, --events or --demo to go on with, not several")
        if pace < 0:
            raise _fail(f"--pace {pace:g}: give seconds between events, 0 or more")
        path = journal or _newest_journal()
        if path is None:
            raise _fail("no journal found; give the journal path `tavla run` printed")
        done = _load(path)
        demo_from = _is_demo(done)
        if demo and demo_from is None:
            raise _fail(
                f"{path} is not a demo session: go on with its camera (--source) or recording (--events)"
            )
        if source is not None:
            from controller.cli.run import _check_source

            _check_source(source)  # one line and exit 2 when it cannot be opened or gives no frame
        serial_url = None if no_leds else (serial or "ledsim://")
        from controller.cli.run import _resolved, describe_leds

        describe_leds(serial_url)  # `auto` finds no board: one line, before anything is done
        state, _ = replay(done)
        sink = Forward()  # the camera's lost / back notices reach the station through it
        console.print(
            f"resumed {path}: {len(done)} events; phase {state.phase}, "
            f"on roll {'-' if state.on_roll is None else ('light', 'dark')[state.on_roll]}, "
            f"score light {state.score[0]} - dark {state.score[1]}"
        )
        if events is not None:
            from controller.events import MatchStarted
            from controller.journal import read_events_file

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
            stream = demo_events(console, None, start=demo_from + 1)
        else:
            return
        run_session(stream, state.settings, _resolved(serial_url), path, console, state=state, forward=sink)
