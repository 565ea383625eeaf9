"""Board descriptions for the renderer (`vision.render.scene`): what lies where, validated, and builders for
the opening position (RULES.md B3) and random plausible positions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from vision.errors import RenderError
from vision.reading import DARK, LIGHT, DieStatus
from vision.render import draw

__all__ = [
    "BoardSpec", "COLOURS", "CUBE_FACES", "DICE_COLOURS", "OFF_POSES", "DieSpec", "RenderError", "STYLES",
    "light_point_to_slot", "random_spec", "starting_spec",
]

STYLES = ("paper", "wood", "tournament")
# How borne-off checkers lie: standing on edge in a row along the tray (the tournament way; on a
# board without trays they then lie flat) or lying flat, a row of discs (``"flat"``).
OFF_POSES = ("edge", "flat")
# The cube's top face: dark figures on a light cube, light figures on a dark cube, or the logo face
# an undoubled cube may show instead of 64 (its value is then unread: None in the truth).
CUBE_FACES = ("dark_on_light", "light_on_dark", "logo")
COLOURS = (LIGHT, DARK)


@dataclass(frozen=True)
class DieSpec:
    """One die to draw. ``xy`` is its centre in board units (None: chosen from ``status`` and the
    seed -- e.g. ``wrong_half`` lands on the roller's left half, ``off_board`` on the table);
    ``angle`` its turn in degrees (None: random); ``body``/``pip`` its colours (BGR)."""

    value: int
    status: DieStatus = DieStatus.FLAT
    xy: tuple[float, float] | None = None
    angle: float | None = None
    body: tuple[int, int, int] = (236, 238, 240)
    pip: tuple[int, int, int] = (25, 25, 25)


@dataclass(frozen=True)
class BoardSpec:
    """What lies on the board (`vision.render.scene`'s module docstring gives every field's meaning)."""

    points: tuple[tuple[str | None, int], ...]
    bar: Mapping[str, int] = field(default_factory=dict)
    off: Mapping[str, int] = field(default_factory=dict)
    dice: tuple[DieSpec, ...] = ()
    cube_value: int = 64
    cube_position: str | None = "centre"
    style: str = "wood"
    home: str = "right"
    roller: str = "bottom"
    pile: str = "layer"
    checker_colours: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None
    variant: int = 0
    off_pose: str = "edge"
    cube_face: str = "dark_on_light"
    cube_angle: float | None = None

    def validate(self) -> None:
        """:raises RenderError: when the spec describes an impossible board."""
        if self.style not in STYLES:
            raise RenderError(f"style {self.style!r}: use one of {', '.join(STYLES)}")
        if self.home not in ("right", "left"):
            raise RenderError(f"home {self.home!r}: use 'right' or 'left'")
        if self.roller not in ("bottom", "top"):
            raise RenderError(f"roller {self.roller!r}: use 'bottom' or 'top'")
        n_var = len(draw.VARIANTS.get(self.style, []))
        if not 0 <= self.variant <= n_var:
            raise RenderError(f"variant {self.variant}: {self.style} boards have variants 0-{n_var}")
        if self.pile not in ("layer", "beside"):
            raise RenderError(f"pile {self.pile!r}: use 'layer' or 'beside'")
        if len(self.points) != 24:
            raise RenderError(f"points has {len(self.points)} entries; a board has 24 (slots 0-23)")
        totals = {LIGHT: 0, DARK: 0}
        for slot, (colour, count) in enumerate(self.points):
            if not 0 <= count <= 15:
                raise RenderError(f"slot {slot}: count {count} is outside 0-15")
            if (colour is None) != (count == 0):
                raise RenderError(f"slot {slot}: colour {colour!r} with count {count}")
            if colour is not None:
                if colour not in COLOURS:
                    raise RenderError(f"slot {slot}: colour {colour!r}; use 'light' or 'dark'")
                totals[colour] += count
        for name, table in (("bar", self.bar), ("off", self.off)):
            for colour, count in table.items():
                if colour not in COLOURS or count < 0:
                    raise RenderError(f"{name}: {colour!r}={count}")
                totals[colour] += count
        for colour, n in totals.items():
            if n > 15:
                raise RenderError(f"{n} {colour} checkers; a side has at most 15")
        if self.style == "paper" and any(d.status == DieStatus.ON_BAR for d in self.dice):
            raise RenderError("a die 'on_bar' on a paper board: paper boards have no bar")
        for d in self.dice:
            if not 1 <= d.value <= 6:
                raise RenderError(f"die value {d.value} is outside 1-6")
        if self.cube_position not in (None, "centre", "top", "bottom"):
            raise RenderError(f"cube_position {self.cube_position!r}: use 'centre', 'top', 'bottom' or None")
        if self.off_pose not in OFF_POSES:
            raise RenderError(f"off_pose {self.off_pose!r}: use one of {', '.join(OFF_POSES)}")
        if self.cube_face not in CUBE_FACES:
            raise RenderError(f"cube_face {self.cube_face!r}: use one of {', '.join(CUBE_FACES)}")
        if self.cube_value not in (1, 2, 4, 8, 16, 32, 64):
            raise RenderError(f"cube_value {self.cube_value}: use 2-64 (64 when centred means 1)")


# (body, pips) BGR of common dice: white/black, ivory/black, red/white, black/white, green/white.
DICE_COLOURS = (
    ((236, 238, 240), (25, 25, 25)), ((200, 228, 240), (30, 30, 30)), ((40, 30, 170), (235, 235, 235)),
    ((30, 30, 30), (235, 235, 235)), ((60, 120, 40), (235, 235, 235)),
)

# Standard start, light's points: 2 on 24, 5 on 13, 3 on 8, 5 on 6 (RULES.md B3).
_START = {24: 2, 13: 5, 8: 3, 6: 5}


def light_point_to_slot(point: int, home: str = "right") -> int:
    """Slot of the light player's point 1-24 when his home board is bottom-``home`` (DESIGN.md)."""
    if home == "right":
        return point - 1
    return 12 - point if point <= 12 else 36 - point


def starting_spec(style: str = "wood", home: str = "right", **kw: object) -> BoardSpec:
    """The opening position (RULES.md B3) for either set-up; light plays from the bottom edge."""
    pts: list[tuple[str | None, int]] = [(None, 0)] * 24
    for p, n in _START.items():
        pts[light_point_to_slot(p, home)] = (LIGHT, n)
        pts[light_point_to_slot(25 - p, home)] = (DARK, n)
    return BoardSpec(points=tuple(pts), style=style, home=home, **kw)  # type: ignore[arg-type]


def random_spec(
    seed: int, style: str = "wood", home: str = "right", max_stack: int = 15, with_dice: bool = True,
    variant: int | None = 0, off: Mapping[str, int] | None = None, bar: Mapping[str, int] | None = None,
) -> BoardSpec:
    """A random plausible position: 15 checkers a side spread over points, bar and off (no point holds
    both colours), stacks up to ``max_stack``, two flat dice (of a colour from ``DICE_COLOURS``) on the
    roller's half and the cube.
    ``variant`` None picks a random look of the style. ``off`` / ``bar`` (counts per colour) fix the
    borne-off and hit checkers instead of drawing them at random (a colour left out has none).

    :raises RenderError: when ``max_stack`` is too small to place 30 checkers on 24 points."""
    rng = np.random.default_rng(seed)
    pts: list[tuple[str | None, int]] = [(None, 0)] * 24
    fixed_bar, fixed_off = bar, off
    bar_n: dict[str, int] = {}
    off_n: dict[str, int] = {}
    has_bar = style != "paper"
    for colour in COLOURS:
        left = 15
        if fixed_bar is not None:
            bar_n[colour] = int(fixed_bar.get(colour, 0))
        elif has_bar and rng.random() < 0.25:
            bar_n[colour] = int(rng.integers(1, 3))
        if fixed_off is not None:
            off_n[colour] = int(fixed_off.get(colour, 0))
        elif rng.random() < 0.25:
            off_n[colour] = int(rng.integers(1, 6))
        left -= bar_n.get(colour, 0) + off_n.get(colour, 0)
        if left < 0:
            raise RenderError(f"{colour}: {15 - left} checkers on the bar and off; a side has 15")
        while left > 0:
            free = [s for s in range(24) if pts[s][0] in (None, colour) and pts[s][1] < max_stack]
            if not free:
                raise RenderError(f"max_stack={max_stack} leaves no room for 15 checkers a side")
            s = int(rng.choice(free))
            n = int(min(left, rng.integers(1, 6), max_stack - pts[s][1]))
            pts[s] = (colour, pts[s][1] + n)
            left -= n
    body, pip = DICE_COLOURS[int(rng.integers(len(DICE_COLOURS)))]
    dice = tuple(DieSpec(int(rng.integers(1, 7)), body=body, pip=pip) for _ in range(2)) if with_dice else ()
    return BoardSpec(
        points=tuple(pts), bar={k: v for k, v in bar_n.items() if v},
        off={k: v for k, v in off_n.items() if v}, dice=dice, style=style, home=home,
        cube_value=int(rng.choice([64, 2, 4])), cube_position=str(rng.choice(["centre", "top", "bottom"])),
        pile=str(rng.choice(["layer", "beside"])),
        variant=int(rng.integers(0, len(draw.VARIANTS.get(style, [])) + 1)) if variant is None else variant,
    )
