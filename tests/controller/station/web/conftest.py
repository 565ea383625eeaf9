"""A live station with its page for the web tests: journaled, its thread running, served on a free
local port with the PIN ``PIN``."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.station import Station
from controller.station.journal import Journal
from controller.station.web import WebServer, attach

PIN = "246813"


@dataclass
class Live:
    station: Station
    server: WebServer
    journal: Journal
    path: Path

    @property
    def url(self) -> str:
        return self.server.url

    def feed(self, event: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Put ``event`` on the station's queue and wait until the page's state shows it."""
        seq = self.station.seq
        self.station.submit(event)
        return self.wait_seq(seq + 1, timeout)

    def wait_seq(self, seq: int, timeout: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.server.state.get("seq", 0) >= seq:
                return self.server.state
            time.sleep(0.01)
        raise AssertionError(f"the page's state did not reach seq {seq}: {self.server.state.get('seq')}")

    def close(self) -> None:
        self.server.stop()
        self.station.stop()
        self.journal.close()


def start_live(path: Path, port: int = 0, frames: Any = None, settings: Any = None) -> Live:
    journal = Journal(path)
    station = Station(settings, journal=journal) if settings is not None else Station(journal=journal)
    station.start()
    server = attach(station, f"127.0.0.1:{port}", PIN, path, frames)
    return Live(station, server, journal, path)


@pytest.fixture
def live(tmp_path):
    lv = start_live(tmp_path / "journal.jsonl")
    yield lv
    lv.close()


def request(
    url: str, body: Any = None, raw: bytes | None = None, method: str | None = None
) -> tuple[int, Any]:
    """(status, decoded JSON or text) of one request; HTTP errors are answers, not exceptions."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text
