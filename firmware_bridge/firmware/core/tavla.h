/* Tavla LED firmware: the portable core (framing, CRC-16, COBS, state, effects).
 *
 * No board code here: the board layer (rp2040/, host/) feeds received bytes to
 * tv_device_rx(), calls tv_device_poll() every few ms, sends what the write
 * callback gives it, and shows tv_device_render() on the strip. The wire format is
 * hardware_docs/protocol.md; firmware_bridge/protocol.py is the host's side of it
 * and firmware_bridge/device.py the same behaviour in Python: tests check that
 * this core answers byte for byte as that one does.
 *
 * Plain C99, no heap, no floating point (Cortex-M0+ has no FPU).
 */
#ifndef TAVLA_H
#define TAVLA_H

#include <stddef.h>
#include <stdint.h>

#define TV_PROTOCOL_VERSION 1
#define TV_FW_MAJOR 1
#define TV_FW_MINOR 0
#define TV_FW_PATCH 0

#define TV_ZONES 27
#define TV_MAX_PAYLOAD 240
#define TV_HEADER 3
#define TV_CRC_LEN 2
#define TV_MAX_RAW (TV_HEADER + TV_MAX_PAYLOAD + TV_CRC_LEN)
#define TV_MAX_ENCODED (TV_MAX_RAW + TV_MAX_RAW / 254 + 2)
#define TV_MAX_RUNS (TV_MAX_PAYLOAD / 4)
#define TV_MAX_EVENTS 8
#define TV_EVENT_TRIES 5
#define TV_EVENT_RETRY_MS 200

enum tv_type {
    TV_HELLO_REQ = 0x01, TV_HELLO = 0x02, TV_HEARTBEAT = 0x03, TV_ACK = 0x04, TV_NAK = 0x05,
    TV_STATE_REQ = 0x06, TV_STATE = 0x07, TV_SET_STATE = 0x10, TV_SET_LAYOUT = 0x11, TV_SET_STATE_PACKED = 0x12,
    TV_EVENT = 0x20
};
enum tv_nak { TV_NAK_UNKNOWN_TYPE = 1, TV_NAK_BAD_LENGTH = 2, TV_NAK_BAD_VALUE = 3,
              TV_NAK_STALE = 4, TV_NAK_LAYOUT = 5 };
enum tv_caps { TV_CAP_EFFECTS = 0x01, TV_CAP_BRIGHTNESS = 0x02, TV_CAP_BUTTONS = 0x04,
               TV_CAP_LAYOUT = 0x08, TV_CAP_STATE_READBACK = 0x10, TV_CAP_PACKED_STATE = 0x20 };
enum tv_effect { TV_STEADY = 0, TV_BLINK = 1, TV_PULSE = 2 };
enum tv_event_kind { TV_EV_BUTTON = 1, TV_EV_FAULT = 2 };
enum tv_fault { TV_FAULT_BROWNOUT = 1, TV_FAULT_RX_OVERFLOW = 2, TV_FAULT_HOST_TIMEOUT = 3,
                TV_FAULT_WATCHDOG_RESET = 4, TV_FAULT_STRIP_POWER = 5 };

/* ---- checksums and byte stuffing ---- */

/* CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as Python's binascii.crc_hqx(data, 0xFFFF). */
uint16_t tv_crc16(const uint8_t *data, size_t len, uint16_t crc);

/* COBS-encode len bytes into out (room for len + len/254 + 1); returns the encoded length. */
size_t tv_cobs_encode(const uint8_t *in, size_t len, uint8_t *out);

/* COBS-decode; returns the decoded length, or -1 on malformed input or if it exceeds cap. */
int tv_cobs_decode(const uint8_t *in, size_t len, uint8_t *out, size_t cap);

/* ---- frames ---- */

typedef struct {
    uint8_t type;
    uint16_t seq;
    uint16_t len;
    uint8_t payload[TV_MAX_PAYLOAD];
} tv_frame;

/* Streaming receiver: resynchronises on every 0x00; counts what it drops. */
typedef struct {
    uint8_t buf[TV_MAX_ENCODED];
    uint16_t len;
    uint8_t skipping;
    uint32_t errors; /* COBS, CRC, short and oversize frames */
} tv_rx;

void tv_rx_init(tv_rx *rx);

/* Feed one byte; returns 1 when it completed an intact (COBS + CRC valid) frame, stored in *out. */
int tv_rx_byte(tv_rx *rx, uint8_t byte, tv_frame *out);

/* Encode a frame (COBS + trailing 0x00) into out (>= TV_MAX_ENCODED + 1 bytes); returns its length. */
size_t tv_frame_encode(uint8_t type, uint16_t seq, const uint8_t *payload, size_t len, uint8_t *out);

/* ---- the device ---- */

typedef void (*tv_write_fn)(void *ctx, const uint8_t *data, size_t len);

typedef struct { uint8_t r, g, b, effect; } tv_zone;
typedef struct { uint8_t zone; uint16_t start; uint8_t count; } tv_run;
typedef struct { uint16_t seq; uint8_t kind, code, value, tries; uint32_t due_ms; } tv_event;

typedef struct {
    uint16_t led_count;
    uint32_t host_timeout_ms;
    tv_write_fn write;
    void *ctx;

    tv_rx rx;
    uint16_t tx_seq;
    uint8_t has_state, has_applied;
    uint16_t applied_seq;
    uint8_t brightness;
    tv_zone zones[TV_ZONES];
    tv_run runs[TV_MAX_RUNS];
    uint8_t n_runs;
    tv_event events[TV_MAX_EVENTS];
    uint8_t n_events;
    uint32_t boot_ms, last_host_ms;
    uint8_t host_seen, timeout_reported;
} tv_device;

/* Power-on: clear everything, install the default layout, send HELLO. */
void tv_device_init(tv_device *d, uint16_t led_count, tv_write_fn write, void *ctx, uint32_t now_ms);
/* Bytes from the host. */
void tv_device_rx(tv_device *d, const uint8_t *data, size_t len, uint32_t now_ms);
/* Timers: event re-sends, host timeout. Call every few ms. */
void tv_device_poll(tv_device *d, uint32_t now_ms);
/* Queue an event (button, fault); dropped when the queue is full. */
void tv_device_event(tv_device *d, uint8_t kind, uint8_t code, uint8_t value, uint32_t now_ms);
/* Effect brightness factor 0..255 at t_ms after boot (blink 1 s, pulse 2 s raised cosine 20-100 %). */
uint8_t tv_effect_level(uint8_t effect, uint32_t t_ms);
/* Colours of every LED (rgb: led_count * 3 bytes) at now_ms, effects and brightness applied. */
void tv_device_render(const tv_device *d, uint32_t now_ms, uint8_t *rgb);

#endif
