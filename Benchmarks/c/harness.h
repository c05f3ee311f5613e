// The closed-loop harness shared by the load generators: N callers, each in its own
// thread with its own connection, each sending one request and waiting for its answer
// before the next. Every round trip is timed.
//
// A load generator defines how a caller connects (`setup`), makes one call (`call`) and
// hangs up (`teardown`), then hands its arguments to `harness_run`. The run length is
// either "SECONDS" (each caller calls until then) or "xCOUNT" (each caller makes exactly
// COUNT calls). All callers connect before the clock starts.
//
// Prints one line: calls, seconds, calls per second, p50 and p99 round trip in
// microseconds, failed callers, and the longest round trip in microseconds. Exits 1 if
// any caller failed.
#ifndef SCENE_BENCH_HARNESS_H
#define SCENE_BENCH_HARNESS_H

#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct worker {
    int index;  // from 0
    long count;
    double *samples;
    long capacity;
    int failed;
    void *state;  // the load generator's own
} worker;

typedef int (*harness_setup)(worker *);
typedef int (*harness_call)(worker *, long number);
typedef void (*harness_teardown)(worker *);

static double harness_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static struct {
    harness_setup setup;
    harness_call call;
    harness_teardown teardown;
    double seconds;
    long calls;  // per caller, when > 0
    pthread_barrier_t ready;
    double end;
} harness;

static void harness_record(worker *w, double microseconds) {
    if (w->count == w->capacity) {
        w->capacity = w->capacity ? w->capacity * 2 : 1024;
        w->samples = realloc(w->samples, (size_t)w->capacity * sizeof *w->samples);
    }
    w->samples[w->count++] = microseconds;
}

static void *harness_thread(void *argument) {
    worker *w = argument;
    if (harness.setup(w) != 0) w->failed = 1;
    pthread_barrier_wait(&harness.ready);  // every caller is connected
    pthread_barrier_wait(&harness.ready);  // the clock has started
    for (long n = 0; !w->failed; n++) {
        if (harness.calls > 0 ? n >= harness.calls : harness_now() >= harness.end) break;
        double before = harness_now();
        if (harness.call(w, n) != 0) {
            w->failed = 1;
            break;
        }
        harness_record(w, (harness_now() - before) * 1e6);
    }
    harness.teardown(w);
    return NULL;
}

static int harness_compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int harness_run(int callers, const char *length, harness_setup setup, harness_call call, harness_teardown teardown) {
    harness.setup = setup;
    harness.call = call;
    harness.teardown = teardown;
    if (length[0] == 'x') harness.calls = atol(length + 1);
    else harness.seconds = atof(length);
    // A thousand callers need a thousand descriptors.
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    worker *workers = calloc((size_t)callers, sizeof *workers);
    pthread_t *threads = calloc((size_t)callers, sizeof *threads);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 256 << 10);
    pthread_barrier_init(&harness.ready, NULL, (unsigned)callers + 1);
    for (int i = 0; i < callers; i++) {
        workers[i].index = i;
        if (pthread_create(&threads[i], &attributes, harness_thread, &workers[i]) != 0) {
            fprintf(stderr, "cannot start caller %d\n", i);
            return 1;
        }
    }
    pthread_barrier_wait(&harness.ready);
    double start = harness_now();
    harness.end = start + harness.seconds;
    pthread_barrier_wait(&harness.ready);
    long total = 0, failed = 0;
    for (int i = 0; i < callers; i++) {
        pthread_join(threads[i], NULL);
        total += workers[i].count;
        failed += workers[i].failed;
    }
    double elapsed = harness_now() - start;
    double *all = malloc((size_t)(total ? total : 1) * sizeof *all);
    long k = 0;
    for (int i = 0; i < callers; i++) {
        memcpy(all + k, workers[i].samples, (size_t)workers[i].count * sizeof *all);
        k += workers[i].count;
    }
    qsort(all, (size_t)total, sizeof *all, harness_compare);
    double p50 = total ? all[total / 2] : 0, p99 = total ? all[(long)((double)total * 0.99)] : 0;
    double longest = total ? all[total - 1] : 0;
    printf("%ld %.3f %.0f %.1f %.1f %ld %.1f\n", total, elapsed, (double)total / elapsed, p50, p99, failed, longest);
    return failed ? 1 : 0;
}

#endif
