/* The LED device: what it answers, what it keeps, what it shows.
 * Same behaviour as firmware_bridge/device.py (the emulator); see the docstring there
 * and hardware_docs/protocol.md "Device behaviour". */
#include "tavla.h"

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }

static uint16_t next_seq(tv_device *d) { return d->tx_seq++; }

static void send(tv_device *d, uint8_t type, uint16_t seq, const uint8_t *payload, size_t len) {
    uint8_t out[TV_MAX_ENCODED + 1];
    size_t n = tv_frame_encode(type, seq, payload, len, out);
    if (d->write) d->write(d->ctx, out, n);
}

static void send_hello(tv_device *d, int is_reply, uint16_t reply_to) {
    uint8_t p[12];
    p[0] = TV_PROTOCOL_VERSION;
    p[1] = TV_FW_MAJOR; p[2] = TV_FW_MINOR; p[3] = TV_FW_PATCH;
    put16(p + 4, d->led_count);
    p[6] = TV_ZONES;
    p[7] = TV_CAP_EFFECTS | TV_CAP_BRIGHTNESS | TV_CAP_BUTTONS | TV_CAP_LAYOUT | TV_CAP_STATE_READBACK
           | TV_CAP_PACKED_STATE;
    p[8] = TV_MAX_RUNS;
    p[9] = is_reply ? 1 : 0;
    put16(p + 10, is_reply ? reply_to : 0);
    send(d, TV_HELLO, next_seq(d), p, sizeof p);
}

static void send_ack(tv_device *d, uint16_t seq) {
    uint8_t p[2];
    put16(p, seq);
    send(d, TV_ACK, next_seq(d), p, 2);
}

static void send_nak(tv_device *d, uint16_t seq, uint8_t reason) {
    uint8_t p[3];
    put16(p, seq);
    p[2] = reason;
    send(d, TV_NAK, next_seq(d), p, 3);
}

/* The serpentine default of firmware_bridge/layout.py (one LED per point), used until the host
 * sends its layout: off tray 25, slots 0-5, bar, slots 6-17, bar, slots 18-23, off tray 26. */
static void default_layout(tv_device *d) {
    static const uint8_t path[] = {25, 0, 1, 2, 3, 4, 5, 24, 6, 7, 8, 9, 10, 11,
                                   12, 13, 14, 15, 16, 17, 24, 18, 19, 20, 21, 22, 23, 26};
    d->n_runs = 0;
    if (d->led_count < sizeof path) return;
    for (uint16_t i = 0; i < sizeof path; i++) {
        d->runs[d->n_runs].zone = path[i];
        d->runs[d->n_runs].start = i;
        d->runs[d->n_runs].count = 1;
        d->n_runs++;
    }
}

void tv_device_init(tv_device *d, uint16_t led_count, tv_write_fn write, void *ctx, uint32_t now_ms) {
    d->led_count = led_count;
    if (d->host_timeout_ms == 0) d->host_timeout_ms = 3000;
    d->write = write;
    d->ctx = ctx;
    tv_rx_init(&d->rx);
    d->tx_seq = 0;
    d->has_state = d->has_applied = 0;
    d->applied_seq = 0;
    d->brightness = 0;
    for (int z = 0; z < TV_ZONES; z++) d->zones[z] = (tv_zone){0, 0, 0, 0};
    default_layout(d);
    d->n_events = 0;
    d->boot_ms = now_ms;
    d->last_host_ms = 0;
    d->host_seen = d->timeout_reported = 0;
    send_hello(d, 0, 0);
}

static int seq_newer(uint16_t a, uint16_t b) {
    uint16_t diff = (uint16_t)(a - b);
    return diff != 0 && diff < 0x8000u;
}

static void state_payload(const tv_device *d, uint8_t *p) {
    p[0] = d->brightness;
    p[1] = TV_ZONES;
    for (int z = 0; z < TV_ZONES; z++) {
        p[2 + 4 * z] = d->zones[z].r;
        p[3 + 4 * z] = d->zones[z].g;
        p[4 + 4 * z] = d->zones[z].b;
        p[5 + 4 * z] = d->zones[z].effect;
    }
}

#define STATE_LEN (2 + 4 * TV_ZONES)

/* A SET_STATE of either form passed its checks: the seq decides (protocol.md "Device behaviour"). */
static int accept_seq(tv_device *d, uint16_t seq) {
    if (d->has_applied && !seq_newer(seq, d->applied_seq)) {
        /* equal: a retry whose ACK was lost; older: a late frame must not overwrite a newer one */
        if (seq == d->applied_seq) send_ack(d, seq);
        else send_nak(d, seq, TV_NAK_STALE);
        return 0;
    }
    return 1;
}

static void applied(tv_device *d, uint16_t seq) {
    d->has_state = 1;
    d->has_applied = 1;
    d->applied_seq = seq;
    send_ack(d, seq);
}

