"""The game as the prior (issue 14 item 4): false disputes per 100 turns, and true illegal moves missed.

Both parts feed settled readings through the referee (``controller.game.step``), as the station does,
and count its rulings:

* **webcam** -- the ``../shared/data/boards-webcam/frames/<session>`` folders (frames of correctly
  played real games, in order) read by the station's own pipeline (``tavla run --source FOLDER``;
  the readings are cached in ``build/bench-prior/`` by the folder's file names and sizes, so a rerun
  only replays them). Every ruling raised on a judged turn is a false dispute: these games were
  played legally. Sessions are re-runs of one or two videos, so the figure is a few turns, not many.
* **rendered games** -- random legal games of the rules core, the camera reporting each settled
  board with misreads injected per point at a known rate (a count off by one, a phantom or missed
  checker, or the colour flipped), each point's confidence drawn from the reader's measured
  confidences on right and on wrong points (``controller/game/assets/observation.json``). One turn
  in ten is played illegally instead (a checker one pip too far or too short, or half a roll): a
  turn that then passes without a ruling is a missed illegal move. A false dispute is corrected as
  players would (long press, the true board shown) and the game goes on.

``python -m bench prior`` prints both tables. To measure another checkout's referee on the same
readings and the same injected misreads, run this file with that checkout first on the path:
``cd ../main && PYTHONPATH=. ../wt-prior/.venv/bin/python -c "import runpy;
runpy.run_path('../wt-prior/bench/prior.py', run_name='__main__')"``.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from controller import game
from controller.game.effects import Announce, Prompt
from controller.game.events import BoardSeen, ButtonPressed
from controller.rules.moves import legal_plays
from controller.rules.position import Position
from controller.station.demo import SEATING, seen

ROOT = Path(__file__).resolve().parents[1]
WEBCAM = ROOT.parent / "shared" / "data" / "boards-webcam" / "frames"
CACHE = ROOT / "build" / "bench-prior"
MODEL = ROOT / "controller" / "game" / "assets" / "observation.json"
DISPUTES = ("dispute", "illegal", "must_correct", "unclear")
RATES = (0.0, 0.01, 0.03, 0.05)
GAMES = 100
MAX_TURNS = 80
ILLEGAL_EVERY = 10
SEED = 1414


# --- webcam sessions --------------------------------------------------------------------------------


def _session_events(folder: Path, err: Console) -> list[Any]:
    files = sorted(p for p in folder.iterdir() if p.is_file())
    digest = hashlib.sha1("".join(f"{p.name}:{p.stat().st_size};" for p in files).encode()).hexdigest()[:12]
    cached = CACHE / f"{folder.name}-{digest}.jsonl"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        tavla = shutil.which("tavla", path=str(Path(sys.executable).parent)) or "tavla"
        err.print(f"[dim]reading {folder.name} ({len(files)} frames)[/dim]")
        tmp = cached.with_suffix(".tmp")
        tmp.unlink(missing_ok=True)
        subprocess.run(
            [tavla, "run", "--source", str(folder), "--journal", str(tmp), "--no-leds", "--plain", "-q",
             "--new-only", "--key", str(CACHE / "bench.key")],
            check=True, capture_output=True,
        )
        tmp.rename(cached)
    return _read(cached)


def _read(path: Path) -> list[Any]:
    """The events of a journal the bench wrote (its chain is the station's business, not the bench's)."""
    from controller.game.events import event_from_json

    events = []
    for line in path.read_text().splitlines():
        raw = json.loads(line)
        body = raw.get("event") if isinstance(raw, dict) else None
        if isinstance(body, dict) and "kind" in body:
            events.append(event_from_json(body))
    return events


@dataclass
class Count:
    turns: int = 0
    disputes: int = 0
    illegal: int = 0
    caught: int = 0
    stuck: int = 0

    def per100(self) -> str:
        return f"{100.0 * self.disputes / self.turns:.1f}" if self.turns else "-"


def webcam(err: Console) -> list[tuple[str, Count]]:
    rows = []
    for folder in sorted(p for p in WEBCAM.iterdir() if p.is_dir()):
        c = Count()
        state = game.new_state()
        for ev in _session_events(folder, err):
            state, out = game.step(state, ev)
            for e in out:
                if isinstance(e, Announce) and e.ruling.code in DISPUTES:
                    c.disputes += 1
                    c.turns += 1
                elif isinstance(e, Prompt) and " played " in e.text and "(legal)" in e.text:
                    c.turns += 1
                elif isinstance(e, Prompt) and "'s turn ends" in e.text:
                    c.turns += 1
        rows.append((folder.name, c))
    return rows


# --- rendered games with injected misreads ------------------------------------------------------------


def _histogram(key: str) -> tuple[list[float], list[int]]:
    raw = json.loads(MODEL.read_text())
    edges = raw["confidence_edges"]
    return [(a + b) / 2 for a, b in zip(edges, edges[1:], strict=False)], raw[key]


class Camera:
    """A camera that misreads each point with probability ``rate``; confidences as the reader's."""

    def __init__(self, rate: float, rng: random.Random) -> None:
        self.rate, self.rng = rate, rng
        self.right = _histogram("confidence_right")
        self.wrong = _histogram("confidence_wrong")

    def _conf(self, hist: tuple[list[float], list[int]]) -> float:
        mids, counts = hist
        if not sum(counts):
            return 1.0
        return round(min(1.0, self.rng.choices(mids, weights=counts)[0]), 3)

    def look(self, sides: Any, dice: Any, roller: int | None, t: float, noisy: bool = True) -> BoardSeen:
        ev = seen(sides, dice, roller, t, SEATING)
        slots = []
        for colour, n, _ in ev.slots:
            if noisy and self.rng.random() < self.rate:
                colour, n = self._misread(colour, n)
                slots.append((colour, n, self._conf(self.wrong)))
            else:
                slots.append((colour, n, self._conf(self.right)))
        fixed = replace(ev, slots=tuple(slots))
        return fixed if not game.events.problem(fixed) else replace(ev, slots=tuple(
            (c, n, self._conf(self.right)) for c, n, _ in ev.slots))

    def _misread(self, colour: str | None, n: int) -> tuple[str | None, int]:
        if n and self.rng.random() < 0.3:
            return ("dark" if colour == "light" else "light"), n
        if not n:
            return self.rng.choice(("light", "dark")), 1
        n += self.rng.choice((-1, 1)) if n < 15 else -1
        return (colour if n else None), n


