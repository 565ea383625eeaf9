"""The real GNU Backgammon, driven in text mode, and what it makes of match files.

gnubg (Debian's ``gnubg`` package, 1.07) is found on PATH or in ``/usr/games``; tests that need it
skip with a clear message when it is absent. One gnubg process handles a whole batch of files
(gnubg takes a moment to start): its embedded Python (``gnubg -t -q -r -p SCRIPT``) loads each
file, optionally saves it as ``.sgf`` and exports it as ``.mat``, and dumps gnubg's own view of
every game -- players as gnubg's ``X`` (our player 0, SGF ``W``) and ``O`` (player 1), each
action with its dice, its moves and the Position ID before it -- as JSON.

:func:`tavla_view` builds the same view from a record, so the two can be compared move by move.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from controller.formats.position_id import position_from_id, position_id
from controller.formats.record import Double, Drop, MatchRecord, PlayNote, Resign, Roll, SetBoard, Step, Take
from controller.formats.replay import apply_recorded
from controller.rules import Position

_INSTALL = "install it with `sudo apt-get install gnubg` (Debian/Ubuntu) to run this test"

_SCRIPT = r"""
import json, os
import gnubg
gnubg.command("set display off")
gnubg.command("set confirm new off")
out = []
for job in json.load(open(os.environ["TAVLA_GNUBG_JOBS"])):
    gnubg.command("new match 1")  # a failed load then shows as a one-point match, not the last file
    path = job["path"]
    gnubg.command(("load match " if path.lower().endswith(".sgf") else "import mat ") + '"' + path + '"')
    if job.get("sgf"):
        gnubg.command('save match "' + job["sgf"] + '"')
    if job.get("mat"):
        gnubg.command('export match mat "' + job["mat"] + '"')
    m = gnubg.match(analysis=False, boards=True, statistics=False, verbose=False) or {}
    out.append({"length": m.get("match-info", {}).get("match-length"),
                "games": [{"info": g["info"], "actions": g["game"]} for g in m.get("games", [])]})
json.dump(out, open(os.environ["TAVLA_GNUBG_OUT"], "w"))
"""


def gnubg_path() -> str:
    """The gnubg executable; skips the calling test when gnubg is not installed."""
    found = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
    if found is None:
        pytest.skip(f"GNU Backgammon (gnubg) is not installed: {_INSTALL}")
    return found


def run_gnubg(jobs: list[dict[str, str]], timeout: float = 300) -> list[dict[str, Any]]:
    """Load each ``{"path": ..., "sgf": ..., "mat": ...}`` in one gnubg; gnubg's view of each.

    ``sgf`` / ``mat``, when given, are where gnubg saves the loaded match (``save match``) and
    exports it (``export match mat``).
    """
    exe = gnubg_path()
    with tempfile.TemporaryDirectory() as tmp:
        script, job_file, out_file = Path(tmp, "dump.py"), Path(tmp, "jobs.json"), Path(tmp, "out.json")
        script.write_text(_SCRIPT)
        job_file.write_text(json.dumps(jobs))
        env = dict(os.environ, TAVLA_GNUBG_JOBS=str(job_file), TAVLA_GNUBG_OUT=str(out_file), HOME=tmp)
        done = subprocess.run([exe, "-t", "-q", "-r", "-p", str(script)], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout, env=env, check=False)
        if not out_file.exists():
            raise AssertionError(f"gnubg did not finish (exit {done.returncode}): {done.stderr[-500:]}")
        result: list[dict[str, Any]] = json.loads(out_file.read_text())
    return result


@dataclass(frozen=True)
class Event:
    """One action as both sides can say it: kind (``move``, ``double``, ``take``, ``drop``,
    ``dice`` for a roll never played, ``board`` for a set board), player (0, 1, or -1 for a set
    board), dice high-low, moves as sorted ``(from, to)``, and the Position IDs before and after a
    move (``""`` where Tavla lost the position: after a FIBS ``Illegal play`` line)."""

    kind: str
    player: int
    dice: tuple[int, ...] = ()
    moves: tuple[tuple[int, int], ...] = ()
    position: str = ""
    after: str = ""


@dataclass(frozen=True)
class GameView:
    score: tuple[int, int]
    winner: int | None
    points: int
    resigned: bool
    events: tuple[Event, ...] = field(default=())


def _id(position: Position | None) -> str:
    return position_id(position) if position is not None else "?"


def gnubg_view(dump: dict[str, Any]) -> list[GameView]:
    """gnubg's dump of one file (see :func:`run_gnubg`) as :class:`GameView` values."""
    games = []
    for game in dump["games"]:
        info = game["info"]
        events = []
        for a in game["actions"]:
            player = {"X": 0, "O": 1}.get(a.get("player", ""), -1)
            kind = a["action"]
            dice = tuple(sorted(a.get("dice", ()), reverse=True))
            if kind == "move":
                moves = tuple(sorted((int(s), int(d)) for s, d in a.get("move", ())))
                board = a.get("board", "")
                after = apply_recorded(position_from_id(board), tuple(Step(s, d) for s, d in moves))
                events.append(Event("move", player, dice, moves, board, _id(after)))
            elif kind == "set":
                events.append(Event("dice", player, dice) if "dice" in a else Event("board", -1))
            elif kind in ("double", "take", "drop"):
                events.append(Event(kind, player))
        winner = {"X": 0, "O": 1}.get(info.get("winner") or "")
        games.append(GameView((info["score-X"], info["score-O"]), winner,
                              info.get("points-won") or 0 if winner is not None else 0,
                              bool(info.get("resigned")), tuple(events)))
    return games


