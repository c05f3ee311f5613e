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
} caller;

enum { reply_capacity = 1 << 20 };

static int answered(caller *c, long length) {
    // Answers are small; an error answer names its "error" member near the front.
    return length > 0 && memmem(c->reply, (size_t)length, "\"error\"", 7) == NULL;
}

static int setup(worker *w) {
    caller *c = calloc(1, sizeof *c);
    w->state = c;
    c->reply = malloc(reply_capacity);
    c->fd = frame_connect(path);
    if (c->fd < 0) return -1;
    unsigned char frame[65536];
    if (strcmp(hello, "-") != 0) {
        size_t n = frame_make(frame, hello, strlen(hello));
        if (frame_send_all(c->fd, frame, n) < 0 || !answered(c, frame_read(c->fd, c->reply, reply_capacity))) return -1;
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
    return answered(c, frame_read(c->fd, c->reply, reply_capacity)) ? 0 : -1;
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
