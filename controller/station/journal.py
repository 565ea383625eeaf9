"""The station's journal: every input event appended, flushed and fsynced before it is acted on.

Format: JSON Lines, one entry a line, canonical JSON (sorted keys, no spaces). An entry holds an input
event or a *seal*::

    {"event": {...}, "key": "<key id>", "mac": "<hex>", "prev": "<mac of the entry before>", "seq": 7}
    {"key": "<key id>", "mac": "<hex>", "prev": "...", "seal": {"events": 7, "why": "stop", ...}, "seq": 8}

``mac`` is the HMAC-SHA256, under the station key (:mod:`controller.journal_key`), of ``seq``,
``prev``, the entry's kind and its canonical body; ``seq`` counts the entries from 0 and ``prev``
chains each to the one before it (the first to 64 zeros). An edited, removed, reordered or inserted
line breaks the chain, and without the key nobody can write a line that fits it: not a forged line
appended, nor a whole journal edited and its chain recomputed. A cut tail leaves a valid chain, so the
station seals: at a clean stop and at each game's end it appends a seal, which says how many events
come before it. A journal that does not end with a seal may have lost its last lines (a crash, a
station still running, or a cut file), and the readers say so (:attr:`Contents.unsealed`).

Why HMAC and not Ed25519 signed checkpoints: HMAC needs nothing beyond the standard library, and
every line is keyed, so a forged line is caught where it is, not only at the next checkpoint. Its
cost is that checking needs the secret key itself (a copy for the referee or the director), where a
signature would be checked with a public key.

Journals written before the key (``"hash"`` in place of ``"mac"``, plain SHA-256 with no key, no
``key``) are still read, resumed and continued in their own format; :attr:`Contents.key_id` is None
for them and ``tavla verify`` calls them unkeyed: anyone can recompute their chain.

Reading never raises on what the file holds (:func:`scan`): any bytes give the events before the
first bad line and that line's number and fault (:class:`JournalDamaged`). A last line cut short by a
crash in mid-write was never acted on (the station acts only after the append returned): it is
dropped, and cut off before new entries are appended. A last entry that is whole but lacks its newline
is kept, and the newline is added before appending.

One writer at a time: :class:`Journal` holds an exclusive lock (:mod:`controller.journal_lock`).

Replaying the events through ``controller.game.step`` from a new state gives the state the station
had (DESIGN.md "Data flow"): that is ``tavla resume``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from controller.game.events import Event, event_from_json
from controller.rules.errors import TavlaError
from controller.station.journal_key import StationKey
from controller.station.journal_lock import LockHeld, acquire, release

GENESIS = "0" * 64
SEAL_REASONS = ("stop", "game")


class JournalError(TavlaError, ValueError):
    """A journal that cannot be read or written (names the file and line)."""


def cannot_write(path: Path, exc: OSError) -> str:
    """Why the journal ``path`` cannot be made, in one line saying what to do (issue 15: never the
    bare ``PermissionError: [Errno 13] ...``): a folder on the way that is a file, a folder not
    writable, or the system's reason."""
    import errno

    for folder in path.parents:
        if folder.exists() or folder.is_symlink():
            if not folder.is_dir():
                return (
                    f"cannot make the folder for the journal {path}: {folder} is a file, not a folder; "
                    "give a --journal path in a folder"
                )
            break
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = f"permission denied ({path.parent} is not writable)"
    else:
        why = (exc.strerror or type(exc).__name__).lower()
    return f"cannot write the journal {path}: {why}; give a --journal path in a folder you can write"


