// Length-prefixed frames over a Unix stream socket: a 4-byte big-endian length, then
// that many bytes of JSON (the protocol's §2).
#ifndef SCENE_BENCH_FRAME_H
#define SCENE_BENCH_FRAME_H

#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/// Connects to the socket at `path`; -1 on failure.
static inline int frame_connect(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// A listening socket at `path` (a file left there is replaced), non-blocking, for an
/// epoll loop that accepts; -1 on failure.
static inline int frame_listen(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    unlink(path);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0 || listen(fd, 512) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// An epoll instance watching `listener` for connections: its events carry a NULL
/// pointer, a connection's its allocation. -1 on failure.
static inline int frame_epoll_listening(int listener) {
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    if (epoll < 0) return -1;
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
    if (epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event) < 0) {
        close(epoll);
        return -1;
    }
    return epoll;
}

/// Accepts every connection waiting on `listener`: each gets a zeroed allocation of
/// `size` bytes, whose first member is its descriptor (an int), and `epoll` watches it
/// for input with that allocation as its pointer. One that cannot be allocated or
/// watched is closed.
static inline void frame_accept_all(int listener, int epoll, size_t size) {
    int fd;
    while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
        int *made = calloc(1, size);
        if (made == NULL) {
            close(fd);
            continue;
        }
        *made = fd;
        struct epoll_event add = {.events = EPOLLIN, .data.ptr = made};
        if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &add) < 0) {
            free(made);
            close(fd);
        }
    }
}

static inline uint32_t frame_length(const unsigned char *header) {
    return (uint32_t)header[0] << 24 | (uint32_t)header[1] << 16 | (uint32_t)header[2] << 8 | header[3];
}

/// Writes `length` bytes of `payload` as one frame into `out` (which has room for
/// length + 4 bytes); returns the frame's size.
static inline size_t frame_make(unsigned char *out, const char *payload, size_t length) {
    out[0] = (unsigned char)(length >> 24);
    out[1] = (unsigned char)(length >> 16);
    out[2] = (unsigned char)(length >> 8);
    out[3] = (unsigned char)length;
    memcpy(out + 4, payload, length);
    return length + 4;
}

/// Waits until `fd` is readable. Waiting in poll() rather than in a blocking recv() is
/// what event-driven clients (libdbus's among them) do; it matters on Linux, where a
/// thread asleep in recv() on a Unix stream socket is also woken, for nothing, whenever
/// the peer reads what this side wrote (the "write space" wake-up), at the peer's expense.
static inline int frame_wait_readable(int fd) {
    struct pollfd watched = {.fd = fd, .events = POLLIN};
    int ready;
    do ready = poll(&watched, 1, -1);
    while (ready < 0 && errno == EINTR);
    return ready < 0 ? -1 : 0;
}

static inline int frame_read_full(int fd, unsigned char *buffer, size_t count) {
    size_t got = 0;
    while (got < count) {
        if (frame_wait_readable(fd) < 0) return -1;
        ssize_t n = recv(fd, buffer + got, count - got, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    return 0;
}

/// Reads one frame's payload into `buffer`; its length, or -1.
static inline long frame_read(int fd, unsigned char *buffer, size_t capacity) {
    unsigned char header[4];
    if (frame_read_full(fd, header, 4) < 0) return -1;
    uint32_t size = frame_length(header);
    if (size > capacity || frame_read_full(fd, buffer, size) < 0) return -1;
    return (long)size;
}

static inline int frame_send_all(int fd, const unsigned char *bytes, size_t length) {
    while (length > 0) {
        ssize_t n = send(fd, bytes, length, MSG_NOSIGNAL);
        if (n <= 0) return -1;
        bytes += n;
        length -= (size_t)n;
    }
    return 0;
}

#endif
