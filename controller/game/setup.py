"""Board readings for controller.game: the dispatch of a BoardSeen by phase, setup, the opening roll
and the next nardy game (split out of controller/game.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from controller import hints
from controller.game import arbiter
from controller.game.effects import Effect, Leds, Prompt
from controller.game.events import BoardSeen, DieSeen
from controller.game.rulings import Ruling, rethrow
from controller.game.state import (
    NAMES,
    Sides,
    State,
    announce,
    cube_settings,
    half_of,
    infer_seating,
    is_start,
    match_state,
    partial_notes,
    plays_for,
    point_confidence,
    position_for,
    show,
    sides_from_seen,
    trusted_dice,
    variant_in,
)
from controller.game.turns import (
    begin_move,
    deciding,
    describe_plays,
    moving,
    to_roll,
)
from controller.geometry import Seating, all_seatings, right_half
from controller.rules.cube import automatic_double
from controller.rules.moves import Play, apply_play
from controller.rules.position import Position
from firmware_bridge.frames import LedFrame


def on_board(state: State, ev: BoardSeen, out: list[Effect]) -> tuple[State, list[Effect]]:
    if not ev.usable:
        why = "a hand covers the board" if ev.occluded else f"no usable reading ({ev.status})"
        out.append(Prompt(f"waiting: {why}"))
        return state, out
    if state.seating is None or state.phase in ("setup", "game_over"):
        state = replace(state, seating=infer_seating(ev, state.settings))
    elif state.phase == "free":
        # keep the numbering found on the first board, unless a start position shows another
        other = infer_seating(ev, state.settings)
        if other != state.seating and is_start(sides_from_seen(ev, other), variant_in(state)):
            state = replace(state, seating=other)
    assert state.seating is not None
    seen = sides_from_seen(ev, state.seating)
    state = replace(state, reading=ev)
    dice = trusted_dice(ev)
    if state.phase in ("setup", "free", "game_over", "match_over"):
        return _setup(state, ev, seen, dice, out)
    if state.phase == "to_roll":
        return to_roll(state, ev, seen, dice, out)
    if state.phase == "moving":
        return moving(state, ev, seen, dice, out)
    if state.phase == "deciding":
        return deciding(state, ev, seen, dice, out)
    if state.phase == "cube":
        out.append(Prompt(f"{NAMES[1 - (state.on_roll or 0)]}: take or drop the double"))
        return state, out
    return state, out


def _setup(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """No game under way: start one on an opening roll over the start position, else free analysis."""
    assert state.seating is not None
    variant = variant_in(state)
    if state.phase == "match_over":
        out.append(Prompt("the match is over: start a new one (tavla run --config ...)"))
        return state, out
    if is_start(seen, variant):
        if not variant.opening_each_game and state.phase == "game_over" and state.starter is not None:
            return _nardy_next_game(state, ev, seen, dice, out)
        if not dice:
            view, _, _, _ = show(state, ev, "start position: roll one die each", None, None, seen)
            out.append(view)
            return replace(state, sides=seen), out
        return _opening(state, ev, seen, dice, out)
    if state.phase == "game_over":
        out.append(Prompt("game over: set up the start position for the next game"))
        return state, out
    # free play: analyse this board alone (hint assistant over any position)
    notes = list(partial_notes(seen))
    if not dice and ev.dice:
        notes.append(f"{len(ev.dice)} dice-like marks read, none trusted: no roll taken from this frame")
    seating = state.seating  # kept: `state` is rebound below
    mover = None
    roll: tuple[int, int] | None = None
    if len(dice) == 2:
        ruling = rethrow(dice[:2], state.settings)
        if ruling is not None:
            state = announce(state, ruling, out)
            out.append(Leds(hints.rethrow_frame(), "re-throw"))
        else:
            half = half_of(dice)
            mover = seating.roller_for_half(bool(half)) if half is not None else None
            a, b = dice[0].value, dice[1].value
            roll = (a, b) if a is not None and b is not None else None
    elif len(dice) == 1:
        notes.append("only one die seen")
    elif len(dice) > 2:
        notes.append(f"{len(dice)} dice on the board: waiting for one roll")
    position_ok = True
    pos = variant.position(seen[0], seen[1])
    flags = pos.status() if hasattr(pos, "status") else 0
    if flags:
        notes.append(f"no legal plays counted: the position is impossible ({arbiter.flag_names(flags)})")
        position_ok = False
    view, frame, _, _ = show(
        state, ev, "board", mover, roll if position_ok else None, seen if position_ok else seen, tuple(notes)
    )
    if not position_ok:
        view = replace(view, legal=None, movable=(), movable_slots=())
        frame = LedFrame.dark()
    if state.phase == "free" and position_ok:
        state = _free_inference(state, ev, seen, out, mover, roll)
        if state.seating is not None and state.seating != seating:
            seating = state.seating  # the play showed the board's numbering: read this frame by it
            seen = sides_from_seen(ev, seating)
            half = half_of(dice) if len(dice) == 2 else None
            if mover is not None and half is not None:
                mover = seating.roller_for_half(bool(half))
    out.append(view)
    if not any(isinstance(e, Leds) for e in out):
        if state.settings.hints == "referee":  # a tournament shows no aid, in free play neither
            out.append(Leds(LedFrame.dark(), "no aid in a tournament"))
        else:
            out.append(Leds(frame, "movable points" if view.movable else "nothing to play"))
    # a roll already on the first board read (a game joined mid-turn) may be partly played already
    joined = state.phase == "setup"
    prev = (seen, mover, roll, joined) if position_ok and mover is not None and roll is not None else None
    if state.pending and state.pending[0] == "free":
        if prev is None and state.pending[1][0] == seen:
            prev = state.pending[1]  # same board, dice gone: keep the roll for the next change
        elif prev is not None and _same_roll(state.pending[1], mover, roll):
            prev = state.pending[1]  # the roll still lies there: the turn began on the board seen with it
    return replace(state, phase="free", sides=seen, pending=("free", prev) if prev else ()), out


def _same_roll(pending: tuple[Sides, int, tuple[int, int], bool], mover: int | None,
               roll: tuple[int, int] | None) -> bool:
    """Is (``mover``, ``roll``) the roll of ``pending`` (a free-play turn under way), in either order?"""
    return roll is not None and mover == pending[1] and sorted(roll) == sorted(pending[2])


def _rest_of_roll(before: Any, plays: list[Any]) -> list[Any]:
    """The plays of part of the roll from ``before``: what is left to play when the board was first
    read with the roll half played (a game joined mid-turn). Each is the first steps of a legal play,
    or its steps after the first, that the rules core can play from ``before``; one per result."""
    seen = {p.result for p in plays} | {before}
    out = []
    for play in plays:
        steps = play.moves
        for part in [steps[:k] for k in range(1, len(steps))] + [steps[k:] for k in range(1, len(steps))]:
            try:
                result = apply_play(before, part)
            except (ValueError, IndexError):  # a later step needs the earlier one (24/18/13)
                continue
            if result not in seen:
                seen.add(result)
                out.append(Play(tuple(part), result))
    return out


def _renumbered(sides: Sides, old: Seating, new: Seating) -> Sides:
    """Both sides read under seating ``old``, renumbered as seating ``new`` numbers the same slots."""
    light = new.slots_to_side(0, old.side_to_slots(0, sides[0]), sides[0][24])
    dark = new.slots_to_side(1, old.side_to_slots(1, sides[1]), sides[1][24])
    return light, dark


def _free_inference(state: State, ev: BoardSeen, seen: Sides, out: list[Effect], now_mover: int | None = None,
                    now_roll: tuple[int, int] | None = None) -> State:
    """Free play (a game joined in progress): when the turn that began with a roll is over and the
    board changed, name the play that explains the change, or raise a dispute when none does
    (RULES.md B17, N11: a *finished* turn is judged). The turn is over when its dice leave the board
    (B16) or the other player's roll lies there; while the same roll (``now_mover``, ``now_roll``:
    this frame's) still lies on the board the mover may be half way through the play, and nothing is
    judged (a half-played 3-2 is no illegal move)."""
    if not state.pending or state.pending[0] != "free":
        return state
    before_sides, mover, roll, joined = state.pending[1]
    if seen == before_sides or _same_roll(state.pending[1], now_mover, now_roll):
        return state
    assert state.seating is not None

    def judge(seating: Seating, before_sides: Sides, seen: Sides, player: int) -> arbiter.Inference:
        before = position_for(state, before_sides, player)
        plays = plays_for(state, before_sides, player, roll)
        if joined and isinstance(before, Position):  # backgammon's steps (nardy's are its own)
            plays += _rest_of_roll(before, plays)
        seen_pos = position_for(state, seen, player)
        conf = point_confidence(ev, seating, player)
        return arbiter.infer(before, plays, seen_pos, (arbiter.BAR,), variant_in(state), confidence=conf)

    def explain(seating: Seating, before_sides: Sides, seen: Sides) -> tuple[int, arbiter.Inference]:
        verdict = judge(seating, before_sides, seen, mover)
        if isinstance(verdict, arbiter.Illegal):
            # free play knows the roller only by the half the dice lie on: when only the other
            # player's checkers moved, and by a legal play of that roll, he rolled it (wrong half)
            other = judge(seating, before_sides, seen, 1 - mover)
            if isinstance(other, arbiter.Made) and other.play.moves:
                return 1 - mover, other
        return mover, verdict

    mover, verdict = explain(state.seating, before_sides, seen)
    if isinstance(verdict, arbiter.Illegal) and state.settings.light_home == "auto":
        # a game joined in progress gives its numbering only by the pip counts (infer_seating), which
        # a partial set (checkers off or set aside) can mislead: the seating under which the change
        # is a legal play is the board's (the game as the prior, RULES.md B2 numbering)
        for other_seating in all_seatings(state.settings.variant):
            if other_seating == state.seating:
                continue
            moved = _renumbered(before_sides, state.seating, other_seating)
            now = sides_from_seen(ev, other_seating)
            who, other = explain(other_seating, moved, now)
            if isinstance(other, arbiter.Made) and other.play.moves:
                out.append(
                    Prompt(
                        f"the board's numbering found from the play: light's home board is "
                        f"{other_seating.light_home()} (set light_home in the config to fix it)"
                    )
                )
                state = replace(state, seating=other_seating, sides=now)
                mover, verdict = who, other
                break
    rule = variant_in(state).dispute_rule
    if isinstance(verdict, arbiter.Made):
        text = describe_plays(state, (verdict.play,)) if verdict.play.moves else "no move (none possible)"
        if verdict.overruled:
            where = ", ".join("the bar" if p == arbiter.BAR else str(p) for p in verdict.overruled)
            text += f"; the camera read {NAMES[mover]}'s point(s) {where} otherwise"
        out.append(Prompt(f"{NAMES[mover]} played {roll[0]}-{roll[1]}: {text} (legal)"))
        return state
    if isinstance(verdict, arbiter.Ambiguous):
        text = describe_plays(state, verdict.candidates)
        return announce(
            state,
            Ruling(
                rule,
                "unclear",
                f"{NAMES[mover]}'s {roll[0]}-{roll[1]}: the camera cannot "
                f"tell which play was made ({text}); confirm it",
                mover,
            ),
            out,
        )
    if isinstance(verdict, arbiter.Illegal):
        text = describe_plays(state, verdict.closest)
        return announce(
            state,
            Ruling(
                rule,
                "dispute",
                f"the board changed in a way no legal play of "
                f"{NAMES[mover]}'s {roll[0]}-{roll[1]} explains ({verdict.distance} checkers "
                f"differ from the closest: {text}): check the board or the reading",
                mover,
            ),
            out,
        )
    out.append(Prompt(f"cannot judge the change: {verdict.reason}"))
    return state


def _opening(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md B3 / N3: one die each on his own right-hand half; ties re-rolled (B13 cube)."""
    assert state.seating is not None
    seating = state.seating  # kept: `state` is rebound below
    s = state.settings
    if len(dice) < 2:
        out.append(Prompt("opening roll: each player rolls one die"))
        return replace(state, sides=seen), out
    for d in dice[:2]:
        r = rethrow((d,), s)
        if r is not None:
            state = announce(state, r, out)
            out.append(Leds(hints.rethrow_frame(), "re-throw"))
            return state, out
    by_player: dict[int, int] = {}
    for d in dice[:2]:
        if d.slot is None or d.value is None:
            continue
        by_player[seating.roller_for_half(right_half(d.slot))] = d.value
    if len(by_player) != 2:
        rule = variant_in(state).rethrow_rule
        state = announce(
            state,
            Ruling(rule, "rethrow", "opening roll: each player's die must land on his own right-hand half"),
            out,
        )
        out.append(Leds(hints.rethrow_frame(), "re-throw"))
        return state, out
    a, b = by_player[0], by_player[1]
    if a == b:
        reason = f"opening roll tied {a}-{b}: both roll again"
        rule = variant_in(state).opening_rule
        cube = automatic_double(state.cube_state, cube_settings(s))  # RULES.md B13, with its limit
        if cube != state.cube_state:
            state = replace(state, cube_state=cube)
            reason += f"; automatic double: the cube is now {state.cube} and stays in the middle"
            rule = "B13"
        state = announce(
            replace(state, opening_ties=state.opening_ties + 1, sides=seen),
            Ruling(rule, "opening_tie", reason),
            out,
        )
        return state, out
    first = 0 if a > b else 1
    game_number = state.game_number + 1
    # RULES.md B14: whether this is the Crawford game was settled when the last game was recorded
    crawford = match_state(state).crawford_game
    state = replace(
        state,
        starter=first,
        sides=seen,
        on_roll=first,
        game_number=game_number,
        turns=(),
        first_roll=(True, True),
        cube_state=replace(state.cube_state, owner=None, offered_by=None, beaver=False),
        opening_ties=0,
        crawford_game=crawford,
        crawford_done=state.crawford_done or crawford,
        premature=None,
        pending=(),
    )
    if crawford:
        out.append(Prompt(f"game {game_number} is the Crawford game: no doubling (RULES.md B14)"))
    if not variant_in(state).opening_plays_roll:
        out.append(
            Prompt(
                f"{NAMES[first]} won the opening roll {max(a, b)}-{min(a, b)}: {NAMES[first]} plays white "
                "and rolls to start (RULES.md N3)"
            )
        )
        return replace(state, phase="to_roll", dice=None), out
    roll = (max(a, b), min(a, b))
    out.append(Prompt(f"{NAMES[first]} won the opening roll and plays {roll[0]}-{roll[1]} (RULES.md B3)"))
    return begin_move(state, ev, first, roll, out)


def _nardy_next_game(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md N3: in a series, no opening roll after the first game: colours alternate and the player
    who had black starts (default), or the winner starts (setting ``nardy_next_game = "winner"``)."""
    assert state.starter is not None
    s = state.settings
    first = (
        state.last_winner
        if s.nardy_next_game == "winner" and state.last_winner is not None
        else 1 - state.starter
    )
    state = replace(
        state,
        phase="to_roll",
        starter=first,
        on_roll=first,
        sides=seen,
        game_number=state.game_number + 1,
        turns=(),
        pending=(),
        premature=None,
        dice=None,
    )
    why = (
        "the winner starts"
        if s.nardy_next_game == "winner"
        else "colours alternate: black of the last game starts"
    )
    out.append(
        Prompt(f"game {state.game_number}: {NAMES[first]} plays white and rolls first ({why}; RULES.md N3)")
    )
    if dice:
        return to_roll(state, ev, seen, dice, out)
    return state, out
