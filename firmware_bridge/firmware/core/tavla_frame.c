/* CRC-16, COBS and framing of the Tavla LED protocol (hardware_docs/protocol.md).
 * Written here rather than taken from a library because the firmware must build with
 * nothing but a C compiler on any board; the host side uses binascii.crc_hqx and the
 * cobs package, and the tests check both agree byte for byte. */
#include "tavla.h"

uint16_t tv_crc16(const uint8_t *data, size_t len, uint16_t crc) {
    for (size_t i = 0; i < len; i++) {
        crc ^= (uint16_t)((uint16_t)data[i] << 8);
        for (int bit = 0; bit < 8; bit++)
            crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

size_t tv_cobs_encode(const uint8_t *in, size_t len, uint8_t *out) {
    size_t code_at = 0, o = 1;
    uint8_t code = 1;
    for (size_t i = 0; i < len; i++) {
        if (in[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = in[i];
            if (++code == 0xFF) {
                out[code_at] = code;
                code_at = o++;
                code = 1;
            }
        }
    }
    out[code_at] = code;
    return o;
}

int tv_cobs_decode(const uint8_t *in, size_t len, uint8_t *out, size_t cap) {
    size_t i = 0, o = 0;
    while (i < len) {
        uint8_t code = in[i++];
        if (code == 0) return -1;
        size_t end = i + code - 1;
        if (end > len || o + (end - i) > cap) return -1;
        while (i < end) {
            if (in[i] == 0) return -1;
            out[o++] = in[i++];
        }
        if (i < len && code < 0xFF) {
            if (o >= cap) return -1;
            out[o++] = 0;
        }
    }
    return (int)o;
}

void tv_rx_init(tv_rx *rx) {
    rx->len = 0;
    rx->skipping = 0;
    rx->errors = 0;
}

static int finish(tv_rx *rx, tv_frame *out) {
    uint8_t raw[TV_MAX_RAW];
    int n = tv_cobs_decode(rx->buf, rx->len, raw, sizeof raw);
    if (n < 0) { rx->errors++; return 0; }            /* COBS error */
    if (n < TV_HEADER + TV_CRC_LEN) { rx->errors++; return 0; } /* too short */
    size_t body = (size_t)n - TV_CRC_LEN;
    uint16_t crc = (uint16_t)((raw[body] << 8) | raw[body + 1]);
    if (tv_crc16(raw, body, 0xFFFF) != crc) { rx->errors++; return 0; }
    out->type = raw[0];
    out->seq = (uint16_t)((raw[1] << 8) | raw[2]);
    out->len = (uint16_t)(body - TV_HEADER);
    for (size_t i = 0; i < out->len; i++) out->payload[i] = raw[TV_HEADER + i];
    return 1;
}

int tv_rx_byte(tv_rx *rx, uint8_t byte, tv_frame *out) {
    if (byte == 0) {
        int got = 0;
        if (!rx->skipping && rx->len > 0) got = finish(rx, out);
        rx->len = 0;
        rx->skipping = 0;
        return got;
    }
    if (rx->skipping) return 0;
    if (rx->len >= TV_MAX_ENCODED) { /* no delimiter for too long: garbage until the next 0x00 */
        rx->errors++;
        rx->skipping = 1;
        rx->len = 0;
        return 0;
    }
    rx->buf[rx->len++] = byte;
    return 0;
}

size_t tv_frame_encode(uint8_t type, uint16_t seq, const uint8_t *payload, size_t len, uint8_t *out) {
    uint8_t raw[TV_MAX_RAW];
    if (len > TV_MAX_PAYLOAD) len = TV_MAX_PAYLOAD;
    raw[0] = type;
    raw[1] = (uint8_t)(seq >> 8);
    raw[2] = (uint8_t)seq;
    for (size_t i = 0; i < len; i++) raw[TV_HEADER + i] = payload[i];
    uint16_t crc = tv_crc16(raw, TV_HEADER + len, 0xFFFF);
    raw[TV_HEADER + len] = (uint8_t)(crc >> 8);
    raw[TV_HEADER + len + 1] = (uint8_t)crc;
    size_t n = tv_cobs_encode(raw, TV_HEADER + len + TV_CRC_LEN, out);
    out[n++] = 0;
    return n;
}
