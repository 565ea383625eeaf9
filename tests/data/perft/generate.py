"""Write the perft-style truth files of this folder from gnubg (not from our engine).

Run: ``.venv/bin/python tests/data/perft/generate.py`` (needs the ``hints`` extra: gnubg, gnubg-nn).

Each case is a block::

    position <Position ID> dice <d1> <d2> plays <n>
    <result Position ID>\\t<gnubg notation>      (n lines, sorted by ID; mover still board[1])

The result IDs come from ``gnubg_nn.moves`` keys decoded by gnubg, the notation from
``gnubg.movetupletostring``. ``opening.perft`` holds the 21 opening rolls; ``cases.perft`` random
reachable positions picked for their interest (no play, part of the roll lost, bar entries,
bear-offs with a higher die, hits on the way, the largest move lists).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import gnubg
import gnubg_nn

HERE = Path(__file__).resolve().parent
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
START = "4HPwATDgc/ABMA"


def block(pid: str, d1: int, d2: int) -> tuple[str, list[tuple[str, str]]]:
    b = gnubg.positionfromid(pid)
    rows = []
    for key, steps in gnubg_nn.moves(b, d1, d2, 1):
        result_id = gnubg.positionid(gnubg_nn.boardfromkey(key))
        rows.append((result_id, gnubg.movetupletostring(sum(steps, ()), b)))
    rows.sort()
    return f"position {pid} dice {d1} {d2} plays {len(rows)}", rows


def write(path: Path, cases: list[tuple[str, int, int, str]]) -> None:
    lines = [
        "# gnubg truth: see generate.py. position <ID> dice <d1> <d2> plays <n>, then n lines",
        "# <result Position ID, mover still on roll>\\t<gnubg notation>; ';' starts a case comment.",
    ]
    for pid, d1, d2, why in cases:
        head, rows = block(pid, d1, d2)
        lines.append(f"{head} ; {why}")
        lines += [f"{rid}\t{text}" for rid, text in rows]
    path.write_text("\n".join(lines) + "\n")


def random_positions(n: int, seed: int):
    rng = random.Random(seed)
    while True:
        b = gnubg.positionfromid(START)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while d1 == d2:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while True:
            yield b
            n -= 1
            if n <= 0:
                return
            ms = gnubg_nn.moves(b, d1, d2, 1)
            if ms:
                b = gnubg_nn.boardfromkey(rng.choice(ms)[0])
                if not any(b[1]):
                    break
            b = (b[1], b[0])
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)


def classify(b, d1: int, d2: int) -> list[str]:
    ms = gnubg_nn.moves(b, d1, d2, 1)
    full = 4 if d1 == d2 else 2
    kinds = []
    if not ms:
        kinds.append("no play")
        return kinds
    n = len(ms[0][1])
    if n < full:
        kinds.append(f"only {n} of {full} dice play")
    steps = [s for _, st in ms for s in st]
    if any(s == 25 and 24 - d != 0 for s, d in steps):
        kinds.append("bar entry")
    if b[1][24] > 1 and n < full:
        kinds.append("bar, part of the roll lost")
    if any(d == 0 and s not in (d1, d2) for s, d in steps):
        kinds.append("bear off with a higher die")
    texts = [gnubg.movetupletostring(sum(st, ()), b) for _, st in ms]
    if any("*/" in t for t in texts):
        kinds.append("hit on the way")
    if len(ms) > 300:
        kinds.append("many plays")
    if n == 1 and d1 != d2 and len({st[0][0] - st[0][1] for _, st in ms}) == 1:
        kinds.append("one die only")
    return kinds


def main() -> int:
    write(HERE / "opening.perft", [(START, d1, d2, "opening") for d1, d2 in ROLLS])
    per_kind: dict[str, list[tuple[str, int, int, str]]] = {}
    for b in random_positions(40_000, seed=31337):
        pid = gnubg.positionid(b)
        for d1, d2 in ROLLS:
            for kind in classify(b, d1, d2):
                bucket = per_kind.setdefault(kind, [])
                if len(bucket) < 12 and all(c[0] != pid for c in bucket):
                    bucket.append((pid, d1, d2, kind))
    cases = [c for kind in sorted(per_kind) for c in per_kind[kind]]
    write(HERE / "cases.perft", cases)
    print({k: len(v) for k, v in per_kind.items()}, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
