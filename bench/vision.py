"""Vision speed: milliseconds per frame for each stage of the reading, on one core, beside the camera's
frame interval (33.3 ms at 30 fps) as the peer -- issue 4 "Speed". Goal: the full reading of a
1280x720 frame in at most 10 ms.

Inputs: the real photos at their own size (../shared/data/boards-webcam and boards-real, a sample of
each; skipped with a note when absent) and 1280x720 frames (those photos resized, and frames of the
project's renderer: rendering itself is not timed). Stages, each timed alone on the same frames:

* decode -- JPEG bytes to a BGR array (cv2.imdecode);
* gate -- the stability gate's motion/brightness thumbnail (`vision.frames.motion`);
* board finding -- `vision.board.finder.find_board` (what calibration does once per session);
* checkers -- rectify + `vision.checkers.stacks.count_stacks` + colour naming, given the board;
* cube -- `vision.cube.finder.find_cube` (finding the cube and reading its face), given board and stacks;
* borne off -- `vision.checkers.trays.find_off` (both trays or the table beside), given board and stacks;
* dice -- `vision.dice.photo.find_dice` on the whole frame;
* dice on the board -- `vision.dice.on_board.find_board_dice` (what the reader runs), given board and stacks;
* first reading (board search) -- `vision.board.finder.find_board` alone (the search a reading
  without calibration, and `tavla calibrate`, start with), on every labelled photo of boards-webcam
  and boards-real scaled to a long side of 1280 (webcam 16:9 frames: 1280x720); min / median / max
  over the photos of each photo's median CPU time;
* full reading -- `vision.reader.read_board` without a calibration (finds the board every frame) and
  with one (the per-frame cost on a live camera once calibrated: every stage run on the frame);
  the calibrated reading of the 1280x720 frames is then broken down by stage (`bench/reader_stages.py`:
  each stage timed where the reader calls it, least of the repeats per frame);
* calibrated, frame unchanged (reuse) -- `vision.frames.pipeline.CalibratedDetector` on a still camera: the
  frame (the photo again with fresh sensor noise, sigma 2) is compared with the last read frame through
  the board's thumbnail and, unchanged, answered with the last reading. This is not a reading of the
  frame;
* calibrated, one checker moved / dice thrown / next webcam frame -- the same detector given a
  changed frame after a read one (not timed): it reads only the places that changed
  (`vision.reader.read_changed`: the stacks of the points touched, the cube, trays and dice only where
  their places changed; the bar and the hand test on every frame read). Pairs: renders of a position
  and its successor (one checker moved one point) or of the position before and after its dice are
  thrown (paper, wood, tournament; 1280x720), and consecutive photos of the boards-webcam sessions
  (640x360 photos taken moves apart, resized to 1280x720: a move, a throw, a hand between them).
  Beside each, the median of the full calibrated reading of the same changed frames.

``BENCH_VISION_ROWS``: run only the stages whose name contains one of its ``;``-separated words
(e.g. ``BENCH_VISION_ROWS="calibrated" python -m bench vision``); the dice engineer's rows are then
left out.

Stages whose module is not there yet print "not available". Rows of ``bench/vision_dice.py`` (the
dice engineer's) are appended when that module exists: its ``rows()`` if it has one, else its
``main()`` is run after this table.
"""

from __future__ import annotations

import copy
import functools
import importlib
import os
import re
import statistics
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bench.timing import cpu_ms

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
FRAME_INTERVAL_MS = 1000.0 / 30.0
GOAL_MS = 10.0
# The goals for 1280x720 frames (issue 14 item 6), by stage name prefix: a calibrated
# reading every frame, the first reading (board search), whole-photo dice (`tavla dice`).
GOALS = {"full reading, calibrated": GOAL_MS, "first reading (board search)": 150.0,
         "full reading, no calibration": 150.0,
         "dice (whole frame)": 200.0, "calibrated, one checker moved": GOAL_MS,
         "calibrated, dice thrown": GOAL_MS, "calibrated, next webcam frame": GOAL_MS}
