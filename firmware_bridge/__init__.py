"""LED side of Tavla: the serial protocol, the LED layout, the pyserial link, a device emulator and the
firmware source. Knows nothing of the rules or vision (import-linter contract, DESIGN.md)."""