def _illegal_result(pos: Position, d1: int, d2: int, rng: random.Random) -> Position | None:
    """A position no legal play of d1-d2 gives: the last checker of a legal play one pip off, or the
    last step of a play left unplayed (half a roll)."""
    plays = [p for p in legal_plays(pos, d1, d2) if p.moves]
    legal = {p.result for p in legal_plays(pos, d1, d2)}
    for _ in range(20):
        if not plays:
            return None
        play = rng.choice(plays)
        m = play.moves[-1]
        me = list(play.result.me)
        if m.dst < 1 or m.hit or not me[m.dst - 1]:
            continue
        if len(play.moves) >= 2 and rng.random() < 0.5:
            dst = m.src  # the checker back where the last step began
        else:
            dst = m.dst + rng.choice((-1, 1))
            if not 1 <= dst <= 24 or play.result.opp[24 - dst]:
                continue
        me[m.dst - 1] -= 1
        me[dst - 1] += 1
        cand = Position(tuple(me), play.result.opp)
        if cand not in legal and cand != pos:
            return cand
    return None


class Table_:
    """One rendered game at the referee: the board (``sides``), the state and the camera."""

    def __init__(self, cam: Camera) -> None:
        self.cam = cam
        self.state = game.new_state()
        self.t = 0.0
        start = game.start_side("backgammon")
        self.sides: Any = (start, start)

    def feed(self, ev: Any) -> list[Any]:
        self.state, out = game.step(self.state, ev)
        return out

    def look(self, dice: Any = (), roller: int | None = None, noisy: bool = True) -> list[Any]:
        self.t += 1.0
        return self.feed(self.cam.look(self.sides, dice, roller, self.t, noisy))


