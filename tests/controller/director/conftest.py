"""A club fed as the broker feeds it, from real stations: three boards of a team match (RULES.md
B18), Reds playing light, each station's journal lines as its ``events`` and its snapshot as its
retained ``state``; and the director's page served on a free local port."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from controller.club import topics
from controller.director.club import ClubView
from controller.director.team import TeamMatch
from controller.game.rulings import Settings
from controller.station import Station
from controller.station.demo import scripted_events
from controller.station.journal import Journal
from controller.station.snapshot import snapshot

PLAYERS = {"1": ("Ana", "Ion"), "2": ("Bo", "Cy"), "3": ("Di", "Ed")}
SEEDS = {"1": 3, "2": 5, "3": 11}


@dataclass
class Board:
    name: str
    state: dict[str, Any]
    lines: list[dict[str, Any]]


def play(folder: Path, name: str, turns: int | None) -> Board:
    """Board ``name``'s station playing its 1-point match (to its end when ``turns`` is None)."""
    light, dark = PLAYERS[name]
    settings = Settings(hints="referee", match_length=1, light_player=light, dark_player=dark)
    path = folder / f"board-{name}.jsonl"
    journal = Journal(path, fsync=False)
    station = Station(journal=journal)
    station.start()
    for ev in scripted_events(SEEDS[name], turns=turns, settings=settings):
        station.submit(ev)
    station.stop()
    state = {**snapshot(station), "seq": journal.next_seq - 1, "journal": "j"}
    journal.close()
    return Board(name, state, [json.loads(x) for x in path.read_text().splitlines()])


def feed(view: ClubView, board: Board) -> None:
    for entry in board.lines:
        view.receive(f"tavla/c/{board.name}/events", topics.dumps({**entry, "journal": "j"}))
    view.receive(f"tavla/c/{board.name}/state", topics.dumps(board.state))
    view.receive(f"tavla/c/{board.name}/online", b"1")


@pytest.fixture(scope="session")
def team_boards(tmp_path_factory) -> dict[str, Board]:
    """Boards 1 and 2 played to the end, board 3 still playing (six turns in)."""
    folder = tmp_path_factory.mktemp("club")
    return {n: play(folder, n, None if n != "3" else 6) for n in PLAYERS}


@pytest.fixture
def team_club(team_boards) -> ClubView:
    view = ClubView("c", (TeamMatch.parse("Reds:Blues:1,2,3"),))
    view.link(True)  # as the director's client says on connecting
    for b in team_boards.values():
        feed(view, b)
    return view


@contextlib.contextmanager
def serving(application: web.Application) -> Iterator[int]:
    """``application`` on 127.0.0.1 at a free port, on a thread of its own; yields the port."""
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(application, handle_signals=False, access_log=None, shutdown_timeout=1.0)
    ready = threading.Event()
    port: list[int] = []

    async def start() -> None:
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port.append(int(site._server.sockets[0].getsockname()[1]))  # type: ignore[union-attr]

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10), "the director's page did not start"
    try:
        yield port[0]
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
