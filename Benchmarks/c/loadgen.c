// A closed-loop load generator for length-prefixed JSON servers (the coordinator and the
// C echo server): each caller writes one request frame and reads one answer frame.
//
// Usage: loadgen SOCKET CALLERS SECONDS|xCOUNT HELLO|- REQUEST-TEMPLATE...
//   HELLO: a payload written first and answered once, or "-" for none.
//   REQUEST-TEMPLATE: payloads cycled in order; "%d" becomes the caller's number, from 1.
// Output: see harness.h. An answer carrying "error" fails the caller, so every counted
// call was answered with a result.
#include "frame.h"
#include "harness.h"

static const char *path;
static const char *hello;
static char **templates;
static int template_count;

typedef struct {
    int fd;
    unsigned char **frames;
    size_t *lengths;
    unsigned char *reply;
    size_t capacity;
} caller;

/// Reads one answer into the caller's buffer, which grows to fit (a `state` of a large
/// app is megabytes); its length, or -1.
static long read_answer(caller *c) {
    unsigned char header[4];
    if (frame_read_full(c->fd, header, 4) < 0) return -1;
    uint32_t size = frame_length(header);
    if (size > c->capacity) {
        unsigned char *bigger = realloc(c->reply, size);
        if (!bigger) return -1;
        c->reply = bigger;
        c->capacity = size;
    }
    if (frame_read_full(c->fd, c->reply, size) < 0) return -1;
    return (long)size;
}

static int answered(caller *c, long length) {
    // An error answer names its "error" member right after the id, near the front; a
    // result may hold that word anywhere further on.
    size_t front = length < 64 ? (size_t)length : 64;
    return length > 0 && memmem(c->reply, front, "\"error\"", 7) == NULL;
}

static int setup(worker *w) {
    caller *c = calloc(1, sizeof *c);
    w->state = c;
    c->capacity = 1 << 16;
    c->reply = malloc(c->capacity);
    c->fd = frame_connect(path);
    if (c->fd < 0) return -1;
    unsigned char frame[65536];
    if (strcmp(hello, "-") != 0) {
        size_t n = frame_make(frame, hello, strlen(hello));
        if (frame_send_all(c->fd, frame, n) < 0 || !answered(c, read_answer(c))) return -1;
    }
    c->frames = calloc((size_t)template_count, sizeof *c->frames);
    c->lengths = calloc((size_t)template_count, sizeof *c->lengths);
    for (int i = 0; i < template_count; i++) {
        char text[8192];
        int length = snprintf(text, sizeof text, templates[i], w->index + 1);
        c->frames[i] = malloc((size_t)length + 4);
        c->lengths[i] = frame_make(c->frames[i], text, (size_t)length);
    }
    return 0;
}

static int call(worker *w, long number) {
    caller *c = w->state;
    int which = (int)(number % template_count);
    if (frame_send_all(c->fd, c->frames[which], c->lengths[which]) < 0) return -1;
    return answered(c, read_answer(c)) ? 0 : -1;
}

static void teardown(worker *w) {
    caller *c = w->state;
    if (c && c->fd >= 0) close(c->fd);
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: loadgen SOCKET CALLERS SECONDS|xCOUNT HELLO|- REQUEST...\n");
        return 2;
    }
    path = argv[1];
    hello = argv[4];
    templates = argv + 5;
    template_count = argc - 5;
    return harness_run(atoi(argv[2]), argv[3], setup, call, teardown);
}