def tavla_view(record: MatchRecord) -> list[GameView]:
    """The same view of a record, positions followed by applying each play as recorded."""
    games = []
    for game in record.games:
        sides = [Position.initial().me, Position.initial().opp]
        known = True
        events = []
        for a in game.actions:
            if isinstance(a, SetBoard):
                sides = [a.sides[0], a.sides[1]]
                known = True
                events.append(Event("board", -1))
            elif isinstance(a, Roll) and a.note is PlayNote.UNPLAYED:
                events.append(Event("dice", a.player, tuple(sorted(a.dice, reverse=True))))
            elif isinstance(a, Roll):
                p = a.player
                before = Position(sides[p], sides[1 - p])
                moves = tuple(sorted((s.src, s.dst) for s in a.steps))
                after = apply_recorded(before, a.steps) if a.note is not PlayNote.ILLEGAL_MARKER else None
                known = known and after is not None
                events.append(Event("move", p, tuple(sorted(a.dice, reverse=True)), moves,
                                    position_id(before) if known else "", _id(after) if known else ""))
                if after is not None:
                    sides[p], sides[1 - p] = after.me, after.opp
            elif isinstance(a, Double | Take | Drop):
                events.append(Event(type(a).__name__.lower(), a.player))
        resigned = game.resigned or any(isinstance(a, Resign) for a in game.actions)
        games.append(GameView(game.score, game.winner, game.points if game.winner is not None else 0,
                              resigned, tuple(events)))
    return games


def _key(e: Event) -> tuple[object, ...]:
    return e.kind, e.player, e.dice, e.position, e.after


def agree(a: GameView, b: GameView) -> bool:
    """Two views of a game agree: result, and every action with the positions before and after
    (a play may be written with other hops, 3-1 as 8/5 5/4 or 8/7 7/4: the result says which)."""
    if (a.score, a.winner, a.points, a.resigned) != (b.score, b.winner, b.points, b.resigned):
        return False
    return [_key(e) for e in a.events] == [_key(e) for e in b.events]


@dataclass
class Tally:
    """How far two views of the same files agree, summed over files."""

    files: int = 0
    games: int = 0
    games_equal: int = 0
    moves: int = 0
    moves_equal: int = 0
    positions: int = 0
    positions_equal: int = 0
    scores_equal: int = 0
    resigned_equal: int = 0
    differences: list[str] = field(default_factory=list)

    def add(self, name: str, ours: list[GameView], theirs: list[GameView]) -> None:
        self.files += 1
        self.games += len(ours)
        if len(ours) != len(theirs):
            self.differences.append(f"{name}: {len(ours)} games, gnubg {len(theirs)}")
        for number, (a, b) in enumerate(zip(ours, theirs, strict=False), start=1):
            self.games_equal += agree(a, b)
            self.scores_equal += (a.score, a.winner, a.points) == (b.score, b.winner, b.points)
            self.resigned_equal += a.resigned == b.resigned
            if (a.score, a.winner, a.points, a.resigned) != (b.score, b.winner, b.points, b.resigned):
                self.differences.append(f"{name} game {number}: score {a.score} winner {a.winner} "
                                        f"+{a.points} resigned {a.resigned}; gnubg {b.score} {b.winner} "
                                        f"+{b.points} {b.resigned}")
            moves_a = [e for e in a.events if e.kind == "move"]
            moves_b = [e for e in b.events if e.kind == "move"]
            self.moves += len(moves_a)
            for i, (x, y) in enumerate(zip(moves_a, moves_b, strict=False)):
                # the same play may be written with other hops (3-1: 8/5 5/4 or 8/7 7/4): compare results
                same = (x.player, x.dice) == (y.player, y.dice) and (x.moves == y.moves or x.after == y.after)
                self.moves_equal += same
                if x.position:
                    self.positions += 1
                    self.positions_equal += x.position == y.position
                if not same or (x.position and x.position != y.position) and len(self.differences) < 200:
                    self.differences.append(f"{name} game {number} move {i + 1}: {x} != {y}")
            if len(moves_a) != len(moves_b) or [e.kind for e in a.events] != [e.kind for e in b.events]:
                self.differences.append(f"{name} game {number}: events {[e.kind for e in a.events]} != "
                                        f"{[e.kind for e in b.events]}")

    def row(self) -> str:
        return (f"{self.files} files, {self.games} games ({self.games_equal} equal), moves "
                f"{self.moves_equal}/{self.moves}, positions {self.positions_equal}/{self.positions}, scores "
                f"{self.scores_equal}/{self.games}, resignations {self.resigned_equal}/{self.games}")
