"""A station session: events from the demo, a camera, a video or a folder, through the station.

Lifted out of ``tavla run`` so that ``tavla run`` and ``tavla resume`` share it without importing each
other: :func:`run_session` opens the LED link and the journal, feeds the events through a
:class:`~controller.station.Station` and prints the summary; :func:`demo_events` and
:func:`source_events` make the events.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.game.events import BoardSeen, Event, board_seen
from controller.station import StationError
from controller.station.live import LivePrinter as LivePrinterType
from controller.station.printer import PHASE_WORDS, ConsolePrinter


class LinkUnavailable(StationError):
    """No LED device answered on the port or URL given (the message says what to do)."""


class SessionRefused(StationError):
    """The session cannot start on its journal (another station holds it, or it is unusable)."""


MODE_WORDS = {
    "tournament": "no hints anywhere: rulings, clock and records only",
    "home": "hints on request: a long press on the clock button, the page's hint button, or h and Enter",
    "learner": "the legal moves and gnubg's best play after each roll",
}


# Set by the SIGTERM handler, which then raises KeyboardInterrupt: the session stops as for Ctrl-C
# (a flag, not an exception class: the controller's exceptions are all TavlaErrors, and one that
# `except Exception` catches would be swallowed on its way up).
_terminated = threading.Event()


def _on_sigterm() -> Any:
    """SIGTERM raises KeyboardInterrupt in the main thread, ``_terminated`` set (the previous handler
    is returned);
    nothing is done off the main thread, where Python cannot install handlers."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum: int, frame: Any) -> None:
        _terminated.set()
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, handler)


def _restore_sigterm(previous: Any) -> None:
    import signal

    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def _hint_keys(station: Any, now: Any, stream: Any = None) -> None:
    """A daemon thread: each ``h`` line on the terminal (``stream``, default stdin) is a hint request,
    journaled like the button's long press (controller.game: a long press on the clock button);
    ``now`` the station time (controller.station.clock_watch.StationTime)."""
    import threading

    from controller.game.events import ButtonPressed

    def read() -> None:
        try:
            for line in stream or sys.stdin:
                if line.strip().lower() == "h" and not station.closed:
                    station.submit(ButtonPressed(t=now(), gesture="long"))
        except (StationError, OSError, ValueError):  # stopped meanwhile, or the terminal went away
            return

    threading.Thread(target=read, name="tavla-keys", daemon=True).start()


def _hold(page: Any, seconds: float, console: Any) -> None:
    """Keep the page open ``seconds`` after the game's last event, the station still running (its
    actions are journaled); Ctrl-C (or SIGTERM) ends it sooner."""
    console.print(
        f"the game's events are over; the page stays open {seconds:g} s and takes the referee's "
        "actions (Ctrl-C closes it)"
    )
    try:
        time.sleep(seconds)
    except KeyboardInterrupt:
        pass


def demo_frame_of(events: list[Event]) -> int | None:
    """The last demo frame's number when every board the journal saw came from the demo, else None."""
    boards = [ev for ev in events if isinstance(ev, BoardSeen)]
    if not boards or not all(ev.source.startswith("demo ") for ev in boards):
        return None
    try:
        return int(boards[-1].source.split()[1].rstrip(":"))
    except (IndexError, ValueError):
        return None


class SessionInterrupted(StationError):
    """Ctrl-C stopped the session; the station stopped cleanly and printed its summary."""


def default_journal_path() -> Path:
    """A new journal file under ``$XDG_STATE_HOME/tavla`` (``~/.local/state/tavla``)."""
    import os

    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "tavla"
    return base / f"journal-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.jsonl"


