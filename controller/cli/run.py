"""``tavla run`` -- the station, end to end (issue 2 item 5, issue 6 item 8).

Frames come from ``--source`` (a camera index, a video file, a folder of images in name order; default
the embedded demo of :mod:`controller.demo`), each is read by ``vision.reader.read_board`` and, once
settled, becomes a :class:`controller.events.BoardSeen` on the station's queue. For each settled frame
the station prints the board as a text diagram, the dice, how many legal plays the dice allow and
which points hold a checker that can move, and sends the LED frame lighting exactly those points to
``--serial`` (a port or pyserial URL; default the in-process emulator ``ledsim://``), printing whether
the device acknowledged it. Rulings and prompts are printed as they happen; every event is journaled
first (``--journal``; default a new file under ``~/.local/state/tavla``).

Who is on roll and where each home board lies: ``light_home`` in the config, else inferred -- the
start position fixes it exactly, any other position takes the numbering with the lower total pip count
(controller.game.infer_seating); the player on roll is the one on whose right-hand half the dice lie
(RULES.md B15; the player at the bottom edge rolls on the right half).

Exit 0 at the end of the source; 2 on a bad argument (one line saying what to do).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from controller.events import BoardSeen, Event, board_seen


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"tavla: {message}", err=True)
    return typer.Exit(code)


def default_journal_path() -> Path:
    """A new journal file under ``$XDG_STATE_HOME/tavla`` (``~/.local/state/tavla``)."""
    import os

    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "tavla"
    return base / f"journal-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.jsonl"


def demo_events(
    console: Any, turns: int | None = 6, use_reader: bool = True, start: int = 0
) -> Iterator[Event]:
    """BoardSeen events from the rendered demo game: each frame read by the real reader; where the reader
    disagrees with the renderer's ground truth, the truth is used and the difference printed (the demo
    must play its script to the end). ``use_reader`` False takes the renderer's ground truth directly
    (the frames are still rendered: the dice positions come from the image). ``start``: the first
    frame to yield (``tavla resume --demo`` goes on after the frames its journal holds)."""
    from controller.demo import frames
    from vision.reader import read_board

    for i, (image, truth, caption) in enumerate(frames(turns=turns)):
        if i < start:
            continue
        if not use_reader:
            yield board_seen(truth, t=float(i), source=f"demo {i}: {caption}")
            continue
        try:
            reading = read_board(image)
            same = reading.board_found and reading.counts() == truth.counts()
            dice_same = sorted(d.value or 0 for d in reading.dice) == sorted(d.value or 0 for d in truth.dice)
        except Exception as exc:  # a reader bug must not stop the demo; say so and use the truth
            reading, same, dice_same = None, False, False
            console.print(f"[yellow]reader failed on demo frame {i}: {exc}[/yellow]")
        if not (same and dice_same):
            wrong = (
                sum(a != b for a, b in zip(reading.counts(), truth.counts(), strict=False))
                if reading is not None and reading.board_found
                else 24
            )
            console.print(
                f"[dim]demo frame {i}: the reader got {24 - wrong}/24 points"
                f"{'' if dice_same else ' and not the dice'}; using the renderer's ground truth[/dim]"
            )
            reading = truth
        yield board_seen(reading if reading is not None else truth, t=float(i), source=f"demo {i}: {caption}")


def source_events(
    spec: str,
    console: Any,
    calibration: Any = None,
    notify: Any = None,
    t_start: float = 0.0,
    capture_factory: Any = None,
) -> Iterator[Event]:
    """BoardSeen events from a camera, video or image folder through ``vision.pipeline`` (source ->
    reader -> stability gate). A folder holds separate photos: each is settled on its own
    (``GateConfig.for_stills``) and every photo gets an answer -- a frame the gate does not settle (no
    board, a hand over it) is passed on with its status, so the station says why it waits. Video and
    camera frames are passed on only once settled (the gate's still run); a camera uses a fixed-camera
    detector (``CalibratedDetector``: the board found once, re-found when the camera moves).

    ``notify`` (any thread) gets a DeviceChanged when the camera is lost or comes back: frames stop
    then, so the station hears it from the source's own grabber thread (the clock pauses meanwhile).
    A loss carries ``since``: the time of the last frame the camera delivered, so the clock refunds
    all the silent time, not only what followed the source's notice (issue 6 item 6).

    Event times ``t`` are seconds since the source opened plus ``t_start`` (a resumed session goes on
    from its journal's last time, so the clock never sees time run backwards). ``capture_factory``:
    a camera capture builder (``vision.sources.open_source``; tests pass a fake camera)."""
    from vision.frames.pipeline import CalibratedDetector, run_pipeline
    from vision.frames.sources import open_source
    from vision.frames.stability import GateConfig
    from vision.reading import BoardReading, FrameStatus

    folder = Path(spec).is_dir()
    gate = GateConfig.for_stills() if folder or Path(spec).is_file() and _is_image(spec) else None
    detector = CalibratedDetector(calibration) if not folder else _still_reader(calibration)
    t0 = time.monotonic() - t_start
    last_frame = [t_start]  # when the source last delivered a frame (session seconds)

    def camera_event(ev: Any) -> None:
        from controller.events import DeviceChanged

        if notify is not None and ev.kind in ("lost", "reconnected"):
            online = ev.kind == "reconnected"
            notify(
                DeviceChanged(
                    t=round(time.monotonic() - t0, 3),
                    device="camera",
                    online=online,
                    since=None if online else round(last_frame[0], 3),
                )
            )

    src = open_source(spec, on_event=camera_event, capture_factory=capture_factory)
    last: Any = None
    with src:
        for result in run_pipeline(src, detector, gate):
            frame = result.frame
            name = frame.name or f"frame {frame.index}"
            last_frame[0] = max(last_frame[0], frame.timestamp - t0)
            t = round(time.monotonic() - t0, 3)
            if result.error:
                console.print(f"[yellow]{name}: unreadable frame ({result.error}); skipped[/yellow]")
            if result.settled is not None:
                last = None
                yield board_seen(result.settled, t=t, source=name)
            elif folder or gate is not None or (result.status != last and result.status != FrameStatus.OK):
                # every photo gets an answer; a video or camera says when (and why) it starts waiting
                last = result.status
                status = result.status if result.status != FrameStatus.OK else FrameStatus.MOVING
                occluded = status == FrameStatus.OCCLUDED
                yield board_seen(
                    BoardReading(board_found=False, occluded=occluded, status=status), t=t, source=name
                )
        for ev in src.poll_events():
            if ev.kind in ("skipped", "lost"):
                console.print(f"[yellow]{ev.message}[/yellow]")


def _check_source(spec: str) -> None:
    """Open ``spec`` once before the session starts; a folder or file must give at least one frame.

    :raises typer.Exit: (code 2, one line) when the source cannot be opened, or when a folder's
        images or a file all fail to decode (a run would otherwise end with 0 frames and exit 0).
    """
    from vision.frames.sources import open_source

    try:
        src = open_source(spec)
    except (OSError, ValueError) as exc:
        raise _fail(f"{exc}") from exc
    try:
        if Path(spec).exists() and src.read() is None:
            skipped = getattr(src, "skipped", [])
            first = f" ({len(skipped)} unreadable, first: {skipped[0][1]})" if skipped else ""
            raise _fail(f"{spec}: no frame could be read{first}; give JPEG/PNG photos or a playable video")
    except OSError as exc:
        raise _fail(f"{spec}: {exc}") from exc
    finally:
        src.close()


def _is_image(spec: str) -> bool:
    from vision.frames.sources import IMAGE_SUFFIXES

    return Path(spec).suffix.lower() in IMAGE_SUFFIXES


def _still_reader(calibration: Any) -> Any:
    """Separate photos may each frame the board differently: read each from scratch (or with the
    given calibration)."""
    from vision.reader import read_board

    return lambda image: read_board(image, calibration)


class Forward:
    """Hands events to a target set later (the station's queue, once it exists); drops them before
    that or after the station stopped. Called from any thread."""

    def __init__(self) -> None:
        self.target: Any = None

    def __call__(self, event: Event) -> None:
        target = self.target
        if target is None:
            return
        try:
            target(event)
        except Exception:  # the station has stopped: nothing left to tell
            pass


def paced(events: Iterator[Event], pace: float) -> Iterator[Event]:
    """The events, ``pace`` seconds apart (a recorded session replayed in real time)."""
    for ev in events:
        if pace > 0:
            time.sleep(pace)
        yield ev


def with_match_start(events: Iterator[Event], settings: Any) -> Iterator[Event]:
    """A new session's journal begins with its settings (controller.events.MatchStarted)."""
    from controller.events import MatchStarted

    yield MatchStarted(t=0.0, settings=settings.to_json())
    yield from events


def with_settings(events: Iterator[Event], settings: Any) -> Iterator[Event]:
    """The events, led by a MatchStarted with ``settings`` when they do not begin with one and the
    settings are not the defaults a replay assumes: the journal then holds every input, the station's
    settings included, and replays to the same rulings (issue 6 item 7)."""
    from controller.events import MatchStarted
    from controller.rulings import Settings

    first = next(events, None)
    if first is None:
        return
    if not isinstance(first, MatchStarted) and settings is not None and settings != Settings():
        yield MatchStarted(t=0.0, settings=settings.to_json())
    yield first
    yield from events


def open_link(url: str, on_event: Any = None) -> Any:
    """The LED link to ``url`` (waits for the device's HELLO); ``on_event`` gets its link events.

    :raises typer.Exit: (2) with one line when no device answers.
    """
    from firmware_bridge.link import LedLink

    try:
        return LedLink.open(url, on_event=on_event)
    except Exception as exc:
        raise _fail(
            f"no LED device answers on {url} ({exc}); check the cable, or use --serial ledsim://"
        ) from exc


def _resolved(serial_url: str | None) -> str | None:
    """``auto`` -> the port it finds (see :func:`describe_leds`, which checked it already)."""
    if serial_url is None or serial_url.strip().lower() != "auto":
        return serial_url
    from firmware_bridge.ports import find_board

    return find_board().device


def describe_leds(serial_url: str | None) -> str:
    """The banner's words for where the LEDs are (``--no-leds``, the emulator, a port, ``auto``).

    :raises typer.Exit: (2) with one line when ``auto`` finds no LED board.
    """
    if serial_url is None:
        return "no LEDs (--no-leds)"
    if serial_url.startswith("ledsim://"):
        return "LEDs on the emulated device"
    if serial_url.strip().lower() == "auto":
        from firmware_bridge.errors import DeviceNotFoundError
        from firmware_bridge.ports import find_board

        try:
            board = find_board()
        except DeviceNotFoundError as exc:
            raise _fail(str(exc)) from None
        return f"LEDs on {board.device} ({board.known_board}, found by --serial auto)"
    return f"LEDs on {serial_url}"


def check_journal_path(path: Path, append: bool) -> Any:
    """Refuse, with one line saying what to do, a journal path that is a folder, or an existing file
    without ``--append`` (a new session must not silently continue someone else's journal). Returns
    the game state an appended-to journal leads to (None for a new file).

    :raises typer.Exit: (2).
    """
    if path.is_dir():
        raise _fail(f"{path} is a folder: give the journal file (e.g. {path / 'match.jsonl'})")
    if path.exists() and not append:
        raise _fail(
            f"{path} exists already: `tavla resume {path}` goes on with its game, "
            "--append adds to it, or give a new file"
        )
    if path.exists():
        from controller.cli.journal import _load
        from controller.station import replay

        # a file that is not a journal, or an edited one: one line, exit 2; else the station goes on
        # from the state its events lead to, so a replay of the whole file gives what was announced
        return replay(_load(path))[0]
    return None


def run_session(
    events: Iterator[Event],
    settings: Any,
    serial_url: str | None,
    journal_path: Path | None,
    console: Any,
    state: Any = None,
    export_dir: Path | None = None,
    buttons: dict[str, int] | None = None,
    forward: Forward | None = None,
) -> Any:
    """Feed events through a station (journal, step, effects) and print a summary; returns the station."""
    from controller.events import DeviceChanged
    from controller.journal import Journal
    from controller.station import ConsolePrinter, Station

    t0 = time.monotonic()
    holder: dict[str, Any] = {}

    def link_event(ev: Any) -> None:
        """The LED device going away or coming back pauses / resumes the clock (issue 6 item 6)."""
        from firmware_bridge.events import LinkOffline, LinkOnline

        station_ = holder.get("station")
        if station_ is None or station_.closed:
            return
        now = round(time.monotonic() - t0, 3)
        if isinstance(ev, LinkOffline):
            station_.submit(DeviceChanged(t=now, device="leds", online=False))
        elif isinstance(ev, LinkOnline) and ev.reconnect:
            station_.submit(DeviceChanged(t=now, device="leds", online=True))

    link = open_link(serial_url, link_event) if serial_url else None
    journal = Journal(journal_path) if journal_path else None
    printer = ConsolePrinter(console)
    from controller.export import export_match

    folder = export_dir or (journal_path.parent if journal_path else None)
    stem = journal_path.stem if journal_path else "tavla-match"

    def on_end(st: Any) -> None:
        """At each game's end the match so far is written as .sgf and .mat (issue 6 item 7)."""
        if folder is None:
            return
        skipped: list[str] = []
        try:
            for path in export_match(st, folder, stem, skipped):
                console.print(f"match written: {path}")
            for why in skipped:
                console.print(f"[yellow]match file not written: {why}[/yellow]")
        except OSError as exc:  # a full disk must not stop the game; the journal still has it all
            console.print(f"[yellow]could not write the match file in {folder}: {exc}[/yellow]")

    station = Station(settings, link=link, journal=journal, printer=printer, on_game_end=on_end, state=state)
    holder["station"] = station
    if forward is not None:
        forward.target = station.submit
    panel = None
    if buttons:
        from controller.buttons import ButtonPanel

        try:
            panel = ButtonPanel(buttons, station.submit)
        except Exception as exc:  # no GPIO on this machine: the station runs without buttons
            console.print(
                f"[yellow]buttons unavailable ({type(exc).__name__}: {exc}); running without them[/yellow]"
            )
    frames = settled = 0
    if state is None and (journal is None or len(journal) == 0):
        events = with_settings(iter(events), settings)  # a new journal starts with its settings
    interrupted = False
    try:
        station.start()
        try:
            for ev in events:
                if isinstance(ev, BoardSeen):
                    frames += 1
                    settled += ev.usable
                station.submit(ev)
            station.stop(timeout=120)
        except KeyboardInterrupt:
            # Ctrl-C: what is queued is journaled already or never was; stop cleanly and say how to
            # go on (the summary and the resume line), exit 130 like any interrupted command
            interrupted = True
            console.print("[yellow]interrupted (Ctrl-C): stopping the station[/yellow]")
            with station.queue.mutex:
                station.queue.queue.clear()
            try:
                station.stop(timeout=30)
            except Exception as exc:  # the thread's own failure: still print the summary
                console.print(f"[yellow]{exc}[/yellow]")
    finally:
        from controller.hints import close_engine

        close_engine()  # the gnubg helper process ends with the session, not at interpreter teardown
        if panel is not None:
            panel.close()
        if journal is not None:
            journal.close()
        if link is not None:
            link.close()
    from controller.effects import Announce, Show

    shows = sum(isinstance(e, Show) for e in station.effects)
    rulings = sum(isinstance(e, Announce) for e in station.effects)
    console.rule("summary")
    console.print(
        f"{frames} frames ({settled} settled boards), {shows} boards shown, "
        f"{rulings} ruling{'' if rulings == 1 else 's'}, "
        f"{station.acks} LED frames acknowledged, {station.led_failures} not acknowledged; "
        f"phase {station.state.phase}, "
        f"score light {station.state.score[0]} - dark {station.state.score[1]}"
    )
    if journal_path:
        console.print(f"journal: {journal_path} (resume with `tavla resume {journal_path}`)")
    if interrupted:
        raise typer.Exit(130)
    return station


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        source: str = typer.Option(
            None, "--source",
            help="camera index (0), picamera[:N], a device path, a video file or an image folder; "
            "default: the demo",
        ),
        serial: str = typer.Option(
            None, "--serial", help="LED device port, pyserial URL or auto (by USB IDs); default ledsim://"
        ),
        config: Path = typer.Option(None, "--config", help="station config file (TOML)"),
        journal: Path = typer.Option(
            None, "--journal", help="journal file; default a new one in ~/.local/state/tavla"
        ),
        events: Path = typer.Option(
            None, "--events", help="feed recorded events (JSON Lines) instead of frames"
        ),
        turns: int = typer.Option(6, "--turns", help="demo: number of turns to play (0 = a whole game)"),
        no_leds: bool = typer.Option(False, "--no-leds", help="run without an LED device"),
        pace: float = typer.Option(0.0, "--pace", help="--events: seconds between events"),
        append: bool = typer.Option(
            False, "--append", help="add to an existing --journal (else an existing file is refused)"
        ),
    ) -> None:
        """The station: frames in, board and rulings out, LEDs lit (default: the embedded demo)."""
        from rich.console import Console

        from controller import config as station_config

        console = Console(highlight=False)
        try:
            cfg = station_config.load(config)
        except station_config.ConfigError as exc:
            raise _fail(f"{exc}; fix the file or leave out --config") from exc
        if turns < 0:
            raise _fail(f"--turns {turns}: give a number of turns, or 0 for a whole game")
        if pace < 0:
            raise _fail(f"--pace {pace:g}: give seconds between events, 0 or more")
        serial_url = None if no_leds else (serial or cfg.serial)
        leds_on = describe_leds(serial_url)  # resolves `auto`; fails with one line before the banner
        journal_path = journal or (Path(cfg.journal) if cfg.journal else default_journal_path())
        state = check_journal_path(journal_path, append)
        spec = source if source is not None else cfg.source
        calibration = None
        if cfg.calibration:
            from vision.board.calibration import load as load_calibration

            try:
                calibration = load_calibration(cfg.calibration)
            except Exception as exc:
                raise _fail(
                    f"calibration {cfg.calibration} cannot be read ({exc}); recalibrate or remove it"
                ) from exc
        sink = Forward()
        if events is not None:
            from controller.cli.journal import _check_settings
            from controller.journal import read_events_file

            try:
                recorded = read_events_file(events)
            except (OSError, ValueError) as exc:
                raise _fail(f"cannot read events from {events}: {exc}") from exc
            _check_settings(events, recorded)  # settings this Tavla does not know: one line
            stream: Iterator[Event] = paced(iter(recorded), pace)
        elif spec is None:
            console.print(
                "[bold]Tavla demo[/bold]: a scripted game rendered by vision.render, read by the camera "
                f"reader, refereed, {leds_on}"
            )
            stream = with_match_start(demo_events(console, None if turns == 0 else turns), cfg.settings)
        else:
            _check_source(spec)
            stream = with_match_start(source_events(spec, console, calibration, sink), cfg.settings)
        export_dir = Path(cfg.export_dir) if cfg.export_dir else None
        run_session(
            stream,
            cfg.settings,
            _resolved(serial_url),
            journal_path,
            console,
            export_dir=export_dir,
            buttons=cfg.buttons,
            forward=sink,
            state=state,
        )
