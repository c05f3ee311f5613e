#define _GNU_SOURCE
#include "CSceneSystem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int scene_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int scene_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = events;
    event.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &event);
}

int scene_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) {
    return scene_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, events, data);
}

int scene_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data) {
    return scene_epoll_ctl(epfd, EPOLL_CTL_MOD, fd, events, data);
}

int scene_epoll_remove(int epfd, int fd) { return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL); }

int scene_epoll_wait(int epfd, scene_event *events, int capacity, int timeout_ms) {
    struct epoll_event raw[256];
    if (capacity > 256) capacity = 256;
    int count;
    do {
        count = epoll_wait(epfd, raw, capacity, timeout_ms);
    } while (count < 0 && errno == EINTR);
    for (int i = 0; i < count; i++) {
        events[i].events = raw[i].events;
        events[i].data = raw[i].data.u64;
    }
    return count;
}

int scene_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

// The wake-ups go through glibc's eventfd_write/eventfd_read, not write/read: an eventfd
// carries no data and its write fails only on a full counter, while an interposed write
// (libfiu's, which the disk-fault tests use to fail the journal's writes) could fail it
// with EIO, and a lost wake-up leaves work handed to the loop waiting forever.
int scene_eventfd_signal(int fd) {
    // A full counter (EAGAIN) still means the loop will wake.
    return (eventfd_write(fd, 1) == 0 || errno == EAGAIN) ? 0 : -1;
}

int scene_eventfd_drain(int fd) {
    eventfd_t value;
    return (eventfd_read(fd, &value) == 0 || errno == EAGAIN) ? 0 : -1;
}

int scene_unix_path_max(void) {
    struct sockaddr_un address;
    return (int)sizeof(address.sun_path) - 1;
}

static int scene_unix_address(const char *path, struct sockaddr_un *address) {
    size_t length = strlen(path);
    if (length == 0 || length > sizeof(address->sun_path) - 1) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    memcpy(address->sun_path, path, length);
    return 0;
}

int scene_unix_listen(const char *path, int backlog) {
    struct sockaddr_un address;
    if (scene_unix_address(path, &address) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0 || listen(fd, backlog) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int scene_unix_connect(const char *path, int nonblocking) {
    struct sockaddr_un address;
    if (scene_unix_address(path, &address) < 0) return -1;
    // Non-blocking from the start: a Unix connect never waits then, it fails with EAGAIN
    // when the listener's backlog is full.
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0) return -1;
    int result;
    do {
        result = connect(fd, (struct sockaddr *)&address, sizeof address);
    } while (result < 0 && errno == EINTR);
    if (result < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int scene_accept(int listener) {
    int fd;
    do {
        fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

int scene_peer_credentials(int fd, uid_t *uid, pid_t *pid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) < 0) return -1;
    *uid = credentials.uid;
    *pid = credentials.pid;
    return 0;
}

ssize_t scene_send(int fd, const void *bytes, size_t count) {
    ssize_t sent;
    do {
        sent = send(fd, bytes, count, MSG_NOSIGNAL | MSG_DONTWAIT);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t scene_sendv(int fd, const struct iovec *vectors, int count) {
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = (struct iovec *)vectors;
    message.msg_iovlen = (size_t)count;
    ssize_t sent;
    do {
        sent = sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t scene_recv(int fd, void *bytes, size_t capacity) {
    ssize_t got;
    do {
        got = recv(fd, bytes, capacity, MSG_DONTWAIT);
    } while (got < 0 && errno == EINTR);
    return got;
}

int scene_open_reserve(void) { return open("/dev/null", O_RDONLY | O_CLOEXEC); }

long scene_raise_open_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) < 0) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) < 0) return -1;
    }
    return scene_open_file_limit();
}

long scene_open_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) < 0) return -1;
    return limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > (rlim_t)LONG_MAX ? LONG_MAX : (long)limit.rlim_cur;
}

long scene_open_descriptor_count(void) {
    DIR *folder = opendir("/proc/self/fd");
    if (folder != NULL) {
        long count = 0;
        int own = dirfd(folder);
        struct dirent *entry;
        errno = 0;
        while ((entry = readdir(folder)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            if (atoi(entry->d_name) != own) count++;
        }
        int failed = errno != 0;
        closedir(folder);
        if (!failed) return count;
    }
    // No /proc (or no descriptor to read it with): ask each number, where that is cheap.
    long limit = scene_open_file_limit();
    if (limit < 0 || limit > 65536) return -1;
    long count = 0;
    for (int fd = 0; fd < limit; fd++) {
        if (fcntl(fd, F_GETFD) >= 0) count++;
    }
    return count;
}

int scene_set_cloexec(int fd, int on) {
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0) return -1;
    flags = on ? (flags | FD_CLOEXEC) : (flags & ~FD_CLOEXEC);
    return fcntl(fd, F_SETFD, flags);
}

// The linker names the bounds of every section whose name is a C identifier; weak, so an
// image without distributed functions links, and reads as NULL.
extern const char __start_swift5_accessible_functions[] __attribute__((weak));
extern const char __stop_swift5_accessible_functions[] __attribute__((weak));

const void *scene_distributed_functions_start(void) { return __start_swift5_accessible_functions; }

const void *scene_distributed_functions_end(void) { return __stop_swift5_accessible_functions; }