def demo_events(
    console: Any,
    turns: int | None = 6,
    use_reader: bool = True,
    start: int = 0,
    variant: str = "backgammon",
    report: bool = True,
    tap: Any = None,
) -> Iterator[Event]:
    """BoardSeen events from the rendered demo game: each frame read by the real reader; where the reader
    disagrees with the renderer's ground truth, the truth is used and the difference printed (the demo
    must play its script to the end). ``use_reader`` False takes the renderer's ground truth directly
    (the frames are still rendered: the dice positions come from the image). ``start``: the first
    frame to yield (``tavla resume --demo`` goes on after the frames its journal holds); ``variant``
    the game the demo plays (backgammon, or nardy with its own script); ``report`` False leaves out
    the reader's disagreements (``tavla run`` prints them with ``--verbose``). ``tap``
    (controller.station.web.frame.FrameTap) gets each frame with the reader's own reading."""
    from controller.station.demo import frames
    from vision.reader import read_board

    for i, (image, truth, caption) in enumerate(frames(turns=turns, variant=variant)):
        if i < start:
            continue
        if not use_reader:
            yield board_seen(truth, t=float(i), source=f"demo {i}: {caption}")
            continue
        try:
            # each frame is rendered from a camera of its own (the render's seed places it): it is read
            # as a still, from scratch; a fixed camera's one calibration would not fit the next frame
            reading = read_board(image)
            same = reading.board_found and reading.counts() == truth.counts()
            dice_same = sorted(d.value or 0 for d in reading.dice) == sorted(d.value or 0 for d in truth.dice)
        except Exception as exc:  # a reader bug must not stop the demo; say so and use the truth
            reading, same, dice_same = None, False, False
            console.print(f"[yellow]reader failed on demo frame {i}: {exc}[/yellow]")
        if tap is not None and reading is not None:
            tap(image, reading)
        if not (same and dice_same) and report:
            wrong = (
                sum(a != b for a, b in zip(reading.counts(), truth.counts(), strict=False))
                if reading is not None and reading.board_found
                else 24
            )
            console.print(
                f"[dim]demo frame {i}: the reader got {24 - wrong}/24 points"
                f"{'' if dice_same else ' and not the dice'}; using the renderer's ground truth[/dim]"
            )
        if not (same and dice_same):
            reading = truth
        yield board_seen(reading if reading is not None else truth, t=float(i), source=f"demo {i}: {caption}")


def source_events(
    spec: str,
    console: Any,
    calibration: Any = None,
    notify: Any = None,
    t_start: float = 0.0,
    capture_factory: Any = None,
    tap: Any = None,
    layouts: Any = None,
) -> Iterator[Event]:
    """BoardSeen events from a camera, video or image folder through ``vision.frames.pipeline`` (source ->
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
    a camera capture builder (``vision.frames.sources.open_source``; tests pass a fake camera).
    ``tap`` (controller.station.web.frame.FrameTap) gets each frame read, with its reading.
    ``layouts``: what the board shows at a game's start (``controller.geometry.start_layouts`` and an
    empty board): a camera's first calibration is checked against them and learns the board's look
    (``vision.board.learn``); while it does not match, the station says which points differ and
    reads with the board's place alone, trying again when it searches the board next."""
    from vision.frames.pipeline import CalibratedDetector, run_pipeline
    from vision.frames.sources import open_source
    from vision.frames.stability import GateConfig
    from vision.reading import BoardReading, FrameStatus

    folder = Path(spec).is_dir()
    gate = GateConfig.for_stills() if folder or Path(spec).is_file() and _is_image(spec) else None
    detector = (CalibratedDetector(calibration, layouts=layouts,
                                   what="the opening position or an empty board")
                if not folder else _still_reader(calibration))
    said: list[str | None] = [None]  # the last calibration note shown
    t0 = time.monotonic() - t_start
    last_frame = [t_start]  # when the source last delivered a frame (session seconds)

    def camera_event(ev: Any) -> None:
        from controller.game.events import DeviceChanged

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
            if tap is not None and result.reading is not None:
                tap(frame.image, result.reading)
            note = getattr(detector, "learn_note", None)
            if note != said[0]:
                said[0] = note
                if note:
                    console.print(f"[yellow]{name}: the board's look is not learned yet: {note}[/yellow]")
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
    """A new session's journal begins with its settings (controller.game.events.MatchStarted)."""
    from controller.game.events import MatchStarted

    yield MatchStarted(t=0.0, settings=settings.to_json())
    yield from events


