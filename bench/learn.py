"""Learning the user's board (issue 14 item 3): points read right with the look learned at calibration
against the same calibration without it, when the light changes after calibrating.

For each rendered look (``vision.render``: paper, wood and tournament in each of their variants) and
each of two fixed cameras, the board is calibrated on a render of the opening position
(:func:`vision.board.learn.calibrate_known`, every backgammon seating allowed). Later frames of the
same camera show random positions (one in four with one colour's fifteen all borne off, so that a
single checker colour is on the points) in another light: the same, a warm and a cold cast, half
the light, half the light and warm, a brighter lamp with glare, and a stronger lamp gradient.
Each frame is read twice with the same geometry: with the learned model (carried from frame to frame
by :func:`vision.reader.read_adapting`, as the station does) and without it (today's per-frame
colour guess). A point is right when its count and (when occupied) colour match the render's truth.
Looks whose opening position the reader does not read exactly are refused by calibration, and
listed as such (the model cannot be learned there).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from rich.console import Console
from rich.table import Table

from vision.render.scene import Camera, random_spec, render, starting_spec

LOOKS = (("paper", 0), ("paper", 1), ("wood", 0), ("wood", 1), ("wood", 2), ("tournament", 0),
         ("tournament", 1))
CAMERAS = (Camera(tilt_deg=10, yaw_deg=3, roll_deg=2, fill=0.84),
           Camera(tilt_deg=-22, yaw_deg=-5, roll_deg=-3, fill=0.8, focal=1.6))
# name -> (BGR gains applied to the render, render glare, render lighting strength)
LIGHTS: dict[str, tuple[tuple[float, float, float], float, float]] = {
    "as calibrated": ((1.0, 1.0, 1.0), 0.0, 0.35),
    "warm cast": ((0.72, 0.93, 1.15), 0.0, 0.35),
    "cold cast": ((1.2, 1.0, 0.78), 0.0, 0.35),
    "half light": ((0.5, 0.5, 0.5), 0.0, 0.35),
    "half light, warm": ((0.38, 0.48, 0.6), 0.0, 0.35),
    "brighter, glare": ((1.15, 1.15, 1.15), 0.6, 0.35),
    "strong gradient": ((1.0, 1.0, 1.0), 0.0, 0.8),
}
POSITIONS = 4
SEED = 5


@dataclass
class Score:
    right: int = 0
    total: int = 0

    def add(self, reading: object, truth: object) -> None:
        for p, t in zip(reading.points, truth.points, strict=True):  # type: ignore[attr-defined]
            self.total += 1
            self.right += p.count == t.count and (t.count == 0 or p.colour == t.colour)

    def pct(self) -> str:
        return f"{100.0 * self.right / self.total:.1f} %" if self.total else "-"


def _lit(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(image.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)


def run(err: Console) -> tuple[dict[str, tuple[Score, Score]], list[str], dict[str, tuple[Score, Score]]]:
    """{light: (without, with)}, the refused looks, {look: (without, with)} over all lights."""
    from controller.geometry import start_layouts
    from vision.board.learn import calibrate_known
    from vision.errors import CalibrationError
    from vision.reader import read_adapting, read_board

    layouts = start_layouts("backgammon")
    by_light = {name: (Score(), Score()) for name in LIGHTS}
    by_look: dict[str, tuple[Score, Score]] = {}
    refused = []
    for style, variant in LOOKS:
        for ci, cam in enumerate(CAMERAS):
            look = f"{style} {variant}, camera {ci + 1}"
            err.print(f"[dim]{look}[/dim]")
            opening = render(starting_spec(style, variant=variant), camera=cam, seed=SEED).image
            try:
                learned = calibrate_known(opening, layouts, "the opening position")
            except CalibrationError as exc:
                refused.append(f"{look}: {str(exc).split(';')[0]}")
                continue
            plain = replace(learned.calibration, appearance=None)
            adapted = learned.calibration
            row = by_look.setdefault(look, (Score(), Score()))
            for light, (gains, glare, lighting) in LIGHTS.items():
                for k in range(POSITIONS):
                    off = {"light": 15} if k == POSITIONS - 1 else None
                    spec = random_spec(200 + k, style=style, variant=variant, with_dice=False, off=off)
                    shot = render(spec, camera=cam, seed=SEED, noise_seed=k, glare=glare, lighting=lighting)
                    frame = _lit(shot.image, gains)
                    without = read_board(frame, plain)
                    with_model, adapted = read_adapting(frame, adapted)
                    for scores in (by_light[light], row):
                        scores[0].add(without, shot.truth)
                        scores[1].add(with_model, shot.truth)
    return by_light, refused, by_look


def main() -> None:
    console = Console()
    err = Console(stderr=True)
    by_light, refused, by_look = run(err)
    table = Table(title="Points read right after a light change, calibrated on the rendered opening position")
    for col in ("light after calibrating", "points", "without the learned look", "with it"):
        table.add_column(col, justify="right" if col != "light after calibrating" else "left")
    total = (Score(), Score())
    for light, (a, b) in by_light.items():
        table.add_row(light, str(a.total), f"{a.right} ({a.pct()})", f"{b.right} ({b.pct()})")
        for t, s in zip(total, (a, b), strict=True):
            t.right += s.right
            t.total += s.total
    table.add_row("all", str(total[0].total), f"{total[0].right} ({total[0].pct()})",
                  f"{total[1].right} ({total[1].pct()})", style="bold")
    console.print(table)
    looks = Table(title="By look (all lights)")
    for col in ("look", "points", "without", "with"):
        looks.add_column(col, justify="right" if col != "look" else "left")
    for look, (a, b) in by_look.items():
        looks.add_row(look, str(a.total), f"{a.right} ({a.pct()})", f"{b.right} ({b.pct()})")
    console.print(looks)
    for line in refused:
        console.print(f"calibration refused on {line}")


if __name__ == "__main__":
    main()
