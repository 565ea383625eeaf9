"""``tavla verify JOURNAL --key FILE``: is the journal the station wrote, whole and unchanged?

It checks every entry's MAC under the station key (controller.station.journal) and that the file ends with
a seal, and prints one line:

- ``intact`` (exit 0): every line chained under this key, the last one a seal;
- the first bad line and why, or that the file does not end with a seal, so that its last events may
  be missing (exit 1: tampered, or not shown complete);
- ``unkeyed`` (exit 3): a journal written before the station key; its plain SHA-256 chain is checked
  and reported, but anyone can recompute it, so it proves nothing against a deliberate edit;
- exit 2 (one line on stderr): no such journal, not a journal, or no usable key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from controller.cli.common import fail

INTACT, TAMPERED, UNREADABLE, UNKEYED = 0, 1, 2, 3


def verdict(path: Path, contents: Any, key: Any) -> tuple[int, str]:
    """The exit code and the line to print for a scanned journal (controller.station.journal.Contents)."""
    damage, n = contents.damage, len(contents.events)
    if damage is not None:
        return TAMPERED, f"{damage}; the {n} events before line {damage.line} are as written"
    if contents.key_id is None:
        return UNKEYED, (
            f"{path}: unkeyed: a plain SHA-256 chain (written before the station key) that holds over "
            f"{n} events; anyone can recompute it, so it proves nothing against a deliberate edit"
        )
    if not contents.checked:
        return TAMPERED, (
            f"{path}: chained under key {contents.key_id}, not under {key.path} (key {key.id}): "
            "another station's journal, or forged"
        )
    if not contents.ends_sealed:
        seal = contents.last_seal
        torn = " after a last line cut short (a crash mid-write)" if contents.torn else ""
        where = f"sealed up to line {seal.line}" if seal else "no seal at all"
        return TAMPERED, (
            f"{path}: not sealed at its end{torn}: the last {contents.unsealed} events after the last seal "
            f"may be missing (a crash, a station still running, or lines cut off); {where}"
        )
    why = {"stop": "a clean stop", "game": "a game's end"}[contents.last_seal.why]
    return INTACT, (
        f"{path}: intact: {n} events in {contents.lines} lines, chained under key {contents.key_id}, "
        f"sealed at {why} (line {contents.last_seal.line})"
    )


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify_cmd(
        journal: Path = typer.Argument(..., help="a journal written by tavla run"),
        key: Path = typer.Option(
            None, "--key", help="the station key it was written under; default ~/.config/tavla/station.key"
        ),
    ) -> None:
        """Check a journal against the station key: intact (0), tampered or cut (1), unkeyed (3).

        Exit 2 (one line): no such journal, not a journal, or no usable key.
        """
        from controller.cli.journals import scan_journal
        from controller.station.journal import NotAJournal
        from controller.station.journal_key import KeyFileError, default_key_path, load_key

        key_path = key if key is not None else default_key_path()
        try:
            station_key = load_key(key_path)
        except KeyFileError as exc:
            raise fail(f"{exc}; give --key with the key of the station that wrote {journal}") from exc
        contents = scan_journal(journal, station_key)
        if isinstance(contents.damage, NotAJournal):
            raise fail(f"{journal} is not a Tavla journal")
        if contents.lines == 0 and contents.damage is None and not contents.torn:
            raise fail(f"journal {journal} is empty")
        code, line = verdict(journal, contents, station_key)
        typer.echo(line)
        raise typer.Exit(code)
