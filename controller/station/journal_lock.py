"""One writer per journal: an exclusive advisory lock on the open journal file.

Why ``fcntl.flock``: the kernel holds the lock on the open file and drops it when the holder closes it
or dies, ``kill -9`` included, so a crashed station never leaves a stale lock behind, as a lock file
that merely exists would. POSIX record locks (``lockf``) would be dropped as soon as the same process
closed *any* descriptor of the file (a reader inside the station), which ``flock`` is not.

``flock`` cannot say who holds it, so the holder writes its process id to ``JOURNAL.lock`` beside the
journal; a refused writer reads it from there to name the holder. That file is only a note: the lock is
the ``flock``, and a note left by a dead station is simply overwritten by the next one.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path
from typing import BinaryIO

from controller.rules.errors import TavlaError

if sys.platform != "win32":
    import fcntl


class LockHeld(TavlaError, RuntimeError):
    """Another process holds the journal; ``pid`` is its process id when it could be read."""

    def __init__(self, pid: int | None) -> None:
        super().__init__(pid)
        self.pid = pid


def note_path(journal: Path) -> Path:
    """Where the holder's process id is written (``JOURNAL.lock``)."""
    return journal.with_name(journal.name + ".lock")


def acquire(f: BinaryIO, journal: Path) -> None:
    """Lock the open journal ``f`` for this process, without waiting, and note our process id.

    :raises LockHeld: when another process (or another open of the file in this one) holds it.
    """
    if sys.platform == "win32":  # no flock there: one writer is then the user's care
        return
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise LockHeld(_holder(journal)) from None
    with contextlib.suppress(OSError):  # the note is a courtesy; the lock holds without it
        note_path(journal).write_text(f"{os.getpid()}\n")


def release(f: BinaryIO, journal: Path) -> None:
    """Remove our note (when it is still ours) and unlock; closing ``f`` would unlock as well."""
    if sys.platform == "win32":
        return
    note = note_path(journal)
    with contextlib.suppress(OSError, ValueError):
        if int(note.read_text().strip()) == os.getpid():
            note.unlink()
    with contextlib.suppress(OSError, ValueError):
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _holder(journal: Path) -> int | None:
    """The holder's process id from its note; it may be writing it right now, so look a few times."""
    for _ in range(20):
        try:
            return int(note_path(journal).read_text().strip())
        except (OSError, ValueError):
            time.sleep(0.01)
    return None
