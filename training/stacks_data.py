"""Labelled point strips for the stack counter (:mod:`vision.checkers.network`): from randomised
renders and from the labelled real photos, each photo's strips taken where the reader's own board
finder puts the field (so the network learns the strips it will be given).

Real photos are grouped into *board families* (:data:`FAMILIES`, after ``boards-real/README.md``):
the leave-one-board-out folds hold one family out at a time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from training.render_dataset import label_for
from vision.board.finder import find_board, geometry_from_corners
from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import FieldView
from vision.checkers.network import point_strips
from vision.checkers.stacks import count_stacks
from vision.eval.boards import parse_cell
from vision.reader import MAX_WORK_SIDE
from vision.render.geometry import layout_for
from vision.render.scene import Camera, random_spec, render
from vision.render.surface import Surface

__all__ = [
    "FAMILIES", "Strips", "family_of", "photo_strips", "real_photos", "render_strips", "strip_cells",
    "strip_xy",
]

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
# The board families of boards-real (its README), by image name; every boards-webcam frame is one.
FAMILIES: dict[str, tuple[str, ...]] = {
    "wtc-broadcast": ("frame0.jpg", "frame1.jpg", "frame2.jpg", "test9.jpg"),
    "test10": ("test10.jpg",),
    "leather-test2": ("test2.jpg",),
    "wooden-empty": ("template2.jpg", "test4.jpg"),
    "case-test1": ("test1.jpg",),
    "walnut-logos": ("test11.jpg", "test12.jpg"),
    "test6": ("test6.jpg",),
    "test3": ("test3.jpg",),
    "dices6": ("dices6.jpg",),
    "template3": ("template3.jpg",),
    "folding-test": ("test.jpg",),
}
WEBCAM = "webcam"
_WORK_SIDE = 1600


@dataclass
class Strips:
    """Strips and their labels: ``x`` float16 (N, 3, H, W), ``count`` int (N,), ``group`` (N,) the
    family (or ``render``), ``image`` (N,) the photo's name, ``slot`` (N,) 0-23 in strip order,
    ``classic`` (N,) the classical count, ``conf`` (N,) the classical confidence."""

    x: np.ndarray
    count: np.ndarray
    group: np.ndarray
    image: np.ndarray
    slot: np.ndarray
    classic: np.ndarray
    conf: np.ndarray

    @staticmethod
    def join(parts: list[Strips]) -> Strips:
        return Strips(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                        ("x", "count", "group", "image", "slot", "classic", "conf")))

    def take(self, mask: np.ndarray) -> Strips:
        return Strips(self.x[mask], self.count[mask], self.group[mask], self.image[mask], self.slot[mask],
                      self.classic[mask], self.conf[mask])

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **{f: getattr(self, f) for f in
                                     ("x", "count", "group", "image", "slot", "classic", "conf")})

    @staticmethod
    def load(path: Path) -> Strips:
        z = np.load(path, allow_pickle=False)
        return Strips(*(z[f] for f in ("x", "count", "group", "image", "slot", "classic", "conf")))


def family_of(image: str) -> str:
    """The board family of a boards-real image name; boards-webcam frames are all ``webcam``."""
    for fam, names in FAMILIES.items():
        if image in names:
            return fam
    return WEBCAM


def strip_xy(geom: BoardGeometry) -> list[dict[str, Any]]:
    """The 24 strips' image positions as ``{"image_xy": ...}`` in strip order (the reader's rule for
    a point's ``image_xy``, :func:`vision.reader._points`), for the label rule of eval_boards."""
    height = geom.size[1]
    depth = min(2.5 * POINT_PX, 0.25 * height)
    out = []
    for top in (True, False):
        for col in range(12):
            y = depth if top else height - depth
            xy = geom.to_image(np.array([[geom.columns[col], y]]))[0]
            out.append({"image_xy": (float(xy[0]), float(xy[1])), "i": len(out)})
    return out


def strip_cells(geom: BoardGeometry, label: dict[str, Any]) -> list[tuple[str | None, int] | None]:
    """Each strip's label cell (strip order), matched by image position as eval_boards matches."""
    pts = strip_xy(geom)
    major, minor = (1, 0) if label["layout"] == "landscape" else (0, 1)
    pts.sort(key=lambda p: p["image_xy"][major])
    rows = [q for half in (pts[:12], pts[12:]) for q in sorted(half, key=lambda p: p["image_xy"][minor])]
    cells = [parse_cell(c) for c in list(label["rowA"]) + list(label["rowB"])]
    out: list[tuple[str | None, int] | None] = [None] * 24
    for p, c in zip(rows, cells, strict=True):
        out[p["i"]] = c
    return out