def with_settings(events: Iterator[Event], settings: Any) -> Iterator[Event]:
    """The events, led by a MatchStarted with ``settings`` when they do not begin with one and the
    settings are not the defaults a replay assumes: the journal then holds every input, the station's
    settings included, and replays to the same rulings (issue 6 item 7)."""
    from controller.game.events import MatchStarted
    from controller.game.rulings import Settings

    first = next(events, None)
    if first is None:
        return
    if not isinstance(first, MatchStarted) and settings is not None and settings != Settings():
        yield MatchStarted(t=0.0, settings=settings.to_json())
    yield first
    yield from events


def open_link(url: str, on_event: Any = None, console: Any = None, layout: Any = None) -> Any:
    """The LED link to ``url`` (waits for the device's first answer); ``on_event`` gets its link
    events. A device that is silent or unplugged does not stop the station (issue 18): the link keeps
    trying twice a second and syncs the LEDs when it comes up; ``console`` is told so in one line.

    :raises LinkUnavailable: (one line) when the device answered but cannot serve this station.
    """
    from firmware_bridge.errors import IncompatibleDeviceError
    from firmware_bridge.link import LedLink

    link = LedLink.open(url, layout=layout, on_event=on_event, require=False)
    error = link.first_error
    if isinstance(error, IncompatibleDeviceError):
        link.close()
        raise LinkUnavailable(str(error))  # names the device and what to do, as `tavla led test` says
    if not link.online and console is not None:
        console.print(
            f"[yellow]no LED device answers on {url} yet ({error}); the station starts without it "
            "and lights the LEDs when it answers[/yellow]"
        )
    return link


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
    key: Any = None,
    club: Any = None,
    web: tuple[str, str | None] | None = None,
    frame_tap: Any = None,
    verbosity: int = 1,
    mode: str | None = None,
    layout: Any = None,
    check_resume: bool = False,
    live: bool = False,
    hold: float = 0.0,
    flag_watch: bool = True,
) -> Any:
    """Feed events through a station (journal, step, effects) and print a summary; returns the station.
    The journal is chained under ``key`` (controller.station.journal_key) and locked while the session
    runs. ``club``: a :class:`controller.club.publisher.ClubLink` publishing the journal and state to the
    club's broker (``--mqtt``), attached before the first event and closed at the end. ``web``
    (address, referee PIN) serves the station's page while it runs (controller.station.web);
    ``frame_tap`` its camera frames. ``verbosity`` 0 quiet, 1 normal, 2 verbose
    (controller.station.printer); ``mode`` is shown (the settings' hints carry it); ``layout`` the LED
    strip's (``[leds]``); ``check_resume``: the first board must be the resumed journal's (issue 15
    item 6). SIGTERM (a service being stopped) stops the session as Ctrl-C does: the summary, the
    journal sealed, exit 0. ``live``: draw into one live panel (controller.station.live) rather than
    scrolling lines. In the home mode, with a terminal on stdin, ``h`` and Enter asks for a hint (as a
    long press on a clock button does). ``hold``: seconds the page stays open after the last event
    (Ctrl-C ends the wait; the session then ends as usual). ``flag_watch``: with a clock, a flag falls
    while nobody moves (controller.station.clock_watch; off for recorded events, whose times are not
    now).

    :raises LinkUnavailable: when the LED device on ``serial_url`` cannot serve this station.
    :raises SessionRefused: (one line) when the journal is locked by another station or unusable.
    :raises SessionInterrupted: after the summary, when Ctrl-C stopped the session.
    """
    from controller.game.events import DeviceChanged
    from controller.station import Station
    from controller.station.journal import Journal, JournalError

    holder: dict[str, Any] = {}

    def link_event(ev: Any) -> None:
        """The LED device going away or coming back pauses / resumes the clock (issue 6 item 6)."""
        from firmware_bridge.events import LinkOffline, LinkOnline

        station_, clock = holder.get("station"), holder.get("now")
        if station_ is None or station_.closed or clock is None:
            return
        now = clock()
        if isinstance(ev, LinkOffline):
            station_.submit(DeviceChanged(t=now, device="leds", online=False))
        elif isinstance(ev, LinkOnline) and ev.reconnect:
            station_.submit(DeviceChanged(t=now, device="leds", online=True))

    try:  # the lock first: a second station on this journal refuses before it touches the LEDs
        journal = Journal(journal_path, key=key) if journal_path else None
    except JournalError as exc:
        raise SessionRefused(f"{exc}") from exc
    if journal is not None and len(journal):
        from controller.station import replay

        if state is None:  # written meanwhile by another station
            journal.close()
            raise SessionRefused(f"{journal_path} exists already: --append adds to it, or give a new file")
        state = replay(journal.events)[0]  # what the journal holds now, under its lock
    try:
        link = open_link(serial_url, link_event, console, layout) if serial_url else None
    except BaseException:
        if journal is not None:
            journal.close()
        raise
    from controller.station.config import mode_of

    shown = state.settings if state is not None else settings
    mode = mode or mode_of(shown)
    printer: ConsolePrinter
    hints, unasked = mode != "tournament", mode == "learner"  # home: the hints asked for only
    if live:
        printer = LivePrinterType(console, hints=hints, unasked=unasked)
    else:
        printer = ConsolePrinter(console, hints=hints, verbosity=verbosity, unasked=unasked)
    console.print(f"mode: {mode} ({MODE_WORDS[mode]})")
    if mode == "home" and sys.stdin is not None and sys.stdin.isatty():
        console.print("hints on request: type h and Enter (or a long press on a clock button)")
    elif mode == "home":
        # keys are read from a terminal only: piped input (a script, a service) is not a player
        console.print("hints on request: a long press on a clock button (h and Enter needs a terminal)")
    from controller.station.export import export_match

    folder = export_dir or (journal_path.parent if journal_path else None)
    stem = journal_path.stem if journal_path else "tavla-match"

    def on_end(st: Any) -> None:
        """At each game's end the match so far is written as .sgf and .mat (issue 6 item 7)."""
        if folder is None:
            return
        skipped: list[str] = []
        try:
            station_ = holder.get("station")
            notes = station_.notes if station_ is not None else None
            for path in export_match(st, folder, stem, skipped, notes):
                console.print(f"match written: {path}")
            for why in skipped:
                console.print(f"[yellow]match file not written: {why}[/yellow]")
        except OSError as exc:  # a full disk must not stop the game; the journal still has it all
            console.print(f"[yellow]could not write the match file in {folder}: {exc}[/yellow]")

    station = Station(
        settings,
        link=link,
        journal=journal,
        printer=printer,
        on_game_end=on_end,
        state=state,
        check_resume=check_resume,
    )
    station.mode = mode
    if journal is not None:
        station.seq = len(journal)  # a resumed session's page counts the events it goes on from
        if len(journal):
            station.last_t = max(ev.t for ev in journal.events)  # its time goes on from there
    from controller.station.clock_watch import FlagWatch, StationTime

    now = StationTime(station)
    holder["station"], holder["now"] = station, now
    if club is not None and journal is not None:
        club.attach(station)  # connects in the background: the station never waits for the broker
    page = None
    if web is not None:
        from controller.station.web import attach

        try:
            page = attach(station, web[0], web[1], journal_path, frame_tap)
        except BaseException:
            if club is not None:
                club.close()
            if journal is not None:
                journal.close()
            if link is not None:
                link.close()
            raise
        if page.taken is not None:
            console.print(f"[yellow]port {page.taken} is taken by another program: the page moved[/yellow]")
        console.print(f"[bold]the station's page: {page.where}[/bold]")
    if forward is not None:
        forward.target = station.submit
    panel = None
    if buttons:
        from controller.station.buttons import ButtonPanel

        try:
            panel = ButtonPanel(buttons, station.submit, clock=now, clock_long_press=mode == "home")
        except Exception as exc:  # no GPIO on this machine: the station runs without buttons
            console.print(
                f"[yellow]buttons unavailable ({type(exc).__name__}: {exc}); running without them[/yellow]"
            )
    frames = settled = 0
    if state is None and (journal is None or len(journal) == 0):
        events = with_settings(iter(events), settings)  # a new journal starts with its settings
    interrupted = False
    previous = _on_sigterm()
    if mode == "home" and sys.stdin is not None and sys.stdin.isatty():
        _hint_keys(station, now)
    watch = FlagWatch(station, now) if flag_watch and station.state.settings.clock else None
    if isinstance(printer, LivePrinterType):
        printer.start()
    try:
        station.start()
        if watch is not None:
            watch.start()
        try:
            for ev in events:
                if isinstance(ev, BoardSeen):
                    frames += 1
                    settled += ev.usable
                station.submit(ev)
            if page is not None and hold > 0:
                # the hold is the demo's: the station keeps running, so the page's referee actions
                # still land in the journal until it ends (a real station's events never end)
                station.wait_idle(timeout=120)
                _hold(page, hold, console)
            station.stop(timeout=120)
        except KeyboardInterrupt:
            # Ctrl-C or SIGTERM: what is queued is journaled already or never was; stop cleanly and
            # say how to go on (the summary and the resume line); Ctrl-C exits 130, SIGTERM 0
            interrupted = not _terminated.is_set()
            why = "Ctrl-C" if interrupted else "SIGTERM"
            console.print(f"[yellow]stopping the station ({why})[/yellow]")
            with station.queue.mutex:
                station.queue.queue.clear()
            try:
                station.stop(timeout=30)
            except Exception as exc:  # the thread's own failure: still print the summary
                console.print(f"[yellow]{exc}[/yellow]")
    finally:
        if watch is not None:
            watch.stop()
        if isinstance(printer, LivePrinterType):
            printer.stop()
        _restore_sigterm(previous)
        from controller.hints.engine import close_engine

        close_engine()  # the gnubg helper process ends with the session, not at interpreter teardown
        if club is not None:
            club.close()
        if page is not None:
            page.stop()
        if panel is not None:
            panel.close()
        if journal is not None:
            journal.close()
        if link is not None:
            if link.online:
                link.wait_synced(1.0)  # the last frame's outcome, for the summary's counts
            link.close()
    st = station.state
    if st.turns and all(r.number != st.game_number for r in st.records):
        on_end(st)  # a session that stops mid-game (the default demo) still leaves its match record
    from controller.game.effects import Announce, Show

    shows = sum(isinstance(e, Show) for e in station.effects)
    rulings = sum(isinstance(e, Announce) for e in station.effects)
    console.rule("summary")
    console.print(
        f"{frames} frames ({settled} settled boards), {shows} boards shown, "
        f"{rulings} ruling{'' if rulings == 1 else 's'}, "
        f"{station.acks} LED frames acknowledged, {station.led_replaced} replaced by a newer one first, "
        f"{station.led_failures} not acknowledged; "
        f"phase {station.state.phase} ({PHASE_WORDS.get(station.state.phase, 'unknown')}), "
        f"score light {station.state.score[0]} - dark {station.state.score[1]}"
    )
    if journal_path:
        console.print(f"journal: {journal_path} (resume with `tavla resume {journal_path}`)")
    if interrupted:
        raise SessionInterrupted("interrupted (Ctrl-C)")
    return station
