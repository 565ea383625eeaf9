"""Rolls, moves and turn end for controller.game: the to-roll / moving / deciding phases and the
commit of a turn (split out of controller/game.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from controller import hints
from controller.formats.notation import format_play
from controller.game import arbiter
from controller.game.effects import Effect, Leds, Prompt
from controller.game.events import BoardSeen, DieSeen
from controller.game.rulings import Ruling, rethrow
from controller.game.score import (
    draw,
    game_over,
)
from controller.game.state import (
    NAMES,
    Sides,
    State,
    Turn,
    announce,
    half_of,
    in_contact,
    pad,
    plays_for,
    point_confidence,
    position_for,
    show,
    variant_in,
)
from controller.geometry import right_half
from controller.rules.variant import TurnEnd


def begin_move(
    state: State, ev: BoardSeen, mover: int, roll: tuple[int, int], out: list[Effect]
) -> tuple[State, list[Effect]]:
    assert state.sides is not None
    state = replace(
        state, phase="moving", on_roll=mover, dice=roll, seen=state.sides, dice_present=True, premature=None
    )
    view, frame, plays, _ = show(
        state, ev, f"{NAMES[mover]} to play {roll[0]}-{roll[1]}", mover, roll, state.sides
    )
    out.append(view)
    if state.settings.hints == "assistant":
        out.append(Leds(frame, "movable points"))
    if not plays:
        out.append(
            Prompt(f"{NAMES[mover]} cannot play {roll[0]}-{roll[1]}: pick up the dice (RULES.md B5/B7)")
        )
    return state, out


def to_roll(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    assert state.seating is not None and state.on_roll is not None and state.sides is not None
    mover = state.on_roll
    seating = state.seating  # kept: `state` is rebound below and mypy forgets the assert
    if not dice:
        if not _same_board(seen, state.sides, ev):
            out.append(Prompt(f"the board changed before {NAMES[mover]} rolled: put the checkers back"))
        return state, out
    if len(dice) < 2:
        return state, out
    half = half_of(dice[:2])
    own_half = variant_in(state).rolls_in_own_half
    if own_half and half is not None and seating.roller_for_half(half) != mover:
        rule = "B15"
        state = announce(
            state,
            Ruling(
                rule,
                "out_of_turn",
                f"{NAMES[1 - mover]} rolled out of turn: it is {NAMES[mover]}'s roll; pick up those dice",
                1 - mover,
            ),
            out,
        )
        return state, out
    ruling = rethrow(dice[:2], state.settings, seating.seat_bottom(mover) if own_half else None)
    if ruling is not None:
        state = announce(state, replace(ruling, player=mover), out)
        out.append(Leds(hints.rethrow_frame(), "re-throw"))
        return state, out
    roll = (int(dice[0].value or 0), int(dice[1].value or 0))
    return begin_move(state, ev, mover, roll, out)


def moving(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    assert state.seating is not None and state.on_roll is not None and state.dice is not None
    mover = state.on_roll
    seating, roll = state.seating, state.dice  # kept: `state` is rebound below
    own_half = variant_in(state).rolls_in_own_half
    mine = tuple(
        d
        for d in dice
        if not own_half or d.slot is None or seating.roller_for_half(right_half(d.slot)) == mover
    )
    theirs = tuple(d for d in dice if d not in mine)
    if theirs and mine and len(theirs) >= 2 and own_half:
        return _premature(state, ev, seen, theirs, out)
    if not mine and not theirs:
        if not state.dice_present:
            # correcting a move after a ruling (the dice already off the board): the turn ends as soon
            # as the board shows a legal play, or on the clock button
            return _correcting(state, ev, seen, out)
        if state.settings.end_on_pickup:
            return turn_end(replace(state, seen=seen), ev, out, "dice picked up")
        return replace(state, seen=seen, dice_present=False), out
    if mine and not state.dice_present:
        state = replace(state, dice_present=True)
    if not mine and len(theirs) >= 2 and own_half:
        # the mover's dice went and the opponent rolled in the same settled frame: turn end, then the roll
        state, out = turn_end(replace(state, seen=seen), ev, out, "dice picked up")
        if state.phase == "to_roll":
            return to_roll(state, ev, seen, theirs, out)
        return state, out
    if seen != state.seen and state.sides is not None:
        lifted = _lifted_from(state.sides[mover], seen[mover])
        if lifted is not None and state.settings.hints == "assistant":
            plays = plays_for(state, state.sides, mover, roll)
            dests = hints.destinations(plays, lifted)
            if dests:
                out.append(Leds(hints.destination_frame(seating, mover, lifted, dests), "destinations"))
    if seen != state.seen:
        state = replace(state, seen=seen)
        # drawn from the board as it is now: its pips and ID, no movable marks mid-move (issue 15)
        view, _, _, _ = show(state, ev, f"{NAMES[mover]} moving {roll[0]}-{roll[1]}", mover, None, seen)
        out.append(
            replace(
                view,
                title=f"{NAMES[mover]} moving {roll[0]}-{roll[1]} (board changed)",
                hint=None,
            )
        )
    return state, out


def _same_board(a: Sides, b: Sides, ev: BoardSeen) -> bool:
    """Both sides equal; the bar left out on a board without one (its hit checkers lie beside it)."""
    if ev.has_bar is False:
        return a[0][:24] == b[0][:24] and a[1][:24] == b[1][:24]
    return a == b


def _lifted_from(before: tuple[int, ...], now: tuple[int, ...]) -> int | None:
    """The point a checker was just lifted from (in the mover's hand): exactly one checker fewer on one
    point and nothing else changed; else None."""
    diff = [(i + 1, now[i] - before[i]) for i in range(min(len(before), len(now))) if now[i] != before[i]]
    if len(diff) == 1 and diff[0][1] == -1:
        return diff[0][0]
    return None


def _correcting(state: State, ev: BoardSeen, seen: Sides, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md B17 / N11 after "demand the legal move": wait for a legal play on the board."""
    assert state.on_roll is not None and state.dice is not None and state.sides is not None
    if seen == state.seen:
        return state, out
    mover = state.on_roll
    plays = plays_for(state, state.sides, mover, state.dice)
    unsure, conf = _read_by(state, ev, mover)
    verdict = arbiter.infer(
        position_for(state, state.sides, mover),
        plays,
        position_for(state, seen, mover),
        unsure,
        variant_in(state),
        tolerate=_tolerated(state),
        confidence=conf,
    )
    if isinstance(verdict, arbiter.Made) and (verdict.play.moves or not plays):
        _note_overruled(state, verdict, mover, out)
        return commit(replace(state, seen=seen), verdict.play, out, "corrected", overruled=verdict.overruled)
    return replace(state, seen=seen), out


def _premature(
    state: State, ev: BoardSeen, seen: Sides, theirs: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md B16: the opponent rolled before the mover ended his turn."""
    assert state.on_roll is not None and state.dice is not None and state.sides is not None
    mover, opp = state.on_roll, 1 - state.on_roll
    if state.premature == opp:
        return state, out  # already ruled on this roll
    s = state.settings
    plays = plays_for(state, state.sides, mover, state.dice)
    forced = len(plays) <= 1
    no_contact = not in_contact(state.sides, variant_in(state))
    if s.premature_roll == "stands" or (s.premature_waiver and (forced or no_contact)):
        why = (
            "the rules in force let a premature roll stand"
            if s.premature_roll == "stands"
            else "the move was forced"
            if forced
            else "contact is over"
        )
        state = announce(
            state,
            Ruling(
                "B16",
                "premature_stands",
                f"{NAMES[opp]} rolled before {NAMES[mover]} ended the turn; the roll stands because {why}",
                opp,
            ),
            out,
        )
        state, out = turn_end(replace(state, seen=seen), ev, out, "opponent rolled")
        if state.phase == "to_roll":
            return to_roll(state, ev, seen, theirs, out)
        return state, out
    state = announce(
        replace(state, premature=opp),
        Ruling(
            "B16",
            "premature_void",
            f"{NAMES[opp]} rolled before {NAMES[mover]} ended the turn: that roll is void; "
            "pick the dice up and roll after the turn ends",
            opp,
        ),
        out,
    )
    return state, out


def turn_end(state: State, ev: BoardSeen | None, out: list[Effect], how: str) -> tuple[State, list[Effect]]:
    """RULES.md B16/N11: the turn is over; the arbiter names the play or a dispute is raised (B17)."""
    assert state.on_roll is not None and state.dice is not None and state.sides is not None
    assert state.seen is not None and state.seating is not None
    mover = state.on_roll
    before = position_for(state, state.sides, mover)
    seen_pos = position_for(state, state.seen, mover)
    plays = plays_for(state, state.sides, mover, state.dice)
    unsure, conf = _read_by(state, ev, mover)
    verdict = arbiter.infer(
        before, plays, seen_pos, unsure, variant_in(state), tolerate=_tolerated(state), confidence=conf
    )
    if isinstance(verdict, arbiter.Made):
        _note_overruled(state, verdict, mover, out)
        return commit(state, verdict.play, out, how, overruled=verdict.overruled)
    if isinstance(verdict, arbiter.Unreadable):
        out.append(
            Prompt(
                f"cannot read the board ({verdict.reason}): clear the board of hands and check the checkers"
            )
        )
        return replace(state, dice_present=False), out
    if isinstance(verdict, arbiter.Ambiguous):
        return _unclear(state, verdict, mover, out)
    assert isinstance(verdict, arbiter.Illegal)
    return _illegal(state, verdict, mover, seen_pos, out)


def _unclear(
    state: State, verdict: arbiter.Ambiguous, mover: int, out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md B17/N11: the camera cannot tell which legal play was made; the dispute button says."""
    cands = (
        ", ".join(format_play(p) for p in verdict.candidates[:3])
        if variant_in(state).gnubg
        else f"{len(verdict.candidates)} plays"
    )
    state = announce(
        state,
        Ruling(
            variant_in(state).dispute_rule,
            "unclear",
            f"the camera cannot tell which play {NAMES[mover]} made "
            f"({cands}): confirm with the dispute button",
            mover,
        ),
        out,
    )
    return replace(state, phase="deciding", pending=("ambiguous", verdict.candidates)), out


def _illegal(
    state: State, verdict: arbiter.Illegal, mover: int, seen_pos: Any, out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md B17/N11: an illegal or incomplete move must be corrected (Legal Moves policy), or the
    opponent accepts it or demands the legal move."""
    assert state.seating is not None
    seating = state.seating  # kept: `state` is rebound below
    rule_ill = variant_in(state).dispute_rule
    closest = describe_plays(state, verdict.closest)
    what = "incomplete" if verdict.unchanged else "illegal"
    if state.settings.illegal_move == "must_correct":
        state = announce(
            state,
            Ruling(
                rule_ill,
                "must_correct",
                f"{NAMES[mover]}'s move is {what}; it must be "
                f"corrected (Legal Moves policy); closest legal: {closest}",
                mover,
            ),
            out,
        )
        out.append(
            Leds(
                hints.warning_frame(
                    seating,
                    mover,
                    hints.changed_points(verdict.closest[0].result, seen_pos, variant_in(state))
                    if verdict.closest
                    else (),
                ),
                "illegal move",
            )
        )
        return replace(state, phase="moving", dice_present=False), out
    state = announce(
        state,
        Ruling(
            rule_ill,
            "illegal",
            f"{NAMES[mover]}'s move is {what}: {NAMES[1 - mover]} may "
            f"accept it (dispute button) or demand the legal move (long press); closest legal: {closest}",
            mover,
        ),
        out,
    )
    if verdict.closest:
        out.append(
            Leds(
                hints.warning_frame(
                    seating,
                    mover,
                    hints.changed_points(verdict.closest[0].result, seen_pos, variant_in(state)),
                ),
                "illegal move",
            )
        )
    return replace(state, phase="deciding", pending=("illegal", verdict.closest)), out


def describe_plays(state: State, plays: tuple[Any, ...]) -> str:
    if not plays:
        return "no play (the roll could not be played)"
    return " | ".join(format_play(p) for p in plays[:3])


def _tolerated(state: State) -> Any:
    """Status flags a seen position may carry now: both sides finished, after black's last roll under
    the nardy draw setting (RULES.md N9); else none."""
    return variant_in(state).tolerated_status(state.last_roll)


def _read_by(
    state: State, ev: BoardSeen | None, mover: int
) -> tuple[tuple[int, ...], tuple[float, ...] | None]:
    """What the reading behind ``state.seen`` could not see (the bar of a board without one) and its
    confidence per mover's point: from ``ev``, else the last usable reading (a button ended the turn)."""
    assert state.seating is not None
    reading = ev if ev is not None else state.reading
    if reading is None or len(reading.slots) != 24:
        return (), None
    unsure = (arbiter.BAR,) if reading.has_bar is False else ()
    return unsure, point_confidence(reading, state.seating, mover)


def _note_overruled(state: State, verdict: arbiter.Made, mover: int, out: list[Effect]) -> None:
    """Say which points the legal play overruled: the camera read them otherwise (RULES.md B17: the
    station never guesses silently)."""
    if not verdict.overruled:
        return
    where = ", ".join("the bar" if p == arbiter.BAR else str(p) for p in verdict.overruled)
    play = describe_plays(state, (verdict.play,)) if verdict.play.moves else "no move"
    out.append(
        Prompt(
            f"{NAMES[mover]} played {play}: taken as the legal play the board shows, though the camera "
            f"read {NAMES[mover]}'s point{'s' if len(verdict.overruled) > 1 else ''} {where} otherwise "
            "(check the board; the dispute button disputes it)"
        )
    )


def commit(
    state: State,
    play: Any,
    out: list[Effect],
    how: str,
    illegal: bool = False,
    result: Sides | None = None,
    overruled: tuple[int, ...] = (),
) -> tuple[State, list[Effect]]:
    """The move is final: record it, hand the turn over, or end the game (RULES.md B9, N9)."""
    assert state.on_roll is not None and state.dice is not None
    mover = state.on_roll
    if result is None:
        me, opp = pad(play.result.me), pad(play.result.opp)
        result = (me, opp) if mover == 0 else (opp, me)
    moves = tuple((m.src, m.dst) for m in play.moves) if play is not None else ()
    turn = Turn(mover, state.dice, moves, illegal=illegal, overruled=overruled)
    fr = list(state.first_roll)
    fr[mover] = False
    state = replace(
        state,
        sides=result,
        seen=result,
        turns=state.turns + (turn,),
        first_roll=(fr[0], fr[1]),
        dice=None,
        dice_present=False,
        pending=(),
    )
    return _turn_end_after(state, mover, result, out, how)


def _turn_end_after(
    state: State, mover: int, result: Sides, out: list[Effect], how: str
) -> tuple[State, list[Effect]]:
    """RULES.md B9, N9 through the rules core (``Variant.end_of_turn``): the game goes on, black gets
    his last roll (nardy draw setting: white has just borne off his last checker), or it is over -- a
    draw when black bore off all with that last roll, else scored."""
    variant = variant_in(state)
    position = variant.position(result[mover], result[1 - mover])
    white = mover == state.starter  # the player who made the game's first move has white (N3)
    end, winner = variant.end_of_turn(position, mover_is_white=white, last_roll=state.last_roll)
    nxt = 1 - mover
    if end is TurnEnd.LAST_ROLL:
        state = announce(
            state,
            Ruling(
                "N9",
                "last_roll",
                f"{NAMES[mover]} (white) bore off his last checker: {NAMES[nxt]} (black) gets one last roll; "
                "bearing off all with it draws the game (draw setting)",
                nxt,
            ),
            out,
        )
        return replace(state, phase="to_roll", on_roll=nxt, premature=None, last_roll=True), out
    if end is TurnEnd.CONTINUE:
        out.append(Prompt(f"{NAMES[mover]}'s turn ends ({how}); {NAMES[nxt]} to roll"))
        return replace(state, phase="to_roll", on_roll=nxt, premature=None), out
    if winner is None:
        return draw(state, out)
    return game_over(state, mover if winner == "me" else nxt, out)


def deciding(
    state: State, ev: BoardSeen, seen: Sides, dice: tuple[DieSeen, ...], out: list[Effect]
) -> tuple[State, list[Effect]]:
    """RULES.md B17: the opponent's roll makes the previous move stand."""
    assert state.on_roll is not None and state.seating is not None
    mover = state.on_roll
    if len(dice) >= 2:
        half = half_of(dice[:2])
        if not variant_in(state).rolls_in_own_half or (
            half is not None and state.seating.roller_for_half(half) == 1 - mover
        ):
            state = announce(
                state,
                Ruling(
                    "B17",
                    "stands",
                    f"{NAMES[1 - mover]} rolled: {NAMES[mover]}'s move stands as played",
                    mover,
                ),
                out,
            )
            state, out = accept(state, out)
            if state.phase == "to_roll":
                return to_roll(state, ev, seen, dice, out)
            return state, out
    if seen != state.seen:
        state = replace(state, seen=seen)
    return state, out


def accept(state: State, out: list[Effect]) -> tuple[State, list[Effect]]:
    """The move is accepted as played (the board seen becomes the position)."""
    assert state.seen is not None
    kind, data = state.pending if state.pending else ("illegal", ())
    if kind == "ambiguous" and data:
        return commit(state, data[0], out, "accepted")
    return commit(state, _AsPlayed(), out, "accepted as played", illegal=True, result=state.seen)


@dataclass(frozen=True)
class _AsPlayed:
    moves: tuple[Any, ...] = ()