def photo_strips(image: np.ndarray, geom: BoardGeometry, label: dict[str, Any], group: str,
                 name: str) -> Strips:
    """The labelled strips of one image whose field lies at ``geom`` (hidden cells left out)."""
    view = FieldView.of_frame(image, geom)
    x = point_strips(view, geom)
    stacks = count_stacks(view, geom)
    cells = strip_cells(geom, label)
    keep = np.array([c is not None for c in cells])
    counts = np.array([c[1] if c is not None else -1 for c in cells])
    n = int(keep.sum())
    return Strips(
        x[keep].astype(np.float16), counts[keep], np.array([group] * n), np.array([name] * n),
        np.arange(24)[keep], np.array([s.count for s in stacks])[keep],
        np.array([s.confidence for s in stacks], dtype=np.float32)[keep])


def _work_image(img: np.ndarray) -> np.ndarray:
    """The photo as the reader reads it (shrunk when larger than a camera frame)."""
    h, w = img.shape[:2]
    if max(h, w) <= MAX_WORK_SIDE:
        return img
    k = _WORK_SIDE / max(h, w)
    return cv2.resize(img, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)


def real_photos(root: Path = DATA) -> Iterator[tuple[str, Path, dict[str, Any]]]:
    """(family, path, label) of every labelled board photo in boards-real and boards-webcam; an
    occluded one of boards-real too (its hidden cells are ``"?"``: left out of the strips)."""
    for sub in ("boards-real", "boards-webcam"):
        labels = root / sub / "labels.jsonl"
        if not labels.exists():
            continue
        for line in labels.read_text().splitlines():
            if not line.strip():
                continue
            lab = json.loads(line)
            # an occluded webcam frame marks no hidden cell: the hand's strips would be mislabelled
            if lab.get("board") is False or (lab.get("occluded") and sub == "boards-webcam"):
                continue
            fam = family_of(lab["image"]) if sub == "boards-real" else WEBCAM
            yield fam, root / sub / lab["image"], lab


def real_strips(root: Path = DATA, progress: Callable[[str], None] | None = None) -> Strips:
    """The strips of every labelled real photo, where the reader's board finder puts the field."""
    from vision.frames.images import load_image

    parts = []
    for fam, path, lab in real_photos(root):
        img = _work_image(load_image(str(path)))
        geom = find_board(img)
        if progress is not None:
            progress(f"{path.name}: {'no board' if geom is None else 'ok'}")
        if geom is not None:
            parts.append(photo_strips(img, geom, lab, fam, str(lab["image"])))
    return Strips.join(parts)


# Checker colour pairs of nearly equal lightness (BGR): the case a brightness rule cannot split.
_NEAR_EQUAL = (((60, 60, 200), (70, 120, 60)), ((40, 160, 200), (200, 200, 200)),
               ((30, 30, 30), (90, 40, 30)), ((150, 150, 150), (60, 110, 170)))


