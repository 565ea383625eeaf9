"""A page left open for hours (controller.station.web.server): many thousands of events with a client
that never reads. The stalled client is dropped once its buffers are full, the server's memory stays
bounded, a page that reads keeps up to the newest state, and the game is not slowed or changed."""

from __future__ import annotations

import socket
import threading
import time
import tracemalloc
import urllib.request

import pytest

from controller.game.rulings import Settings
from controller.station import Station, replay
from controller.station.demo import scripted_events
from controller.station.web import WebServer, attach
from controller.station.web import server as web_server


def _stalled_client(port: int) -> socket.socket:
    """Opens the live stream and never reads a byte (a tiny receive buffer, so it fills soon)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    return s


class Reader(threading.Thread):
    """A page that reads: keeps the id of the last state it was sent."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.last_id = ""
        self.states = 0

    def run(self) -> None:
        try:
            with urllib.request.urlopen(self.url + "api/events", timeout=30) as stream:
                for raw in stream:
                    line = raw.decode()
                    if line.startswith("id: "):
                        self.last_id = line[4:].strip()
                        self.states += 1
        except OSError:
            pass


def _wait(check, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError(f"{what} did not happen within {timeout} s")


@pytest.fixture
def short_timeouts(monkeypatch):
    monkeypatch.setattr(web_server, "WRITE_TIMEOUT_S", 1.0)
    monkeypatch.setattr(web_server, "KEEPALIVE_S", 0.2)


def test_thousands_of_states_and_a_client_that_never_reads(short_timeouts):
    """20 000 states of 4 kB each (80 MB if anything buffered them): the stalled client is dropped,
    the traced memory grows by far less than that, and a reading page ends on the newest state."""
    server = WebServer(lambda e: None, lambda: 0.0)
    server.start()
    stalled = _stalled_client(server.port)
    reader = Reader(server.url)
    reader.start()
    _wait(lambda: server.streams == 2, 10, "both streams open")
    pad = "x" * 4000
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for seq in range(1, 20001):
            server.publish({"seq": seq, "pad": pad})
        # the server sends only the newest of a burst, so on a busy machine the loop above may not
        # have filled the stalled socket yet: states keep coming (as a game's would) until it has
        end = time.monotonic() + 60
        while server.dropped == 0 and time.monotonic() < end:
            seq += 1
            server.publish({"seq": seq, "pad": pad})
            time.sleep(0.002)
        _wait(lambda: server.dropped == 1, 15, "the stalled client dropped")
        _wait(lambda: reader.last_id == f"{server.epoch}-{seq}", 15, "the reading page at the newest state")
        grown = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
        stalled.close()
        server.stop()

    assert grown < 8 * 2**20, f"the server held {grown / 2**20:.1f} MiB"
    assert server.streams == 0
    assert 1 <= reader.states <= seq + 1  # skipped to the newest when it lagged, never queued


def test_a_stalled_page_does_not_change_or_slow_the_game(tmp_path, short_timeouts):
    """A real station playing whole games event by event, its page stalled: every event is applied,
    the state is the replay of the events, and the stalled stream is let go."""
    events = []
    while len(events) < 1500:
        events += scripted_events(turns=None, settings=Settings(hints="referee"))
    station = Station(Settings(hints="referee"))
    station.start()
    page = attach(station, "127.0.0.1:0")
    stalled = _stalled_client(page.port)
    _wait(lambda: page.streams == 1, 10, "the stream open")
    try:
        for ev in events:
            station.submit(ev)
        station.stop(timeout=120)
        # under load the server sends only the newest of a burst, so the game alone may not fill the
        # stalled socket: big states after it make sure it fills and the client is let go
        final = page.state["seq"]
        end = time.monotonic() + 60
        seq = station.seq
        while page.dropped == 0 and time.monotonic() < end:
            seq += 1
            page.publish({**page.state, "seq": seq, "pad": "x" * 4000})
            time.sleep(0.001)
        _wait(lambda: page.dropped == 1, 15, "the stalled client dropped")
    finally:
        stalled.close()
        page.stop()
    assert station.seq == len(events)
    assert station.state == replay(events)[0]
    assert final == len(events)
