"""The board renderer: synthetic camera frames with their ground truth, for the demo and the tests."""
