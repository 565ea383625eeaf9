"""``tavla match`` -- match records: check them against the rules, convert between formats.

* ``tavla match check FILE_OR_DIR...`` imports each Jellyfish ``.mat``/``.txt`` or gnubg ``.sgf``
  file, replays every game through the rules core and prints, per file, the games, plays, scores
  reproduced and every finding (illegal plays with game and move number, cube errors, score
  mismatches), then the totals. ``--json`` prints one JSON object instead. Exit 0 when every file
  was read and nothing was found, 1 when findings were reported, 2 when a file could not be read.
* ``tavla match convert IN OUT [--as-written] [--drop-analysis]`` reads ``IN`` and writes ``OUT`` as
  ``.sgf`` (gnubg) or ``.mat`` by ``OUT``'s extension, legal plays rewritten one step per die as
  gnubg writes them; gnubg's analysis is kept in an ``.sgf`` and dropped only with
  ``--drop-analysis`` (a ``.mat`` has no room for it: refused without the flag).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from controller.cli.common import fail

_SUFFIXES = (".mat", ".txt", ".sgf")


_fail = fail


def _clip(text: str, width: int = 60) -> str:
    """``text`` cut to ``width`` characters with an ellipsis, so one bad line cannot flood a message."""
    return text if len(text) <= width else text[: width - 3] + "..."


def _looks_like_match(path: Path) -> bool:
    """A ``.txt`` found in a folder counts only if it has a ``point match`` line (skip READMEs)."""
    if path.suffix.lower() != ".txt":
        return True
    try:
        head = path.read_bytes()[:4096].lower()
    except OSError:
        return True  # let the reader report it
    return b"point match" in head


def collect_files(paths: list[Path]) -> tuple[list[Path], int]:
    """Files named, plus match files found under folders named (sorted); and how many were skipped.

    :raises typer.Exit: (code 2) when a path does not exist.
    """
    files: list[Path] = []
    skipped = 0
    for path in paths:
        if path.is_dir():
            for found in sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in _SUFFIXES):
                if _looks_like_match(found):
                    files.append(found)
                else:
                    skipped += 1
        elif path.exists():
            files.append(path)
        else:
            raise _fail(f"{path} does not exist; give match files (.mat, .txt, .sgf) or folders of them")
    return files, skipped


def result_text(replay: Any) -> str:
    """The match's outcome, the winner's score first, players named where the order could mislead.

    ``"PlayerA wins 16-6 over PlayerB (of 15)"``, ``"unfinished: PlayerA 1, PlayerB 0 (of 5)"``,
    ``"money session: PlayerA 3, PlayerB 1"``; ``", resumed at PlayerA 0, PlayerB 2"`` when the
    record starts mid-match. ``replay`` is a :class:`controller.formats.replay.MatchReplay`.
    """
    names = replay.record.players
    a, b = replay.final_score

    def both(x: int, y: int) -> str:
        return f"{names[0]} {x}, {names[1]} {y}"

    resumed = f", resumed at {both(*replay.resumed_at)}" if replay.resumed_at else ""
    length = replay.record.length
    if length == 0:
        return f"money session: {both(a, b)}{resumed}"
    if replay.winner is None:
        return f"unfinished: {both(a, b)} (of {length}){resumed}"
    w = replay.winner
    won, lost = (a, b) if w == 0 else (b, a)
    return f"{names[w]} wins {won}-{lost} over {names[1 - w]} (of {length}){resumed}"


def _nardy_entry(path: Path, record: Any) -> dict[str, Any]:
    """A long nardy record's entry for :func:`check_files` (replayed by the nardy rules, RULES.md N)."""
    from controller.formats.nardy_mat import check_nardy
    from controller.formats.record import Roll

    found = check_nardy(record)
    bad_results = {p.game for p in found if not p.move}
    a, b = record.games[-1].score if record.games else (0, 0)
    last = record.games[-1] if record.games else None
    if last is not None and last.winner is not None:
        a, b = (a + last.points, b) if last.winner == 0 else (a, b + last.points)
    names = record.players
    return {
        "path": str(path),
        "games": len(record.games),
        "plays": sum(isinstance(x, Roll) for g in record.games for x in g.actions),
        "scores_ok": len(record.games) - len(bad_results),
        "followed": len(record.games),
        "roll_then_resign": 0,
        "result": f"long nardy: {names[0]} {a}, {names[1]} {b}",
        "problems": [{"kind": "illegal_play" if p.move else "result", "game": p.game, "move": p.move,
                      "player": "", "text": "", "message": p.message, "line": 0} for p in found],
    }


