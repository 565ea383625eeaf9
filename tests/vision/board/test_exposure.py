"""normalise_exposure: an under-exposed field's gain undone, from its grey level's 95th percentile."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board.exposure import FIELD_EXPOSED, normalise_exposure


@pytest.mark.parametrize("seed", range(5))
def test_the_gain_is_the_channel_means_percentile(seed: int) -> None:
    """The grey level is the mean of the three channels (made from their integer sum): the gain is
    the one the floating mean over the channels gives."""
    rng = np.random.default_rng(seed)
    dim = rng.integers(0, 60 + 20 * seed, size=(101, 157, 3), dtype=np.uint8)
    ref = float(np.percentile(dim[::2, ::2].mean(axis=2), 95))
    want = cv2.convertScaleAbs(dim, alpha=min(4.0, FIELD_EXPOSED / ref))
    assert np.array_equal(normalise_exposure(dim), want)


def test_a_bright_field_is_left_as_it_is() -> None:
    bright = np.full((40, 60, 3), 200, np.uint8)
    assert normalise_exposure(bright) is bright


def _board(style: str, seed: int):
    from vision.render.scene import Camera, random_spec, render

    spec = random_spec(seed, style=style, max_stack=5, with_dice=False)
    return render(spec, size=(640, 360), camera=Camera(tilt_deg=8, fill=0.8), seed=seed, jpeg_quality=80)


@pytest.mark.parametrize("style,seed", [("wood", 1), ("tournament", 2)])
def test_a_blown_out_board_is_said_so(style: str, seed: int) -> None:
    """A frame whose field is mostly clipped white is read ``overexposed``, not ``ok``; the same
    frame as exposed, and brightened short of clipping, is not."""
    from vision.board.exposure import blown_out
    from vision.board.finder import find_board
    from vision.reader import read_board
    from vision.reading import FrameStatus
    from vision.render.occluders import expose

    image = _board(style, seed).image
    geom = find_board(image)
    assert geom is not None
    assert not blown_out(image, geom) and not blown_out(expose(image, 1.1), geom)
    over = expose(image, 2.5)
    assert blown_out(over, geom)
    assert read_board(image).status == FrameStatus.OK
    assert read_board(over).status == FrameStatus.OVEREXPOSED


def test_the_field_grid_is_each_geometrys_own() -> None:
    """The grid kept from an earlier frame is that geometry's and frame size's: a field moved, or a
    smaller frame that cuts the field, is sampled where its own grid falls."""
    import dataclasses

    from vision.board.exposure import _field_samples, blown_out
    from vision.board.geometry import BoardGeometry

    def grid(geom: BoardGeometry, shape: tuple[int, int]) -> set[tuple[int, int]]:
        w, h = geom.size
        step = geom.point_w / 4
        xs, ys = np.meshgrid(np.arange(0.5 * step, w, step), np.arange(0.5 * step, h, step))
        at = np.round(geom.to_image(np.stack([xs.ravel(), ys.ravel()], axis=1))).astype(int)
        return {(int(y), int(x)) for x, y in at if 0 <= x < shape[1] and 0 <= y < shape[0]}

    geom = BoardGeometry(homography=np.diag([0.5, 0.5, 1.0]), size=(384, 256), columns=tuple(range(12)),
                         bar=None, image_size=(800, 600), score=1.0, corners=())
    moved = dataclasses.replace(geom, homography=np.array([[0.5, 0, -100], [0, 0.5, -40], [0, 0, 1.0]]))
    for g in (geom, moved, geom):
        for shape in ((600, 800), (300, 400)):
            ys, xs = _field_samples(g, shape)
            assert set(zip(ys.tolist(), xs.tolist(), strict=True)) == grid(g, shape)
    frame = np.zeros((600, 800, 3), np.uint8)
    frame[:300, :500] = 255  # (geom's field lies in the frame's top left, the moved one's across)
    assert blown_out(frame, geom) and not blown_out(frame, moved)


def test_the_clipped_share_counts_pixels_with_any_channel_at_the_ceiling() -> None:
    from vision.board.exposure import clipped_share

    px = np.zeros((4, 5, 3), np.uint8)
    px[0, :, 2] = 255  # one channel clipped is clipped
    px[1, :2] = 252
    assert clipped_share(px) == pytest.approx(7 / 20)
    assert clipped_share(np.zeros((0, 3), np.uint8)) == 0.0


@pytest.mark.slow
def test_no_labelled_real_photo_is_blown_out() -> None:
    import json

    from tests.conftest import shared_data
    from vision.board.exposure import blown_out
    from vision.board.finder import find_board

    for name in ("boards-real", "boards-webcam"):
        folder = shared_data(name)
        for line in (folder / "labels.jsonl").read_text().splitlines():
            lab = json.loads(line) if line.strip() else {}
            img = cv2.imread(str(folder / lab["image"])) if lab.get("board", True) and lab else None
            geom = None if img is None else find_board(img)
            assert geom is None or not blown_out(img, geom), lab["image"]
