"""Sources and the pipeline on the real webcam frames of ../shared/data/boards-webcam (skipped with a
message when absent): every frame of a session decodes in frame order, and the pipeline with the real
reader gives every frame a status without stopping."""

from __future__ import annotations

import re

from tests.conftest import shared_data
from vision.frames.sources import open_source
from vision.frames.stability import GateConfig
from vision.reading import FrameStatus


def _number(name: str) -> int:
    return int(re.findall(r"\d+", name)[-1])


def test_every_session_folder_reads_in_frame_order() -> None:
    frames_dir = shared_data("boards-webcam") / "frames"
    sessions = sorted(p for p in frames_dir.iterdir() if p.is_dir())
    assert sessions
    for session in sessions:
        with open_source(session) as src:
            frames = list(src)
            assert not src.skipped, src.skipped
        assert len(frames) == len(src.paths) > 0
        numbers = [_number(f.name) for f in frames]
        assert numbers == sorted(numbers), session.name  # frame2 before frame10
        assert all(f.image.ndim == 3 and f.image.shape[2] == 3 for f in frames)


def test_pipeline_with_the_real_reader_on_a_real_session() -> None:
    from vision.frames.pipeline import run_pipeline

    pytest_session = shared_data("boards-webcam") / "frames" / "2024-03-16_20_55_47"
    results = list(run_pipeline(str(pytest_session), gate=GateConfig.for_stills()))
    assert len(results) == len(list(pytest_session.glob("*.jpg")))
    for r in results:
        assert r.error is None, r.error
        assert isinstance(r.status, FrameStatus)
        assert (r.settled is not None) == (r.status == FrameStatus.OK)