# (stage name words to run, from BENCH_VISION_ROWS; empty: every stage)
ROWS = [w.strip().lower() for w in os.environ.get("BENCH_VISION_ROWS", "").split(";") if w.strip()]
PAIRS_WEBCAM = 6
PER_SET = 5
REPEATS = 5
# the first-reading row times every labelled photo: fewer repeats per photo
SEARCH_REPEATS = 3
SEARCH_SIDE = 1280



@contextmanager
def _stage(err: Console, text: str) -> Iterator[None]:
    """One plain status line on stderr before a stage: no spinner thread, so nothing else runs (or
    takes CPU) while the stage is timed."""
    err.print(f"[dim]{text}[/dim]")
    yield

def _sample(folder: Path, n: int) -> list[Path]:
    paths = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if len(paths) <= n:
        return paths
    step = len(paths) / n
    return [paths[int(i * step)] for i in range(n)]


def _inputs() -> tuple[list[tuple[str, list[bytes]]], list[str]]:
    """(name, encoded frames) per input set, and notes about what is missing."""
    sets: list[tuple[str, list[bytes]]] = []
    notes: list[str] = []
    resized: list[bytes] = []
    for name in ("boards-webcam", "boards-real"):
        folder = DATA / name
        if not folder.is_dir():
            notes.append(f"{folder} is absent: its rows are skipped")
            continue
        blobs = [p.read_bytes() for p in _sample(folder, PER_SET)]
        sizes = sorted({_size(b) for b in blobs})
        short = name.removeprefix("boards-")
        sets.append((f"{short}, own size", blobs))
        notes.append(f"{short}, own size = {len(blobs)} photos of {folder}: "
                     + ", ".join(f"{w}x{h}" for w, h in sizes))
        for b in blobs[:3]:
            img = cv2.imdecode(np.frombuffer(b, np.uint8), cv2.IMREAD_COLOR)
            ok, enc = cv2.imencode(".jpg", cv2.resize(img, (1280, 720), interpolation=cv2.INTER_AREA))
            resized.append(enc.tobytes())
    from vision.render.scene import Camera, random_spec, render

    rendered = []
    for i, style in enumerate(("paper", "wood", "tournament")):
        cam = Camera(tilt_deg=6, roll_deg=2)
        r = render(random_spec(i, style=style), size=(1280, 720), camera=cam, seed=i)
        rendered.append(cv2.imencode(".jpg", r.image)[1].tobytes())
    sets.append(("1280x720", resized + rendered))
    notes.append(f"1280x720 = {len(resized)} of those photos resized + {len(rendered)} renders (paper, wood, "
                 "tournament; rendering not timed)")
    return sets, notes


def _search_frames() -> list[tuple[str, list[np.ndarray]]]:
    """(set name, frames) for the first-reading row: the labelled photos of each real set, scaled
    to a long side of ``SEARCH_SIDE``."""

    from vision.eval.boards import read_labels
    from vision.frames.images import load_image

    out = []
    for name in ("boards-webcam", "boards-real"):
        folder = DATA / name
        if not (folder / "labels.jsonl").is_file():
            continue
        labels = read_labels(folder / "labels.jsonl")
        frames = []
        for label in labels:
            if label.get("board") is False:
                continue
            img = load_image(folder / label["image"])
            h, w = img.shape[:2]
            f = SEARCH_SIDE / max(h, w)
            interp = cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR
            frames.append(cv2.resize(img, (round(w * f), round(h * f)), interpolation=interp))
        out.append((name.removeprefix("boards-"), frames))
    return out


def _search_rows(table: Table, err: Console) -> None:
    """The first-reading rows (module docstring): one per real set, and both together."""
    from vision.board.finder import find_board

    stage = "first reading (board search)"
    limit = GOALS[stage]
    per_set: list[tuple[str, list[float]]] = []
    for name, frames in _search_frames():
        with _stage(err, f"vision: {stage} / {name} ({len(frames)} photos)"):
            per_set.append((name, [cpu_ms(functools.partial(find_board, img), SEARCH_REPEATS)[1]
                                   for img in frames]))
    if not per_set:
        table.add_row(stage, "real photos", "n/a (../shared/data absent)", "-", "")
        return
    per_set.append(("both", [t for _, ts in per_set for t in ts]))
    for name, ts in per_set:
        med = statistics.median(ts)
        goal = f"<= {limit:g} ms " + ("met" if max(ts) <= limit else "NOT met") + " (max)"
        table.add_row(stage, f"{name}, {len(ts)} photos at {SEARCH_SIDE} long side",
                      f"{min(ts):.0f} / {med:.0f} / {max(ts):.0f} (min/med/max)",
                      f"{med / FRAME_INTERVAL_MS:.2f}x", goal)


