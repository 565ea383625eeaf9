"""Reading a journal for a command (``tavla resume``, ``replay``, ``run --append`` and ``--events``):
the station key to check it with or chain under, and every way the file can be wrong as one line
saying what to do (exit 2). Shared here so that no command imports another."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from controller.cli.common import fail

if TYPE_CHECKING:
    from controller.station.journal import Contents, JournalDamaged


_fail = fail


def newest_journal() -> Path | None:
    from controller.station.session import default_journal_path

    folder = default_journal_path().parent
    found = sorted(folder.glob("journal-*.jsonl"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    return found[-1] if found else None


def key_for_reading(option: Path | None) -> Any:
    """The key to check a journal with: ``--key`` (which must be a key), else the station's own key
    when this machine has one, else None (a keyed journal's order is then checked, not its MACs).

    :raises typer.Exit: (2, one line) when ``--key`` is given and is no key file.
    """
    from controller.station.journal_key import KeyFileError, default_key_path, load_key

    path = option if option is not None else default_key_path()
    if option is None and not path.is_file():
        return None
    try:
        return load_key(path)
    except KeyFileError as exc:
        raise _fail(f"{exc}; give --key with the station's key file") from exc


def key_for_writing(option: Path | None) -> Any:
    """The station key a new entry is chained under: ``--key``, default the station's own key,
    created at the first run (controller.station.journal_key).

    :raises typer.Exit: (2, one line) when the file is no key or others may read it.
    """
    from controller.station.journal_key import KeyFileError, station_key

    try:
        return station_key(option)
    except KeyFileError as exc:
        raise _fail(str(exc)) from exc


def seal_note(path: Path, contents: Any) -> str | None:
    """The note for a journal that does not end with a seal: its last lines may have been lost."""
    if contents.ends_sealed or contents.damage is not None or not contents.events:
        return None
    seal = contents.last_seal
    where = f"it is sealed up to line {seal.line}" if seal else "it holds no seal"
    return (
        f"note: {path} does not end with a seal (a crash, a station still running, or a cut file): "
        f"the last {contents.unsealed} events after the last seal may be missing; {where}"
    )


def scan_journal(path: Path, key: Any) -> Contents:
    """The journal's :class:`controller.station.journal.Contents` under ``key``.

    :raises typer.Exit: (2, one line) when ``path`` is a folder, missing or unreadable.
    """
    from controller.station.journal import scan

    if path.is_dir():
        raise _fail(f"{path} is a folder: give the journal file (journal-*.jsonl in it)")
    try:
        return scan(path, key)
    except FileNotFoundError as exc:
        raise _fail(f"journal {path} does not exist; give the path `tavla run` printed") from exc
    except OSError as exc:
        raise _fail(f"cannot read journal {path}: {exc.strerror or exc}") from exc


def load_journal(
    path: Path, until_damage: bool = False, key: Any = None, key_given: bool = False
) -> list[Any]:
    """The journal's events, checked; every way it can be wrong is one line saying what to do (exit 2).

    A last line cut short by a crash is dropped with a one-line note (it was never acted on), and a
    journal that does not end with a seal says that its last events may be missing. With
    ``until_damage`` a damaged journal gives the events before its first bad line (with a note).
    ``key_given``: ``key`` was named by ``--key``; a keyed journal chained under another key is then
    refused (its MACs cannot be checked, so a forged journal would replay as fine); the station's
    own key, used by default, only gets a note when it is not the journal's.
    """
    from controller.station.journal import NotAJournal

    contents = scan_journal(path, key)
    events, damage = contents.events, contents.damage
    if isinstance(damage, NotAJournal):
        raise _fail(f"{path} is not a Tavla journal; give the journal-*.jsonl file `tavla run` printed")
    if damage is not None:
        if not until_damage:
            raise _fail(_damage_message(path, damage))
        typer.echo(
            f"note: {path} is damaged from line {damage.line}: replaying the {len(events)} events before it"
        )
    elif contents.torn:
        typer.echo(
            f"note: {path}: the last line was cut short (a crash mid-write) and is dropped; "
            "it was never acted on"
        )
    note = seal_note(path, contents)
    if note:
        typer.echo(note)
    if contents.key_id is None and contents.events and damage is None:
        typer.echo(
            f"note: {path} is unkeyed (written before the station key, and continued so): its chain "
            "proves nothing against a deliberate edit; a new journal is keyed"
        )
    if contents.key_id is not None and not contents.checked and key_given and key is not None:
        raise _fail(
            f"{path} is chained under key {contents.key_id}, not under key {key.id} given by --key "
            f"({key.path}): give --key with the key file of the station that wrote it"
        )
    if contents.key_id is not None and not contents.checked:
        typer.echo(
            f"note: {path} is chained under key {contents.key_id}, which is not given here: its order is "
            "checked, its MACs are not (`tavla verify --key FILE` checks them)"
        )
    check_settings(path, events)
    return events


def _damage_message(path: Path, damage: JournalDamaged) -> str:
    good = damage.line - 1
    return (
        f"{damage}; nothing from there on can be trusted: keep the file as it is for the referee; "
        f"`tavla replay {path} --until-damage` shows the game up to line {good}"
    )


def check_writable(path: Path, key: Any) -> None:
    """Before a command says it goes on with ``path``: the journal's lock is free and ``key`` is the
    one it is chained under (what the session will need), else one line saying what to do (exit 2)."""
    from controller.station.journal import Journal, JournalError

    try:
        Journal(path, key=key).close()
    except JournalError as exc:
        raise _fail(str(exc)) from exc


def check_settings(path: Path, events: list[Any]) -> None:
    """A match's settings this Tavla does not know (a journal from a newer or older version). Its
    match_started is refused on replay like any bad event, but a whole match refereed on the default
    settings would mislead: the command stops instead. A known setting with a bad value replays as
    refused, with a note."""
    from dataclasses import fields

    from controller.game.events import MatchStarted, Refused
    from controller.game.rulings import Settings

    known = {f.name for f in fields(Settings)}
    for ev in events:
        settings = ev.settings if isinstance(ev, MatchStarted) else None
        if isinstance(ev, Refused) and ev.event.get("kind") == MatchStarted.kind:
            settings = ev.event.get("settings")
        unknown = sorted(str(k) for k in settings if k not in known) if isinstance(settings, dict) else []
        if unknown:
            raise _fail(
                f"{path} comes from a different Tavla version (unknown setting(s) {', '.join(unknown)}); "
                "replay it with the version that wrote it, or update Tavla"
            )
