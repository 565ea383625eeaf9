"""LED side of Tavla: the serial protocol, the LED layout, the pyserial link, a device emulator and the
firmware source. Knows nothing of the rules or vision (import-linter contract, DESIGN.md).

Importing the package registers its pyserial URL handlers (``ledsim://``, the emulated board) in
``serial.protocol_handler_packages``, as pyserial documents for third-party handlers.
"""

import serial

if "firmware_bridge.urlhandler" not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append("firmware_bridge.urlhandler")
