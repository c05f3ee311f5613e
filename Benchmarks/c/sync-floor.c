#define _GNU_SOURCE
// The disk's floor under a durable coordinator: what one group commit costs when nothing
// else is done. The journal's way of writing, alone: a file with a reserve written ahead
// (16 MiB of newlines, synced), then groups of BYTES overwriting it in order, each made
// durable before the next, for SECONDS. Prints the wall time and the CPU time (user +
// system, nearly all of it the kernel's) of one group.
//
// Usage: sync-floor FOLDER [BYTES [SECONDS]]   (defaults: 1400 bytes, about seven lines
// of the durable flow.send case; 3 s). Two ways, one after the other: write then
// fdatasync, as the journal does, and one pwritev2 with RWF_DSYNC.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static double cpu(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

enum { reserve = 16 << 20 };

static int measure(const char *path, int dsync, size_t bytes, double seconds) {
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) { perror(path); return 1; }
    char *newlines = malloc(1 << 20), *group = malloc(bytes);
    memset(newlines, '\n', 1 << 20);
    memset(group, 'x', bytes);
    group[bytes - 1] = '\n';
    for (off_t at = 0; at < reserve; at += 1 << 20) {
        if (pwrite(fd, newlines, 1 << 20, at) != 1 << 20) { perror("reserve"); return 1; }
    }
    if (fsync(fd) != 0) { perror("fsync"); return 1; }
    long groups = 0;
    off_t at = 0;
    double started = now(), cpuStarted = cpu();
    while (now() - started < seconds) {
        ssize_t written;
        if (dsync) {
            struct iovec vector = {group, bytes};
            written = pwritev2(fd, &vector, 1, at, RWF_DSYNC);
        } else {
            written = pwrite(fd, group, bytes, at);
            if (written == (ssize_t)bytes && fdatasync(fd) != 0) written = -1;
        }
        if (written != (ssize_t)bytes) { perror("write"); return 1; }
        groups++;
        at += (off_t)bytes;
        if (at + (off_t)bytes > reserve) at = 0;
    }
    double wall = now() - started, used = cpu() - cpuStarted;
    printf("%-28s %7ld groups  %6.1f us each  %5.1f us CPU each\n", dsync ? "pwritev2 RWF_DSYNC" : "write, then fdatasync",
           groups, wall / (double)groups * 1e6, used / (double)groups * 1e6);
    close(fd);
    unlink(path);
    free(newlines);
    free(group);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) { fprintf(stderr, "usage: sync-floor FOLDER [BYTES [SECONDS]]\n"); return 2; }
    size_t bytes = argc > 2 ? (size_t)atol(argv[2]) : 1400;
    double seconds = argc > 3 ? atof(argv[3]) : 3;
    if (bytes == 0 || bytes > (1 << 20) || seconds <= 0) { fprintf(stderr, "sync-floor: bad BYTES or SECONDS\n"); return 2; }
    char path[4096];
    snprintf(path, sizeof path, "%s/sync-floor.%d", argv[1], (int)getpid());
    return measure(path, 0, bytes, seconds) || measure(path, 1, bytes, seconds);
}
