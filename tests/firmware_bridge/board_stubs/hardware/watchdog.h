// Stand-in for the Pico SDK watchdog header (declarations only; see Adafruit_NeoPixel.h here).
#pragma once
#include <stdint.h>
bool watchdog_caused_reboot(); void watchdog_enable(uint32_t, bool); void watchdog_update();
