"""Do two versions of the board dice reader read the same dice? A check for changes meant to make it
faster or simpler without changing a reading (issue 14 items 6 and 7).

``python -m bench.board_dice_same record FILE`` reads every boards-webcam and boards-real photo with
:func:`vision.read_board`, keeping each call of :func:`vision.dice.on_board.find_board_dice` (its
arguments and its dice) in FILE (a pickle, outside the repository); ``python -m bench.board_dice_same
compare FILE`` calls it again with each kept argument list and names every call whose dice differ in
anything (value, place, status, confidence), with this version's CPU ms per call on one core.
"""

from __future__ import annotations

import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _photos() -> list[Path]:
    return sorted((DATA / "boards-webcam").rglob("*.jpg")) + sorted((DATA / "boards-real").glob("*.jpg"))


def record(out: Path) -> None:
    """Keep every find_board_dice call the reader makes on the photos, with its dice, in ``out``."""
    import vision
    import vision.reader as reader

    calls: list[tuple[str, tuple[Any, ...], dict[str, Any], Any]] = []
    real = reader.find_board_dice
    name = ""

    def kept(*args: Any, **kwargs: Any) -> Any:
        dice = real(*args, **kwargs)
        calls.append((name, args, kwargs, dice))
        return dice

    reader.find_board_dice = kept  # type: ignore[assignment]
    try:
        for path in _photos():
            name = str(path.relative_to(DATA))
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                vision.read_board(image)
    finally:
        reader.find_board_dice = real
    with out.open("wb") as f:
        pickle.dump(calls, f)
    print(f"{len(calls)} calls of {len(_photos())} photos kept in {out}")


def compare(kept: Path) -> int:
    """Call find_board_dice again with each kept call's arguments; 1 when any call's dice differ."""
    from vision.dice.on_board import find_board_dice

    with kept.open("rb") as f:
        calls = pickle.load(f)  # noqa: S301 -- a file this tool wrote
    differ, ms = 0, []
    for name, args, kwargs, dice in calls:
        t = time.process_time()
        now = find_board_dice(*args, **kwargs)
        ms.append((time.process_time() - t) * 1000.0)
        if now != dice:
            differ += 1
            print(f"{name}: kept {dice}\n{' ' * len(name)}  now  {now}")
    print(f"{len(calls)} calls, {differ} with other dice; CPU ms per call median {statistics.median(ms):.1f}")
    return int(differ > 0)


if __name__ == "__main__":
    cv2.setNumThreads(1)
    if len(sys.argv) != 3 or sys.argv[1] not in ("record", "compare"):
        sys.exit(__doc__)
    if sys.argv[1] == "record":
        record(Path(sys.argv[2]))
    else:
        sys.exit(compare(Path(sys.argv[2])))
