"""Frames: where images come from (cameras, videos, folders, photo files), when the board is still
(motion and the stability gate), and the pipeline that feeds settled frames to the reader."""
