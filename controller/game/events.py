"""The station's input events: what the camera, the buttons, the LED device and the clock report.

Every event is a frozen dataclass with a ``kind`` and a time ``t`` (seconds, station clock). Events are
what the journal stores (``to_json`` / :func:`event_from_json` round-trip exactly) and what
``game.step`` consumes, so a journal replayed gives the same game (DESIGN.md "Data flow").

The camera's :class:`vision.reading.BoardReading` becomes a :class:`BoardSeen` here
(:func:`board_seen`): only what the referee needs -- colour and count per slot, bar and off counts,
and each die's value, status and the slot nearest to it (which says on which half it lies; RULES.md
B15). Pixel positions stay in vision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from controller.rules.errors import TavlaError
from vision.reading import BoardReading, DieStatus

BUTTONS = ("clock", "dispute", "double", "take", "drop")
GESTURES = ("short", "long", "double")


class EventError(TavlaError, ValueError):
    """A journal line or event value that is not a valid event (quotes the bad value)."""


@dataclass(frozen=True)
class DieSeen:
    """One die as the referee needs it: ``value`` 1-6 or None, ``status`` (a DieStatus value), the
    slot (0-23) nearest to where it lies (None when unknown) and the reader's ``confidence`` 0.0-1.0."""

    value: int | None
    status: str = DieStatus.FLAT.value
    slot: int | None = None
    confidence: float = 1.0

    @property
    def flat(self) -> bool:
        return self.status == DieStatus.FLAT.value

    def to_json(self) -> list[Any]:
        return [self.value, self.status, self.slot, self.confidence]

    @classmethod
    def from_json(cls, raw: list[Any]) -> DieSeen:
        return cls(raw[0], raw[1], raw[2], float(raw[3]) if len(raw) > 3 else 1.0)


@dataclass(frozen=True)
class Event:
    """Base of all input events. ``t`` is the station time in seconds."""

    kind: ClassVar[str] = "event"
    t: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class MatchStarted(Event):
    """A new match or money session: ``settings`` is :meth:`controller.game.rulings.Settings.to_json`."""

    kind: ClassVar[str] = "match_started"
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BoardSeen(Event):
    """One settled camera reading.

    ``slots``: 24 ``(colour, count, confidence)`` triples in slot order (colour ``"light"``/``"dark"`` or
    None); ``bar`` / ``off``: colour -> count; ``dice``: the dice seen; ``occluded``: a hand over the
    board; ``status``: the reading's FrameStatus value; ``has_bar``: False for a board without a bar.
    """

    kind: ClassVar[str] = "board_seen"
    slots: tuple[tuple[str | None, int, float], ...] = ()
    bar: dict[str, int] = field(default_factory=dict)
    off: dict[str, int] = field(default_factory=dict)
    dice: tuple[DieSeen, ...] = ()
    occluded: bool = False
    status: str = "ok"
    has_bar: bool | None = None
    source: str = ""

    @property
    def usable(self) -> bool:
        """True when the reading shows all 24 points and nothing covers them."""
        return len(self.slots) == 24 and not self.occluded and self.status == "ok"

    def counts(self, colour: str) -> list[int]:
        """That colour's checkers per slot (24 ints)."""
        return [n if c == colour else 0 for c, n, _ in self.slots]

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["dice"] = [d.to_json() for d in self.dice]
        return out


@dataclass(frozen=True)
class ButtonPressed(Event):
    """A button gesture: ``button`` one of BUTTONS, ``player`` 0/1 (None for the shared dispute button),
    ``gesture`` one of GESTURES (short press, long press, double press)."""

    kind: ClassVar[str] = "button"
    button: str = "clock"
    player: int | None = None
    gesture: str = "short"

    def __post_init__(self) -> None:
        if self.button not in BUTTONS or self.gesture not in GESTURES:
            raise EventError(f"unknown button gesture {self.button!r}/{self.gesture!r}")


