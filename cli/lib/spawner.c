// SPDX-License-Identifier: GPL-2.0
/* spawner.c - the process that keeps what a caller gave up (spawner.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "clock.h"
#include "spawner.h"

enum { OP_SPAWN = 1, OP_KILL, OP_CALL };

/* Every message: this header (with up to two descriptors), then len bytes */
struct msg_hdr {
	int32_t op_or_rc;		/* requests: OP_*; answers: 0 or -errno */
	uint32_t len;
	int32_t pid;
	uint32_t nfds;
};

#define MAX_CHILDREN	64	/* helpers alive at once: a few per caller */

/* Send hdr, fds and body in one go (no SIGPIPE); false when it failed */
static bool send_msg(int sock, struct msg_hdr *h, const int *fds, size_t nfds, const void *body)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = { 0 };
	struct iovec iov[2] = { { h, sizeof(*h) }, { (void *)body, h->len } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = h->len ? 2 : 1 };
	size_t want = sizeof(*h) + h->len, sent = 0;
	ssize_t r;

	h->nfds = (uint32_t)nfds;
	if (nfds) {
		struct cmsghdr *c;

		m.msg_control = cbuf;
		m.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	r = sendmsg(sock, &m, MSG_NOSIGNAL);
	if (r < 0)
		return false;
	sent = (size_t)r;
	/* a stream socket may take part of it: the rest, without descriptors */
	while (sent < want) {
		const char *p = sent < sizeof(*h) ? (const char *)h + sent :
				(const char *)body + (sent - sizeof(*h));
		size_t n = sent < sizeof(*h) ? sizeof(*h) - sent : want - sent;

		r = send(sock, p, n, MSG_NOSIGNAL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		sent += (size_t)r;
	}
	return true;
}

/* Wait until sock is readable or end passes (end 0: no deadline) */
static int wait_readable(int sock, double end)
{
	for (;;) {
		struct pollfd p = { .fd = sock, .events = POLLIN };
		double left = end ? end - uct_now_s() : -1;
		int r;

		if (end && left <= 0)
			return -ETIMEDOUT;
		r = poll(&p, 1, end ? (int)(left * 1000) + 1 : -1);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

/* Read exactly n bytes, the first chunk's descriptors into fds (at most
 * 2, *nfds of them; those past 2 are closed). 0, -EPIPE at EOF, -errno. */
static int recv_full(int sock, void *buf, size_t n, int fds[2], size_t *nfds, double end)
{
	char *p = buf;

	while (n) {
		char cbuf[CMSG_SPACE(4 * sizeof(int))];
		struct iovec iov = { p, n };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
		struct cmsghdr *c;
		ssize_t r;
		int err;

		if (fds) {
			m.msg_control = cbuf;
			m.msg_controllen = sizeof(cbuf);
		}
		if ((err = wait_readable(sock, end)))
			return err;
		r = recvmsg(sock, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EPIPE;
		for (c = fds ? CMSG_FIRSTHDR(&m) : NULL; c; c = CMSG_NXTHDR(&m, c)) {
			size_t i, k;

			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (i = 0; i < k; i++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
				if (*nfds < 2)
					fds[(*nfds)++] = fd;
				else
					close(fd);
			}
		}
		fds = NULL;	/* descriptors come with the first bytes only */
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* ---- the spawner --------------------------------------------------------- */

struct spawner_state {
	const struct uct_spawner_service *svc;
	int sock;
	pid_t children[MAX_CHILDREN];
	size_t nchildren;
};

static void reap(struct spawner_state *st)
{
	pid_t pid;
	size_t i;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		for (i = 0; i < st->nchildren; i++)
			if (st->children[i] == pid) {
				st->children[i] = st->children[--st->nchildren];
				break;
			}
}

static void do_spawn(struct spawner_state *st)
{
	struct msg_hdr a = { .op_or_rc = -EAGAIN };
	int fds[2] = { -1, -1 };
	pid_t pid, self = getpid();

	if (st->nchildren >= MAX_CHILDREN) {
		send_msg(st->sock, &a, NULL, 0, NULL);
		return;
	}
	pid = uct_fork_socket(&fds[0]);
	if (!pid) {
		close(st->sock);
		prctl(PR_SET_NAME, st->svc->helper_name);
		uct_helper_child(st->svc->serve, st->svc->serve_arg, st->svc->req_max,
				 st->svc->reply_max, fds[0], self);
	}
	if (pid > 0) {
		fds[1] = (int)syscall(SYS_pidfd_open, pid, 0);
		a.op_or_rc = fds[1] < 0 ? -errno : 0;
		if (fds[1] < 0)
			kill(pid, SIGKILL);
	} else {
		a.op_or_rc = (int32_t)pid;
	}
	if (!a.op_or_rc) {
		st->children[st->nchildren++] = pid;
		a.pid = pid;
	}
	send_msg(st->sock, &a, fds, a.op_or_rc ? 0 : 2, NULL);
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
}

static void do_kill(struct spawner_state *st, pid_t pid)
{
	size_t i;

	/* only a child not yet reaped: its pid cannot have gone to another */
	for (i = 0; i < st->nchildren; i++)
		if (st->children[i] == pid)
			kill(pid, SIGKILL);
}

static bool do_call(struct spawner_state *st, const struct msg_hdr *q, int fd)
{
	const struct uct_spawner_service *svc = st->svc;
	char *req = malloc(q->len ? q->len : 1), *reply = malloc(svc->call_reply_max + 1);
	struct msg_hdr a = { .op_or_rc = 0 };
	size_t dummy = 0;
	bool ok = false;

	if (req && reply && !recv_full(st->sock, req, q->len, NULL, &dummy, 0)) {
		if (svc->call) {
			a.len = (uint32_t)svc->call(svc->arg, req, q->len, fd, reply,
						    svc->call_reply_max);
			fd = -1;
		} else {
			a.op_or_rc = -EOPNOTSUPP;
		}
		ok = send_msg(st->sock, &a, NULL, 0, reply);
		/* a key may have passed through it */
		explicit_bzero(reply, a.len);
	}
	if (fd >= 0)
		close(fd);
	free(req);
	free(reply);
	return ok;
}

/* Close every descriptor but the ones kept (sock among them) */
static void close_others(const int *keep, size_t nkeep, int sock)
{
	int from = 3;

	for (;;) {
		int next = -1;
		size_t i;

		/* the smallest kept descriptor at or above from */
		if (sock >= from)
			next = sock;
		for (i = 0; i < nkeep; i++)
			if (keep[i] >= from && (next < 0 || keep[i] < next))
				next = keep[i];
		if (next < 0) {
			syscall(SYS_close_range, from, ~0U, 0);
			return;
		}
		if (next > from)
			syscall(SYS_close_range, from, next - 1, 0);
		from = next + 1;
	}
}

static void __attribute__((noreturn)) spawner_main(const struct uct_spawner_service *svc,
						   int sock, const int *keep, size_t nkeep)
{
	static const int quiet[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH, SIGQUIT };
	struct spawner_state st = { .svc = svc, .sock = sock };
	sigset_t none;
	size_t i;
	int null;

	/* the caller's terminal signals are the caller's: it ends us */
	for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		signal(quiet[i], SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	close_others(keep, nkeep, sock);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
	prctl(PR_SET_NAME, svc->name);
	if (svc->enter && svc->enter(svc->arg))
		_exit(1);
	for (;;) {
		struct msg_hdr q;
		int fds[2];
		size_t nfds = 0;
		int err;

		reap(&st);
		err = wait_readable(sock, uct_now_s() + 1);
		if (err == -ETIMEDOUT)
			continue;	/* a second without requests: reap */
		if (err || recv_full(sock, &q, sizeof(q), fds, &nfds, 0))
			break;
		for (i = q.op_or_rc == OP_CALL; i < nfds; i++)
			close(fds[i]);
		if (q.op_or_rc == OP_SPAWN)
			do_spawn(&st);
		else if (q.op_or_rc == OP_KILL)
			do_kill(&st, q.pid);
		/* an unknown request, or a call longer than the service takes,
		 * ends the exchange: the caller is out of step or hostile */
		else if (q.op_or_rc != OP_CALL || q.len > svc->call_max ||
			 !do_call(&st, &q, nfds ? fds[0] : -1))
			break;
	}
	if (svc->at_exit)
		svc->at_exit(svc->arg);
	/* the helpers see their socket close, or die with us */
	_exit(0);
}

int uct_spawner_start(struct uct_spawner *s, const struct uct_spawner_service *svc,
		      const int *keep, size_t nkeep)
{
	pid_t pid;
	int fd;

	s->fd = -1;
	s->call_reply_max = svc->call_reply_max;
	pid = uct_fork_socket(&fd);
	if (pid < 0)
		return (int)pid;
	if (!pid)
		spawner_main(svc, fd, keep, nkeep);
	s->fd = fd;
	s->pid = pid;
	return 0;
}

/* A broken exchange leaves the stream out of step: the spawner is let go */
static int lose(struct uct_spawner *s, int err)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	return err;
}

#define SPAWN_DEADLINE	5.0	/* a fork and a socket pair */

int uct_spawner_spawn(void *arg, int *fd, pid_t *pid, int *pidfd)
{
	struct uct_spawner *s = arg;
	struct msg_hdr q = { .op_or_rc = OP_SPAWN }, a;
	int fds[2];
	size_t nfds = 0;
	int err;

	if (s->fd < 0)
		return -EPIPE;
	if (!send_msg(s->fd, &q, NULL, 0, NULL))
		return lose(s, -EPIPE);
	err = recv_full(s->fd, &a, sizeof(a), fds, &nfds, uct_now_s() + SPAWN_DEADLINE);
	if (err || a.len) {
		while (nfds)
			close(fds[--nfds]);
		return lose(s, err ? err : -EPROTO);
	}
	if (a.op_or_rc || nfds != 2) {
		while (nfds)
			close(fds[--nfds]);
		return a.op_or_rc ? a.op_or_rc : -EPROTO;
	}
	*fd = fds[0];
	*pidfd = fds[1];
	*pid = a.pid;
	return 0;
}

void uct_spawner_kill(void *arg, pid_t pid)
{
	struct uct_spawner *s = arg;
	struct msg_hdr q = { .op_or_rc = OP_KILL, .pid = pid };

	if (s->fd >= 0 && !send_msg(s->fd, &q, NULL, 0, NULL))
		lose(s, -EPIPE);
}

int uct_spawner_call(struct uct_spawner *s, const void *req, size_t len, int fd, void *reply,
		     size_t *n, double deadline_s)
{
	struct msg_hdr q = { .op_or_rc = OP_CALL, .len = (uint32_t)len }, a;
	double end = uct_now_s() + deadline_s;
	size_t nfds = 0;
	int fds[2], err;

	*n = 0;
	if (s->fd < 0)
		return -EPIPE;
	if (!send_msg(s->fd, &q, &fd, fd >= 0, req))
		return lose(s, -EPIPE);
	err = recv_full(s->fd, &a, sizeof(a), fds, &nfds, end);
	while (nfds)
		close(fds[--nfds]);
	if (!err && a.len > s->call_reply_max)
		err = -EPROTO;
	if (!err)
		err = recv_full(s->fd, reply, a.len, NULL, &nfds, end);
	if (err)
		return lose(s, err);
	*n = a.len;
	return a.op_or_rc;
}

void uct_spawner_stop(struct uct_spawner *s, double deadline_s)
{
	double end = uct_now_s() + deadline_s;

	lose(s, 0);
	if (s->pid <= 0)
		return;
	/* it runs at_exit (unpinning, say) first: wait for that, a while */
	while (waitpid(s->pid, NULL, WNOHANG) == 0) {
		if (uct_now_s() >= end) {
			/* ours to kill while we have its credentials */
			if (!kill(s->pid, SIGKILL))
				waitpid(s->pid, NULL, 0);
			break;
		}
		usleep(10000);
	}
	s->pid = 0;
}
