// SPDX-License-Identifier: GPL-2.0
/* check_cmd.c - run check's CMD, bounded (see check_cmd.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check_cmd.h"
#include "check_report.h"
#include "clock.h"
#include "privs.h"
#include "sleep.h"

#define KILL_GRACE_S	2.0	/* SIGTERM, then SIGKILL this much later */
#define POLL_S		0.02

static volatile sig_atomic_t got_signal, nsignals;

static void on_signal(int sig)
{
	got_signal = sig;
	nsignals++;
}

unsigned int check_cmd_signals(void)
{
	return nsignals;
}

/* Reap whatever has ended; note CMD's status. */
static void reap(struct check_cmd *r, bool *cmd_done)
{
	pid_t w;
	int st;

	while ((w = waitpid(-1, &st, WNOHANG)) > 0) {
		if (w == r->pid) {
			r->status = st;
			*cmd_done = true;
		}
	}
}

static bool any_child(void)
{
	siginfo_t si = { 0 };

	/* WNOWAIT: look without reaping; ECHILD: none left */
	return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) == 0;
}

/* Read "Name:", "Uid:" and "Threads:" of /proc/pid/status. */
static bool read_status(pid_t pid, struct check_left *l)
{
	char path[64], line[256];
	FILE *f;
	struct stat sb;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Name:", 5)) {
			char *s = line + 5;
			size_t n;

			while (*s == '\t' || *s == ' ')
				s++;
			n = strcspn(s, "\n");
			n = n < sizeof(l->comm) - 1 ? n : sizeof(l->comm) - 1;
			memcpy(l->comm, s, n);
			l->comm[n] = 0;
		} else if (!strncmp(line, "Uid:", 4)) {
			l->uid = (unsigned)strtoul(line + 4, NULL, 10);
		} else if (!strncmp(line, "Threads:", 8)) {
			l->threads = (unsigned)strtoul(line + 8, NULL, 10);
		}
	}
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	if (stat(path, &sb) == 0)
		l->userns = sb.st_ino;
	return true;
}

static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;
	long ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* "pid (comm) state ppid": comm may hold anything, so from the last ')' */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

/* The next descendant of ours in the /proc listing d, 0 at its end: a
 * process whose parent chain reaches us (orphans were reparented to us:
 * we are their subreaper). */
static pid_t next_descendant(DIR *d, pid_t self)
{
	struct dirent *e;
	pid_t pid, p;
	int depth;

	while ((e = readdir(d))) {
		pid = (pid_t)strtol(e->d_name, NULL, 10);
		if (pid <= 0 || pid == self)
			continue;
		for (p = parent_of(pid), depth = 0; p > 1 && p != self && depth < 4096; depth++)
			p = parent_of(p);
		if (p == self)
			return pid;
	}
	return 0;
}

/* Send sig to every descendant of ours: after a timeout or a forwarded
 * signal, those that left CMD's process group (a kselftest harness puts
 * each test in its own) end with it. */
static void signal_descendants(int sig)
{
	pid_t self = getpid(), pid;
	DIR *d = opendir("/proc");

	if (!d)
		return;
	while ((pid = next_descendant(d, self)))
		kill(pid, sig);
	closedir(d);
}

/* Every live descendant of ours. */
static int find_left(struct check_cmd *r)
{
	pid_t self = getpid(), pid;
	DIR *d = opendir("/proc");

	if (!d)
		return -errno;
	while ((pid = next_descendant(d, self))) {
		struct check_left l = { .pid = pid }, *n;

		if (!read_status(pid, &l))
			continue;	/* gone meanwhile */
		n = realloc(r->left, (r->nleft + 1) * sizeof(*n));
		if (!n) {
			closedir(d);
			return -ENOMEM;
		}
		r->left = n;
		r->left[r->nleft++] = l;
	}
	closedir(d);
	return 0;
}

