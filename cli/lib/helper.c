// SPDX-License-Identifier: GPL-2.0
/* helper.c - a child process asked with a deadline (see helper.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "clock.h"
#include "helper.h"

#define HELPER_FD	3	/* the helper's end of the socket */

void uct_helper_init(struct uct_helper *h, uct_helper_serve_fn serve, void *arg, size_t req_max,
		     size_t reply_max)
{
	memset(h, 0, sizeof(*h));
	h->serve = serve;
	h->arg = arg;
	h->req_max = req_max;
	h->reply_max = reply_max;
	h->fd = -1;
	h->pidfd = -1;
}

void uct_helper_use_spawner(struct uct_helper *h, uct_helper_start_fn start,
			    uct_helper_kill_fn kill, void *arg)
{
	h->start = start;
	h->kill = kill;
	h->spawner = arg;
}

/* All n bytes in (out false: read) or out (sent, no SIGPIPE) */
static bool transfer(int fd, void *buf, size_t n, bool out)
{
	char *p = buf;
	ssize_t r;

	while (n) {
		r = out ? send(fd, p, n, MSG_NOSIGNAL) : read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static bool read_full(int fd, void *buf, size_t n)
{
	return transfer(fd, buf, n, false);
}

static bool write_full(int fd, const void *buf, size_t n)
{
	return transfer(fd, (void *)buf, n, true);
}

/* The helper: nothing of the caller's but the socket; answers until the
 * caller closes it, ends with its parent. */
void uct_helper_child(uct_helper_serve_fn serve, void *arg, size_t req_max, size_t reply_max,
		      int fd, pid_t parent)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGALRM, SIGWINCH };
	char *req = malloc(req_max ? req_max : 1), *reply = malloc(reply_max + 1);
	sigset_t none;
	uint32_t n;
	size_t i;
	int null;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent || !req || !reply)
		_exit(1);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* out of the way of 0-2 first: the caller may have closed those */
	fd = fcntl(fd, F_DUPFD, 10);
	null = open("/dev/null", O_RDWR);
	if (fd < 0 || null < 0)
		_exit(1);
	for (i = 0; i < 3; i++)
		dup2(null, (int)i);
	if (dup2(fd, HELPER_FD) < 0)
		_exit(1);
	/* a stuck helper must hold no port, pipe or file of the caller's */
	syscall(SYS_close_range, HELPER_FD + 1, ~0U, 0);
	while (read_full(HELPER_FD, &n, sizeof(n)) && n <= req_max &&
	       read_full(HELPER_FD, req, n)) {
		size_t len = serve(arg, req, n, reply, reply_max);
		uint32_t rn = (uint32_t)(len < reply_max ? len : reply_max);

		if (!write_full(HELPER_FD, &rn, sizeof(rn)) || !write_full(HELPER_FD, reply, rn))
			break;
	}
	_exit(0);
}

pid_t uct_fork_socket(int *fd)
{
	int sv[2], err;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid = fork();
	err = -errno;
	close(sv[pid ? 1 : 0]);
	if (pid < 0) {
		close(sv[0]);
		return err;
	}
	*fd = sv[pid ? 0 : 1];
	return pid;
}

static int start(struct uct_helper *h)
{
	int fd;
	pid_t parent = getpid(), pid;

	if (h->start) {
		int err = h->start(h->spawner, &h->fd, &h->pid, &h->pidfd);

		if (err) {
			h->fd = -1;
			h->pid = 0;
			h->pidfd = -1;
			return err;
		}
		h->started++;
		return 0;
	}
	pid = uct_fork_socket(&fd);
	if (pid < 0)
		return (int)pid;
	if (!pid)
		uct_helper_child(h->serve, h->arg, h->req_max, h->reply_max, fd, parent);
	h->fd = fd;
	h->pid = pid;
	h->started++;
	return 0;
}

/* Whether helper pid (pidfd, when not our child) has ended, reaped if
 * it is our child */
static bool ended(pid_t pid, int pidfd)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	pid_t r;

	if (pidfd >= 0)
		return poll(&pfd, 1, 0) > 0;	/* readable once it exited */
	r = waitpid(pid, NULL, WNOHANG);
	return r == pid || (r < 0 && errno == ECHILD);
}

/* Reap the stuck helpers that ended. */
size_t uct_helper_stuck(struct uct_helper *h)
{
	size_t i = 0;

	while (i < h->nstuck) {
		if (ended(h->stuck[i], h->stuck_pidfd[i])) {
			if (h->stuck_pidfd[i] >= 0)
				close(h->stuck_pidfd[i]);
			h->nstuck--;
			h->stuck[i] = h->stuck[h->nstuck];
			h->stuck_pidfd[i] = h->stuck_pidfd[h->nstuck];
		} else {
			i++;
		}
	}
	return h->nstuck;
}

/* Walk away from the live helper: SIGKILL, taken when it can be; kept
 * among the stuck until it ends (forgotten if no room is left: its
 * parent reaps it) */
static void abandon(struct uct_helper *h)
{
	if (h->kill)
		h->kill(h->spawner, h->pid);
	else
		kill(h->pid, SIGKILL);
	close(h->fd);
	if (!ended(h->pid, h->pidfd) && h->nstuck < UCT_HELPER_MAX_STUCK) {
		h->stuck[h->nstuck] = h->pid;
		h->stuck_pidfd[h->nstuck++] = h->pidfd;
	} else if (h->pidfd >= 0) {
		close(h->pidfd);
	}
	h->fd = -1;
	h->pid = 0;
	h->pidfd = -1;
}

/* Read n bytes from the helper before end; -ETIMEDOUT past it. */
static int read_by(struct uct_helper *h, void *buf, size_t n, double end)
{
	char *p = buf;

	while (n) {
		struct pollfd pfd = { .fd = h->fd, .events = POLLIN };
		double left = end - uct_now_s();
		ssize_t r;
		int pr;

		if (left <= 0)
			return -ETIMEDOUT;
		pr = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return -errno;
		if (!pr)
			continue;	/* the loop's clock decides */
		r = read(h->fd, p, n);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EPIPE;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int uct_helper_call(struct uct_helper *h, const void *req, size_t req_len, void *reply,
		    size_t *reply_len, double deadline_s)
{
	uint32_t n = (uint32_t)req_len;
	double end;
	int err;

	*reply_len = 0;
	if (req_len > h->req_max)
		return -EINVAL;
	if (!h->pid) {
		if (uct_helper_stuck(h) >= UCT_HELPER_MAX_STUCK)
			return -EAGAIN;
		if ((err = start(h)))
			return err;
	}
	end = uct_now_s() + deadline_s;
	if (!write_full(h->fd, &n, sizeof(n)) || !write_full(h->fd, req, req_len)) {
		abandon(h);
		return -EPIPE;
	}
	err = read_by(h, &n, sizeof(n), end);
	if (!err && n > h->reply_max)
		err = -EPROTO;
	if (!err)
		err = read_by(h, reply, n, end);
	if (err) {
		if (err == -ETIMEDOUT)
			h->abandoned++;
		abandon(h);
		return err;
	}
	*reply_len = n;
	return 0;
}

void uct_helper_close(struct uct_helper *h)
{
	/* EOF ends an idle helper: then it is reaped at once */
	if (h->pid)
		abandon(h);
	uct_helper_stuck(h);
}