class JournalDamaged(JournalError):
    """The first bad line of a journal: ``line`` (1-based) and, in the message, why; ``good`` holds the
    events before it, every one of them checked (what :func:`read_until_damage` returns)."""

    def __init__(self, message: str, line: int = 0, good: list[Event] | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.good: list[Event] = list(good or [])


class NotAJournal(JournalDamaged):
    """The file is not a Tavla journal at all (its first line is no journal entry)."""


class JournalTampered(JournalDamaged):
    """The chain is broken: an entry was edited, removed, inserted, reordered or forged."""


class JournalLocked(JournalError):
    """Another process is writing the journal; ``pid`` is its process id (None when unknown)."""

    def __init__(self, message: str, pid: int | None) -> None:
        super().__init__(message)
        self.pid = pid


# Canonical entries sort their keys: every line of a journal begins with one of these.
_STARTS = (b'{"event":', b'{"key":', b'{"hash":')
_EVENT_KEYS = {"unkeyed": {"event", "hash", "prev", "seq"}, "keyed": {"event", "key", "mac", "prev", "seq"}}
_SEAL_KEYS = {"unkeyed": {"hash", "prev", "seal", "seq"}, "keyed": {"key", "mac", "prev", "seal", "seq"}}


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(seq: int, prev: str, event: dict[str, Any]) -> str:
    """The unkeyed hash of one event entry (hex SHA-256 of ``seq``, ``prev`` and the canonical event
    JSON): the format of journals written before the station key."""
    return hashlib.sha256(f"{seq}\n{prev}\n{_canonical(event)}".encode()).hexdigest()


def entry_digest(key: StationKey | None, seq: int, prev: str, kind: str, body: dict[str, Any]) -> str:
    """The ``mac`` of an entry under ``key`` (``kind`` "event" or "seal"); with no key, the unkeyed
    ``hash`` (:func:`entry_hash` for an event).

    :raises ValueError: when ``body`` cannot be written as UTF-8 JSON (a lone surrogate, say).
    """
    if key is None:
        if kind == "event":
            return entry_hash(seq, prev, body)
        return hashlib.sha256(f"{seq}\n{prev}\nseal\n{_canonical(body)}".encode()).hexdigest()
    return key.mac(f"tavla journal 2\n{seq}\n{prev}\n{kind}\n{_canonical(body)}".encode())


@dataclass(frozen=True)
class Seal:
    """A sealed checkpoint: its ``line``, ``why`` ("stop" or "game"), how many ``events`` precede it."""

    line: int
    why: str
    events: int


@dataclass(frozen=True)
class Contents:
    """What :func:`scan` found in a journal.

    ``events``: the events up to the first bad line (all of them when there is none); ``damage``: that
    line, or None; ``key_id``: the key the entries name (None for an unkeyed journal or an empty file);
    ``checked``: True when every entry's hash or MAC was checked (False for a keyed journal read
    without its key: then only the chain's order is); ``last_seal``: the last seal, or None;
    ``torn``: a last line cut short was dropped; ``unterminated``: the last entry lacks its newline;
    ``lines``: the number of the last good line; ``end``: the byte offset after it.
    """

    events: list[Event]
    damage: JournalDamaged | None
    key_id: str | None
    checked: bool
    last_seal: Seal | None
    torn: bool
    unterminated: bool
    lines: int
    end: int
    next_seq: int
    prev: str
    ends_sealed: bool

    @property
    def unsealed(self) -> int:
        """How many events follow the last seal (all of them when there is none)."""
        return len(self.events) - (self.last_seal.events if self.last_seal else 0)


def _lines(data: bytes) -> Iterator[tuple[int, bytes, int, bool]]:
    """(line number, bytes, offset after the line, whether it ends with a newline) for each line."""
    offset = lineno = 0
    while offset < len(data):
        end = data.find(b"\n", offset)
        lineno += 1
        if end < 0:
            yield lineno, data[offset:], len(data), False
            return
        yield lineno, data[offset:end], end + 1, True
        offset = end + 1


def _parse(raw: bytes) -> tuple[dict[str, Any] | None, str]:
    """The line's JSON object, or None and why not."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})"
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"not a journal entry ({exc.msg} at column {exc.colno})"
    except RecursionError:
        return None, "not a journal entry (nested too deeply)"
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        return None, f"not a journal entry ({str(exc).split(';')[0]})"
    if not isinstance(obj, dict):
        return None, "not a journal entry (no JSON object)"
    return obj, ""


def _torn(raw: bytes) -> bool:
    """A last line that may be the start of an entry cut short by a crash (a JSON object begun)."""
    return raw.startswith(b"{")


def _decode_event(body: Any) -> tuple[Event | None, str]:
    # never a fault: a body today's checks refuse, or no event at all, replays as refused (issue 18)
    return event_from_json(body), ""


class _Scanner:
    """Checks entries one by one; :meth:`check` returns the fault of a bad one ("" when good)."""

    def __init__(self, key: StationKey | None) -> None:
        self.key = key
        self.events: list[Event] = []
        self.mode: str | None = None  # "keyed" | "unkeyed", fixed by the first entry
        self.key_id: str | None = None
        self.checked = True
        self.seq = 0
        self.prev = GENESIS
        self.last_seal: Seal | None = None
        self.ends_sealed = False

    def check(self, lineno: int, entry: dict[str, Any]) -> str:
        mode = "keyed" if "mac" in entry else "unkeyed"
        kind = "seal" if "seal" in entry else "event"
        shape = (_SEAL_KEYS if kind == "seal" else _EVENT_KEYS)[mode]
        if set(entry) != shape:
            return f"not a journal entry (fields {', '.join(sorted(entry)) or 'none'})"
        if self.mode is None:
            self.mode = mode
            if mode == "keyed":
                if not isinstance(entry["key"], str):
                    return "its key id is no text"
                self.key_id = entry["key"]
                self.checked = self.key is not None and self.key.id == self.key_id
        elif mode != self.mode:
            article = {"keyed": "a keyed", "unkeyed": "an unkeyed"}
            return f"{article[mode]} entry in {article[self.mode]} journal"
        if mode == "keyed" and entry["key"] != self.key_id:
            return f"names key {str(entry['key'])[:16]!r}, the lines before it {self.key_id}"
        seq, digest = entry["seq"], entry["mac" if mode == "keyed" else "hash"]
        if type(seq) is not int or seq != self.seq:
            return f"entry number {str(seq)[:20]}, expected {self.seq} (removed or reordered)"
        if entry["prev"] != self.prev:
            return "does not follow the entry before it (hash chain broken)"
        if not isinstance(digest, str):
            return "its hash is no text"
        body = entry[kind]
        if self.checked:
            try:
                want = entry_digest(self.key if mode == "keyed" else None, seq, self.prev, kind, body)
            except (ValueError, RecursionError):
                return "not a journal entry (its body cannot be written back as JSON)"
            if not hmac.compare_digest(want.encode(), digest.encode("utf-8", "replace")):
                what = "MAC" if mode == "keyed" else "hash"
                return f"entry was edited or forged (its {what} does not match)"
        if kind == "seal":
            fault = self._seal(lineno, body)
        else:
            event, fault = _decode_event(body)
            if event is not None:
                self.events.append(event)
                self.ends_sealed = False
        if fault:
            return fault
        self.prev = digest
        self.seq += 1
        return ""

    def _seal(self, lineno: int, body: Any) -> str:
        if not isinstance(body, dict) or body.get("why") not in SEAL_REASONS:
            return "a seal of no known kind"
        if type(body.get("events")) is not int or body["events"] != len(self.events):
            return f"a seal for {str(body.get('events'))[:20]} events, after {len(self.events)} events"
        self.last_seal = Seal(lineno, body["why"], body["events"])
        self.ends_sealed = True
        return ""


def scan_bytes(data: bytes, name: str = "journal", key: StationKey | None = None) -> Contents:
    """Check a journal's bytes (see the module docstring); never raises on what they hold.

    :param name: the file's name in the messages (``NAME:LINE: why``).
    :param key: the station key; without it (or with another station's) a keyed journal's MACs are
        not checked, only their order (``Contents.checked`` is then False).
    """
    s = _Scanner(key)
    damage: JournalDamaged | None = None
    torn = unterminated = False
    good_line = good_end = 0
    first = True
    for lineno, raw, end, newline in _lines(data):
        if not raw.strip():
            good_line, good_end = lineno, end
            continue
        cut = not newline and _torn(raw.lstrip())
        if first and not cut and not raw.lstrip().startswith(_STARTS):
            damage = NotAJournal(f"{name} is not a Tavla journal (its line {lineno} is no journal entry)",
                                 lineno)
            break
        first = False
        entry, fault = _parse(raw)
        if entry is None and cut:
            torn = True  # a crash in mid-write: never acted on
            break
        if entry is not None:
            fault = s.check(lineno, entry)
        if fault:
            damage = JournalTampered(f"{name}:{lineno}: {fault}", lineno, s.events)
            break
        good_line, good_end, unterminated = lineno, end, not newline
    return Contents(
        events=s.events, damage=damage, key_id=s.key_id, checked=s.checked, last_seal=s.last_seal,
        torn=torn, unterminated=unterminated, lines=good_line, end=good_end, next_seq=s.seq,
        prev=s.prev, ends_sealed=s.ends_sealed,
    )


def scan(path: str | Path, key: StationKey | None = None) -> Contents:
    """:func:`scan_bytes` of a file.

    :raises OSError: when it cannot be read (FileNotFoundError, IsADirectoryError, ...).
    """
    p = Path(path)
    return scan_bytes(p.read_bytes(), str(p), key)


def read(path: str | Path, key: StationKey | None = None) -> list[Event]:
    """Every event of a journal, in order, after checking the chain.

    :raises FileNotFoundError: when there is no such file.
    :raises JournalDamaged: at the first bad line (:class:`JournalTampered` when the chain is broken,
        :class:`NotAJournal` when the file is none).
    """
    contents = scan(path, key)
    if contents.damage is not None:
        raise contents.damage
    return contents.events


def read_until_damage(
    path: str | Path, key: StationKey | None = None
) -> tuple[list[Event], JournalDamaged | None]:
    """The events before the first bad line (all of them when it is intact), and the damage found
    (None when intact): what a referee may still look at. Never raises on what the file holds.

    :raises OSError: when it cannot be read.
    """
    contents = scan(path, key)
    return contents.events, contents.damage


def torn_tail(path: str | Path) -> bool:
    """True when the file ends in a line cut short (a crash mid-write); readers drop it."""
    return scan(path).torn


class Journal:
    """An append-only journal file (see the module docstring). Opening it takes the journal's lock,
    checks what it holds and continues its chain -- under ``key``, or in the unkeyed format when the
    journal already is unkeyed or no key is given. :meth:`append` and :meth:`seal` return only once the
    entry is on disk (``os.fsync``).

    Use as a context manager; :meth:`close` is idempotent and releases the lock; appending after it
    raises :class:`JournalError`.

    :raises JournalLocked: when another process is writing the journal (the message names it).
    :raises JournalDamaged: on opening a journal with a bad line.
    :raises JournalError: on a keyed journal opened without its key, or under another key.
    """

    def __init__(self, path: str | Path, fsync: bool = True, key: StationKey | None = None) -> None:
        self.path = Path(path)
        self.fsync = fsync
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            f: BinaryIO = open(self.path, "a+b")  # held open, and locked, until close()
        except OSError as exc:
            raise JournalError(cannot_write(self.path, exc)) from exc
        try:
            acquire(f, self.path)
        except LockHeld as exc:
            f.close()
            who = f"process {exc.pid}" if exc.pid is not None else "another process"
            raise JournalLocked(
                f"journal {self.path} is being written by {who}; one station writes a journal at a time",
                exc.pid,
            ) from None
        try:
            f.seek(0)
            contents = scan_bytes(f.read(), str(self.path), key)
            self.key = self._continue_with(contents, key)
            if contents.damage is not None:
                raise contents.damage
            if contents.torn:
                f.truncate(contents.end)  # the torn tail of a crash; a whole entry is never cut
            elif contents.unterminated:
                f.write(b"\n")  # the last entry is whole: complete its line
                f.flush()
        except BaseException:
            release(f, self.path)
            f.close()
            raise
        self.events: list[Event] = contents.events
        self._prev = contents.prev
        self._seq = contents.next_seq
        self._file: BinaryIO | None = f
        # called with each entry once it is on disk (the club publisher, controller.club.publisher)
        self.on_entry: Callable[[dict[str, Any]], None] | None = None

    def _continue_with(self, contents: Contents, key: StationKey | None) -> StationKey | None:
        if contents.next_seq == 0 and contents.damage is None:
            return key  # a new (or empty) journal: keyed when a key is given
        if contents.key_id is None:
            return None  # an unkeyed journal goes on unkeyed: its older lines prove nothing anyway
        if key is None or key.id != contents.key_id:
            given = "no key" if key is None else f"key {key.id} ({key.path})"
            raise JournalError(
                f"journal {self.path} is chained under key {contents.key_id}, not under {given}: "
                "give --key with the key of the station that wrote it"
            )
        return key

    @property
    def keyed(self) -> bool:
        """True when entries are chained under a station key."""
        return self.key is not None

    @property
    def closed(self) -> bool:
        return self._file is None

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next entry gets (entries, seals included, count from 0)."""
        return self._seq

    def __len__(self) -> int:
        """The number of events (seals not counted)."""
        return len(self.events)

    def append(self, event: Event) -> int:
        """Write one event and fsync it; returns its number among the journal's events.

        :raises JournalError: when the journal is closed.
        """
        self._write("event", event.to_json())
        self.events.append(event)
        return len(self.events) - 1

    def seal(self, why: str) -> None:
        """Write a sealed checkpoint (``why``: "stop" at a clean stop, "game" at a game's end).

        :raises JournalError: when the journal is closed.
        """
        if why not in SEAL_REASONS:
            raise ValueError(f"seal reason {why!r}: one of {', '.join(SEAL_REASONS)}")
        self._write("seal", {"events": len(self.events), "why": why})

    def _write(self, kind: str, body: dict[str, Any]) -> None:
        if self._file is None:
            raise JournalError(f"journal {self.path} is closed")
        digest = entry_digest(self.key, self._seq, self._prev, kind, body)
        entry: dict[str, Any] = {"seq": self._seq, "prev": self._prev, kind: body}
        if self.key is None:
            entry["hash"] = digest
        else:
            entry["key"], entry["mac"] = self.key.id, digest
        self._file.write((_canonical(entry) + "\n").encode())
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())
        self._prev = digest
        self._seq += 1
        if self.on_entry is not None:
            self.on_entry(entry)

    def close(self) -> None:
        if self._file is not None:
            release(self._file, self.path)
            self._file.close()
            self._file = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_events_file(path: str | Path) -> list[Event]:
    """Events from a file: a journal (checked as :func:`read` does) or plain JSON Lines of events
    (``Event.to_json`` one a line), e.g. a recorded or scripted session.

    :raises JournalError: on a line that is not an event; :raises OSError: when unreadable.
    """
    p = Path(path)
    data = p.read_bytes()
    if data.lstrip().startswith(_STARTS):
        return read(p)
    out: list[Event] = []
    for lineno, raw, _, _ in _lines(data):
        if not raw.strip():
            continue
        entry, fault = _parse(raw)
        event, fault = _decode_event(entry) if entry is not None else (None, fault)
        if event is None:
            raise JournalError(f"{p}:{lineno}: {fault}")
        out.append(event)
    return out
