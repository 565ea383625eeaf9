"""Score board readings against hand labels (the `labels.jsonl` format of ``../shared/data/boards-*``).

Label format (one JSON object a line): ``image`` (path relative to the folder), ``layout``
(``landscape``: ``rowA`` = top row left to right, ``rowB`` = bottom row left to right; ``portrait``:
``rowA`` = left column top to bottom, ``rowB`` = right column top to bottom), cells ``""`` (empty),
a colour letter + count (``g3``) or ``"?"`` (hidden, not scored); optional ``bar``/``off`` lists of
cells, ``dice`` (``value``, ``sure``), ``occluded``, ``board`` (False: not a board photo).

A reading's points are matched to the label cells by their ``image_xy``; its colour names are
matched to the label's letters by the best one-to-one assignment. An occluded frame counts as right
when the reading says ``occluded``. This is the scoring of the project's acceptance tool.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ImageScore", "Tally", "read_labels", "score_reading", "parse_cell"]

Cell = tuple[str | None, int]


def read_labels(path: Path) -> list[dict[str, Any]]:
    """The labels of a ``labels.jsonl`` (one JSON object a line, blank lines skipped), in file order;
    ``[]`` when ``path`` does not exist. A malformed line raises ``json.JSONDecodeError``."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def parse_cell(cell: str) -> Cell | None:
    """``""`` -> (None, 0); ``"g3"`` -> ("g", 3); ``"?"`` -> None (hidden, not scored)."""
    if cell == "?" or cell.endswith("?"):
        return None
    return (None, 0) if not cell else (cell[0], int(cell[1:]))


def rows_from_points(points: Sequence[Mapping[str, Any]], layout: str) -> list[Mapping[str, Any]] | None:
    """The 24 points in label order (rowA then rowB), by their image positions; None unless 24."""
    pts = [p for p in points if p.get("image_xy")]
    if len(pts) != 24:
        return None
    major, minor = (1, 0) if layout == "landscape" else (0, 1)
    pts = sorted(pts, key=lambda p: p["image_xy"][major])
    a = sorted(pts[:12], key=lambda p: p["image_xy"][minor])
    b = sorted(pts[12:], key=lambda p: p["image_xy"][minor])
    return a + b


@dataclass
class ImageScore:
    """How one reading compares with its label; ``failures`` are one-line descriptions."""

    image: str
    occluded_label: bool = False
    occluded_ok: bool = False
    board_found: bool = False
    points_ok: int = 0
    points_n: int = 0
    dice_scored: bool = False
    dice_ok: bool = False
    area_scored: dict[str, bool] = field(default_factory=dict)
    area_ok: dict[str, bool] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    @property
    def board_ok(self) -> bool:
        return self.board_found and self.points_ok == self.points_n


@dataclass
class Tally:
    """Totals over a labelled folder."""

    points_ok: int = 0
    points_n: int = 0
    boards_ok: int = 0
    boards_n: int = 0
    dice_ok: int = 0
    dice_n: int = 0
    occ_ok: int = 0
    occ_n: int = 0
    bar_ok: int = 0
    bar_n: int = 0
    off_ok: int = 0
    off_n: int = 0
    errors: int = 0

    def add(self, s: ImageScore) -> None:
        if s.occluded_label:
            self.occ_n += 1
            self.occ_ok += int(s.occluded_ok)
            return
        self.boards_n += 1
        self.boards_ok += int(s.board_ok)
        self.points_n += s.points_n
        self.points_ok += s.points_ok
        if s.dice_scored:
            self.dice_n += 1
            self.dice_ok += int(s.dice_ok)
        for area in ("bar", "off"):
            if s.area_scored.get(area):
                setattr(self, f"{area}_n", getattr(self, f"{area}_n") + 1)
                setattr(self, f"{area}_ok", getattr(self, f"{area}_ok") + int(s.area_ok[area]))

    @staticmethod
    def pct(a: int, n: int) -> float:
        return 100.0 * a / max(n, 1)


def score_reading(label: Mapping[str, Any], reading: Mapping[str, Any]) -> ImageScore:
    """Compare one reading (the `tavla read` JSON object) with its label line."""
    out = ImageScore(str(label["image"]))
    if label.get("occluded"):
        out.occluded_label = True
        out.occluded_ok = bool(reading.get("occluded"))
        if not out.occluded_ok:
            out.failures.append("occlusion missed")
        return out
    truth = [parse_cell(c) for c in list(label["rowA"]) + list(label["rowB"])]
    out.points_n = sum(1 for t in truth if t is not None)
    rows = None
    if reading.get("board_found"):
        rows = rows_from_points(reading.get("points", []), str(label["layout"]))
    if rows is None:
        out.failures.append("no board found")
        return out
    out.board_found = True
    names = sorted({str(p["colour"]) for p in rows if p.get("colour")})
    extra = [c for c in list(label.get("bar", [])) + list(label.get("off", [])) if c and not c.endswith("?")]
    letters = sorted({t[0] for t in truth if t and t[0]} | {c[0] for c in extra})
    letters += [x for x in ("g", "r", "w", "d") if x not in letters][: max(0, len(names) - len(letters))]
    best, best_map = -1, {}
    for perm in itertools.permutations(letters, min(len(letters), len(names))):
        m = dict(zip(names, perm, strict=False))
        ok = sum(1 for p, t in zip(rows, truth, strict=True) if t is not None and _cell_ok(p, t, m))
        if ok > best:
            best, best_map = ok, m
    if not names:
        best = sum(1 for t in truth if t is not None and t[1] == 0)
    out.points_ok = best
    if best != out.points_n:
        wrong = []
        for i, (p, t) in enumerate(zip(rows, truth, strict=True)):
            if t is not None and not _cell_ok(p, t, best_map):
                got = "empty"
                if p.get("count"):
                    got = f"{best_map.get(p.get('colour'), '?')}{p.get('count', 0)}"
                want = f"{t[0]}{t[1]}" if t[1] else "empty"
                wrong.append(f"{'A' if i < 12 else 'B'}{i % 12 + 1}: want {want} got {got}")
        out.failures.append(f"{out.points_n - best} points wrong ({'; '.join(wrong)})")
    for area in ("bar", "off"):
        cells = label.get(area)
        if cells is None or any(str(c).endswith("?") for c in cells):
            continue
        want_area = {c[0]: int(c[1:]) for c in cells if c}
        raw = reading.get(area) or {}
        got_area = {best_map.get(k): v for k, v in raw.items() if v} if isinstance(raw, dict) else {}
        got_area = {k: v for k, v in got_area.items() if k}
        out.area_scored[area] = True
        out.area_ok[area] = got_area == want_area
        if got_area != want_area:
            out.failures.append(f"{area}: want {want_area} got {got_area}")
    want = sorted(d["value"] for d in label.get("dice", []) if d.get("sure") and d.get("value"))
    if want and len(want) == len(label.get("dice", [])):
        out.dice_scored = True
        got = sorted(d.get("value") for d in reading.get("dice", []) if d.get("value"))
        out.dice_ok = got == want
        if not out.dice_ok:
            out.failures.append(f"dice: want {want} got {got}")
    return out


def _cell_ok(p: Mapping[str, Any], t: Cell, m: Mapping[str, str]) -> bool:
    if t[1] == 0:
        return int(p.get("count", 0)) == 0
    return m.get(p.get("colour")) == t[0] and p.get("count") == t[1]