def _disputed(out: list[Any]) -> bool:
    return any(isinstance(e, Announce) and e.ruling.code in DISPUTES for e in out)


def rendered(rate: float, games: int, seed: int) -> Count:
    c = Count()
    rng = random.Random(f"{seed}:{rate}")
    cam = Camera(rate, rng)
    for _ in range(games):
        g = Table_(cam)
        g.look(noisy=False)
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        while a == b:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
        g.look(((a, "flat"), (b, "flat")), None, noisy=False)
        for turn in range(MAX_TURNS):
            state = g.state
            if state.phase != "moving" or state.on_roll is None or state.dice is None:
                break
            mover = state.on_roll
            d1, d2 = state.dice
            pos = Position(g.sides[mover], g.sides[1 - mover])
            plays = legal_plays(pos, d1, d2)
            dice = ((d1, "flat"), (d2, "flat"))
            roller = mover if turn else None
            bad = _illegal_result(pos, d1, d2, rng) if turn % ILLEGAL_EVERY == ILLEGAL_EVERY - 1 else None
            true = rng.choice(plays).result if plays else pos
            shown = bad if bad is not None else true
            g.sides = (shown.me, shown.opp) if mover == 0 else (shown.opp, shown.me)
            g.look(dice, roller)  # the move made, the dice still down
            disputed = _disputed(g.look())  # the dice picked up: the turn ends and is judged
            if bad is not None:
                c.illegal += 1
                c.caught += disputed
            else:
                c.turns += 1
                c.disputes += disputed
            if g.state.phase == "deciding" or (g.state.phase == "moving" and g.state.on_roll == mover):
                # the players fix it: the legal move demanded, the true legal board put down and seen
                if g.state.phase == "deciding":
                    g.feed(ButtonPressed(t=g.t, button="dispute", gesture="long"))
                g.sides = (true.me, true.opp) if mover == 0 else (true.opp, true.me)
                g.look(noisy=False)
                if g.state.phase == "moving":
                    g.feed(ButtonPressed(t=g.t, button="clock", player=mover))
            if g.state.phase != "to_roll":
                c.stuck += g.state.phase not in ("game_over", "match_over")
                break
            if g.state.sides is not None:
                g.sides = g.state.sides
            r1, r2 = rng.randint(1, 6), rng.randint(1, 6)
            g.look(((r1, "flat"), (r2, "flat")), g.state.on_roll, noisy=False)
    return c


def main() -> None:
    console = Console()
    err = Console(stderr=True)
    if WEBCAM.is_dir():
        table = Table(title="False disputes on the boards-webcam sessions (correctly played games)")
        for col in ("session", "turns judged", "disputes", "per 100 turns"):
            table.add_column(col, justify="right" if col != "session" else "left")
        total = Count()
        for name, c in webcam(err):
            table.add_row(name, str(c.turns), str(c.disputes), c.per100())
            total.turns += c.turns
            total.disputes += c.disputes
        table.add_row("all", str(total.turns), str(total.disputes), total.per100(), style="bold")
        console.print(table)
    else:
        err.print(f"[yellow]note:[/] {WEBCAM} absent: webcam sessions skipped")
    table = Table(title=f"Rendered games, misreads injected ({GAMES} games a rate, 1 turn in "
                  f"{ILLEGAL_EVERY} played illegally)")
    for col in ("misread rate", "legal turns", "false disputes", "per 100 turns", "illegal moves",
                "missed", "missed per 100", "stuck"):
        table.add_column(col, justify="right")
    for rate in RATES:
        err.print(f"[dim]rendered games at {rate:.0%} misreads[/dim]")
        c = rendered(rate, GAMES, SEED)
        missed = c.illegal - c.caught
        table.add_row(f"{rate:.0%}", str(c.turns), str(c.disputes), c.per100(), str(c.illegal), str(missed),
                      f"{100.0 * missed / c.illegal:.1f}" if c.illegal else "-", str(c.stuck))
    console.print(table)


if __name__ == "__main__":
    main()
