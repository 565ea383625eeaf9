"""The station's web page (issue 16): :func:`attach` serves it for a station.

:mod:`.server` is the aiohttp server, :mod:`.actions` turns the referee's requests into events,
:mod:`.guard` checks the PIN and the rate; ``page.html`` / ``page.js`` / ``page.css`` are the page
(plain ES modules, no build step). ``board.js`` (the board as SVG), ``live.js`` (the live stream's
client) and ``page.css`` are shared with the director's page (controller.director.web). The state it
shows is controller.station.snapshot's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.station.snapshot import snapshot
from controller.station.web.frame import FrameTap
from controller.station.web.server import AUTO, WebError, WebServer, check_exposure, parse_address

__all__ = ["FrameTap", "WebError", "WebServer", "attach", "check_exposure", "parse_address", "records"]


def records(station: Any, journal_path: Path | None) -> dict[str, Any]:
    """The downloads: the match so far as gnubg .sgf and Jellyfish .mat, and the journal's file."""

    def match(suffix: str) -> Any:
        def make() -> str | None:
            from controller.formats import mat, sgf
            from controller.formats.replay import canonical_record
            from controller.station.export import match_record

            state = station.state  # a frozen value: read whole, never while half-written
            if not state.records and not state.turns:
                return None
            record = canonical_record(match_record(state, dict(station.notes)))
            return sgf.write_sgf(record) if suffix == ".sgf" else mat.write_mat(record)

        return make

    def journal() -> str | None:
        if journal_path is None or not journal_path.exists():
            return None
        return journal_path.read_text(encoding="utf-8")

    return {"match.sgf": match(".sgf"), "match.mat": match(".mat"), "journal.jsonl": journal}


def attach(
    station: Any,
    address: str,
    pin: str | None = None,
    journal_path: Path | None = None,
    frames: FrameTap | None = None,
) -> WebServer:
    """Serve ``station``'s page on ``address`` (``[HOST:]PORT``) and keep it live: the station's
    thread publishes the state JSON after each event; ``frames`` holds the camera's last frame.
    Returns the started server (``stop()`` it). ``auto`` serves on 127.0.0.1:8080, or on a free port
    when 8080 is taken (the server's ``taken`` then says so).

    :raises WebError: (one line) on a bad address, a non-local one without a PIN, or a taken port.
    """
    host, port = parse_address(address)
    server = WebServer(
        station.submit, lambda: float(station.last_t), pin, records(station, journal_path), host, port,
        frame=(lambda: frames.latest) if frames is not None else None,
    )
    server.publish(snapshot(station))
    station.listeners.append(lambda st: server.publish(snapshot(st)))
    server.start(fallback=address.strip().lower() == AUTO)
    return server