def _calibrated_stage_rows(table: Table, blobs: list[bytes]) -> None:
    """The calibrated reading of the 1280x720 frames by stage (bench/reader_stages.py): each
    stage's share of the reading, beside the frame interval and the goal's 10 ms."""
    from bench.reader_stages import stage_ms
    from vision.board.calibration import calibrate
    from vision.reader import read_board

    calls = []
    for blob in blobs:
        img = cv2.imdecode(np.frombuffer(blob, np.uint8), cv2.IMREAD_COLOR)
        calib = calibrate(img)
        if calib is not None:
            calls.append(functools.partial(read_board, img, calib))
    if not calls:
        table.add_row("full reading, calibrated, by stage", "1280x720", "n/a (no frame calibrates)", "-", "")
        return
    ms = stage_ms(calls, REPEATS)
    total = ms.pop("total")
    for label, v in sorted(ms.items(), key=lambda kv: -kv[1]):
        table.add_row(f"  · {label}", f"1280x720, {len(calls)} frames", f"{v:.1f}",
                      f"{v / FRAME_INTERVAL_MS:.2f}x", f"{100 * v / total:.0f} % of {total:.1f} ms")
    table.add_row("  · all stages", f"1280x720, {len(calls)} frames", f"{total:.1f}",
                  f"{total / FRAME_INTERVAL_MS:.2f}x",
                  f"<= {GOAL_MS:g} ms " + ("met" if total <= GOAL_MS else "NOT met"))


def _size(blob: bytes) -> tuple[int, int]:
    img = cv2.imdecode(np.frombuffer(blob, np.uint8), cv2.IMREAD_COLOR)
    return (img.shape[1], img.shape[0])


def _time_ms(fn: Callable[[], Any]) -> tuple[float, float]:
    return cpu_ms(fn, REPEATS)


Make = Callable[[np.ndarray, bytes], Callable[[], Any]]


