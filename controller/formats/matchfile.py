"""Match files on disk: :func:`read_record` and :func:`write_record` pick the format by the file.

Apart from :mod:`controller.formats.record` (the types, which both format modules build on), so that
nothing imports in a circle.
"""

from __future__ import annotations

from pathlib import Path

from controller.formats import mat, sgf
from controller.formats.record import MatchRecord, RecordError, is_binary


def read_record(path: str | Path) -> MatchRecord:
    """Read a match file: gnubg SGF when it ends in ``.sgf`` or starts with ``(;``, else ``.mat`` text.

    :raises RecordError: naming the file and line, when the file cannot be read or parsed; a binary
        file (:func:`is_binary`) gets the one line ``"X is not a match file (binary data)"``.
    """
    p = Path(path)
    try:
        with p.open("rb") as f:
            start = f.read(8192)
    except OSError as exc:
        raise RecordError(str(p), 0, f"cannot read the file: {exc.strerror or exc}") from None
    if start[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise RecordError(str(p), 0, "the file is UTF-16 text; save it as UTF-8 and try again")
    if is_binary(start):
        error = RecordError(str(p), 0, "not a match file (binary data)")
        error.args = (f"{p} is not a match file (binary data)",)
        raise error
    if p.suffix.lower() == ".sgf":
        return sgf.read_sgf(p)
    head = start[:64].lstrip()
    if head.startswith(b"(;") or head.startswith(b"(\n;"):
        return sgf.read_sgf(p)
    return mat.read_mat(p)


def write_record(record: MatchRecord, path: str | Path) -> None:
    """Write ``record`` as gnubg SGF when ``path`` ends in ``.sgf``, else as ``.mat`` text.

    :raises ValueError: when the record cannot be written in that format.
    :raises OSError: when the file cannot be written.
    """
    p = Path(path)
    text = sgf.write_sgf(record) if p.suffix.lower() == ".sgf" else mat.write_mat(record)
    p.write_text(text, encoding="utf-8")
