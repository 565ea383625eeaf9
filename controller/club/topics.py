"""The club's topics and the director's commands.

A station of board B in club C publishes under ``tavla/C/B/``: ``state`` (retained, the snapshot of
controller.station.snapshot with ``seq``, ``journal`` and the ``players``' names), ``events`` (QoS 1,
each journal entry as written), ``rulings`` (QoS 1), ``answers`` (retained: the station's answer to
the director's last round, :func:`answer`) and ``online`` (retained ``1``; ``0`` is its last will).
The director publishes under ``tavla/C/director/``: ``command`` (QoS 1: pause, resume, round),
``ack/B`` (retained: the last ``seq`` of B's journal it holds without a gap) and ``replay/B`` (QoS 1:
send again every entry after ``after``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from controller.club.url import ClubError

ROOT = "tavla"
DIRECTOR = "director"
BOARD_LEAVES = ("state", "events", "rulings", "answers", "online")
# what a station answers to a round: its match started, refused (a match in progress), or forced
ANSWERS = ("started", "refused", "forced")
COMMANDS = ("pause", "resume", "round")
# MQTT wildcards and separators must not occur in a name, and a board must not be called "director"
_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")


def check_name(what: str, name: str) -> str:
    """A club or board name: 1-32 letters, digits, ``-`` or ``_`` (and a board is not "director").

    :raises ClubError: otherwise.
    """
    if not _NAME.fullmatch(name) or (what == "board" and name == DIRECTOR):
        raise ClubError(f"--{what} {name!r}: give 1-32 letters, digits, - or _" +
                        (" (not 'director')" if what == "board" else ""))
    return name


def board_topic(club: str, board: str, leaf: str) -> str:
    return f"{ROOT}/{club}/{board}/{leaf}"


def director_topic(club: str, leaf: str, board: str | None = None) -> str:
    return f"{ROOT}/{club}/{DIRECTOR}/{leaf}" + (f"/{board}" if board is not None else "")


def split_board_topic(club: str, topic: str) -> tuple[str, str] | None:
    """(board, leaf) of a station's topic in ``club``; None for any other topic."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[1] != club or parts[2] == DIRECTOR:
        return None
    if parts[3] not in BOARD_LEAVES:
        return None
    return parts[2], parts[3]


def dumps(obj: Any) -> bytes:
    """Canonical JSON, as the journal writes its lines."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def loads(payload: bytes) -> dict[str, Any] | None:
    """A JSON object from a payload; None for anything else (a message nobody should have sent)."""
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def command(name: str, ident: str, **fields: Any) -> dict[str, Any]:
    """A director command: ``pause``, ``resume``, or ``round`` with ``round`` and ``pairings`` (a list of
    ``{board, light, dark, match_length}``) and ``force`` (true: a board whose match is in progress
    drops it for the round's; else that board refuses the round and says why).

    :raises ClubError: on an unknown command or a round whose pairings do not fit.
    """
    if name not in COMMANDS:
        raise ClubError(f"unknown director command {name!r}: one of {', '.join(COMMANDS)}")
    out: dict[str, Any] = {"command": name, "id": ident, **fields}
    if name == "round":
        check_round(out)
    return out


def answer(cmd: dict[str, Any], status: str, said: str) -> dict[str, Any]:
    """A station's answer to the round ``cmd``: ``status`` one of :data:`ANSWERS`, ``said`` the line
    its station printed (for ``refused``, why)."""
    return {"command": cmd.get("command"), "id": cmd.get("id"), "round": cmd.get("round"), "status": status,
            "said": said}


def check_round(cmd: dict[str, Any]) -> list[dict[str, Any]]:
    """The pairings of a round command, checked: each names a board once, both players and a match
    length (0 = money play).

    :raises ClubError: when they do not fit (says which).
    """
    pairings = cmd.get("pairings")
    if type(cmd.get("round")) is not int or not isinstance(pairings, list) or not pairings:
        raise ClubError("a round needs its number and a list of pairings")
    if type(cmd.get("force", False)) is not bool:
        raise ClubError("a round's force is true or false (true drops the matches in progress)")
    seen: set[str] = set()
    for p in pairings:
        if not isinstance(p, dict):
            raise ClubError(f"pairing {p!r}: give board, light, dark, match_length")
        board = str(p.get("board", ""))
        check_name("board", board)
        if board in seen:
            raise ClubError(f"board {board} is paired twice in round {cmd['round']}")
        seen.add(board)
        for side in ("light", "dark"):
            if not isinstance(p.get(side), str) or not p[side].strip():
                raise ClubError(f"board {board}: give the {side} player's name")
        if type(p.get("match_length", 0)) is not int or p.get("match_length", 0) < 0:
            raise ClubError(f"board {board}: match_length is a whole number of points, 0 for money play")
    return pairings
