// A small C boundary for what Swift cannot call safely or at all on Linux: epoll (its
// event struct is packed), eventfd, accept4, SO_PEERCRED, and Unix socket addresses.
// Every function returns -1 and leaves errno set on failure, like the calls it wraps.
#ifndef CSCENESYSTEM_H
#define CSCENESYSTEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/// One readiness event, unpacked.
typedef struct {
    uint32_t events;
    uint64_t data;
} scene_event;

enum {
    SCENE_EPOLLIN = 0x001,
    SCENE_EPOLLOUT = 0x004,
    SCENE_EPOLLERR = 0x008,
    SCENE_EPOLLHUP = 0x010,
    SCENE_EPOLLRDHUP = 0x2000,
};

int scene_epoll_create(void);
int scene_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
int scene_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data);
int scene_epoll_remove(int epfd, int fd);
/// Waits up to `timeout_ms` (-1: forever); fills at most `capacity` events.
int scene_epoll_wait(int epfd, scene_event *events, int capacity, int timeout_ms);

/// A non-blocking, close-on-exec eventfd.
int scene_eventfd(void);
int scene_eventfd_signal(int fd);
int scene_eventfd_drain(int fd);

/// The longest path a Unix socket address holds (107 bytes on Linux, without the NUL).
int scene_unix_path_max(void);
/// A non-blocking, close-on-exec Unix stream socket bound to `path` and listening.
int scene_unix_listen(const char *path, int backlog);
/// A close-on-exec Unix stream socket connected to `path`; with `nonblocking` the socket
/// is non-blocking from the start and a full backlog fails with EAGAIN.
int scene_unix_connect(const char *path, int nonblocking);
/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
int scene_accept(int listener);
/// The peer's credentials (SO_PEERCRED).
int scene_peer_credentials(int fd, uid_t *uid, pid_t *pid);

/// send(2) with MSG_NOSIGNAL and MSG_DONTWAIT: a closed peer is an error, never SIGPIPE.
ssize_t scene_send(int fd, const void *bytes, size_t count);
/// sendmsg(2) of an iovec array with MSG_NOSIGNAL and MSG_DONTWAIT.
ssize_t scene_sendv(int fd, const struct iovec *vectors, int count);
ssize_t scene_recv(int fd, void *bytes, size_t capacity);

/// A spare descriptor (on /dev/null), kept so that a server out of descriptors can still
/// accept and close a connection instead of spinning on it.
int scene_open_reserve(void);
/// Raises the soft open-file limit to the hard limit; returns the new soft limit (as
/// scene_open_file_limit does), or -1.
long scene_raise_open_file_limit(void);
/// The soft open-file limit (LONG_MAX when unlimited), or -1.
long scene_open_file_limit(void);
/// How many descriptors this process has open: from /proc/self/fd, else by asking each
/// number below a soft limit of at most 65536; -1 when neither can tell.
long scene_open_descriptor_count(void);
/// Sets or clears FD_CLOEXEC.
int scene_set_cloexec(int fd, int on);

/// Starts `file` (searched in PATH when it has no slash) with `argv` and `envp`, in `cwd`
/// when not NULL, as the leader of a new process group, with every descriptor above 2
/// closed at exec and SIGKILL as its parent-death signal (so it cannot outlive the
/// calling thread), with default signal dispositions and an empty signal mask.
/// Returns the pid once the exec has succeeded; on failure returns -1 with errno set to
/// the failing call's error (the exec's own, when the child could not exec).
pid_t scene_spawn(const char *file, char *const argv[], char *const envp[], const char *cwd);
/// Starts `file` (a path) with `argv` and `envp` as an ordinary child — same process
/// group, no parent-death signal — with its standard output and error on `out_fd` and
/// `err_fd` (left alone when -1), no other descriptor of the caller beyond 0, 1 and 2, no
/// signal blocked and every signal's disposition at its default.
/// For short-lived helpers whose output the caller reads. Returns the pid, or -1 with
/// errno set.
pid_t scene_spawn_plain(const char *file, char *const argv[], char *const envp[], int out_fd, int err_fd);
/// A pipe whose two ends are close-on-exec; 0, or -1 with errno set.
int scene_pipe(int fds[2]);
/// A pidfd for `pid` (readable once it has exited), close-on-exec.
int scene_pidfd_open(pid_t pid);
/// Lets any process of the same user trace this one (Yama's PR_SET_PTRACER), so that a
/// debugger it starts can attach to it for a thread dump; 0, or -1 with errno set (and
/// -1 with ENOSYS where the kernel has no such setting, where it is not needed).
int scene_allow_tracing(void);
/// Reaps `pid` without blocking when `block` is 0: returns 1 with `code` (exit status, or
/// -1) and `signal` (the terminating signal, or 0) when it has ended, 0 while it runs.
int scene_reap(pid_t pid, int block, int *code, int *signal);

/// The Swift runtime's table of distributed functions compiled into this image (its
/// `swift5_accessible_functions` section): the first byte, and one past the last; both
/// NULL when the image has none. Each record is five 32-bit fields, the first a relative
/// pointer to the function's mangled name.
const void *scene_distributed_functions_start(void);
const void *scene_distributed_functions_end(void);

/// The Swift runtime's demangler: a malloc'ed C string, or NULL when `name` does not
/// demangle.
char *swift_demangle(const char *name, size_t length, char *buffer, size_t *buffer_size, uint32_t flags);

#endif
