"""The `tavla read` JSON contract of DESIGN.md, as produced by vision.reading.BoardReading."""

from __future__ import annotations

import json

from vision.reading import BoardReading, CubeReading, DieReading, DieStatus, FrameStatus, PointReading


def _reading() -> BoardReading:
    points = tuple(
        PointReading(slot=s, image_xy=(10.0 * s, 20.0), colour="light" if s == 5 else None,
                     count=3 if s == 5 else 0, confidence=0.9)
        for s in range(24)
    )
    return BoardReading(
        board_found=True,
        points=points,
        bar={"dark": 1},
        off={"light": 2},
        dice=(DieReading(4, (50.0, 60.0), DieStatus.COCKED, 0.8),),
        cube=CubeReading(2, "top"),
    )


def test_json_has_every_contract_field() -> None:
    out = json.loads(json.dumps(_reading().to_json()))
    assert {"board_found", "occluded", "points", "bar", "off", "dice", "cube"} <= set(out)
    assert len(out["points"]) == 24
    assert set(out["points"][5]) >= {"slot", "image_xy", "colour", "count", "confidence"}
    assert out["points"][5]["count"] == 3 and out["points"][5]["colour"] == "light"
    assert out["dice"][0] == {"value": 4, "image_xy": [50.0, 60.0], "status": "cocked", "confidence": 0.8}
    assert out["cube"]["value"] == 2 and out["cube"]["position"] == "top"
    assert out["bar"] == {"light": 0, "dark": 1} and out["off"] == {"light": 2, "dark": 0}


def test_no_board_reading_still_serialises() -> None:
    out = BoardReading(board_found=False, status=FrameStatus.NO_BOARD).to_json()
    assert out["board_found"] is False and out["points"] == [] and out["status"] == "no_board"
    assert out["cube"] == {"value": None, "position": None, "image_xy": None}


def test_counts_follow_slot_order() -> None:
    counts = _reading().counts()
    assert len(counts) == 24 and counts[5] == ("light", 3) and counts[0] == (None, 0)
