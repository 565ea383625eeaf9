"""pyserial URL handlers of the firmware bridge (registered in ``serial.protocol_handler_packages`` by
``import firmware_bridge``): ``ledsim://`` is the emulated LED board."""
