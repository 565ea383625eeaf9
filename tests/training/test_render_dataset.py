"""Rendered labelled folders use the boards-webcam label format, so ../shared/tools/eval_boards.py
scores the reader on renders exactly as on photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from training.render_dataset import label_for, main
from vision.reading import DARK, LIGHT
from vision.render.scene import Camera, render, starting_spec


def test_landscape_rows_follow_the_slots() -> None:
    """Landscape: rowA = slots 12..23 (top, left to right), rowB = slots 11..0 (bottom, left to right)."""
    r = render(starting_spec("wood"), size=(640, 360), camera=Camera(tilt_deg=10, roll_deg=4), seed=0)
    lab = label_for(r.truth, "x.jpg", portrait=False)
    counts = r.truth.counts()
    cell = {LIGHT: "w", DARK: "d"}

    def c(slot: int) -> str:
        col, n = counts[slot]
        return f"{cell[col]}{n}" if n else ""

    assert lab["rowA"] == [c(s) for s in range(12, 24)]
    assert lab["rowB"] == [c(s) for s in range(11, -1, -1)]
    assert lab["layout"] == "landscape" and lab["occluded"] is False


def test_portrait_rows_are_columns() -> None:
    r = render(starting_spec("paper"), size=(360, 640), camera=Camera(roll_deg=90), seed=0)
    lab = label_for(r.truth, "p.jpg", portrait=True)
    xs = sorted(p.image_xy[0] for p in r.truth.points)
    assert xs[11] < xs[12]  # two columns, cleanly apart
    assert sorted(lab["rowA"] + lab["rowB"]) == sorted(
        f"{'w' if c == LIGHT else 'd'}{n}" if n else "" for c, n in r.truth.counts()
    )


def test_cli_writes_images_labels_and_truth(tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path), "--n", "3", "--seed", "4", "--hands", "0.5"]) == 0
    labels = [json.loads(x) for x in (tmp_path / "labels.jsonl").read_text().splitlines()]
    truths = [json.loads(x) for x in (tmp_path / "truth.jsonl").read_text().splitlines()]
    assert len(labels) == len(truths) == 3
    for lab, tr in zip(labels, truths, strict=True):
        img = cv2.imread(str(tmp_path / lab["image"]))
        assert img is not None and list(img.shape[1::-1]) == tr["image_size"]
        assert len(lab["rowA"]) == len(lab["rowB"]) == 12 and len(tr["points"]) == 24
        total = sum(int(c[1:]) for c in lab["rowA"] + lab["rowB"] + lab["bar"] + lab["off"] if c)
        assert total == 30
    assert "eval_boards.py" in capsys.readouterr().out
