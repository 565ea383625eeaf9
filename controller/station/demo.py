"""The embedded demo: a scripted game rendered as camera frames by ``vision.render``.

:func:`script` plays a game with the rules core -- seeded dice, each player choosing his play by a
fixed rule -- and :func:`scenes` turns it into what a camera over the board would see, frame by frame:
the start position, the opening roll (one die each, each on his own right-hand half; RULES.md B3, B15),
the dice on the mover's half, the checkers moved, the dice picked up (the turn ends, B16), the next
roll. A cocked die and its re-throw (B15) are part of the short demo, so a ruling is shown too.
:func:`frames` renders each scene (``vision.render.scene.render``) and yields the image with its ground truth.

Light sits at the bottom edge with his home board bottom-right (RULES.md B2 standard set-up), so light
rolls on the right half and dark on the left half.

``variant="nardy"`` plays a long-nardy game the same way under its own rules (issue 15 item 7): all
fifteen on the head (N2), the opening roll only decides who starts, and the winner then rolls both
dice (N3); there is no hitting, so the scripted choice is only the fewest blots.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from controller.geometry import Seating
from controller.rules.variant import variant_named

SEATING = Seating.for_home("backgammon", "bottom-right")
NARDY_SEATING = Seating.for_home("nardy", "bottom-right")
NAMES = ("light", "dark")


_SEATINGS = {"backgammon": SEATING, "nardy": NARDY_SEATING}


def seating_for(variant: str) -> Seating:
    """Where the demo seats the players: light's home board bottom-right in either variant."""
    return _SEATINGS.get(variant, SEATING)


def _side(side: Any) -> tuple[int, ...]:
    """A side as 25 entries (a nardy side has no bar entry)."""
    return tuple(side) + (0,) * (25 - len(side))


@dataclass(frozen=True)
class Scene:
    """One settled frame: both sides (player 0 light, 1 dark; 25-tuples, own numbering), the dice on
    the board as ``(value, status)`` pairs, who rolled them (``roller`` 0/1, or None for the opening
    roll: one die each) and a caption."""

    sides: tuple[tuple[int, ...], tuple[int, ...]]
    dice: tuple[tuple[int, str], ...]
    roller: int | None
    caption: str


@dataclass(frozen=True)
class ScriptedTurn:
    """A turn of the script: the mover, his roll, the play he makes (rules-core Play)."""

    player: int
    dice: tuple[int, int]
    play: Any


def _choose(plays: list[Any]) -> Any:
    """The scripted player's choice: hit nothing, then the play leaving the fewest blots (a steady
    racing style that ends a game in a few dozen turns), ties by the lowest resulting position."""

    def key(p: Any) -> tuple[int, int, tuple[int, ...]]:
        hits = sum(1 for m in p.moves if m.hit)
        blots = sum(1 for n in p.result.me[:24] if n == 1)
        return hits, blots, p.result.me

    return min(plays, key=key)


def script(
    seed: int = 7, turns: int | None = 6, variant: str = "backgammon"
) -> tuple[tuple[int, int], list[ScriptedTurn]]:
    """A scripted game: the opening dice (light's die, dark's die; never a tie) and the turns that follow,
    ``turns`` of them (None: to the end of the game). Where the opening roll is not played (nardy,
    RULES.md N3) the first turn's dice are a fresh roll."""
    rules = variant_named(variant)
    rng = random.Random(seed)
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    mover = 0 if a > b else 1
    dice = (max(a, b), min(a, b)) if rules.opening_plays_roll else (rng.randint(1, 6), rng.randint(1, 6))
    sides = [rules.start_side(), rules.start_side()]
    out: list[ScriptedTurn] = []
    while turns is None or len(out) < turns:
        pos = rules.position(sides[mover], sides[1 - mover])
        plays = rules.legal_plays(pos, dice[0], dice[1])
        play = _choose(plays) if plays else None
        out.append(ScriptedTurn(mover, dice, play))
        if play is not None:
            sides[mover], sides[1 - mover] = _side(play.result.me), _side(play.result.opp)
        if not any(sides[mover]):
            break
        mover = 1 - mover
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    return (a, b), out


def scenes(
    seed: int = 7, turns: int | None = 6, rethrow_at: int | None = 1, variant: str = "backgammon"
) -> list[Scene]:
    """The frames a camera would settle on for :func:`script` (see the module docstring).

    ``rethrow_at``: the turn whose first roll lands cocked and is re-thrown (None: never).
    """
    opening, played = script(seed, turns, variant)
    rolls_first = not variant_named(variant).opening_plays_roll  # nardy: the winner rolls again (N3)
    start = variant_named(variant).start_side()
    sides = (start, start)
    out = [Scene(sides, (), None, "the start position")]
    out.append(
        Scene(
            sides,
            ((opening[0], "flat"), (opening[1], "flat")),
            None,
            f"opening roll: light {opening[0]}, dark {opening[1]}",
        )
    )
    for i, turn in enumerate(played):
        p = turn.player
        d = turn.dice
        if i > 0 or rolls_first:
            if rethrow_at == i:
                out.append(
                    Scene(sides, ((d[0], "cocked"), (d[1], "flat")), p, f"{NAMES[p]} rolls: a die is cocked")
                )
                out.append(Scene(sides, (), None, f"{NAMES[p]} picks the dice up to re-throw"))
            out.append(Scene(sides, ((d[0], "flat"), (d[1], "flat")), p, f"{NAMES[p]} rolls {d[0]}-{d[1]}"))
        if turn.play is not None:
            me, opp = _side(turn.play.result.me), _side(turn.play.result.opp)
            sides = (me, opp) if p == 0 else (opp, me)
        roller = p if i > 0 or rolls_first else None
        out.append(Scene(sides, ((d[0], "flat"), (d[1], "flat")), roller, f"{NAMES[p]} has moved"))
        out.append(Scene(sides, (), None, f"{NAMES[p]} picks up the dice"))
    return out


