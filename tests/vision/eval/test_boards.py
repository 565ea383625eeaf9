"""vision.eval.boards.read_labels: the one reader of a ``labels.jsonl`` the benches share."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.eval.boards import read_labels


def test_labels_are_read_in_order_without_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    first, second = json.dumps({"image": "a.jpg"}), json.dumps({"image": "b.jpg", "board": False})
    path.write_text(first + "\n\n  \n" + second + "\n")
    assert [label["image"] for label in read_labels(path)] == ["a.jpg", "b.jpg"]


def test_a_missing_file_has_no_labels(tmp_path: Path) -> None:
    assert read_labels(tmp_path / "labels.jsonl") == []


def test_a_malformed_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text('{"image": "a.jpg"}\n{"image": \n')
    with pytest.raises(json.JSONDecodeError):
        read_labels(path)
