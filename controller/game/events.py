"""The station's input events: what the camera, the buttons, the LED device and the clock report.

Every event is a frozen dataclass with a ``kind`` and a time ``t`` (seconds, station clock). Events are
what the journal stores (``to_json`` / :func:`event_from_json` round-trip exactly) and what
``game.step`` consumes, so a journal replayed gives the same game (DESIGN.md "Data flow").

The camera's :class:`vision.reading.BoardReading` becomes a :class:`BoardSeen` here
(:func:`board_seen`): only what the referee needs -- colour and count per slot, bar and off counts,
and each die's value, status and the slot nearest to it (which says on which half it lies; RULES.md
B15). Pixel positions stay in vision.

Every field carries its own check in its metadata (:func:`checked`); :func:`problem` runs them, and
an event that fails becomes a :class:`Refused` (:func:`screen`) before it is journaled or stepped, so
a bad reading from a device or the camera is recorded with its reason and the game goes on (issue
18). A new event type joins by giving each of its fields a check and adding itself to ``_KINDS``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any, ClassVar

from controller.rules.errors import TavlaError
from vision.reading import BoardReading, DieStatus, FrameStatus

BUTTONS = ("clock", "dispute", "double", "take", "drop")
GESTURES = ("short", "long", "double")
DEVICES = ("camera", "leds", "director")  # the director pauses every clock of a club (issue 17)
COLOURS = ("light", "dark")
CHECKERS = 15  # each side's checkers, backgammon and nardy alike (RULES.md B2, N2)
MAX_DICE = 4  # two pairs: the mover's and an opponent's premature roll (RULES.md B16)
MAX_TIME = 1e12  # seconds: past any station clock, monotonic or since 1970
_TEXT_MAX = 400

Check = Callable[[Any], str]
"""A field's check: "" when the value fits, else why not (a few words, no value quoted)."""


class EventError(TavlaError, ValueError):
    """A journal line or event value that is not a valid event (quotes the bad value)."""


def checked(check: Check) -> dict[str, Check]:
    """Dataclass field metadata carrying the field's check: ``field(metadata=checked(...))``."""
    return {"check": check}


