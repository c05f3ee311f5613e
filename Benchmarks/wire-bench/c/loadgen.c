// A closed-loop load generator: N connections, each in its own thread, each sending one
// request frame and waiting for one answer frame before the next. Measures round trips.
//
// Usage: loadgen SOCKET CONNECTIONS SECONDS HELLO-HEX|- REQUEST-TEMPLATE...
//   HELLO-HEX: a frame payload (hex) written first and answered once, or "-" for none.
//   REQUEST-TEMPLATE: payload texts cycled in order; "%d" becomes the connection's number,
//   from 1.
// Prints: requests, seconds, per-second, p50 and p99 round trip in microseconds.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *path;
static int seconds;
static const char *hello;
static char **templates;
static int template_count;
static volatile int started;

typedef struct {
    int index;
    long count;
    double *samples;
    long capacity;
    int failed;
} worker;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int read_full(int fd, unsigned char *buffer, size_t count) {
    size_t got = 0;
    while (got < count) {
        ssize_t n = recv(fd, buffer + got, count - got, 0);
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    return 0;
}

static int round_trip(int fd, const unsigned char *frame, size_t length, unsigned char *reply, size_t capacity) {
    if (send(fd, frame, length, MSG_NOSIGNAL) != (ssize_t)length) return -1;
    unsigned char header[4];
    if (read_full(fd, header, 4) < 0) return -1;
    uint32_t size = (uint32_t)header[0] << 24 | (uint32_t)header[1] << 16 | (uint32_t)header[2] << 8 | header[3];
    if (size > capacity) return -1;
    return read_full(fd, reply, size);
}

static size_t make_frame(unsigned char *out, const char *payload, size_t length) {
    out[0] = (unsigned char)(length >> 24);
    out[1] = (unsigned char)(length >> 16);
    out[2] = (unsigned char)(length >> 8);
    out[3] = (unsigned char)length;
    memcpy(out + 4, payload, length);
    return length + 4;
}

static void *run(void *argument) {
    worker *w = argument;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) { w->failed = 1; return NULL; }
    static __thread unsigned char reply[1 << 20];
    unsigned char frame[65536];
    if (strcmp(hello, "-") != 0) {
        size_t n = make_frame(frame, hello, strlen(hello));
        if (round_trip(fd, frame, n, reply, sizeof reply) < 0) { w->failed = 1; return NULL; }
    }
    // Every template, with this connection's number in place of %d, framed once.
    unsigned char **frames = calloc((size_t)template_count, sizeof *frames);
    size_t *lengths = calloc((size_t)template_count, sizeof *lengths);
    for (int i = 0; i < template_count; i++) {
        char text[8192];
        int length = snprintf(text, sizeof text, templates[i], w->index + 1);
        frames[i] = malloc((size_t)length + 4);
        lengths[i] = make_frame(frames[i], text, (size_t)length);
    }
    while (!started) usleep(100);
    double end = now() + seconds;
    long next = 0;
    while (now() < end) {
        double before = now();
        if (round_trip(fd, frames[next % template_count], lengths[next % template_count], reply, sizeof reply) < 0) {
            w->failed = 1;
            break;
        }
        double after = now();
        if (w->count == w->capacity) {
            w->capacity = w->capacity ? w->capacity * 2 : 4096;
            w->samples = realloc(w->samples, (size_t)w->capacity * sizeof *w->samples);
        }
        w->samples[w->count++] = (after - before) * 1e6;
        next++;
    }
    close(fd);
    return NULL;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 6) { fprintf(stderr, "usage: loadgen SOCKET CONNECTIONS SECONDS HELLO|- REQUEST...\n"); return 2; }
    path = argv[1];
    int connections = atoi(argv[2]);
    seconds = atoi(argv[3]);
    hello = argv[4];
    templates = argv + 5;
    template_count = argc - 5;
    worker *workers = calloc((size_t)connections, sizeof *workers);
    pthread_t *threads = calloc((size_t)connections, sizeof *threads);
    for (int i = 0; i < connections; i++) {
        workers[i].index = i;
        pthread_create(&threads[i], NULL, run, &workers[i]);
    }
    usleep(200000);
    double start = now();
    started = 1;
    long total = 0, failed = 0;
    for (int i = 0; i < connections; i++) {
        pthread_join(threads[i], NULL);
        total += workers[i].count;
        failed += workers[i].failed;
    }
    double elapsed = now() - start;
    double *all = malloc((size_t)(total ? total : 1) * sizeof *all);
    long k = 0;
    for (int i = 0; i < connections; i++)
        for (long j = 0; j < workers[i].count; j++) all[k++] = workers[i].samples[j];
    qsort(all, (size_t)total, sizeof *all, compare);
    double p50 = total ? all[total / 2] : 0, p99 = total ? all[(long)(total * 0.99)] : 0;
    printf("%ld %.3f %.0f %.1f %.1f %ld\n", total, elapsed, total / elapsed, p50, p99, failed);
    return failed ? 1 : 0;
}