def scene_spec(scene: Scene, style: str = "wood", seating: Seating = SEATING) -> Any:
    """The ``vision.render.spec.BoardSpec`` of a scene (dice placed on the roller's right-hand half; the
    opening roll's two dice one on each half)."""
    from vision.reading import DieStatus
    from vision.render.geometry import layout_for
    from vision.render.scene import BoardSpec, DieSpec

    points: list[tuple[str | None, int]] = [(None, 0)] * 24
    bar: dict[str, int] = {}
    off: dict[str, int] = {}
    for player, colour in ((0, "light"), (1, "dark")):
        side = scene.sides[player]
        for s, n in enumerate(seating.side_to_slots(player, side)):
            if n:
                points[s] = (colour, n)
        if side[24]:
            bar[colour] = side[24]
        if 15 - sum(side):
            off[colour] = 15 - sum(side)
    dice = []
    lay = layout_for(style)
    _, fy0, _, fy1 = lay.field
    my = (fy0 + fy1) / 2
    if scene.roller is None and len(scene.dice) == 2:
        for (value, status), half in zip(scene.dice, ("right", "left"), strict=True):
            x0, x1 = lay.half_x(half)
            dice.append(DieSpec(value, DieStatus(status), xy=((x0 + x1) / 2, my), angle=10.0))
    else:
        roller_half = "right" if scene.roller in (None, 0) else "left"
        x0, x1 = lay.half_x(roller_half)
        for k, (value, status) in enumerate(scene.dice):
            x = x0 + (x1 - x0) * (0.35 + 0.3 * k)
            dice.append(DieSpec(value, DieStatus(status), xy=(x, my), angle=15.0 * (k + 1)))
    roller = "top" if scene.roller == 1 else "bottom"
    return BoardSpec(
        points=tuple(points), bar=bar, off=off, dice=tuple(dice), style=style, home="right", roller=roller
    )


def frames(
    seed: int = 7,
    turns: int | None = 6,
    style: str = "wood",
    view: str = "perspective",
    variant: str = "backgammon",
) -> Iterator[tuple[Any, Any, str]]:
    """(image BGR uint8 (H, W, 3), ground-truth BoardReading, caption) for every scene."""
    from vision.render.scene import render

    seating = seating_for(variant)
    for i, scene in enumerate(scenes(seed, turns, variant=variant)):
        spec = scene_spec(scene, style, seating)
        r = render(spec, view=view, seed=seed * 1000 + i, size=(960, 540))
        yield r.image, r.truth, scene.caption


def seen(
    sides: tuple[tuple[int, ...], tuple[int, ...]],
    dice: tuple[tuple[int, str], ...] = (),
    roller: int | None = None,
    t: float = 0.0,
    seating: Seating = SEATING,
    source: str = "",
    has_bar: bool = True,
) -> Any:
    """The BoardSeen a perfect camera would report (no rendering): ``sides`` per player (25-tuples, own
    numbering), ``dice`` ``(value, status)`` lying on the ``roller``'s right-hand half (RULES.md B15), or
    with ``roller`` None one on each half (the opening roll: light's die first). Used by the scripted
    games of the tests and the kill-and-resume runs."""
    from controller.game.events import BoardSeen, DieSeen

    slots: list[tuple[str | None, int, float]] = [(None, 0, 1.0)] * 24
    bar: dict[str, int] = {}
    off: dict[str, int] = {}
    for player, colour in ((0, "light"), (1, "dark")):
        for s, n in enumerate(seating.side_to_slots(player, sides[player])):
            if n:
                slots[s] = (colour, n, 1.0)
        if sides[player][24] and has_bar:
            bar[colour] = sides[player][24]
        off[colour] = 15 - sum(sides[player])
    right_slot, left_slot = 2, 14  # a slot of the right half and one of the left half

    def half_slot(player: int) -> int:
        return right_slot if seating.roller_for_half(True) == player else left_slot

    out = []
    for k, (value, status) in enumerate(dice):
        owner = (0 if k == 0 else 1) if roller is None else roller
        slot = half_slot(owner)
        if status == "wrong_half":
            slot = half_slot(1 - owner)
        out.append(DieSeen(value, status, slot))
    return BoardSeen(
        t=t, slots=tuple(slots), bar=bar, off=off, dice=tuple(out), has_bar=has_bar, source=source
    )


def scripted_events(
    seed: int = 7,
    turns: int | None = None,
    settings: Any = None,
    has_bar: bool = True,
    variant: str = "backgammon",
) -> list[Any]:
    """The demo game as station events, as a perfect camera would report it (no rendering): a
    MatchStarted with ``settings`` (controller.game.rulings.Settings; default money play) and one
    BoardSeen per scene. ``turns`` None plays the game to its end."""
    from controller.game.events import MatchStarted
    from controller.game.rulings import Settings

    out: list[Any] = [MatchStarted(t=0.0, settings=(settings or Settings()).to_json())]
    seating = seating_for(variant)
    for i, scene in enumerate(scenes(seed, turns, variant=variant)):
        out.append(
            seen(
                scene.sides,
                scene.dice,
                scene.roller,
                t=float(i + 1),
                seating=seating,
                source=scene.caption,
                has_bar=has_bar,
            )
        )
    return out
