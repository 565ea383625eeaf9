"""The referee's requests from the page as station events (controller.game.events): a
:class:`RefereeAction`, or for "the camera is wrong" a :class:`BoardSeen` of the position the referee
entered (``source`` ``"referee"``, every point sure), which the station rules on like any reading.

A request is one JSON object ``{"pin": ..., "action": ..., ...}``; anything else gets a
:class:`ActionError` saying in one line what is wrong, and no event.
"""

from __future__ import annotations

from typing import Any

from controller.game.events import REFEREE_ACTIONS, BoardSeen, DieSeen, Event, RefereeAction, problem
from controller.rules.errors import TavlaError

ACTIONS = (*REFEREE_ACTIONS, "position")
_PLAYERS = {"light": 0, "dark": 1, 0: 0, 1: 1}


class ActionError(TavlaError, ValueError):
    """A request that is not a referee action (the message says what to send)."""


def to_event(body: Any, t: float, dice: list[dict[str, Any]] | None = None) -> Event:
    """The event for one request body at station time ``t``; ``dice`` (the state JSON's) are kept on a
    position the referee enters, so the roll on the board stays as read.

    :raises ActionError: on a body that is not a known action with fitting fields.
    """
    if not isinstance(body, dict):
        raise ActionError("send one JSON object: {\"pin\": ..., \"action\": ...}")
    action = body.get("action")
    if action not in ACTIONS:
        raise ActionError(f"unknown action {str(action)[:40]!r}; known: {', '.join(ACTIONS)}")
    if action == "position":
        return _position(body, t, dice or [])
    fields: dict[str, Any] = {}
    if action == "resign":
        if body.get("player") not in _PLAYERS or body.get("value") not in (1, 2, 3):
            raise ActionError("resign: give player (light or dark) and value (1, 2 or 3)")
        fields = {"player": _PLAYERS[body["player"]], "value": body["value"]}
    elif action == "score":
        score = body.get("score")
        if not (isinstance(score, dict) and _count(score.get("light")) and _count(score.get("dark"))):
            raise ActionError("score: give {\"light\": N, \"dark\": N} with whole numbers 0 or more")
        fields = {"score": (score["light"], score["dark"])}
    event = RefereeAction(t=t, action=str(action), **fields)
    why = problem(event)  # the event schema's own checks (controller.game.events)
    if why:
        raise ActionError(why)
    return event


def _count(value: Any, limit: int = 2**15 - 1) -> bool:
    return type(value) is int and 0 <= value <= limit


def _position(body: dict[str, Any], t: float, dice: list[dict[str, Any]]) -> BoardSeen:
    """RULES.md B17 (the players overrule the camera): the referee's position, 24 camera slots."""
    slots = body.get("slots")
    if not isinstance(slots, list) or len(slots) != 24:
        raise ActionError("position: give slots, 24 [colour, count] pairs (colour light, dark or null)")
    out: list[tuple[str | None, int, float]] = []
    for s in slots:
        if not (isinstance(s, list) and len(s) == 2 and s[0] in ("light", "dark", None) and _count(s[1], 15)):
            raise ActionError(f"position: {str(s)[:40]} is not a [colour, count] pair with 0-15 checkers")
        out.append((s[0] if s[1] else None, int(s[1]), 1.0))
    sides: dict[str, dict[str, int]] = {}
    for part in ("bar", "off"):
        raw = body.get(part, {})
        fits = isinstance(raw, dict) and all(k in ("light", "dark") and _count(v, 15) for k, v in raw.items())
        if not fits:
            raise ActionError(f"position: {part} is {{\"light\": N, \"dark\": N}} with 0-15 checkers")
        sides[part] = {k: int(v) for k, v in raw.items()}
    for colour in ("light", "dark"):
        total = sum(n for c, n, _ in out if c == colour) + sides["bar"].get(colour, 0)
        total += sides["off"].get(colour, 0)
        if total > 15:
            raise ActionError(f"position: {colour} has {total} checkers; a side has 15")
    seen = tuple(
        DieSeen(d.get("value"), str(d.get("status", "flat")), d.get("slot"), float(d.get("confidence", 1.0)))
        for d in dice
        if d.get("status") != "accepted"
    )
    return BoardSeen(t=t, slots=tuple(out), bar=sides["bar"], off=sides["off"], dice=seen, source="referee")
