"""The station's journal: every input event appended, flushed and fsynced before it is acted on.

Format: JSON Lines, one entry a line::

    {"seq": 0, "prev": "<hex sha256 of the previous entry>", "event": {...}, "hash": "<hex sha256>"}

``hash`` is the SHA-256 of ``seq``, ``prev`` and the event's canonical JSON (sorted keys, no spaces),
so each entry carries the hash of the one before it: an edited, removed, reordered or inserted line
breaks the chain and :func:`read` says where (:class:`JournalTampered`). A last line cut short by a
crash in mid-write was never acted on (the station acts only after the append returned), so it is
dropped on reading and cut off before new entries are appended.

Replaying the events through ``controller.game.step`` from a new state gives the state the station
had (DESIGN.md "Data flow"): that is ``tavla resume``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.game.events import Event, EventError, event_from_json
from controller.rules.errors import TavlaError

GENESIS = "0" * 64


class JournalError(TavlaError, ValueError):
    """A journal that cannot be read (names the file and line)."""


class NotAJournal(JournalError):
    """The file is not a Tavla journal at all (its first line is no journal entry)."""


class JournalTampered(JournalError):
    """The hash chain is broken: an entry was edited, removed, inserted or reordered.

    ``line``: the first bad line (1-based); ``good``: the events before it, every one of them checked
    (what :func:`read_until_damage` returns)."""

    def __init__(self, message: str, line: int = 0, good: list[Event] | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.good: list[Event] = list(good or [])


# Every entry is canonical JSON with sorted keys: a journal's first byte sequence is always this.
_ENTRY_START = b'{"event":'


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(seq: int, prev: str, event: dict[str, Any]) -> str:
    """The hash of one entry (hex SHA-256 of ``seq``, ``prev`` and the canonical event JSON)."""
    return hashlib.sha256(f"{seq}\n{prev}\n{_canonical(event)}".encode()).hexdigest()


def _entries(path: Path) -> Iterator[tuple[int, dict[str, Any], int]]:
    """(line number, entry, byte offset after the line) for each complete line; stops at a torn tail.

    :raises NotAJournal: when the file's first line cannot start a journal entry.
    """
    with open(path, "rb") as f:
        data = f.read()
    if data.strip() and not data.lstrip().startswith(_ENTRY_START):
        raise NotAJournal(f"{path} is not a Tavla journal (its first line is no journal entry)")
    offset = 0
    lineno = 0
    while offset < len(data):
        end = data.find(b"\n", offset)
        if end < 0:
            return  # a torn last line (crash mid-write): never acted on
        lineno += 1
        raw = data[offset:end]
        offset = end + 1
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise JournalTampered(f"{path}:{lineno}: not a journal entry ({exc.msg})", line=lineno) from exc
        yield lineno, entry, offset


def read(path: str | Path) -> list[Event]:
    """Every event of a journal, in order, after checking the hash chain.

    :raises FileNotFoundError: when there is no such file.
    :raises JournalTampered: when the chain is broken (the message names the first bad line).
    :raises JournalError: when an entry holds no valid event.
    """
    events, _, _, _ = _scan(Path(path))
    return events


def read_until_damage(path: str | Path) -> tuple[list[Event], JournalTampered | None]:
    """The events before the first bad line of an edited journal (all of them when it is intact), and
    the damage found (None when intact): what a referee may still look at.

    :raises NotAJournal, FileNotFoundError: as :func:`read`.
    """
    try:
        return read(path), None
    except JournalTampered as exc:
        return exc.good, exc


def torn_tail(path: str | Path) -> bool:
    """True when the file ends in a line cut short (a crash mid-write); readers drop it."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return False
        f.seek(-1, os.SEEK_END)
        return f.read(1) != b"\n"


def _scan(path: Path) -> tuple[list[Event], str, int, int]:
    events: list[Event] = []
    prev = GENESIS
    seq = 0
    good_end = 0
    lineno = 0
    try:
        for lineno, entry, end in _entries(path):
            if not isinstance(entry, dict) or {"seq", "prev", "event", "hash"} - set(entry):
                raise JournalTampered(f"{path}:{lineno}: entry lacks seq/prev/event/hash")
            if entry["seq"] != seq:
                raise JournalTampered(
                    f"{path}:{lineno}: entry number {entry['seq']}, expected {seq} (removed or reordered)"
                )
            if entry["prev"] != prev:
                raise JournalTampered(
                    f"{path}:{lineno}: does not follow the entry before it (hash chain broken)"
                )
            if entry_hash(seq, prev, entry["event"]) != entry["hash"]:
                raise JournalTampered(f"{path}:{lineno}: entry was edited (its hash does not match)")
            try:
                events.append(event_from_json(entry["event"]))
            except EventError as exc:
                raise JournalError(f"{path}:{lineno}: {exc}") from exc
            prev = entry["hash"]
            seq += 1
            good_end = end
    except JournalTampered as exc:
        raise JournalTampered(str(exc), line=exc.line or lineno, good=events) from exc
    return events, prev, seq, good_end


class Journal:
    """An append-only journal file (see the module docstring). Opening an existing file checks it and
    continues its chain; :meth:`append` returns only once the entry is on disk (``os.fsync``).

    Use as a context manager; :meth:`close` is idempotent; appending after it raises
    :class:`JournalError`.

    :raises JournalTampered: on opening a journal whose chain is broken.
    """

    def __init__(self, path: str | Path, fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self.events: list[Event] = []
        self._prev = GENESIS
        self._seq = 0
        if self.path.exists():
            self.events, self._prev, self._seq, good_end = _scan(self.path)
            if good_end < self.path.stat().st_size:
                with open(self.path, "r+b") as f:  # drop the torn tail of a crash
                    f.truncate(good_end)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: Any = open(self.path, "ab")

    def __len__(self) -> int:
        return self._seq

    def append(self, event: Event) -> int:
        """Write one event and fsync it; returns its sequence number.

        :raises JournalError: when the journal is closed.
        """
        if self._file is None:
            raise JournalError(f"journal {self.path} is closed")
        payload = event.to_json()
        h = entry_hash(self._seq, self._prev, payload)
        line = _canonical({"seq": self._seq, "prev": self._prev, "event": payload, "hash": h}) + "\n"
        self._file.write(line.encode())
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())
        self._prev = h
        self._seq += 1
        return self._seq - 1

    def close(self) -> None:
        if self._file is not None:
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
    with open(p, encoding="utf-8") as f:
        first = f.readline()
    try:
        head = json.loads(first) if first.strip() else {}
    except json.JSONDecodeError as exc:
        raise JournalError(f"{p}:1: not JSON ({exc.msg})") from exc
    if isinstance(head, dict) and "hash" in head and "event" in head:
        return read(p)
    out: list[Event] = []
    with open(p, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                out.append(event_from_json(json.loads(line)))
            except (json.JSONDecodeError, EventError) as exc:
                raise JournalError(f"{p}:{lineno}: {exc}") from exc
    return out