@dataclass(frozen=True)
class DeviceChanged(Event):
    """The camera or the LED device went offline or came back (the clock pauses; issue 6 item 6).
    ``since``: when it last answered (the silent time from then is refunded), default ``t``."""

    kind: ClassVar[str] = "device"
    device: str = "camera"
    online: bool = True
    since: float | None = None  # when it went offline: it last answered then (the clock refunds from here)


REFEREE_ACTIONS = ("accept", "correct", "rethrow", "mix", "pause", "resume", "score", "resign", "undo")


@dataclass(frozen=True)
class RefereeAction(Event):
    """A ruling the referee made at the station's page (controller.game.referee): ``action`` one of
    REFEREE_ACTIONS; ``player`` who resigns; ``value`` the resignation's 1/2/3 (single, gammon,
    backgammon); ``score`` the corrected match score (light, dark)."""

    kind: ClassVar[str] = "referee"
    action: str = "undo"
    player: int | None = None
    value: int | None = None
    score: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.action not in REFEREE_ACTIONS:
            raise EventError(f"unknown referee action {self.action!r}; known: {', '.join(REFEREE_ACTIONS)}")
        if self.player not in (None, 0, 1) or self.value not in (None, 1, 2, 3):
            raise EventError(
                f"referee {self.action}: player {self.player!r} / value {self.value!r} out of range"
            )
        if self.score is not None:
            score = tuple(self.score)
            if len(score) != 2 or not all(type(n) is int and 0 <= n < 2**15 for n in score):
                raise EventError(f"referee score {self.score!r}: give two whole numbers 0 or more")
            object.__setattr__(self, "score", (score[0], score[1]))  # a journal line gives a list


@dataclass(frozen=True)
class Tick(Event):
    """Time passes (the clock checks for a flag fall)."""

    kind: ClassVar[str] = "tick"


_KINDS: dict[str, type[Event]] = {
    c.kind: c for c in (MatchStarted, BoardSeen, ButtonPressed, DeviceChanged, RefereeAction, Tick)
}


def event_from_json(raw: dict[str, Any]) -> Event:
    """Rebuild an event from its ``to_json`` form.

    :raises EventError: on an unknown kind or a field that does not fit.
    """
    try:
        cls = _KINDS[raw["kind"]]
        kwargs = {f.name: raw[f.name] for f in fields(cls) if f.name in raw}
        if cls is BoardSeen:
            kwargs["slots"] = tuple((c, int(n), float(p)) for c, n, p in kwargs.get("slots", ()))
            kwargs["dice"] = tuple(DieSeen.from_json(d) for d in kwargs.get("dice", ()))
        return cls(**kwargs)
    except (KeyError, TypeError, ValueError) as exc:
        raise EventError(f"not a station event: {str(raw)[:120]} ({exc})") from exc


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


def board_seen(reading: BoardReading, t: float = 0.0, source: str = "") -> BoardSeen:
    """The referee's view of one camera reading.

    Each die's ``slot`` is the slot whose checker column is nearest in the input image (pixel
    distance), which says on which half of the board it lies whatever the camera's perspective.
    """
    slots = tuple((p.colour if p.count else None, int(p.count), float(p.confidence)) for p in reading.points)
    dice = []
    for d in reading.dice:
        dice.append(
            DieSeen(
                d.value,
                DieStatus(d.status).value,
                _nearest_slot(reading, d.image_xy),
                round(float(d.confidence), 3),
            )
        )
    return BoardSeen(
        t=t,
        slots=slots,
        bar={k: int(v) for k, v in reading.bar.items()},
        off={k: int(v) for k, v in reading.off.items()},
        dice=tuple(dice),
        occluded=bool(reading.occluded),
        status=str(getattr(reading.status, "value", reading.status)),
        has_bar=reading.has_bar,
        source=source,
    )


def _nearest_slot(reading: BoardReading, xy: tuple[float, float] | None) -> int | None:
    if xy is None:
        return None
    best, best_d = None, math.inf
    for p in reading.points:
        if p.image_xy is None:
            continue
        d = (p.image_xy[0] - xy[0]) ** 2 + (p.image_xy[1] - xy[1]) ** 2
        if d < best_d:
            best, best_d = p.slot, d
    return best