int check_cmd_user(const char *spec, struct check_user *u, char *msg, size_t len)
{
	unsigned long long id, gid;
	const struct passwd *pw;
	char *end;

	memset(u, 0, sizeof(*u));
	if (*spec >= '0' && *spec <= '9') {
		errno = 0;
		id = strtoull(spec, &end, 10);
		gid = id;
		if (!errno && *end == ':' && end[1] >= '0' && end[1] <= '9')
			gid = strtoull(end + 1, &end, 10);
		if (errno || *end || id >= 0xffffffffULL || gid >= 0xffffffffULL) {
			snprintf(msg, len, "--user %s: not UID or UID:GID (decimal, below "
				 "4294967295)", spec);
			return UCT_EXIT_USAGE;
		}
		u->uid = (uid_t)id;
		u->gid = (gid_t)gid;
		u->set = true;
		return 0;
	}
	pw = getpwnam(spec);
	if (!pw) {
		snprintf(msg, len, "--user %s: no such user (getent passwd %s); a UID works "
			 "too", spec, spec);
		return UCT_EXIT_USAGE;
	}
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	u->ngroups = CHECK_MAX_GROUPS;
	if (getgrouplist(spec, u->gid, u->groups, &u->ngroups) < 0) {
		snprintf(msg, len, "--user %s: in more than %d groups", spec, CHECK_MAX_GROUPS);
		return UCT_EXIT_USAGE;
	}
	u->set = true;
	return 0;
}

/* In CMD's process: become user. 0 or errno */
static int become(const struct check_user *u)
{
	if (!u || !u->set)
		return 0;
	if (setgroups((size_t)u->ngroups, u->groups) || setresgid(u->gid, u->gid, u->gid) ||
	    setresuid(u->uid, u->uid, u->uid))
		return errno;
	return 0;
}

/* Every byte a terminal could act on (escape sequences, \r, C1 controls,
 * what is not ASCII) as '?': newline and tab stay */
static void terminal_safe(char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f)
			buf[i] = '?';
	}
}

static void relay_plain(const char *buf, size_t n, bool *line_start)
{
	fwrite(buf, 1, n, stdout);
	*line_start = buf[n - 1] == '\n';
}

/* Copy what CMD wrote so far to our standard output, each line indented
 * as a subtest's (KTAP nests a subtest 4 columns in); wait at most
 * wait_s for it. */
