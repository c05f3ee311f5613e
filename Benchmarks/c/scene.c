// A scene process in C, for the benchmarks: the smallest scene that speaks the protocol,
// so that what a relayed call measures is the coordinator, not the scene.
//
// A coordinator starts it with SCENE_SOCKET and SCENE_TOKEN in its environment. It says
// hello, then answers, in order, every request the coordinator relays:
//   scene.ping            -> {}
//   scene.close           -> {"accepted": true}
//   echo                  -> its params (or {})
//   report                -> {"count": n, "latencies": [µs, ...]}: the fan-out samples
//                            taken since the last report
//   anything else         -> -32601
// With BENCH_SUBSCRIBE=1 in its environment it subscribes to the "flow" and "signal"
// topics, and for every event whose text holds "t":NANOSECONDS (a CLOCK_MONOTONIC time
// written by the sender) it records how long the event took to arrive. With
// BENCH_SUBSCRIBE=deaf it subscribes to signals named "none" only, which no sender emits:
// whatever it receives is what a filter failed to hold back. It exits when the connection
// closes. Frames are read in bulk and the answers to one read are written together.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "frame.h"
#include "json.h"

enum { capacity = 1 << 21 };

static unsigned char input[capacity];
static size_t used;
static unsigned char output[capacity];
static size_t pending;
static double *latencies;
static size_t latency_count, latency_capacity;

static void reserve(size_t length) {
    if (pending + length + 4 > capacity) {
        fprintf(stderr, "c-scene: answer too large\n");
        exit(1);
    }
}

/// Queues {"jsonrpc":"2.0","id":ID,<body>} as one frame.
static void answer(span id, const char *body, size_t body_length) {
    reserve(22 + id.length + 1 + body_length + 1);
    unsigned char *frame = output + pending + 4;
    memcpy(frame, "{\"jsonrpc\":\"2.0\",\"id\":", 22);
    size_t at = 22;
    memcpy(frame + at, id.start, id.length);
    at += id.length;
    frame[at++] = ',';
    memcpy(frame + at, body, body_length);
    at += body_length;
    frame[at++] = '}';
    output[pending] = (unsigned char)(at >> 24);
    output[pending + 1] = (unsigned char)(at >> 16);
    output[pending + 2] = (unsigned char)(at >> 8);
    output[pending + 3] = (unsigned char)at;
    pending += at + 4;
}

static void answer_text(span id, const char *body) { answer(id, body, strlen(body)); }

static void flush(int fd) {
    if (pending > 0 && frame_send_all(fd, output, pending) < 0) exit(0);
    pending = 0;
}

static double monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void record_event(span params) {
    const char *mark = memmem(params.start, params.length, "\"t\":", 4);
    if (mark == NULL) return;
    double sent = strtod(mark + 4, NULL);
    if (latency_count == latency_capacity) {
        latency_capacity = latency_capacity ? latency_capacity * 2 : 1024;
        latencies = realloc(latencies, latency_capacity * sizeof *latencies);
    }
    latencies[latency_count++] = (monotonic_ns() - sent) / 1e3;
}

static void report(span id) {
    static char body[capacity / 2];
    size_t at = (size_t)snprintf(body, sizeof body, "\"result\":{\"count\":%zu,\"latencies\":[", latency_count);
    for (size_t i = 0; i < latency_count && at + 32 < sizeof body; i++)
        at += (size_t)snprintf(body + at, sizeof body - at, i ? ",%.1f" : "%.1f", latencies[i]);
    at += (size_t)snprintf(body + at, sizeof body - at, "]}");
    latency_count = 0;
    answer(id, body, at);
}

static void handle(const char *text, size_t length) {
    message m;
    if (parse(text, length, &m) < 0 || m.method.start == NULL) return;  // an answer, or not ours
    if (is(m.method, "\"event\"")) {
        record_event(m.params);
        return;
    }
    if (m.id.start == NULL) return;  // other notifications: flow.changed, scene.phase_changed
    if (is(m.method, "\"echo\"")) {
        static char body[capacity / 2];
        if (m.params.start == NULL || m.params.length + 16 > sizeof body) answer_text(m.id, "\"result\":{}");
        else {
            int n = snprintf(body, sizeof body, "\"result\":%.*s", (int)m.params.length, m.params.start);
            answer(m.id, body, (size_t)n);
        }
    } else if (is(m.method, "\"scene.ping\"")) {
        answer_text(m.id, "\"result\":{}");
    } else if (is(m.method, "\"scene.close\"")) {
        answer_text(m.id, "\"result\":{\"accepted\":true}");
    } else if (is(m.method, "\"report\"")) {
        report(m.id);
    } else {
        answer_text(m.id, "\"error\":{\"code\":-32601,\"message\":\"Method not found\"}");
    }
}

/// Sends one request and handles what arrives until its answer.
static void request(int fd, const char *payload) {
    unsigned char frame[4096];
    size_t n = frame_make(frame, payload, strlen(payload));
    if (frame_send_all(fd, frame, n) < 0) exit(1);
    static unsigned char reply[capacity];
    for (;;) {
        long got = frame_read(fd, reply, sizeof reply);
        if (got < 0) exit(1);
        message m;
        if (parse((const char *)reply, (size_t)got, &m) == 0 && m.method.start == NULL) {
            if (memmem(reply, (size_t)got, "\"error\"", 7) != NULL) {
                fprintf(stderr, "c-scene: refused: %.*s\n", (int)got, reply);
                exit(1);
            }
            return;
        }
        handle((const char *)reply, (size_t)got);
        flush(fd);
    }
}

int main(void) {
    const char *path = getenv("SCENE_SOCKET"), *token = getenv("SCENE_TOKEN");
    if (path == NULL || token == NULL) {
        fprintf(stderr, "c-scene: SCENE_SOCKET and SCENE_TOKEN are not set: a coordinator starts scene processes\n");
        return 3;
    }
    int fd = frame_connect(path);
    if (fd < 0) {
        perror("c-scene: connect");
        return 1;
    }
    char hello[512];
    snprintf(hello, sizeof hello,
             "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"hello\",\"params\":{\"protocol\":[1],\"role\":\"scene\","
             "\"client\":\"c-scene\",\"token\":\"%s\"}}",
             token);
    request(fd, hello);
    const char *subscribe = getenv("BENCH_SUBSCRIBE");
    if (subscribe && strcmp(subscribe, "1") == 0)
        request(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":{\"topics\":[\"flow\",\"signal\"]}}");
    else if (subscribe && strcmp(subscribe, "deaf") == 0)
        request(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":{\"topics\":[\"signal\"],\"signals\":[\"none\"]}}");
    for (;;) {
        if (frame_wait_readable(fd) < 0) return 1;
        ssize_t got = recv(fd, input + used, sizeof input - used, MSG_DONTWAIT);
        if (got <= 0) {
            if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            return 0;
        }
        used += (size_t)got;
        size_t offset = 0;
        while (used - offset >= 4) {
            uint32_t length = frame_length(input + offset);
            if (length > sizeof input - 4) return 1;
            if (used - offset - 4 < length) break;
            handle((const char *)input + offset + 4, length);
            offset += 4 + length;
        }
        memmove(input, input + offset, used - offset);
        used -= offset;
        flush(fd);
    }
}