def _cast(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A colour cast (white balance off): each channel scaled by up to 15 %."""
    gains = rng.uniform(0.85, 1.15, 3).astype(np.float32)
    return np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)


# Checker colours of real sets (BGR), drawn in pairs for a surfaced render: dark checkers on dark
# points, red on black, gold, cream and white.
_SET_COLOURS = ((28, 28, 30), (30, 45, 85), (40, 40, 170), (60, 170, 210), (188, 226, 242), (235, 235, 235),
                (20, 60, 120), (150, 150, 150))


def finder_error(corners: np.ndarray, rng: np.random.Generator, size: float = 0.5) -> np.ndarray:
    """The field's corners (TL, TR, BR, BL) as a board finder errs on real photos: each edge moved
    in or out by up to ``size`` point widths on its own (a found field that ends inside the first
    checkers, or on the frame), the four corners mapped through the field's own perspective."""
    quad = np.asarray(corners, dtype=np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    hom = cv2.getPerspectiveTransform(unit, quad)
    width = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    du, dv = 1.0 / 12.0, width / 12.0 / max(height, 1.0)  # one point width across and along
    left, right = rng.uniform(-size, size, 2) * du
    top, bottom = rng.uniform(-size, size, 2) * dv
    moved = np.array([[left, top], [1 - right, top], [1 - right, 1 - bottom], [left, 1 - bottom]], np.float32)
    return cv2.perspectiveTransform(moved[None], hom)[0].astype(np.float64)


def render_strips(n: int, seed: int = 0, progress: Callable[[int], None] | None = None,
                  surface: float = 0.0, finder: float = 0.0) -> Strips:
    """The strips of ``n`` randomised renders: every style and variant, random cameras (a sixth
    rectified), light, glare, blur, noise, JPEG, colour casts and near-equal checker colours; the
    field's corners jittered by up to a sixth of a point width, as a finder's error. A ``surface``
    share of them get a random :class:`~vision.render.surface.Surface` (grain, printed logos, other
    point colours, gloss), half of those a checker set of other colours too. A ``finder`` share of
    them are cut where a finder that erred would put the field (:func:`finder_error`)."""
    rng = np.random.default_rng(seed)
    parts = []
    styles = ("wood", "tournament", "paper")
    for i in range(n):
        name = f"render{seed}-{i}"
        style = styles[i % 3]
        k = int(rng.integers(1 << 30))
        spec = random_spec(k, style=style, variant=None, max_stack=int(rng.choice([5, 6, 8, 15])))
        if rng.random() < 0.2:
            pair = _NEAR_EQUAL[int(rng.integers(len(_NEAR_EQUAL)))]
            spec = replace(spec, checker_colours=pair if rng.random() < 0.5 else pair[::-1])
        look = None
        if surface > 0 and rng.random() < surface:
            look = Surface.random(rng)
            if rng.random() < 0.5:
                a, b = rng.choice(len(_SET_COLOURS), 2, replace=False)
                spec = replace(spec, checker_colours=(_SET_COLOURS[int(a)], _SET_COLOURS[int(b)]))
        portrait = bool(rng.random() < 0.2)
        view = "rectified" if rng.random() < 0.15 else "perspective"
        w, h = (1280, 720) if rng.random() < 0.7 else (640, 360)
        r = render(spec, size=(h, w) if portrait else (w, h), view=view,
                   camera=Camera.random(np.random.default_rng(k), portrait=portrait), seed=k,
                   lighting=float(rng.uniform(0.1, 0.7)), noise=float(rng.uniform(1, 6)),
                   blur=float(rng.choice([0.0, 0.0, 0.7, 1.2, 1.8])),
                   jpeg_quality=int(rng.integers(40, 95)), clutter=bool(rng.random() < 0.3),
                   glare=float(rng.choice([0.0, 0.0, 0.4, 0.8])), surface=look)
        img = _cast(r.image, rng) if rng.random() < 0.5 else r.image
        lay = layout_for(spec.style)
        gap = 0.0 if lay.bar is None else (lay.bar[1] - lay.bar[0]) / (lay.field[2] - lay.field[0])
        corners = np.asarray(r.regions["field"], dtype=np.float64)
        side = float(np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[1]))
        corners = corners + rng.normal(0, side / 2 / 12 / 6 / 2, corners.shape)
        if finder > 0:  # its own generator: the renders of a seed stay those made without it
            erring = np.random.default_rng(k + 7_000_001)
            if erring.random() < finder:
                corners = finder_error(corners, erring)
        geom = geometry_from_corners(img, corners, bar=gap)
        label = label_for(r.truth, name, portrait)
        parts.append(photo_strips(img, geom, label, "render", name))
        if progress is not None:
            progress(i + 1)
    return Strips.join(parts)


def main(argv: list[str] | None = None) -> int:
    """``python -m training.stacks_data [--renders N] [--seed S] [--out build/stacks] [--no-real]``:
    write the strips of N renders (``renders-S.npz``: several seeds may run side by side) and of the
    real photos (``real.npz``)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m training.stacks_data", description=__doc__.splitlines()[0])
    ap.add_argument("--renders", type=int, default=600)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="build/stacks")
    ap.add_argument("--no-real", action="store_true", help="renders only (another seed's share)")
    ap.add_argument("--finder", type=float, default=0.0,
                    help="share of renders cut where an erring board finder puts the field")
    ap.add_argument("--surface", type=float, default=0.0,
                    help="share of renders with a random surface (grain, logos, point colours, gloss)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    out = Path(a.out)
    from rich.progress import Progress

    with Progress() as bar:
        if not a.no_real:
            task = bar.add_task("real photos", total=None)
            real = real_strips(progress=lambda _m: bar.advance(task))
            real.save(out / "real.npz")
            print(f"{len(real.count)} real strips in {out / 'real.npz'}")
        task = bar.add_task(f"rendering {a.renders} boards", total=a.renders)

        def step(i: int) -> None:
            bar.update(task, completed=i)
            if i % 25 == 0 and not bar.console.is_terminal:
                print(f"{i}/{a.renders} rendered", flush=True)

        ren = render_strips(a.renders, a.seed, progress=step, surface=a.surface, finder=a.finder)
        ren.save(out / f"renders-{a.seed}.npz")
    print(f"{len(ren.count)} rendered strips in {out / f'renders-{a.seed}.npz'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