def _real(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def number(lo: float, hi: float) -> Check:
    """A finite real number (int or float, not bool) in [lo, hi]."""

    def check(value: Any) -> str:
        if not _real(value):
            return f"is a {type(value).__name__}, not a number"
        if not math.isfinite(value) or not lo <= value <= hi:
            return f"is out of range {lo:g}..{hi:g}"
        return ""

    return check


def integer(lo: int, hi: int) -> Check:
    """A whole number (int, not bool, not 2.0) in [lo, hi]."""

    def check(value: Any) -> str:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"is a {type(value).__name__}, not a whole number"
        return "" if lo <= value <= hi else f"is out of range {lo}..{hi}"

    return check


def one_of(*choices: object) -> Check:
    """One of the given values (compared by type as well: True is not 1)."""

    def check(value: Any) -> str:
        ok = any(type(value) is type(c) and value == c for c in choices)
        return "" if ok else f"is none of {', '.join(map(repr, choices))}"

    return check


def optional(inner: Check) -> Check:
    """None, or a value ``inner`` accepts."""
    return lambda value: "" if value is None else inner(value)


def text(max_len: int = _TEXT_MAX) -> Check:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            return f"is a {type(value).__name__}, not text"
        return "" if len(value) <= max_len else f"is longer than {max_len} characters"

    return check


boolean = one_of(True, False)
station_time = number(0.0, MAX_TIME)


def sequence(item: Check, max_len: int) -> Check:
    """A tuple or list of at most ``max_len`` items, each passing ``item``."""

    def check(value: Any) -> str:
        if not isinstance(value, tuple | list):
            return f"is a {type(value).__name__}, not a sequence"
        if len(value) > max_len:
            return f"holds {len(value)} items, more than {max_len}"
        for i, v in enumerate(value):
            why = item(v)
            if why:
                return f"[{i}] {why}"
        return ""

    return check


def colour_counts(value: Any) -> str:
    """A mapping of colour -> checker count (0-15)."""
    if not isinstance(value, Mapping):
        return f"is a {type(value).__name__}, not a mapping"
    count = integer(0, CHECKERS)
    for k, v in value.items():
        if k not in COLOURS:
            return f"names {str(k)[:20]!r}, not light or dark"
        why = count(v)
        if why:
            return f"[{k}] {why}"
    return ""


def _slot(value: Any) -> str:
    """One point as the camera saw it: (colour or None, count 0-15, confidence 0-1); a count needs a
    colour."""
    if not isinstance(value, tuple | list) or len(value) != 3:
        return "is no (colour, count, confidence) triple"
    colour, n, confidence = value
    why = optional(one_of(*COLOURS))(colour) or integer(0, CHECKERS)(n) or number(0.0, 1.0)(confidence)
    if not why and colour is None and n:
        why = "holds checkers of no colour"
    return why


def _die(value: Any) -> str:
    if not isinstance(value, DieSeen):
        return f"is a {type(value).__name__}, not a die"
    return _fields_problem(value)


def settings_problem(value: Any) -> str:
    """Match settings as :meth:`controller.game.rulings.Settings.to_json` writes them: each field of
    the type its default has (whole numbers and finite, non-negative numbers), then Settings' own
    checks."""
    from typing import get_type_hints

    from controller.game.rulings import Settings

    if not isinstance(value, Mapping):
        return f"is a {type(value).__name__}, not a mapping"
    hints = get_type_hints(Settings)
    for name, v in value.items():
        if name not in hints:
            return f"holds an unknown setting {str(name)[:30]!r}"
        kind = hints[name]
        allowed_none = type(None) in getattr(kind, "__args__", ())
        if v is None and allowed_none:
            continue
        base = next((a for a in getattr(kind, "__args__", (kind,)) if a is not type(None)), kind)
        if base is bool:
            why = boolean(v)
        elif base is int:
            why = integer(0, 32767)(v)  # a match length or a count: what a Match ID holds (15 bits)
        elif base is float:
            why = number(0.0, MAX_TIME)(v)
        else:
            why = text(200)(v)
        if why:
            return f"[{name}] {why}"
    try:
        Settings.from_json(dict(value))
    except (TavlaError, TypeError, ValueError) as exc:
        return str(exc).split("\n")[0][:200]
    return ""


@dataclass(frozen=True)
class DieSeen:
    """One die as the referee needs it: ``value`` 1-6 or None, ``status`` (a DieStatus value), the
    slot (0-23) nearest to where it lies (None when unknown) and the reader's ``confidence`` 0.0-1.0."""

    value: int | None = field(metadata=checked(optional(integer(1, 6))))
    status: str = field(default=DieStatus.FLAT.value, metadata=checked(one_of(*(s.value for s in DieStatus))))
    slot: int | None = field(default=None, metadata=checked(optional(integer(0, 23))))
    confidence: float = field(default=1.0, metadata=checked(number(0.0, 1.0)))

    @property
    def flat(self) -> bool:
        return self.status == DieStatus.FLAT.value

    def to_json(self) -> list[Any]:
        return [self.value, self.status, self.slot, self.confidence]

    @classmethod
    def from_json(cls, raw: list[Any]) -> DieSeen:
        """:raises EventError: when ``raw`` is no list of 1-4 values (the values are checked later)."""
        if not isinstance(raw, list | tuple) or not 1 <= len(raw) <= 4:
            raise EventError(f"not a die: {str(raw)[:60]}")
        return cls(*raw)


@dataclass(frozen=True)
class Event:
    """Base of all input events. ``t`` is the station time in seconds."""

    kind: ClassVar[str] = "event"
    t: float = field(default=0.0, metadata=checked(station_time))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out

    def whole_problem(self) -> str:
        """What is wrong across fields once each field passed its own check ("" when nothing)."""
        return ""


@dataclass(frozen=True)
class MatchStarted(Event):
    """A new match or money session: ``settings`` is :meth:`controller.game.rulings.Settings.to_json`."""

    kind: ClassVar[str] = "match_started"
    settings: dict[str, Any] = field(default_factory=dict, metadata=checked(settings_problem))


@dataclass(frozen=True)
class BoardSeen(Event):
    """One settled camera reading.

    ``slots``: 24 ``(colour, count, confidence)`` triples in slot order (colour ``"light"``/``"dark"`` or
    None); ``bar`` / ``off``: colour -> count; ``dice``: the dice seen (at most MAX_DICE); ``occluded``:
    a hand over the board; ``status``: the reading's FrameStatus value; ``has_bar``: False for a board
    without a bar. No side has more than 15 checkers on the points, the bar and off together.
    """

    kind: ClassVar[str] = "board_seen"
    slots: tuple[tuple[str | None, int, float], ...] = field(
        default=(), metadata=checked(sequence(_slot, 24))
    )
    bar: dict[str, int] = field(default_factory=dict, metadata=checked(colour_counts))
    off: dict[str, int] = field(default_factory=dict, metadata=checked(colour_counts))
    dice: tuple[DieSeen, ...] = field(default=(), metadata=checked(sequence(_die, MAX_DICE)))
    occluded: bool = field(default=False, metadata=checked(boolean))
    status: str = field(default="ok", metadata=checked(one_of(*(s.value for s in FrameStatus))))
    has_bar: bool | None = field(default=None, metadata=checked(optional(boolean)))
    source: str = field(default="", metadata=checked(text()))

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

    def whole_problem(self) -> str:
        for colour in COLOURS:
            total = sum(self.counts(colour)) + self.bar.get(colour, 0) + self.off.get(colour, 0)
            if total > CHECKERS:
                return f"shows {total} {colour} checkers (points, bar and off), more than {CHECKERS}"
        return ""


@dataclass(frozen=True)
class ButtonPressed(Event):
    """A button gesture: ``button`` one of BUTTONS, ``player`` 0/1 (None for the shared dispute button),
    ``gesture`` one of GESTURES (short press, long press, double press)."""

    kind: ClassVar[str] = "button"
    button: str = field(default="clock", metadata=checked(one_of(*BUTTONS)))
    player: int | None = field(default=None, metadata=checked(optional(one_of(0, 1))))
    gesture: str = field(default="short", metadata=checked(one_of(*GESTURES)))


@dataclass(frozen=True)
class DeviceChanged(Event):
    """The camera or the LED device went offline or came back (the clock pauses; issue 6 item 6).
    ``since``: when it last answered (the silent time from then is refunded), default ``t``."""

    kind: ClassVar[str] = "device"
    device: str = field(default="camera", metadata=checked(one_of(*DEVICES)))
    online: bool = field(default=True, metadata=checked(boolean))
    # when it went offline: it last answered then (the clock refunds from here)
    since: float | None = field(default=None, metadata=checked(optional(station_time)))

    def whole_problem(self) -> str:
        return "went silent after it reported" if self.since is not None and self.since > self.t else ""


REFEREE_ACTIONS = ("accept", "correct", "rethrow", "mix", "pause", "resume", "score", "resign", "undo")


def _score_pair(value: Any) -> str:
    if not isinstance(value, tuple) or len(value) != 2:
        return "is no pair (light, dark)"
    return next((f"holds {n!r}" for n in value if integer(0, 2**15 - 1)(n)), "")


@dataclass(frozen=True)
class RefereeAction(Event):
    """A ruling the referee made at the station's page (controller.game.referee): ``action`` one of
    REFEREE_ACTIONS; ``player`` who resigns; ``value`` the resignation's 1/2/3 (single, gammon,
    backgammon, RULES.md B9); ``score`` the corrected match score (light, dark; B14)."""

    kind: ClassVar[str] = "referee"
    action: str = field(default="undo", metadata=checked(one_of(*REFEREE_ACTIONS)))
    player: int | None = field(default=None, metadata=checked(optional(one_of(0, 1))))
    value: int | None = field(default=None, metadata=checked(optional(one_of(1, 2, 3))))
    score: tuple[int, int] | None = field(default=None, metadata=checked(optional(_score_pair)))

    def __post_init__(self) -> None:
        if isinstance(self.score, list):  # a journal line gives a list
            object.__setattr__(self, "score", tuple(self.score))


@dataclass(frozen=True)
class Tick(Event):
    """Time passes (the clock checks for a flag fall)."""

    kind: ClassVar[str] = "tick"


@dataclass(frozen=True)
class Refused(Event):
    """An event that failed its checks, kept in the journal with the reason (``game.step`` changes
    nothing for it). ``event``: the refused event in a JSON-safe form; ``note``: set when a journal
    line written before today's checks is refused on replay."""

    kind: ClassVar[str] = "refused"
    event: dict[str, Any] = field(
        default_factory=dict, metadata=checked(lambda v: "" if isinstance(v, dict) else "is no mapping")
    )
    reason: str = field(default="", metadata=checked(text()))
    note: str = field(default="", metadata=checked(text()))


_KINDS: dict[str, type[Event]] = {
    c.kind: c for c in (MatchStarted, BoardSeen, ButtonPressed, DeviceChanged, RefereeAction, Tick, Refused)
}

REPLAY_NOTE = "journaled before today's checks; replayed as refused"


def _fields_problem(obj: Any) -> str:
    for f in fields(obj):
        check = f.metadata.get("check")
        why = check(getattr(obj, f.name)) if check is not None else ""
        if why:
            return f"{f.name} {why}"
    return ""


def problem(event: object) -> str:
    """Why ``event`` is refused ("" when it passes every check of its schema)."""
    if not isinstance(event, Event) or type(event).kind not in _KINDS:
        return f"{type(event).__name__} is no station event"
    try:
        why = _fields_problem(event) or event.whole_problem()
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:  # a value a check cannot read
        why = f"cannot be read ({type(exc).__name__})"
    return f"{event.kind} {why}" if why else ""


def refuse(event: object, reason: str, note: str = "") -> Refused:
    """The :class:`Refused` event that records ``event`` (made JSON-safe) and why."""
    t = getattr(event, "t", 0.0)
    if station_time(t):
        t = 0.0
    if isinstance(event, Event):
        raw: Any = {"kind": event.kind, **{f.name: getattr(event, f.name) for f in fields(event)}}
    else:
        raw = event
    safe = _safe(raw)
    return Refused(
        t=t, event=safe if isinstance(safe, dict) else {"value": safe}, reason=reason[:_TEXT_MAX], note=note
    )


def screen(event: Event) -> Event:
    """``event`` itself when it passes its checks, else its :class:`Refused`."""
    why = problem(event)
    return refuse(event, why) if why else event


def _safe(value: Any, depth: int = 0) -> Any:
    """A JSON value that shows ``value``: NaN, infinity, huge integers and other types as text, deep or
    long structures cut short (a refused event must never make the journal line itself fail)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value[:_TEXT_MAX]
    if isinstance(value, int):
        return value if abs(value) < 2**53 else f"int of {value.bit_length()} bits"
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, Enum):
        return _safe(value.value, depth + 1)
    if depth > 6:
        return "..."
    if is_dataclass(value) and not isinstance(value, type):
        return [_safe(getattr(value, f.name), depth + 1) for f in fields(value)]
    if isinstance(value, tuple | list):
        return [_safe(v, depth + 1) for v in value[:64]]
    if isinstance(value, Mapping):
        return {str(k)[:60]: _safe(v, depth + 1) for k, v in list(value.items())[:64]}
    return repr(value)[:120]


def event_from_json(raw: Any) -> Event:
    """Rebuild an event from its ``to_json`` form. Never raises: a value that is no event of a known
    kind, or one that today's checks refuse (a journal written before them), comes back as a
    :class:`Refused` with :data:`REPLAY_NOTE`, so a journal line that parsed always replays."""
    if not isinstance(raw, dict):
        return refuse(raw, "a journal event is no JSON object", REPLAY_NOTE)
    cls = _KINDS.get(raw.get("kind"))  # type: ignore[arg-type]
    if cls is None:
        return refuse(raw, f"unknown event kind {str(raw.get('kind'))[:40]!r}", REPLAY_NOTE)
    kwargs = {f.name: raw[f.name] for f in fields(cls) if f.name in raw}
    try:
        if cls is BoardSeen:
            slots = kwargs.get("slots", ())
            if isinstance(slots, list):
                kwargs["slots"] = tuple(tuple(s) if isinstance(s, list) else s for s in slots)
            dice = kwargs.get("dice", ())
            if isinstance(dice, list):
                kwargs["dice"] = tuple(DieSeen.from_json(d) for d in dice)
        event = cls(**kwargs)
    except (TypeError, ValueError) as exc:
        return refuse(raw, f"{cls.kind} does not fit ({str(exc)[:120]})", REPLAY_NOTE)
    if isinstance(event, Refused):
        return event if not problem(event) else refuse(raw, problem(event), REPLAY_NOTE)
    why = problem(event)
    return refuse(event, why, REPLAY_NOTE) if why else event


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
            DieSeen(  # plain ints and bools: a numpy integer is no int to the schema
                None if d.value is None else int(d.value),
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
        has_bar=None if reading.has_bar is None else bool(reading.has_bar),
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
            best, best_d = int(p.slot), d
    return best
