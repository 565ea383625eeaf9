// Declarations-only stand-ins for the Arduino-Pico core and Adafruit NeoPixel, so the tests can
// type-check the RP2040 board layer with g++ on a machine without the board toolchain.
#pragma once
#include <stdint.h>
#include <stddef.h>
#define NEO_GRB 0x52
#define NEO_KHZ800 0
#define HIGH 1
#define LOW 0
#define INPUT_PULLUP 2
struct SerialT { void begin(unsigned long); size_t write(const uint8_t*, size_t); int available(); size_t readBytes(uint8_t*, size_t); };
extern SerialT Serial;
unsigned long millis(); void pinMode(uint8_t, uint8_t); int digitalRead(uint8_t);
class Adafruit_NeoPixel { public: Adafruit_NeoPixel(uint16_t, int16_t, uint16_t); void begin(); void clear(); void show(); void setPixelColor(uint16_t, uint8_t, uint8_t, uint8_t); };