def _stages() -> list[tuple[str, Make | str]]:
    """(stage name, factory of a zero-argument call for one frame, or the reason it is not available)."""
    from vision.frames.motion import thumbnail

    def decode(img: np.ndarray, blob: bytes) -> Callable[[], Any]:
        return lambda: cv2.imdecode(np.frombuffer(blob, np.uint8), cv2.IMREAD_COLOR)

    out: list[tuple[str, Make | str]] = [
        ("decode (JPEG)", decode),
        ("stability gate (motion thumbnail)", lambda img, blob: lambda: thumbnail(img)),
    ]

    def optional(stage: str, module: str, build: Callable[[Any], Make]) -> None:
        try:
            mod = importlib.import_module(module)
            out.append((stage, build(mod)))
        except (ImportError, AttributeError) as exc:
            out.append((stage, f"not available ({exc})"))

    optional("board finding (calibration)", "vision.board.finder",
             lambda m: lambda img, blob: lambda: m.find_board(img))

    def checkers(m: Any) -> Callable[[np.ndarray, bytes], Callable[[], Any]]:
        from vision.board.finder import find_board

        def make(img: np.ndarray, blob: bytes) -> Callable[[], Any]:
            geom = find_board(img)
            if geom is None:
                raise LookupError("no board found")
            return lambda: m.name_colours(m.count_stacks(geom.rectify(img), geom))

        return make

    optional("checkers (rectify + count + colours)", "vision.checkers.stacks", checkers)

    def beside(stage: Callable[[Any, np.ndarray, Any, list[Any]], Any]) -> Callable[[Any], Make]:
        """A stage given the board and its stacks (found once, outside the timed call)."""
        def build(m: Any) -> Make:
            from vision.board.finder import find_board
            from vision.checkers.stacks import count_stacks

            def make(img: np.ndarray, blob: bytes) -> Callable[[], Any]:
                geom = find_board(img)
                if geom is None:
                    raise LookupError("no board found")
                stacks = count_stacks(geom.rectify(img), geom)
                return lambda: stage(m, img, geom, stacks)

            return make

        return build

    optional("cube (find + read its face)", "vision.cube.finder",
             beside(lambda m, img, geom, stacks: m.find_cube(img, geom, stacks[0].radius)))
    optional("borne off (both trays)", "vision.checkers.trays",
             beside(lambda m, img, geom, stacks: m.find_off(img, geom, stacks[0].radius, stacks)))
    optional("dice (whole frame)", "vision.dice.photo", lambda m: lambda img, blob: lambda: m.find_dice(img))
    optional("dice on the board (given board, stacks)", "vision.dice.on_board",
             beside(lambda m, img, geom, stacks: m.find_board_dice(
                 img, geom, [(x, y, s.radius) for s in stacks for x, y in s.centres], stacks[0].radius)))
    optional("full reading, no calibration", "vision.reader",
             lambda m: lambda img, blob: lambda: m.read_board(img))

    def calibrated(m: Any) -> Callable[[np.ndarray, bytes], Callable[[], Any]]:
        from vision.board.calibration import calibrate

        def make(img: np.ndarray, blob: bytes) -> Callable[[], Any]:
            calib = calibrate(img)
            if calib is None:
                raise LookupError("no clear board to calibrate on (none found, or a hand over its edge)")
            return lambda: m.read_board(img, calib)

        return make

    optional("full reading, calibrated", "vision.reader", calibrated)

    def reused(m: Any) -> Callable[[np.ndarray, bytes], Callable[[], Any]]:
        from vision.board.calibration import calibrate

        def make(img: np.ndarray, blob: bytes) -> Callable[[], Any]:
            calib = calibrate(img)
            if calib is None:
                raise LookupError("no clear board to calibrate on (none found, or a hand over its edge)")
            det = m.CalibratedDetector(calib)
            det(img)  # the full reading the next frames are compared with (not timed)
            noise = np.random.default_rng(0).normal(0.0, 2.0, img.shape)
            still = np.clip(img + noise, 0, 255).astype(np.uint8)

            def call() -> Any:
                reading = det(still)
                if det.reads != 1:  # a row of reuse only: a frame read in full is a failure here
                    raise RuntimeError(f"frame read again (region change {det.change:.1f})")
                return reading

            return call

        return make

    optional("calibrated, frame unchanged (reuse)", "vision.frames.pipeline", reused)
    return out


def _wanted(stage: str) -> bool:
    return not ROWS or any(w in stage.lower() for w in ROWS)


def _successor(spec: Any) -> Any:
    """``spec`` with one checker moved one point on (a point near the middle of a half first: a move
    beside the bar or the trays also changes their places)."""
    pts = list(spec.points)
    for s in (8, 9, 10, 3, 4, 5, 14, 15, 20, 21, 2, 1, 0, 11, 6, 7, 12, 13, 16, 17, 18, 19, 22, 23):
        colour, n = pts[s]
        if colour is None or n < 1:
            continue
        for t in (s + 1, s - 1):
            if 0 <= t < 24 and pts[t][0] in (None, colour) and pts[t][1] < 5:
                pts[s] = (colour if n > 1 else None, n - 1)
                pts[t] = (colour, pts[t][1] + 1)
                return replace(spec, points=tuple(pts))
    raise LookupError("no checker can move one point")


Pair = tuple[np.ndarray, np.ndarray]


