"""Club simulation parts: stations replaying scripted games through a real broker, a director, and a
TCP proxy whose connections can be cut (a station's network gone for a while)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.club.publisher import ClubLink
from controller.club.url import parse_url
from controller.director.client import DirectorClient
from controller.director.club import ClubView
from controller.game.effects import Announce
from controller.game.rulings import Settings
from controller.station import Station
from controller.station.demo import scripted_events
from controller.station.journal import Journal
from tests.controller.club.broker import CLUB


def game(board: str, seed: int = 3) -> list:
    """A one-point match played to its end by two named players (about 140 events)."""
    settings = Settings(hints="referee", match_length=1, light_player=f"L{board}", dark_player=f"D{board}")
    return scripted_events(seed, settings=settings)


def wait_until(cond: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.05)


@dataclass
class SimStation:
    """Board ``board`` on its own thread: journal, station, club link; :meth:`play` feeds its game."""

    board: str
    folder: Path
    url: str
    events: list = field(default_factory=list)
    pace: float = 0.0

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / f"board-{self.board}.jsonl"
        self.journal = Journal(self.path, fsync=False)
        self.station = Station(journal=self.journal)
        self.link = ClubLink(parse_url(self.url), CLUB, self.board)
        self.link.attach(self.station)
        self.station.start()
        self.thread = threading.Thread(target=self._feed, daemon=True)

    def _feed(self) -> None:
        for ev in self.events or game(self.board):
            if self.pace:
                time.sleep(self.pace)
            self.station.submit(ev)

    def play(self) -> SimStation:
        self.thread.start()
        return self

    def finish(self) -> None:
        """Wait for the game, stop the station (its stop seal is published too), keep the link."""
        self.thread.join(60)
        self.station.stop()

    def close(self) -> None:
        self.link.close()
        self.journal.close()

    def lines(self) -> list[dict]:
        return [json.loads(x) for x in self.path.read_text().splitlines()]

    def rulings(self) -> int:
        return sum(isinstance(e, Announce) for e in self.station.effects)


def director(url: str) -> DirectorClient:
    d = DirectorClient(parse_url(url), ClubView(CLUB), tick=0.2)
    d.start()
    return d


def caught_up(d: DirectorClient, stations: list[SimStation]) -> bool:
    """Every board's view holds its station's whole journal, and the latest state."""
    with d.view.lock:
        for s in stations:
            b = d.view.boards.get(s.board)
            last = s.journal.next_seq - 1
            if b is None or b.held != last or not b.state or b.state.get("seq") != last - 1 + (
                    not s.station.closed):
                return False
    return True


class CutProxy:
    """127.0.0.1:port forwarding to the broker; :meth:`cut` drops every connection and refuses new
    ones for a while, as a station's network going away does."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.down_until = 0.0
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if time.monotonic() < self.down_until:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self, seconds: float) -> None:
        self.down_until = time.monotonic() + seconds
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def url(self, user: tuple[str, str]) -> str:
        return f"mqtt://{user[0]}:{user[1]}@127.0.0.1:{self.port}"
