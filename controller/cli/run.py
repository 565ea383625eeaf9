"""``tavla run`` -- the station, end to end (issue 2 item 5, issue 6 item 8).

Frames come from ``--source`` (a camera index, a video file, a folder of images in name order; default
the embedded demo of :mod:`controller.station.demo`), each is read by ``vision.reader.read_board`` and, once
settled, becomes a :class:`controller.game.events.BoardSeen` on the station's queue. For each settled frame
the station prints the board as a text diagram, the dice, how many legal plays the dice allow and
which points hold a checker that can move, and sends the LED frame lighting exactly those points to
``--serial`` (a port or pyserial URL; default the in-process emulator ``ledsim://``), printing whether
the device acknowledged it. Rulings and prompts are printed as they happen; every event is journaled
first (``--journal``; default a new file under ``~/.local/state/tavla``).

Who is on roll and where each home board lies: ``light_home`` in the config, else inferred -- the
start position fixes it exactly, any other position takes the numbering with the lower total pip count
(controller.game.infer_seating); the player on roll is the one on whose right-hand half the dice lie
(RULES.md B15; the player at the bottom edge rolls on the right half).

An existing ``--journal`` whose match is not over is resumed (issue 15 item 5: a service restarted by
systemd comes back to its game; ``--new-only`` refuses it, ``--append`` starts a new session after
it); the demo, a recording or the camera go on from there, and the first board is checked against
the journal (a position-mismatch ruling, LEDs dark, until it matches). ``--mode`` and the station
file's ``mode`` set who sees hints (controller.station.config); on a terminal the output is a live
view (controller.station.live), else lines (``--quiet``, ``--verbose``; controller.station.printer).

Exit 0 at the end of the source or on SIGTERM (after the summary); 130 on Ctrl-C; 2 on a bad argument
(one line saying what to do).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import typer

from controller.cli.common import (
    check_source,
    describe_leds,
    fail,
    led_url,
    resolved_serial,
    run_session,
)
from controller.game.events import Event, MatchStarted
from controller.station.session import (
    Forward,
    default_journal_path,
    demo_events,
    demo_frame_of,
    paced,
    source_events,
    with_match_start,
)


def check_journal_path(
    path: Path, append: bool, key: Any = None, resume: bool = True
) -> tuple[Any, list[Any]]:
    """The game state a journal leads to and its events, or (None, []) for a new file.

    An existing journal whose match is not over is resumed (``resume``: the station under systemd
    comes back to its game after a restart, issue 15 item 5); ``--append`` adds even to a finished
    match. Refused with one line saying what to do: a folder, a finished match without ``--append``,
    a file that is not a journal, a folder that cannot hold the file.

    :raises typer.Exit: (2).
    """
    if path.is_dir():
        raise fail(f"{path} is a folder: give the journal file (e.g. {path / 'match.jsonl'})")
    if not path.exists():
        _check_writable(path)
        return None, []
    if not (append or resume):
        raise fail(
            f"{path} exists already: `tavla resume {path}` goes on with its game, "
            "--append adds to it, or give a new file"
        )
    from controller.cli.journals import load_journal
    from controller.station import replay

    # a file that is not a journal, or an edited one: one line, exit 2; else the station goes on
    # from the state its events lead to, so a replay of the whole file gives what was announced
    done = load_journal(path, key=key)
    state = replay(done)[0]
    if state.phase == "match_over" and not append:
        raise fail(f"the match in {path} is over: give a new --journal (or --append to add to it)")
    return state, done


def _check_writable(path: Path) -> None:
    """A new journal's folder must exist (or be creatable) and take a file: one line saying what to
    do, not a PermissionError from deep inside the session. A file is made and removed again, as
    access() says yes to root where /sys or a read-only mount still refuse."""
    import os

    from controller.station.journal import cannot_write

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as exc:
        raise fail(cannot_write(path, exc)) from exc
    path.unlink()


def club_link_for(url: str | None, club: str | None, board: str | None, anonymous: bool, console: Any) -> Any:
    """The station's club link for ``--mqtt`` (None without it), checked before the session starts.

    :raises typer.Exit: (2, one line) on a bad URL, a URL without a user (unless ``--mqtt-anonymous``),
        or a missing or bad ``--club`` / ``--board``.
    """
    if url is None:
        if club is not None or board is not None or anonymous:
            raise fail("--club, --board and --mqtt-anonymous go with --mqtt mqtt://USER:PASS@HOST:PORT")
        return None
    from controller.club.publisher import ClubLink
    from controller.club.url import ClubError, parse_url

    if club is None or board is None:
        raise fail("--mqtt needs --club NAME and --board N: the topics are tavla/CLUB/BOARD/")
    try:
        return ClubLink(parse_url(url, anonymous), club, board, say=lambda line: console.print(line))
    except ClubError as exc:
        raise fail(str(exc)) from None


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        source: str = typer.Option(
            None,
            "--source",
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
        no_leds: bool = typer.Option(False, "--no-leds", help="run without an LED device", metavar=""),
        pace: float = typer.Option(
            0.0, "--pace", help="seconds between events (--events, the demo); the demo with --web: 1"
        ),
        append: bool = typer.Option(
            False, "--append/--no-append", help="add to an existing --journal, even when its match is over"
        ),
        resume_or_start: bool = typer.Option(
            True,
            "--resume-or-start/--new-only",
            help="an existing unfinished --journal is resumed (the default, for a service); "
            "--new-only refuses any existing file",
        ),
        quiet: bool = typer.Option(
            False, "--quiet", "-q", help="only plays, rulings, game ends, summary", metavar=""
        ),
        verbose: bool = typer.Option(
            False, "--verbose", "-v", help="also every frame and position ID", metavar=""
        ),
        key: Path = typer.Option(
            None, "--key", help="station key file; default ~/.config/tavla/station.key (made at first run)"
        ),
        mqtt: str = typer.Option(
            None, "--mqtt", help="club broker: mqtt://USER:PASS@HOST:PORT (mqtts:// for TLS); see --club"
        ),
        club: str = typer.Option(None, "--club", help="--mqtt: the club's name (topics tavla/CLUB/BOARD/)"),
        board: str = typer.Option(None, "--board", help="--mqtt: this station's board in the club"),
        mqtt_anonymous: bool = typer.Option(
            False, "--mqtt-anonymous", help="--mqtt: allow a broker URL without a user"
        ),
        web: str = typer.Option(
            None,
            "--web",
            help="serve the station's page on [HOST:]PORT (host 127.0.0.1 unless given); "
            "auto: 127.0.0.1:8080, or a free port when 8080 is taken",
        ),
        hold: float = typer.Option(
            0.0, "--hold", help="--web: keep the page open this many seconds after the last event"
        ),
        pin: str = typer.Option(
            None,
            "--pin",
            help="the referee's PIN on the page, 6 characters or more (default the station file's `pin`)",
        ),
        plain: bool = typer.Option(
            False, "--plain", help="lines, not the live view (the default on a terminal)", metavar=""
        ),
        mode: str = typer.Option(
            None,
            "--mode",
            help="tournament (no hints), home (hints on request) or learner; "
            "default the station file's, else learner",
        ),
    ) -> None:
        """The station: frames in, board and rulings out, LEDs lit (default: the embedded demo)."""
        from rich.console import Console

        from controller.station import config as station_config

        console = Console(highlight=False)
        club_link = club_link_for(mqtt, club, board, mqtt_anonymous, console)
        try:
            cfg = station_config.load(config)
        except station_config.ConfigError as exc:
            raise fail(f"{exc}; fix the file or leave out --config") from exc
        if mode is not None:
            try:
                settings = station_config.with_mode(cfg.settings, mode, cfg.preset)
                cfg = replace(cfg, mode=mode, settings=settings)
            except station_config.ConfigError as exc:
                raise fail(str(exc)) from exc
        if turns < 0:
            raise fail(f"--turns {turns}: give a number of turns, or 0 for a whole game")
        if not 0 <= pace < 86400:  # NaN and inf too: time.sleep refuses them
            raise fail(f"--pace {pace:g}: give seconds between events, 0 or more (under a day)")
        if not 0 <= hold < 86400:
            raise fail(f"--hold {hold:g}: give seconds to keep the page open, 0 or more (under a day)")
        page = _web_address(web, pin, cfg.pin, config)
        frames = None
        if page is not None:
            from controller.station.web.frame import FrameTap

            frames = FrameTap()
        serial_url = None if no_leds else (serial or cfg.serial)
        layout = cfg.layout()
        serial_url = led_url(serial_url, layout)  # the default emulator as `tavla led test` sizes it
        leds_on = describe_leds(serial_url)  # resolves `auto`; fails with one line before the banner
        journal_path = journal or (Path(cfg.journal) if cfg.journal else default_journal_path())
        from controller.cli.journals import key_for_writing

        station_key = key_for_writing(key)
        state, done = check_journal_path(journal_path, append, station_key, resume_or_start)
        resuming = state is not None and not append  # --append starts a new session after it
        if quiet and verbose:
            raise fail("give --quiet or --verbose, not both")
        if resuming:
            if mode is not None or config is not None:
                console.print("[dim]resuming: the journal's own settings and mode apply[/dim]")
            cfg = replace(cfg, settings=state.settings, mode=station_config.mode_of(state.settings))
            console.print(
                f"resuming {journal_path}: game {state.game_number}, phase {state.phase}, "
                f"score light {state.score[0]} - dark {state.score[1]}"
            )
        spec = source if source is not None else cfg.source
        calibration = None
        if cfg.calibration:
            from vision.board.calibration import load as load_calibration

            try:
                calibration = load_calibration(cfg.calibration)
            except Exception as exc:
                raise fail(
                    f"calibration {cfg.calibration} cannot be read ({exc}); recalibrate or remove it"
                ) from exc
        sink = Forward()
        if events is not None:
            from controller.cli.journals import check_settings
            from controller.station.journal import read_events_file

            try:
                recorded = read_events_file(events)
            except (OSError, ValueError) as exc:
                raise fail(f"cannot read events from {events}: {exc}") from exc
            check_settings(events, recorded)  # settings this Tavla does not know: one line
            if resuming:  # resuming: the recording goes on after what the journal holds
                head = int(isinstance(done[0], MatchStarted) and recorded[:1] != done[:1])
                if recorded[: len(done) - head] != done[head:]:
                    raise fail(f"{events} does not continue {journal_path}: their first events differ")
                recorded = recorded[len(done) - head :]
            stream: Iterator[Event] = paced(iter(recorded), pace)
        elif spec is None:
            variant = cfg.settings.variant
            console.print(
                f"[bold]Tavla demo[/bold]: a scripted {variant} game rendered by vision.render, read by "
                f"the camera reader, refereed, {leds_on}"
            )
            if not resuming:
                demo = demo_events(
                    console, None if turns == 0 else turns, variant=variant, report=verbose, tap=frames
                )
                stream = with_match_start(demo, cfg.settings)
            else:  # the demo goes on after its last journaled frame, to the end of its game
                frame = demo_frame_of(done)
                start = -1 if frame is None else frame + 1
                stream = demo_events(console, None, start=start, variant=variant, report=verbose, tap=frames)
            if page is not None or pace:  # a page (or a player asking for hints) follows the demo
                stream = paced(stream, pace or 1.0)
                if not resuming:
                    _say_pace(console, pace or 1.0, turns, variant, hold, page is not None)
        else:
            check_source(spec)
            if not resuming:
                # a new game: the board at its start (opening or empty) calibrates and learns its look
                from controller.geometry import start_layouts

                empty = ((None, 0),) * 24
                starts = [*start_layouts(cfg.settings.variant), empty] if calibration is None else None
                stream = with_match_start(
                    source_events(spec, console, calibration, sink, tap=frames, layouts=starts), cfg.settings
                )
            else:
                t_start = done[-1].t if done else 0.0
                stream = source_events(spec, console, calibration, sink, t_start=t_start, tap=frames)
        export_dir = Path(cfg.export_dir) if cfg.export_dir else None
        run_session(
            stream,
            cfg.settings,
            resolved_serial(serial_url),
            journal_path,
            console,
            export_dir=export_dir,
            buttons=cfg.buttons,
            forward=sink,
            state=state,
            key=station_key,
            club=club_link,
            web=page,
            frame_tap=frames,
            verbosity=0 if quiet else 2 if verbose else 1,
            mode=cfg.mode,
            layout=layout,
            check_resume=resuming and events is None,
            live=console.is_terminal and not (plain or quiet or verbose),
            hold=hold if page is not None else 0.0,
        )


def _say_pace(console: Any, pace: float, turns: int, variant: str, hold: float, page: bool = True) -> None:
    """How long the paced demo takes; with a page, how long it stays up and how to keep it longer
    (``--hold``, ``make run HOLD=``). Without ``--web`` there is no page to speak of."""
    from controller.station.demo import scenes

    frames = len(scenes(turns=None if turns == 0 else turns, variant=variant)) + 1  # + MatchStarted
    if not page:
        console.print(f"the demo plays an event every {pace:g} s (about {frames * pace:.0f} s)")
        return
    later = "; --hold S keeps it open S s after (make run HOLD=600)"
    kept = f", then stays open {hold:g} s" if hold else later
    console.print(f"the page follows the demo, an event every {pace:g} s (about {frames * pace:.0f} s){kept}")


def _web_address(
    web: str | None, pin: str | None, file_pin: str | None = None, config: Path | None = None
) -> tuple[str, str | None] | None:
    """``--web`` checked before anything starts: a good address, and a PIN for a non-local host.
    A PIN given (``--pin``, else the station file's) must be 6 characters or more, with or without
    ``--web`` (controller.pin_guard.pin_problem).

    :raises typer.Exit: (2) with one line saying what to do.
    """
    where = "--pin" if pin is not None else f"`pin` in {config or 'the station file'}"
    pin = pin if pin is not None else file_pin
    if pin is not None:
        from controller.pin_guard import pin_problem

        if pin_problem(pin):
            raise fail(f"{where} {pin_problem(pin)}")
    if web is None:
        return None
    from controller.station.web import WebError, check_exposure, parse_address

    try:
        host, _ = parse_address(web)
        check_exposure(host, pin)
    except WebError as exc:
        raise fail(str(exc)) from exc
    return web, pin
