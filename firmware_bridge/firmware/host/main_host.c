/* Host build of the firmware: the portable core over stdin (bytes from the host) and stdout
 * (bytes to the host), for tests and the pty emulator (python -m firmware_bridge.emulator --pty
 * --firmware BINARY puts a pty and a faulty, baud-paced cable in front of it).
 *
 *   tavla_host [--leds N]    run as the device in real time until stdin closes
 *   tavla_host --fuzz        read records <u32 LE length><bytes>; for each, power up a fresh device,
 *                            feed it the bytes at t=0 and write <u32 LE n><the n bytes it sent>
 *                            <u8 has_state><u8 has_applied><u16 BE applied_seq><u8 brightness>
 *                            <27 x r,g,b,effect><u8 n_runs><n_runs x zone,start BE16,count><u32 BE errors>
 *   tavla_host --render      read records <u32 LE length><bytes><u32 LE t_ms>; for each, power up a fresh
 *                            device at t=0, feed it the bytes and write the colours of its LEDs at
 *                            t_ms (led_count x r,g,b): effects and brightness as the strip shows them
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/tavla.h"

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

static void write_all(int fd, const uint8_t *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            exit(0); /* the host side is gone */
        }
        data += n;
        len -= (size_t)n;
    }
}

static void to_stdout(void *ctx, const uint8_t *data, size_t len) {
    (void)ctx;
    write_all(1, data, len);
}

static int read_exact(uint8_t *buf, size_t len) {
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(0, buf + got, len - got);
        if (n == 0) return 0;
        if (n < 0) {
            if (errno == EINTR) continue;
            return 0;
        }
        got += (size_t)n;
    }
    return 1;
}

typedef struct { uint8_t *data; size_t len, cap; } capture;

static void to_capture(void *ctx, const uint8_t *data, size_t len) {
    capture *c = ctx;
    if (c->len + len > c->cap) {
        c->cap = (c->len + len) * 2;
        c->data = realloc(c->data, c->cap);
        if (!c->data) exit(3);
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
}

static int fuzz(uint16_t leds) {
    static tv_device dev;
    capture cap = {NULL, 0, 0};
    for (;;) {
        uint8_t hdr[4];
        if (!read_exact(hdr, 4)) break;
        uint32_t n = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 | (uint32_t)hdr[3] << 24;
        if (n > (1u << 24)) return 2;
        uint8_t *in = malloc(n ? n : 1);
        if (!in || !read_exact(in, n)) { free(in); return 2; }
        memset(&dev, 0, sizeof dev);
        cap.len = 0;
        tv_device_init(&dev, leds, to_capture, &cap, 0);
        cap.len = 0; /* the boot HELLO is not part of the answer */
        tv_device_rx(&dev, in, n, 0);
        free(in);
        uint8_t out[4 + 2 + 2 + 1 + 4 * TV_ZONES + 1];
        size_t o = 0;
        out[o++] = (uint8_t)cap.len; out[o++] = (uint8_t)(cap.len >> 8);
        out[o++] = (uint8_t)(cap.len >> 16); out[o++] = (uint8_t)(cap.len >> 24);
        write_all(1, out, o);
        write_all(1, cap.data ? cap.data : out, cap.len);
        o = 0;
        out[o++] = dev.has_state;
        out[o++] = dev.has_applied;
        out[o++] = (uint8_t)(dev.applied_seq >> 8); out[o++] = (uint8_t)dev.applied_seq;
        out[o++] = dev.brightness;
        for (int z = 0; z < TV_ZONES; z++) {
            out[o++] = dev.zones[z].r; out[o++] = dev.zones[z].g;
            out[o++] = dev.zones[z].b; out[o++] = dev.zones[z].effect;
        }
        out[o++] = dev.n_runs;
        write_all(1, out, o);
        for (uint8_t r = 0; r < dev.n_runs; r++) {
            uint8_t run[4] = {dev.runs[r].zone, (uint8_t)(dev.runs[r].start >> 8),
                              (uint8_t)dev.runs[r].start, dev.runs[r].count};
            write_all(1, run, 4);
        }
        uint8_t err[4] = {(uint8_t)(dev.rx.errors >> 24), (uint8_t)(dev.rx.errors >> 16),
                          (uint8_t)(dev.rx.errors >> 8), (uint8_t)dev.rx.errors};
        write_all(1, err, 4);
    }
    free(cap.data);
    return 0;
}

static int render(uint16_t leds) {
    static tv_device dev;
    capture cap = {NULL, 0, 0};
    uint8_t *rgb = malloc(3u * leds + 1u);
    if (!rgb) return 3;
    for (;;) {
        uint8_t hdr[4];
        if (!read_exact(hdr, 4)) break;
        uint32_t n = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 | (uint32_t)hdr[3] << 24;
        if (n > (1u << 24)) return 2;
        uint8_t *in = malloc(n ? n : 1);
        if (!in || !read_exact(in, n) || !read_exact(hdr, 4)) { free(in); return 2; }
        uint32_t t = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 | (uint32_t)hdr[3] << 24;
        memset(&dev, 0, sizeof dev);
        tv_device_init(&dev, leds, to_capture, &cap, 0);
        tv_device_rx(&dev, in, n, 0);
        free(in);
        tv_device_render(&dev, t, rgb);
        write_all(1, rgb, 3u * leds);
        cap.len = 0;
    }
    free(rgb);
    free(cap.data);
    return 0;
}

int main(int argc, char **argv) {
    uint16_t leds = 28;
    int fuzz_mode = 0, render_mode = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fuzz") == 0) fuzz_mode = 1;
        else if (strcmp(argv[i], "--render") == 0) render_mode = 1;
        else if (strcmp(argv[i], "--leds") == 0 && i + 1 < argc) leds = (uint16_t)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--leds N] [--fuzz | --render]\n", argv[0]);
            return 2;
        }
    }
    if (fuzz_mode) return fuzz(leds);
    if (render_mode) return render(leds);

    static tv_device dev;
    uint32_t t0 = now_ms();
    tv_device_init(&dev, leds, to_stdout, NULL, 0);
    uint8_t buf[512];
    for (;;) {
        struct pollfd p = {0, POLLIN, 0};
        int r = poll(&p, 1, 2);
        uint32_t t = now_ms() - t0;
        if (r > 0) {
            ssize_t n = read(0, buf, sizeof buf);
            if (n == 0) return 0;
            if (n < 0 && errno != EINTR && errno != EAGAIN) return 0;
            if (n > 0) tv_device_rx(&dev, buf, (size_t)n, t);
        }
        tv_device_poll(&dev, t);
    }
}