def _pair_sets() -> dict[str, list[Pair]]:
    """(frame before, changed frame) pairs by stage name (see the module docstring)."""
    from vision.render.scene import Camera, random_spec, render

    moved: list[Pair] = []
    thrown: list[Pair] = []
    for i, style in enumerate(("paper", "wood", "tournament")):
        cam = Camera(tilt_deg=6, roll_deg=2)
        spec = random_spec(i, style=style)

        def shot(s: Any, n: int, i: int = i, cam: Camera = cam) -> np.ndarray:
            return render(s, size=(1280, 720), camera=cam, seed=i, noise_seed=100 * i + n).image

        moved.append((shot(spec, 0), shot(_successor(spec), 1)))
        thrown.append((shot(replace(spec, dice=()), 2), shot(spec, 3)))
    out = {"calibrated, one checker moved": moved, "calibrated, dice thrown": thrown}
    webcam: list[Pair] = []
    folder = DATA / "boards-webcam" / "frames"
    if folder.is_dir():
        def natural(p: Path) -> list[Any]:
            return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p.name)]

        # the first two pairs of each session (the timing stops at PAIRS_WEBCAM pairs read in part)
        for session in sorted(d for d in folder.iterdir() if d.is_dir()):
            paths = sorted((p for p in session.glob("*.jpg")), key=natural)
            for a, b in list(zip(paths, paths[1:], strict=False))[:2]:
                before, after = cv2.imread(str(a)), cv2.imread(str(b))
                if before is not None and after is not None:
                    webcam.append((cv2.resize(before, (1280, 720), interpolation=cv2.INTER_LINEAR),
                                   cv2.resize(after, (1280, 720), interpolation=cv2.INTER_LINEAR)))
    out["calibrated, next webcam frame"] = webcam
    return out


class _ReadInFull(RuntimeError):
    """A pair whose changed frame is not read in part (a hand over it): it times no partial read."""


def _changed_call(before: np.ndarray, after: np.ndarray) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """The detector's call on ``after``, from its state once it has read ``before`` (not timed), and
    the full reading of ``after`` with the same calibration (its peer)."""
    from vision.board.calibration import calibrate
    from vision.frames.pipeline import CalibratedDetector
    from vision.reader import read_board

    calib = calibrate(before)
    if calib is None:
        raise LookupError("no clear board to calibrate on (none found, or a hand over its edge)")
    det = CalibratedDetector(calib, recheck_every=10**9)
    det(before)
    if det.reads != 1:
        raise RuntimeError("the first frame was not read")

    def call() -> Any:
        run = copy.copy(det)
        reading = run(after)
        if run.partial != 1:
            raise _ReadInFull("the changed frame was read in full (a hand, or the board not seen)")
        return reading

    return call, lambda: read_board(after, calib)


