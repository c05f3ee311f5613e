// Process spawning with what posix_spawn cannot do: a parent-death signal.
#define _GNU_SOURCE
#include "CSceneSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/// In the child between fork and exec: only async-signal-safe calls. Reports errno on
/// the pipe and exits 127 on failure.
static void scene_child(const char *file, char *const argv[], char *const envp[], const char *cwd,
                        pid_t parent, int report) {
    struct sigaction standard = {0};
    standard.sa_handler = SIG_DFL;
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP) sigaction(number, &standard, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int error = 0;
    if (setpgid(0, 0) != 0) goto fail;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) goto fail;
    // The parent may have died before the signal was armed.
    if (getppid() != parent) _exit(127);
    if (cwd != NULL && chdir(cwd) != 0) goto fail;
    if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        long last = sysconf(_SC_OPEN_MAX);
        if (last < 0 || last > 65536) last = 65536;
        for (int fd = 3; fd < last; fd++) {
            if (fd != report) fcntl(fd, F_SETFD, FD_CLOEXEC);
        }
    }
    execvpe(file, argv, envp);
fail:
    error = errno;
    (void)!write(report, &error, sizeof error);
    _exit(127);
}

pid_t scene_spawn(const char *file, char *const argv[], char *const envp[], const char *cwd) {
    int pipe[2];
    if (pipe2(pipe, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    // No signal handler of the parent may run in the child before exec resets them.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t pid = fork();
    if (pid == 0) scene_child(file, argv, envp, cwd, parent, pipe[1]);
    int forkError = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(pipe[1]);
    if (pid < 0) {
        close(pipe[0]);
        errno = forkError;
        return -1;
    }
    // The pipe closes at a successful exec; otherwise it carries the child's errno.
    int childError = 0;
    ssize_t got;
    do {
        got = read(pipe[0], &childError, sizeof childError);
    } while (got < 0 && errno == EINTR);
    close(pipe[0]);
    if (got == (ssize_t)sizeof childError) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        errno = childError;
        return -1;
    }
    return pid;
}

int scene_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int scene_reap(pid_t pid, int block, int *code, int *signal) {
    int status = 0;
    pid_t got;
    do {
        got = waitpid(pid, &status, block ? 0 : WNOHANG);
    } while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    if (got == 0) return 0;
    *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    *signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return 1;
}

pid_t scene_spawn_plain(const char *file, char *const argv[], char *const envp[], int out_fd, int err_fd) {
    posix_spawn_file_actions_t actions;
    int error = posix_spawn_file_actions_init(&actions);
    if (error != 0) {
        errno = error;
        return -1;
    }
    if (out_fd >= 0) error = posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    if (error == 0 && err_fd >= 0) error = posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
    if (error == 0) error = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    // The caller may be a thread that blocks signals (Swift's concurrency threads do): the
    // child starts with none blocked and every disposition at its default.
    posix_spawnattr_t attributes;
    if (error == 0) error = posix_spawnattr_init(&attributes);
    if (error != 0) {
        posix_spawn_file_actions_destroy(&actions);
        errno = error;
        return -1;
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    if (error == 0) error = posix_spawn(&pid, file, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
        errno = error;
        return -1;
    }
    return pid;
}

int scene_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int scene_allow_tracing(void) {
#ifdef PR_SET_PTRACER
    return prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}
