"""Camera side of Tavla: frame sources, calibration, checker / dice / cube detectors, stability gate.

Knows nothing of the rules, the controller or the LED link (import-linter contract, DESIGN.md).
Frames are numpy ``uint8`` arrays of shape ``(H, W, 3)`` in OpenCV's BGR order.
"""
