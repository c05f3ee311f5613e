#define _GNU_SOURCE
// The physical limit: a length-prefixed echo server over a Unix socket, one epoll thread.
// Every complete frame is written back as it came. Usage: echo SOCKET-PATH
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "frame.h"

typedef struct {
    int fd;
    unsigned char in[65536];
    size_t used;
} conn;

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: echo SOCKET\n"); return 2; }
    signal(SIGPIPE, SIG_IGN);
    int listener = frame_listen(argv[1]);
    if (listener < 0) { perror("bind"); return 1; }
    int epoll = frame_epoll_listening(listener);
    if (epoll < 0) { perror("epoll"); return 1; }
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
            for (;;) {
                ssize_t got = recv(c->fd, c->in + c->used, sizeof c->in - c->used, 0);
                if (got <= 0) {
                    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
                    close(c->fd);
                    free(c);
                    c = NULL;
                    break;
                }
                c->used += (size_t)got;
                size_t offset = 0;
                while (c->used - offset >= 4) {
                    uint32_t length = (uint32_t)c->in[offset] << 24 | (uint32_t)c->in[offset + 1] << 16 |
                                      (uint32_t)c->in[offset + 2] << 8 | c->in[offset + 3];
                    if (c->used - offset - 4 < length) break;
                    // Blocking-style write of a small frame: the client reads before it writes again.
                    ssize_t sent = send(c->fd, c->in + offset, 4 + length, MSG_NOSIGNAL);
                    (void)sent;
                    offset += 4 + length;
                }
                memmove(c->in, c->in + offset, c->used - offset);
                c->used -= offset;
            }
        }
    }
}
