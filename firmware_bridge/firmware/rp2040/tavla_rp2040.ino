// Tavla LED controller: the board layer for a Raspberry Pi Pico (RP2040) with the Arduino-Pico core
// (earlephilhower/arduino-pico) and Adafruit NeoPixel. Everything the protocol needs is in the
// portable core (../core, copied into ./src by the flashing steps in hardware_docs/flashing.md);
// this file only moves bytes, reads buttons and pushes pixels.
//
// Why Adafruit NeoPixel and not FastLED: on the RP2040 it drives the strip from a PIO state machine
// (no interrupts blocked while USB serial bytes arrive), it takes the strip length at run time, and
// our core already renders effects and brightness, so FastLED's colour maths would go unused.
// (On an AVR Arduino both libraries block interrupts ~30 us per LED during show(): bytes arriving
// then are lost; the protocol's retries cover it, but the Pico does not lose them at all.)
//
// Wiring (hardware_docs/wiring.md): strip data from GPIO 2 through a 74AHCT125 (3.3 V -> 5 V) and a
// 330 ohm resistor; buttons from GPIO 3, 4, 5 to GND (internal pull-ups).

#include <Adafruit_NeoPixel.h>
#include <hardware/watchdog.h>

extern "C" {
#include "src/tavla.h"
}

#ifndef LED_COUNT
#define LED_COUNT 80          // LEDs on the strip; the host's layout must fit (HELLO reports it)
#endif
#define LED_PIN 2
#define FRAME_MS 10            // render at 100 Hz: smooth pulses, far above link jitter
#define POWER_BUDGET_MA 2000   // the 5 V supply's share for the strip (hardware_docs/parts.md)
#define MA_PER_CHANNEL 20      // a WS2812 channel at full duty

static const uint8_t BUTTON_PINS[] = {3, 4, 5};
static const uint8_t BUTTONS = sizeof(BUTTON_PINS);

static Adafruit_NeoPixel strip(LED_COUNT, LED_PIN, NEO_GRB + NEO_KHZ800);
static tv_device dev;
static uint8_t rgb[3 * LED_COUNT];
static uint8_t button_state[sizeof(BUTTON_PINS)];
static uint32_t button_changed[sizeof(BUTTON_PINS)];
static uint32_t last_frame;
static uint8_t power_fault_sent;

static void write_serial(void *ctx, const uint8_t *data, size_t len) {
    (void)ctx;
    Serial.write(data, len);  // USB CDC: never blocks long; a closed port drops the bytes
}

void setup() {
    Serial.begin(115200);  // the baud rate is nominal on USB CDC; real UART bridges use it
    strip.begin();
    strip.clear();
    strip.show();
    for (uint8_t i = 0; i < BUTTONS; i++) {
        pinMode(BUTTON_PINS[i], INPUT_PULLUP);
        button_state[i] = HIGH;
    }
    tv_device_init(&dev, LED_COUNT, write_serial, NULL, millis());
    if (watchdog_caused_reboot()) tv_device_event(&dev, TV_EV_FAULT, TV_FAULT_WATCHDOG_RESET, 0, millis());
    watchdog_enable(2000, true);  // a hung loop reboots in 2 s; the host then resends its state
}

static void read_buttons(uint32_t now) {
    for (uint8_t i = 0; i < BUTTONS; i++) {
        uint8_t level = digitalRead(BUTTON_PINS[i]);
        if (level != button_state[i] && now - button_changed[i] > 30) {  // 30 ms debounce
            button_state[i] = level;
            button_changed[i] = now;
            tv_device_event(&dev, TV_EV_BUTTON, i, level == LOW ? 1 : 0, now);
        }
    }
}

static void show_frame(uint32_t now) {
    tv_device_render(&dev, now, rgb);
    uint32_t sum = 0;
    for (uint16_t i = 0; i < 3 * LED_COUNT; i++) sum += rgb[i];
    uint32_t ma = sum * MA_PER_CHANNEL / 255;
    uint32_t scale = ma > POWER_BUDGET_MA ? (POWER_BUDGET_MA * 256u) / ma : 256u;
    if (scale < 256u && !power_fault_sent) {  // dimmed to protect the supply: tell the host once
        power_fault_sent = 1;
        tv_device_event(&dev, TV_EV_FAULT, TV_FAULT_STRIP_POWER, (uint8_t)(ma / 100), now);
    }
    for (uint16_t i = 0; i < LED_COUNT; i++)
        strip.setPixelColor(i, (rgb[3 * i] * scale) >> 8, (rgb[3 * i + 1] * scale) >> 8,
                            (rgb[3 * i + 2] * scale) >> 8);
    strip.show();
}

void loop() {
    uint8_t buf[64];
    int n;
    while ((n = Serial.available()) > 0) {
        if (n > (int)sizeof buf) n = sizeof buf;
        n = Serial.readBytes(buf, n);
        tv_device_rx(&dev, buf, (size_t)n, millis());
    }
    uint32_t now = millis();
    read_buttons(now);
    tv_device_poll(&dev, now);
    if (now - last_frame >= FRAME_MS) {
        last_frame = now;
        show_frame(now);
    }
    watchdog_update();
}
