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
 * caller closes it, ends with the caller. */
static void __attribute__((noreturn)) helper_main(struct uct_helper *h, int fd, pid_t parent)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGALRM, SIGWINCH };
	char *req = malloc(h->req_max ? h->req_max : 1), *reply = malloc(h->reply_max + 1);
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
	while (read_full(HELPER_FD, &n, sizeof(n)) && n <= h->req_max &&
	       read_full(HELPER_FD, req, n)) {
		size_t len = h->serve(h->arg, req, n, reply, h->reply_max);
		uint32_t rn = (uint32_t)(len < h->reply_max ? len : h->reply_max);

		if (!write_full(HELPER_FD, &rn, sizeof(rn)) || !write_full(HELPER_FD, reply, rn))
			break;
	}
	_exit(0);
}

static int start(struct uct_helper *h)
{
	int sv[2];
	pid_t parent = getpid(), pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (!pid) {
		close(sv[0]);
		helper_main(h, sv[1], parent);
	}
	close(sv[1]);
	h->fd = sv[0];
	h->pid = pid;
	h->started++;
	return 0;
}

/* Reap the stuck helpers that ended. */
size_t uct_helper_stuck(struct uct_helper *h)
{
	size_t i = 0;

	while (i < h->nstuck) {
		pid_t r = waitpid(h->stuck[i], NULL, WNOHANG);

		if (r == h->stuck[i] || (r < 0 && errno == ECHILD))
			h->stuck[i] = h->stuck[--h->nstuck];
		else
			i++;
	}
	return h->nstuck;
}

/* Walk away from the live helper: SIGKILL, taken when it can be. */
static void abandon(struct uct_helper *h)
{
	kill(h->pid, SIGKILL);
	close(h->fd);
	if (waitpid(h->pid, NULL, WNOHANG) == 0 && h->nstuck < UCT_HELPER_MAX_STUCK)
		h->stuck[h->nstuck++] = h->pid;
	h->fd = -1;
	h->pid = 0;
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
	if (h->pid) {
		/* EOF ends an idle helper: then it is reaped at once */
		close(h->fd);
		kill(h->pid, SIGKILL);
		if (waitpid(h->pid, NULL, WNOHANG) == 0 && h->nstuck < UCT_HELPER_MAX_STUCK)
			h->stuck[h->nstuck++] = h->pid;
		h->fd = -1;
		h->pid = 0;
	}
	uct_helper_stuck(h);
}
