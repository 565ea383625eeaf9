"""vision.board.geometry.per_geometry: what depends on a geometry alone is made once per its values."""

from __future__ import annotations

import numpy as np

from vision.board.geometry import POINT_PX, BoardGeometry, per_geometry


def _geometry(shift: float = 0.0) -> BoardGeometry:
    w, h = 12 * POINT_PX, 13 * POINT_PX
    homography = np.array([[1.0, 0.0, shift], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    cols = tuple((i + 0.5) * POINT_PX for i in range(12))
    corners = ((0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h)))
    return BoardGeometry(homography, (w, h), cols, None, (w + 10, h), 1.0, corners)


def test_equal_geometries_share_one_result_and_others_do_not() -> None:
    made: list[tuple[float, int]] = []

    @per_geometry(maxsize=2)
    def shift_of(geom: BoardGeometry, k: int) -> tuple[float, int]:
        made.append((float(geom.homography[0, 2]), k))
        return made[-1]

    a, same, other = _geometry(), _geometry(), _geometry(3.0)
    assert shift_of(a, 1) is shift_of(same, 1)  # (equal values, another array)
    assert shift_of(other, 1) == (3.0, 1)
    assert shift_of(a, 2) == (0.0, 2)  # (another argument: another result)
    assert made == [(0.0, 1), (3.0, 1), (0.0, 2)]
    shift_of(a, 1)  # (the oldest of the last two was dropped: made again)
    assert made[-1] == (0.0, 1) and len(made) == 4
    assert shift_of.__name__ == "shift_of"