static void relay(struct check_cmd *r, double wait_s)
{
	struct pollfd p = { .fd = r->relay, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	if (r->relay < 0) {
		uct_sleep_s(wait_s, false);
		return;
	}
	/* a signal cuts the wait short, as the sleep would */
	if (poll(&p, 1, (int)(wait_s * 1000)) <= 0)
		return;
	while ((n = read(r->relay, buf, sizeof(buf))) > 0) {
		if (r->terminal_safe)
			terminal_safe(buf, (size_t)n);
		if (r->nest)
			check_report_nest(stdout, buf, (size_t)n, &r->at_line_start);
		else
			relay_plain(buf, (size_t)n, &r->at_line_start);
	}
	/* end of file: every writer is gone */
	if (!n) {
		close(r->relay);
		r->relay = -1;
	}
	fflush(stdout);
}

/* The last of it, and the subtest's last line ended */
static void relay_end(struct check_cmd *r)
{
	if (r->relay >= 0) {
		relay(r, 0);
		if (r->relay >= 0)
			close(r->relay);
		r->relay = -1;
	}
	if (!r->at_line_start) {
		putchar('\n');
		r->at_line_start = true;
	}
	fflush(stdout);
}

/* Start argv in its own process group (as another user, its own
 * session, stdin /dev/null); an exec failure comes back through a
 * close-on-exec pipe. With nest or as another user, its standard output
 * and error are a pipe whose read end goes to r->relay. */
static int start(char *const *argv, const struct check_user *user, bool nest,
		 struct check_cmd *r, char *msg, size_t len)
{
	int fds[2], out[2] = { -1, -1 }, err = 0;
	bool other = user && user->set, relayed = nest || other;
	ssize_t got;

	if (pipe2(fds, O_CLOEXEC) || (relayed && pipe2(out, O_CLOEXEC))) {
		snprintf(msg, len, "pipe: %s", strerror(errno));
		return UCT_EXIT_TOOL;
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0) {
		snprintf(msg, len, "cannot fork to run %s: %s", argv[0], strerror(errno));
		close(fds[0]);
		close(fds[1]);
		r->pid = 0;
		return UCT_EXIT_CMD;
	}
	if (r->pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* another user's CMD must not reach our terminal: no
		 * controlling terminal (TIOCSTI needs it), nothing to read
		 * from it, its output relayed */
		if (other) {
			int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

			if (setsid() < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0)
				_exit(127);
		} else {
			setpgid(0, 0);
		}
		close(fds[0]);
		if (relayed &&
		    (dup2(out[1], STDOUT_FILENO) < 0 || dup2(out[1], STDERR_FILENO) < 0))
			_exit(127);
		err = become(user);
		if (!err) {
			execvp(argv[0], argv);
			err = errno;
		}
		if (write(fds[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	/* both sides: whichever runs first (setsid() in CMD's must come
	 * first: a group leader cannot start a session) */
	if (!other)
		setpgid(r->pid, r->pid);
	close(fds[1]);
	if (relayed) {
		close(out[1]);
		r->relay = out[0];
		r->nest = nest;
		r->terminal_safe = other && isatty(STDOUT_FILENO);
		fcntl(r->relay, F_SETFL, O_NONBLOCK);
	}
	do
		got = read(fds[0], &err, sizeof(err));
	while (got < 0 && errno == EINTR);
	close(fds[0]);
	if (got == sizeof(err)) {
		waitpid(r->pid, NULL, 0);
		snprintf(msg, len, "cannot run '%s'%s: %s", argv[0],
			 user && user->set ? " as --user" : "", strerror(err));
		r->pid = 0;
		return UCT_EXIT_CMD;
	}
	return 0;
}

int check_cmd_run(char *const *argv, const struct check_user *user, double timeout,
		  double settle, bool nest, struct check_cmd *r, char *msg, size_t len)
{
	struct sigaction sa = { .sa_handler = on_signal };
	double t0, t_term = 0, t_sig = 0, t1;
	bool done = false;
	sig_atomic_t n_end;
	int err;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	r->relay = -1;
	r->at_line_start = true;
	got_signal = 0;
	nsignals = 0;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		fprintf(stderr, "ucounttop: PR_SET_CHILD_SUBREAPER: %s (orphans are not "
			"waited for)\n", strerror(errno));
	/* no SA_RESTART: a signal ends the pause at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	err = start(argv, user, nest, r, msg, len);
	if (err) {
		relay_end(r);
		return err;
	}
	/* CMD has what it was given; we keep what judging it still needs */
	if (uct_drop_privileges(uct_keep_check, msg, len)) {
		kill(-r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
		relay_end(r);
		return UCT_EXIT_TOOL;
	}
	t0 = uct_now_s();
	while (!done) {
		double now = uct_now_s();

		reap(r, &done);
		if (done)
			break;
		if (got_signal && !r->interrupted) {
			r->interrupted = got_signal;
			kill(-r->pid, got_signal);
			t_sig = now;
		}
		if (timeout > 0 && !r->timed_out && now - t0 >= timeout) {
			r->timed_out = true;
			kill(-r->pid, SIGTERM);
			signal_descendants(SIGTERM);
			t_term = now;
		}
		/* the group had its grace period: end it */
		if (!r->killed && ((t_term && now - t_term >= KILL_GRACE_S) ||
				   (t_sig && now - t_sig >= KILL_GRACE_S))) {
			r->killed = true;
			kill(-r->pid, SIGKILL);
			signal_descendants(SIGKILL);
		}
		/* cut short by a signal: forwarded at once, not a poll later */
		relay(r, POLL_S);
	}
	t1 = uct_now_s();
	r->cmd_s = t1 - t0;
	/* its descendants: at most settle, cut short by a signal that comes
	 * now (one forwarded while CMD ran went to them too: they get the
	 * time to die and be reaped, not judged half gone) */
	n_end = nsignals;
	/* A signal that came while CMD ran was forwarded to the whole group
	 * already: what is left gets that signal's grace period, not all of
	 * settle. (It may also have come just after CMD exited, before the
	 * loop above reaped it: the signal is the user's "stop" either way.) */
	if (r->interrupted && settle > KILL_GRACE_S)
		settle = KILL_GRACE_S;
	while (any_child() && uct_now_s() - t1 < settle && nsignals == n_end) {
		reap(r, &done);
		relay(r, POLL_S);
	}
	reap(r, &done);
	/* Timed out: nothing of CMD outlives it, whatever group it moved to
	 * or signal it ignored (a kselftest runner's next test starts
	 * clean). Reaped for at most the grace period. */
	if (r->timed_out && any_child()) {
		double t2 = uct_now_s();

		r->killed = true;
		signal_descendants(SIGKILL);
		while (any_child() && uct_now_s() - t2 < KILL_GRACE_S) {
			reap(r, &done);
			relay(r, POLL_S);
		}
		reap(r, &done);
	}
	relay_end(r);
	r->reap_s = uct_now_s() - t1;
	if (got_signal && !r->interrupted)
		r->interrupted = got_signal;
	err = find_left(r);
	if (err) {
		snprintf(msg, len, "listing the processes left running: %s", strerror(-err));
		return UCT_EXIT_TOOL;
	}
	return 0;
}

void check_cmd_free(struct check_cmd *r)
{
	free(r->left);
	r->left = NULL;
	r->nleft = 0;
}