def check_files(files: list[Path], show_progress: bool = True) -> dict[str, Any]:
    """Import and replay ``files``; the summary ``tavla match check --json`` prints.

    :returns: ``{"files": [...], "errors": [...], "totals": {...}}`` where each file entry has
        ``path``, ``games``, ``plays``, ``scores_ok``, ``followed``, ``result`` and ``problems``
        (each ``kind``, ``game``, ``move``, ``player``, ``text``, ``message``, ``line``).
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from controller.formats.matchfile import read_record
    from controller.formats.nardy_mat import is_nardy
    from controller.formats.record import RecordError
    from controller.formats.replay import ProblemKind, replay_match

    entries: list[dict[str, Any]] = []
    errors: list[str] = []
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]checking[/bold] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        # Off the terminal (a pipe, a log) the bar would leave only a blank line behind.
        disable=not show_progress or not console.is_terminal or len(files) < 2,
    ) as progress:
        task = progress.add_task("", total=len(files))
        for path in files:
            progress.update(task, description=path.name)
            try:
                record = read_record(path)
            except RecordError as exc:
                errors.append(str(exc))
                progress.advance(task)
                continue
            if is_nardy(record):
                entries.append(_nardy_entry(path, record))
                progress.advance(task)
                continue
            replay = replay_match(record)
            entries.append(
                {
                    "path": str(path),
                    "games": len(replay.games),
                    "plays": replay.plays,
                    "scores_ok": sum(g.score_ok for g in replay.games),
                    "followed": sum(g.followed for g in replay.games),
                    "roll_then_resign": sum(g.roll_then_resign for g in replay.games),
                    "result": result_text(replay),
                    "problems": [
                        {
                            "kind": p.kind.value,
                            "game": p.game,
                            "move": p.move,
                            "player": record.players[p.player] if p.player in (0, 1) else "",
                            "text": _clip(p.text),
                            "message": p.message,
                            "line": p.line,
                        }
                        for p in replay.problems
                    ],
                }
            )
            progress.advance(task)
    totals = {
        "files": len(files),
        "imported": len(entries),
        "games": sum(e["games"] for e in entries),
        "plays": sum(e["plays"] for e in entries),
        "scores_ok": sum(e["scores_ok"] for e in entries),
        "followed": sum(e["followed"] for e in entries),
        "illegal_plays": sum(
            1 for e in entries for p in e["problems"] if p["kind"] == ProblemKind.ILLEGAL_PLAY.value
        ),
        "problems": sum(len(e["problems"]) for e in entries),
    }
    return {"files": entries, "errors": errors, "totals": totals}


def _print_report(summary: dict[str, Any], skipped: int) -> None:
    for entry in summary["files"]:
        typer.echo(
            f"{entry['path']}: {entry['games']} games, {entry['plays']} plays, "
            f"scores {entry['scores_ok']}/{entry['games']}, {entry['result']}"
        )
        for p in entry["problems"]:
            where = f"game {p['game']}" + (f", move {p['move']}" if p["move"] else "")
            who = f", {p['player']}" if p["player"] else ""
            text = f": {p['text']}" if p["text"] else ""
            typer.echo(f"  {p['kind']}: {where}{who}{text} -- {p['message']} (line {p['line']})")
    for error in summary["errors"]:
        typer.echo(f"tavla: {error}", err=True)
    t = summary["totals"]
    if t["files"] == 1 and not t["imported"]:
        return  # the one error line says it all
    extra = f", {skipped} non-match .txt skipped" if skipped else ""
    typer.echo(
        f"{t['imported']}/{t['files']} files imported{extra}; {t['games']} games, {t['plays']} plays; "
        f"scores reproduced {t['scores_ok']}/{t['games']}; followed to the end {t['followed']}/{t['games']}; "
        f"illegal plays {t['illegal_plays']}; findings {t['problems']}"
    )


def register(app: typer.Typer) -> None:
    """Add the ``match`` command group (``check``, ``convert``) to ``app``."""
    match_app = typer.Typer(help="Match records (.mat, .sgf): check against the rules, convert.",
                            no_args_is_help=True)

    @match_app.command("check")
    def check(
        paths: list[Path] = typer.Argument(..., help="match files (.mat, .txt, .sgf) or folders of them"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object instead of text"),
    ) -> None:
        """Import and replay match records; report illegal plays (game, move), cube and score errors."""
        files, skipped = collect_files(paths)
        if not files:
            raise _fail("no match files found; give .mat, .txt or .sgf files or folders holding them")
        summary = check_files(files, show_progress=not as_json)
        if as_json:
            summary["totals"]["skipped"] = skipped
            typer.echo(json.dumps(summary, indent=2))
        else:
            _print_report(summary, skipped)
        if summary["errors"]:
            raise typer.Exit(2)
        if summary["totals"]["problems"]:
            raise typer.Exit(1)

    @match_app.command("convert")
    def convert(
        source: Path = typer.Argument(..., help="match file to read (.mat, .txt, .sgf)"),
        target: Path = typer.Argument(..., help="file to write: .sgf (gnubg SGF), .mat or .txt (Jellyfish)"),
        as_written: bool = typer.Option(
            False, "--as-written",
            help="keep plays as the file wrote them (merged hops, any order); convert even a record "
                 "with illegal plays or parts the target cannot hold, with a warning for each",
        ),
        force: bool = typer.Option(False, "--force", help="overwrite TARGET if it exists (never the input)"),
        drop_analysis: bool = typer.Option(
            False, "--drop-analysis",
            help="convert an analysed gnubg .sgf without its analysis (needed for .mat, which has no "
                 "room for it; an .sgf keeps it otherwise)",
        ),
    ) -> None:
        """Convert a match record between Jellyfish .mat text and gnubg .sgf.

        A long nardy record (``; [Variation "LongNardy"]``) is checked by the nardy rules
        (RULES.md N4-N9) and written as nardy .mat only: gnubg's SGF holds backgammon alone.

        Legal plays are rewritten one step per die with hits marked, as gnubg writes them, unless
        --as-written. Nothing is lost silently: a record with an illegal play, or with anything the
        target format cannot hold, is refused (the reason names the game and move) unless
        --as-written, which converts it and warns once per loss. gnubg's analysis and comments
        stay in an .sgf; .mat has no room for analysis, so it is dropped only with --drop-analysis.
        """
        from controller.formats.matchfile import read_record, write_record
        from controller.formats.nardy_mat import check_nardy, is_nardy, write_nardy_mat
        from controller.formats.record import RecordError, format_losses
        from controller.formats.replay import ProblemKind, canonical_record, replay_match
        from controller.formats.sgf_props import count_props, strip_props

        if target.suffix.lower() not in _SUFFIXES:
            raise _fail(f"{target}: give an output name ending in .sgf, .mat or .txt")
        if target.exists() and source.exists() and target.resolve() == source.resolve():
            raise _fail(f"{target} is the input file; give another output name")
        if target.exists() and not force:
            raise _fail(f"{target} exists; add --force to overwrite it or give another name")
        try:
            record = read_record(source)
        except RecordError as exc:
            raise _fail(f"{_clip(str(exc), 200)}; fix the file or give another") from None
        nardy = is_nardy(record)
        if nardy and target.suffix.lower() == ".sgf":
            raise _fail(f"not converted: {source.name} is a long nardy record and gnubg's SGF (GM[6]) holds "
                        "backgammon only; give an output name ending in .mat")
        analysed, _ = count_props(record)
        dropped = ""
        if analysed and (drop_analysis or target.suffix.lower() != ".sgf"):
            if not drop_analysis:
                raise _fail(f"not converted: {source.name} holds gnubg's analysis on {analysed} nodes, which "
                            f"{target.suffix} has no room for; add --drop-analysis to convert without it")
            record = strip_props(record, analysis=False, comments=True)
            dropped = f", analysis of {analysed} nodes dropped"
        warnings = [str(loss) for loss in format_losses(record, target.suffix)]
        if nardy:
            # judged by the long nardy rules (RULES.md N4-N9), as `match check` does
            for n in check_nardy(record):
                warnings.append(f"{n}; kept as written, programs importing {target.name} may stop there")
        else:
            for p in replay_match(record).problems:
                if p.kind is ProblemKind.ILLEGAL_PLAY:
                    text = f" {_clip(p.text)!r}" if p.text else ""
                    warnings.append(
                        f"game {p.game}, move {p.move} (line {p.line}): the illegal play{text} is kept as "
                        f"written; programs importing {target.name} may stop the game there"
                    )
        header_only = all(w.startswith("headers") for w in warnings)
        if warnings and not as_written and not header_only:
            first = next(w for w in warnings if not w.startswith("headers"))
            others = sum(not w.startswith("headers") for w in warnings) - 1
            more = f" (and {others} more)" if others else ""
            raise _fail(f"not converted: {first}{more}; add --as-written to convert anyway with a "
                        "warning for each")
        if not as_written and not nardy:  # canonical_record rewrites by the backgammon rules
            record = canonical_record(record)
        try:
            if nardy:
                target.write_text(write_nardy_mat(record), encoding="utf-8")
            else:
                write_record(record, target)
        except ValueError as exc:
            raise _fail(f"cannot write {target}: {exc}") from None
        except OSError as exc:
            raise _fail(f"cannot write {target}: {exc.strerror or exc}; check the folder exists") from None
        for warning in warnings:
            typer.echo(f"tavla: warning: {warning}", err=True)
        lost = f", {len(warnings)} warning{'s' if len(warnings) > 1 else ''}" if warnings else ""
        typer.echo(f"{source} -> {target}: {len(record.games)} games{lost}{dropped}")

    app.add_typer(match_app, name="match")