static void on_set_state(tv_device *d, const tv_frame *f) {
    if (f->len != STATE_LEN) { send_nak(d, f->seq, TV_NAK_BAD_LENGTH); return; }
    if (f->payload[1] != TV_ZONES) { send_nak(d, f->seq, TV_NAK_BAD_VALUE); return; }
    for (int z = 0; z < TV_ZONES; z++)
        if (f->payload[5 + 4 * z] > TV_PULSE) { send_nak(d, f->seq, TV_NAK_BAD_VALUE); return; }
    if (!accept_seq(d, f->seq)) return;
    d->brightness = f->payload[0];
    for (int z = 0; z < TV_ZONES; z++) {
        d->zones[z].r = f->payload[2 + 4 * z];
        d->zones[z].g = f->payload[3 + 4 * z];
        d->zones[z].b = f->payload[4 + 4 * z];
        d->zones[z].effect = f->payload[5 + 4 * z];
    }
    applied(d, f->seq);
}

#define GROUP_LEN 8 /* r, g, b, effect, zone bitmask u32 */

static uint32_t get32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* SET_STATE_PACKED: brightness, then groups of (colour, effect, zones); zones in no group are off. */
static void on_set_state_packed(tv_device *d, const tv_frame *f) {
    if (f->len < 1 || (f->len - 1) % GROUP_LEN != 0) { send_nak(d, f->seq, TV_NAK_BAD_LENGTH); return; }
    uint32_t seen = 0;
    for (uint16_t i = 1; i < f->len; i += GROUP_LEN) {
        uint32_t mask = get32(f->payload + i + 4);
        if (f->payload[i + 3] > TV_PULSE || (mask >> TV_ZONES) != 0 || (mask & seen) != 0) {
            send_nak(d, f->seq, TV_NAK_BAD_VALUE);
            return;
        }
        seen |= mask;
    }
    if (!accept_seq(d, f->seq)) return;
    d->brightness = f->payload[0];
    for (int z = 0; z < TV_ZONES; z++) d->zones[z] = (tv_zone){0, 0, 0, 0};
    for (uint16_t i = 1; i < f->len; i += GROUP_LEN) {
        uint32_t mask = get32(f->payload + i + 4);
        for (int z = 0; z < TV_ZONES; z++)
            if ((mask >> z) & 1u)
                d->zones[z] = (tv_zone){f->payload[i], f->payload[i + 1], f->payload[i + 2], f->payload[i + 3]};
    }
    applied(d, f->seq);
}

static void on_set_layout(tv_device *d, const tv_frame *f) {
    if (f->len % 4 != 0 || f->len / 4 > TV_MAX_RUNS) { send_nak(d, f->seq, TV_NAK_BAD_LENGTH); return; }
    uint8_t n = (uint8_t)(f->len / 4);
    for (uint8_t i = 0; i < n; i++)
        if (f->payload[4 * i] >= TV_ZONES) { send_nak(d, f->seq, TV_NAK_BAD_VALUE); return; }
    for (uint8_t i = 0; i < n; i++) {
        uint32_t end = (uint32_t)get16(f->payload + 4 * i + 1) + f->payload[4 * i + 3];
        if (end > d->led_count) { send_nak(d, f->seq, TV_NAK_LAYOUT); return; }
    }
    for (uint8_t i = 0; i < n; i++) {
        d->runs[i].zone = f->payload[4 * i];
        d->runs[i].start = get16(f->payload + 4 * i + 1);
        d->runs[i].count = f->payload[4 * i + 3];
    }
    d->n_runs = n;
    send_ack(d, f->seq);
}

static void on_frame(tv_device *d, const tv_frame *f, uint32_t now_ms) {
    d->last_host_ms = now_ms;
    d->host_seen = 1;
    d->timeout_reported = 0;
    switch (f->type) {
    case TV_HELLO_REQ:
        if (f->len != 0) { send_nak(d, f->seq, TV_NAK_BAD_LENGTH); return; }
        d->has_applied = 0; /* a new host session: accept its counter wherever it starts */
        send_hello(d, 1, f->seq);
        return;
    case TV_HEARTBEAT: {
        if (f->len != 8) { send_nak(d, f->seq, TV_NAK_BAD_LENGTH); return; }
        uint8_t p[8];
        uint32_t up = now_ms;
        p[0] = (uint8_t)(up >> 24); p[1] = (uint8_t)(up >> 16); p[2] = (uint8_t)(up >> 8); p[3] = (uint8_t)up;
        put16(p + 4, d->has_applied ? d->applied_seq : 0);
        put16(p + 6, (uint16_t)d->rx.errors);
        send(d, TV_HEARTBEAT, next_seq(d), p, 8);
        return;
    }
    case TV_STATE_REQ: {
        if (f->len != 0) { send_nak(d, f->seq, TV_NAK_BAD_LENGTH); return; }
        uint8_t p[3 + STATE_LEN];
        put16(p, d->has_applied ? d->applied_seq : 0);
        p[2] = d->has_state;
        if (d->has_state) state_payload(d, p + 3);
        send(d, TV_STATE, next_seq(d), p, d->has_state ? sizeof p : 3);
        return;
    }
    case TV_SET_STATE: on_set_state(d, f); return;
    case TV_SET_STATE_PACKED: on_set_state_packed(d, f); return;
    case TV_SET_LAYOUT: on_set_layout(d, f); return;
    case TV_ACK: {
        if (f->len != 2) { send_nak(d, f->seq, TV_NAK_BAD_LENGTH); return; }
        uint16_t acked = get16(f->payload);
        uint8_t k = 0;
        for (uint8_t i = 0; i < d->n_events; i++)
            if (d->events[i].seq != acked) d->events[k++] = d->events[i];
        d->n_events = k;
        return;
    }
    default:
        send_nak(d, f->seq, TV_NAK_UNKNOWN_TYPE); /* never acted on */
        return;
    }
}

