#define _GNU_SOURCE
// The relay's limit: what passing a call from a caller to a scene process and its answer
// back costs with nothing else done, as `echo.c` is the limit of a `ping`. One epoll
// thread; length-prefixed JSON frames, the protocol's as far as the benchmark needs it:
//
// - `hello` is answered at once; the connection whose hello says `"role":"scene"` is the
//   scene (the C scene, started with SCENE_SOCKET set to this socket), every other one a
//   caller.
// - A caller's `scene.call` goes to the scene as a request of the call's `method` and
//   `params`, under a number of the relay's own; the scene's answer goes back to the caller
//   under the caller's id, its `result` (or `error`) as the scene wrote it. `ping` is
//   answered at once.
// - No checks, no registry, no timeouts, no events: a real relay does more, so its figures
//   are above this one's.
//
// As the coordinator does, each connection's answers of one turn of the loop are written
// together at its end. Usage: relay SOCKET (prints "ready" once it listens).
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>

#include "frame.h"
#include "json.h"

enum { input_capacity = 1 << 16, output_capacity = 1 << 20, slots = 1 << 16, id_capacity = 32 };

typedef struct {
    int fd;
    int dirty;
    size_t used, pending;
    unsigned char in[input_capacity];
    unsigned char out[output_capacity];
} conn;

/// A call on its way to the scene: who asked, and under which id.
typedef struct {
    conn *caller;
    size_t id_length;
    char id[id_capacity];
} waiting;

static conn *scene;
static waiting table[slots];
static unsigned long next_number = 1;
static conn *dirty[4096];
static int dirty_count;

/// Queues one frame of the parts given, in order, on `c`'s output.
static void queue(conn *c, const span *parts, int count) {
    size_t length = 0;
    for (int i = 0; i < count; i++) length += parts[i].length;
    if (c->pending + length + 4 > output_capacity) {
        fprintf(stderr, "relay: output full\n");
        exit(1);
    }
    unsigned char *frame = c->out + c->pending;
    frame[0] = (unsigned char)(length >> 24);
    frame[1] = (unsigned char)(length >> 16);
    frame[2] = (unsigned char)(length >> 8);
    frame[3] = (unsigned char)length;
    size_t at = 4;
    for (int i = 0; i < count; i++) {
        memcpy(frame + at, parts[i].start, parts[i].length);
        at += parts[i].length;
    }
    c->pending += at;
    if (!c->dirty) {
        c->dirty = 1;
        dirty[dirty_count++] = c;
    }
}

#define TEXT(literal) ((span){literal, sizeof literal - 1})

static void answer(conn *c, span id, span body) {
    span parts[] = {TEXT("{\"jsonrpc\":\"2.0\",\"id\":"), id, TEXT(","), body, TEXT("}")};
    queue(c, parts, 5);
}

static void handle(conn *c, const char *text, size_t length) {
    message m;
    if (parse(text, length, &m) < 0) return;
    if (m.method.start == NULL) {
        // The scene's answer to a call passed on.
        if (c != scene || m.id.start == NULL) return;
        unsigned long number = strtoul(m.id.start, NULL, 10);
        waiting *w = &table[number % slots];
        if (w->caller == NULL) return;
        span body[] = {TEXT("\"result\":"), m.result};
        span error[] = {TEXT("\"error\":"), m.error};
        span *chosen = m.error.start ? error : body;
        span parts[] = {TEXT("{\"jsonrpc\":\"2.0\",\"id\":"), {w->id, w->id_length}, TEXT(","), chosen[0], chosen[1], TEXT("}")};
        queue(w->caller, parts, 6);
        w->caller = NULL;
        return;
    }
    if (m.id.start == NULL) return;
    if (is(m.method, "\"hello\"")) {
        if (m.params.start && memmem(m.params.start, m.params.length, "\"role\":\"scene\"", 14)) scene = c;
        answer(c, m.id, TEXT("\"result\":{\"protocol\":1}"));
    } else if (is(m.method, "\"ping\"")) {
        answer(c, m.id, TEXT("\"result\":{}"));
    } else if (is(m.method, "\"scene.call\"") && scene != NULL && m.params.start && m.id.length <= id_capacity) {
        message call;
        if (parse(m.params.start, m.params.length, &call) < 0 || call.method.start == NULL) return;
        unsigned long number = next_number++;
        waiting *w = &table[number % slots];
        w->caller = c;
        w->id_length = m.id.length;
        memcpy(w->id, m.id.start, m.id.length);
        char digits[24];
        int n = snprintf(digits, sizeof digits, "%lu", number);
        span params = call.params.start ? call.params : TEXT("{}");
        span parts[] = {TEXT("{\"jsonrpc\":\"2.0\",\"id\":"), {digits, (size_t)n}, TEXT(",\"method\":"), call.method,
                        TEXT(",\"params\":"), params, TEXT("}")};
        queue(scene, parts, 7);
    } else {
        answer(c, m.id, TEXT("\"error\":{\"code\":-32601,\"message\":\"Method not found\"}"));
    }
}

static void flush_all(void) {
    for (int i = 0; i < dirty_count; i++) {
        conn *c = dirty[i];
        c->dirty = 0;
        size_t sent = 0;
        while (sent < c->pending) {
            ssize_t n = send(c->fd, c->out + sent, c->pending - sent, MSG_NOSIGNAL);
            if (n > 0) {
                sent += (size_t)n;
            } else if (n < 0 && errno == EAGAIN) {
                struct pollfd writable = {.fd = c->fd, .events = POLLOUT};
                poll(&writable, 1, -1);
            } else if (n < 0 && errno == EINTR) {
                continue;
            } else {
                break;  // the peer is gone; its reads will say so
            }
        }
        c->pending = 0;
    }
    dirty_count = 0;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: relay SOCKET\n"); return 2; }
    signal(SIGPIPE, SIG_IGN);
    int listener = frame_listen(argv[1]);
    if (listener < 0) {
        perror("bind");
        return 1;
    }
    int epoll = frame_epoll_listening(listener);
    if (epoll < 0) {
        perror("epoll");
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    struct epoll_event events[256];
    for (;;) {
        int count = epoll_wait(epoll, events, 256, -1);
        for (int i = 0; i < count; i++) {
            conn *c = events[i].data.ptr;
            if (c == NULL) {
                frame_accept_all(listener, epoll, sizeof(conn));
                continue;
            }
            ssize_t got = recv(c->fd, c->in + c->used, sizeof c->in - c->used, 0);
            if (got <= 0) {
                if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                // Gone: its waiting calls are forgotten (their answers are dropped).
                for (int slot = 0; slot < slots; slot++)
                    if (table[slot].caller == c) table[slot].caller = NULL;
                if (scene == c) scene = NULL;
                if (c->dirty) {
                    for (int d = 0; d < dirty_count; d++)
                        if (dirty[d] == c) dirty[d] = dirty[--dirty_count];
                }
                epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                free(c);
                continue;
            }
            c->used += (size_t)got;
            size_t offset = 0;
            while (c->used - offset >= 4) {
                uint32_t length = frame_length(c->in + offset);
                if (length > input_capacity - 4) { fprintf(stderr, "relay: frame too large\n"); return 1; }
                if (c->used - offset - 4 < length) break;
                handle(c, (const char *)c->in + offset + 4, length);
                offset += 4 + length;
            }
            memmove(c->in, c->in + offset, c->used - offset);
            c->used -= offset;
        }
        flush_all();
    }
}
