"""Cube handling for controller.game: offers, takes, drops, beavers and their refusals (split out of
controller/game.py).
"""

from __future__ import annotations

from dataclasses import replace

from controller.game.effects import Effect, Prompt
from controller.game.events import ButtonPressed
from controller.game.rulings import Ruling
from controller.game.score import (
    as_player,
    game_over,
)
from controller.game.state import (
    NAMES,
    State,
    Turn,
    announce,
    cube_settings,
    variant_in,
)
from controller.game.turns import accept
from controller.rules.cube import (
    beaver,
    cube_value,
    drop,
    offer_double,
    take,
)
from controller.rules.errors import IllegalActionError


def cube_button(state: State, ev: ButtonPressed, out: list[Effect]) -> tuple[State, list[Effect]]:
    """RULES.md B10, B11, B14: doubles, takes, drops, beavers."""
    s = state.settings
    p = ev.player
    variant = variant_in(state)
    if not variant.has_cube:
        out.append(Prompt(f"{variant.title} is played without the cube"))
        return state, out
    if ev.button == "double" and p is None and state.on_roll is None:
        out.append(Prompt("no game under way: nothing to double"))
        return state, out
    if ev.button == "double" and p is None and state.on_roll is not None:
        # a shared cube button: the player who may double now (after a finished turn, the opponent)
        p = 1 - state.on_roll if state.phase == "deciding" else state.on_roll
    if ev.button == "double":
        if state.phase == "deciding" and p is not None and p != state.on_roll:
            state = announce(
                state, Ruling("B17", "stands", f"{NAMES[p]} doubled: the previous move stands as played"), out
            )
            state, out = accept(state, out)
        if p is None or state.phase not in ("to_roll", "moving") or p != state.on_roll:
            # turn order is the referee's: the rules core judges a double by the player on turn
            why = "double refused: it is not this player's turn to double"
            refused = Ruling("B10", "double_refused", why, p)
            return announce(state, refused, out), out
        try:
            cube = offer_double(
                state.cube_state,
                as_player(p),
                rolled=state.phase == "moving",
                crawford_game=state.crawford_game,
            )
        except IllegalActionError as exc:
            return _cube_refused(state, exc, p, out)
        state = replace(state, phase="cube", cube_state=cube, turns=state.turns + (Turn(p, cube="double"),))
        offered = cube_value(cube.level + 1, cube_settings(s).stakes)
        out.append(Prompt(f"{NAMES[p]} doubles to {offered}: {NAMES[1 - p]} takes or drops"))
        return state, out
    offer = state.cube_state.offered_by
    if state.phase != "cube" or offer is None:
        out.append(Prompt(f"no double to {ev.button}"))
        return state, out
    answerer = 1 - offer
    if p is None:
        p = answerer
    action = "beaver" if ev.button == "take" and ev.gesture == "double" else ev.button  # beaver: double press
    try:
        if action == "beaver":
            cube = beaver(state.cube_state, as_player(p), cube_settings(s))
        elif action == "take":
            cube = take(state.cube_state, as_player(p))
        else:
            dropped = drop(state.cube_state, as_player(p), cube_settings(s).stakes)
            state = replace(state, turns=state.turns + (Turn(p, cube="drop"),))
            return game_over(state, dropped.winner, out, ("drop", dropped))
    except IllegalActionError as exc:
        return _cube_refused(state, exc, p, out)
    state = replace(state, cube_state=cube, turns=state.turns + (Turn(p, cube=action),))
    if action == "beaver":  # RULES.md B11: the original doubler now takes or drops
        reason = (
            f"{NAMES[p]} beavers: the cube is {state.cube}, owned by {NAMES[p]}, "
            f"redoubled at once: {NAMES[1 - p]} takes or drops"
        )
        return announce(state, Ruling("B11", "beaver", reason, p), out), out
    rule = "B11" if state.turns[-2:-1] and state.turns[-2].cube == "beaver" else "B10"
    reason = f"{NAMES[p]} takes: the cube is {state.cube}, owned by {NAMES[state.owner or 0]}"
    state = announce(replace(state, phase="to_roll"), Ruling(rule, "take", reason, p), out)
    return state, out


#: The rules core's reasons for refusing a cube action (controller.rules.cube) as rulings: the RULES.md
#: id, the ruling's code and its words; ``None`` = not a ruling, only a prompt (a misplaced press).


_CUBE_REFUSALS: dict[str, tuple[str, str, str] | None] = {
    "already_rolled": ("B10", "double_refused", "double refused: a player may double only before rolling"),
    "not_cube_owner": ("B10", "double_refused", "double refused: the cube belongs to the opponent"),
    "crawford_game": ("B14", "double_refused", "double refused: no doubling in the Crawford game"),
    "double_pending": ("B10", "double_refused", "double refused: a double is already waiting for an answer"),
    "beavers_not_allowed": (
        "B11",
        "beaver_refused",
        "beavers are not played here (money play, by agreement)",
    ),
    "beaver_on_beaver": ("B11", "beaver_refused", "a beaver may not be beavered: take or drop"),
    "game_over": ("B14", "game_over", "the match is already decided"),
    "no_double_pending": None,
    "not_doubled_player": None,
}


def _cube_refused(
    state: State, exc: IllegalActionError, player: int | None, out: list[Effect]
) -> tuple[State, list[Effect]]:
    """A cube action the rules core refused, as a ruling with its RULES.md id (or a prompt)."""
    ruling = _CUBE_REFUSALS.get(exc.reason, ("B10", "cube_refused", f"refused: {exc}"))
    if ruling is None:
        offer = state.cube_state.offered_by
        who = NAMES[1 - offer] if offer is not None else "nobody"
        out.append(Prompt(f"only {who} answers the double"))
        return state, out
    rule, code, reason = ruling
    return announce(state, Ruling(rule, code, reason, player), out), out