void tv_device_rx(tv_device *d, const uint8_t *data, size_t len, uint32_t now_ms) {
    static tv_frame frame; /* static: 250 bytes off a small MCU stack; the core is single-threaded */
    for (size_t i = 0; i < len; i++)
        if (tv_rx_byte(&d->rx, data[i], &frame)) on_frame(d, &frame, now_ms);
}

void tv_device_event(tv_device *d, uint8_t kind, uint8_t code, uint8_t value, uint32_t now_ms) {
    if (d->n_events >= TV_MAX_EVENTS) return;
    tv_event *e = &d->events[d->n_events++];
    e->seq = next_seq(d);
    e->kind = kind; e->code = code; e->value = value;
    e->tries = 0;
    e->due_ms = now_ms;
}

void tv_device_poll(tv_device *d, uint32_t now_ms) {
    if (d->host_seen && !d->timeout_reported && (uint32_t)(now_ms - d->last_host_ms) > d->host_timeout_ms) {
        d->timeout_reported = 1; /* keep showing the state: the host may only be restarting */
        tv_device_event(d, TV_EV_FAULT, TV_FAULT_HOST_TIMEOUT, 0, now_ms);
    }
    uint8_t k = 0;
    for (uint8_t i = 0; i < d->n_events; i++) {
        tv_event *e = &d->events[i];
        if ((int32_t)(now_ms - e->due_ms) >= 0) {
            uint8_t p[3] = {e->kind, e->code, e->value};
            send(d, TV_EVENT, e->seq, p, 3);
            e->tries++;
            e->due_ms = now_ms + TV_EVENT_RETRY_MS;
        }
        if (e->tries < TV_EVENT_TRIES) d->events[k++] = *e;
    }
    d->n_events = k;
}

/* Raised cosine 0..255 over one period in 64 steps (no floating point on the MCU). */
static const uint8_t COSINE[64] = {
    0, 1, 2, 5, 10, 15, 21, 29, 37, 46, 56, 67, 78, 90, 102, 115,
    127, 140, 153, 165, 177, 188, 199, 209, 218, 226, 234, 240, 245, 250, 253, 254,
    255, 254, 253, 250, 245, 240, 234, 226, 218, 209, 199, 188, 177, 165, 153, 140,
    128, 115, 102, 90, 78, 67, 56, 46, 37, 29, 21, 15, 10, 5, 2, 1};

uint8_t tv_effect_level(uint8_t effect, uint32_t t_ms) {
    if (effect == TV_BLINK) return (t_ms % 1000u) < 500u ? 255 : 0;
    if (effect == TV_PULSE) return (uint8_t)(51 + (COSINE[(t_ms % 2000u) * 64u / 2000u] * 204u) / 255u);
    return 255;
}

void tv_device_render(const tv_device *d, uint32_t now_ms, uint8_t *rgb) {
    for (uint16_t i = 0; i < (uint16_t)(3 * d->led_count); i++) rgb[i] = 0;
    if (!d->has_state) return;
    for (uint8_t r = 0; r < d->n_runs; r++) {
        const tv_run *run = &d->runs[r];
        const tv_zone *z = &d->zones[run->zone];
        uint32_t k = (uint32_t)d->brightness * tv_effect_level(z->effect, now_ms - d->boot_ms);
        for (uint16_t i = run->start; i < run->start + run->count && i < d->led_count; i++) {
            rgb[3 * i] = (uint8_t)((z->r * k + 32512u) / 65025u);
            rgb[3 * i + 1] = (uint8_t)((z->g * k + 32512u) / 65025u);
            rgb[3 * i + 2] = (uint8_t)((z->b * k + 32512u) / 65025u);
        }
    }
}