def main() -> None:
    cv2.setNumThreads(1)  # one core, as on a busy Raspberry Pi
    console = Console(width=100)
    err = Console(stderr=True)
    with _stage(err, "vision: preparing inputs (decoding photos, rendering frames)"):
        sets, notes = _inputs()
    table = Table(title="vision: CPU ms per frame, one core (cv2.setNumThreads(1))",
                  caption=f"peer: camera frame interval {FRAME_INTERVAL_MS:.1f} ms (30 fps)")
    for col in ("stage", "input", "CPU ms min/med", "vs 30fps", "goal (1280x720)"):
        table.add_column(col, justify="right" if col in ("CPU ms min/med", "vs 30fps") else "left")
    stages = [(name, make) for name, make in _stages() if _wanted(name)]
    total = sum(len(blobs) for make in (m for _, m in stages if not isinstance(m, str))
                for _, blobs in sets)
    # Progress is advanced between frames only, never inside _time_ms's timed calls.
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=err, transient=True, auto_refresh=False)
    failures: list[str] = []  # why a stage failed on a frame, printed under the table
    with progress:
        task = progress.add_task("vision", total=total)
        for stage, make in stages:
            for set_name, blobs in sets:
                if isinstance(make, str):
                    table.add_row(stage, set_name, make, "-", "")
                    continue
                progress.update(task, description=f"vision: {stage} / {set_name}", refresh=True)
                per_image, failed = [], 0
                for blob in blobs:
                    img = cv2.imdecode(np.frombuffer(blob, np.uint8), cv2.IMREAD_COLOR)
                    try:
                        per_image.append(_time_ms(make(img, blob)))
                    except Exception as exc:  # noqa: BLE001 -- a stage failing on one frame is a note, not the end
                        failed += 1
                        why = f"{type(exc).__name__}: {exc}".splitlines()[0]
                        failures.append(f"{stage} / {set_name}: a frame failed ({why})")
                    progress.update(task, advance=1, refresh=True)
                if not per_image:
                    table.add_row(stage, set_name, f"n/a ({failed} failed)", "-", "")
                    continue
                # the mean over the frames of each frame's least and median time
                low = statistics.mean(t[0] for t in per_image)
                ms = statistics.mean(t[1] for t in per_image)
                goal = ""
                limit = next((v for k, v in GOALS.items() if stage.startswith(k)), None)
                if limit is not None and set_name == "1280x720":
                    goal = f"<= {limit:g} ms " + ("met" if ms <= limit else "NOT met")
                extra = f" ({failed} failed)" if failed else ""
                table.add_row(stage, set_name, f"{low:.1f} / {ms:.1f}{extra}",
                              f"{ms / FRAME_INTERVAL_MS:.2f}x", goal)
    if _wanted("full reading, calibrated"):
        with _stage(err, "vision: full reading, calibrated, by stage / 1280x720"):
            _calibrated_stage_rows(table, dict(sets).get("1280x720", []))
    if _wanted("first reading (board search)"):
        _search_rows(table, err)
    pair_sets = {k: v for k, v in _pair_sets().items() if _wanted(k)} if any(
        _wanted(k) for k in GOALS if k.startswith("calibrated,")) else {}
    for stage, pairs in pair_sets.items():
        per_pair, per_full, failed, in_full = [], [], 0, 0
        for before, after in pairs:
            if len(per_pair) >= PAIRS_WEBCAM:
                break
            try:
                call, full = _changed_call(before, after)
                per_pair.append(_time_ms(call))
                per_full.append(_time_ms(full))
            except _ReadInFull:
                in_full += 1
            except Exception as exc:  # noqa: BLE001 -- one pair failing is a note, not the end
                failed += 1
                failures.append(f"{stage}: a pair failed ({type(exc).__name__}: {exc})".splitlines()[0])
        if in_full:
            failures.append(f"{stage}: {in_full} pair(s) skipped: the changed frame shows a hand, which "
                            "is read in full (the row 'full reading, calibrated')")
        if not per_pair:
            table.add_row(stage, "1280x720 pairs", f"n/a ({failed} failed)", "-", "")
            continue
        low = statistics.mean(t[0] for t in per_pair)
        ms = statistics.mean(t[1] for t in per_pair)
        extra = f" ({failed} failed)" if failed else ""
        goal = f"<= {GOAL_MS:g} ms " + ("met" if ms <= GOAL_MS else "NOT met")
        full_ms = statistics.mean(t[1] for t in per_full)
        table.add_row(stage, f"1280x720, {len(per_pair)} pairs (same frames read in full: {full_ms:.1f})",
                      f"{low:.1f} / {ms:.1f}{extra}", f"{ms / FRAME_INTERVAL_MS:.2f}x", goal)
    dice_rows: list[tuple[str, ...]] = []
    dice_main = None
    dice_mod: Any = None
    try:
        # (a chosen few rows: not the dice engineer's table)
        dice_mod = None if ROWS else importlib.import_module("bench.vision_dice")
    except ModuleNotFoundError as exc:
        if exc.name != "bench.vision_dice":
            raise
    if dice_mod is not None:
        if hasattr(dice_mod, "rows"):
            dice_rows = [tuple(str(c) for c in row) for row in dice_mod.rows()]
        elif hasattr(dice_mod, "main"):
            dice_main = dice_mod.main
    for row in dice_rows:
        table.add_row(*(list(row) + [""] * 5)[:5])
    console.print(table)
    console.print(f"vs 30fps = median CPU ms per frame / the camera frame interval ({FRAME_INTERVAL_MS:.1f} "
                  "ms); below 1.00x keeps up with the camera. min/med: least and median of "
                  f"{REPEATS} repeats, averaged over the frames. goals (issue 14 item 6, 1280x720): "
                  + "; ".join(f"{k} <= {v:g} ms" for k, v in GOALS.items()) + ".")
    console.print("· rows: the calibrated 1280x720 reading by stage (bench/reader_stages.py), each "
                  "timed where the reader calls it, the frame's least of the repeats; 'stacks' makes "
                  "the field view's Lab and gradient, 'rest' is the warp and the reader's own glue.")
    console.print("reuse row: a frame of an unchanged board on a still camera answered with the last "
                  "reading (vision.frames.pipeline.CalibratedDetector); it reads nothing, and is not "
                  "the full reading the goal is for.")
    for note in notes + failures:
        console.print(f"note: {note}")
    if dice_main is not None:
        dice_main()


if __name__ == "__main__":
    main()
