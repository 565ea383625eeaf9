"""The board: its geometry in the image (field, points, bar), finding it in a photo, and the
calibration that keeps it for a session."""
