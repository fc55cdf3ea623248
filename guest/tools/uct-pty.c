// SPDX-License-Identifier: GPL-2.0
/*
 * uct-pty - run a command on a pseudo-terminal of a given size, type keys
 * into it, and copy everything it draws to stdout. Lets the guest tests
 * drive ucounttop's full-screen view without a real terminal.
 *
 *   uct-pty COLSxROWS KEYS -- CMD [ARGS]
 *
 * The first key is sent once CMD has drawn its first full frame (its
 * output contains the key line, "q quit"), then one key every 400 ms.
 * In KEYS, '~' stands for the Down arrow and '^' for Up, '}' for PgDn
 * and '{' for PgUp, '`' for Esc, '|' for Enter and '<' for Backspace.
 * Exits with CMD's status, or 124 when it did not exit within 30 s of
 * the last key.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct winsize ws = { 0 };
	unsigned cols, rows;
	const char *keys;
	char seen[8192] = "";
	size_t seen_len = 0;
	double next_key = 0, deadline = 0;
	int master, status = 0;
	pid_t pid;

	if (argc < 5 || strcmp(argv[3], "--") || sscanf(argv[1], "%ux%u", &cols, &rows) != 2) {
		fprintf(stderr, "usage: uct-pty COLSxROWS KEYS -- CMD [ARGS]\n");
		return 2;
	}
	keys = argv[2];
	ws.ws_col = cols;
	ws.ws_row = rows;
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		perror("uct-pty: posix_openpt");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		int slave;

		setsid();
		slave = open(ptsname(master), O_RDWR);
		if (slave < 0) {
			perror("uct-pty: open slave");
			_exit(1);
		}
		ioctl(slave, TIOCSCTTY, 0);
		ioctl(slave, TIOCSWINSZ, &ws);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		close(master);
		execv(argv[4], argv + 4);
		perror("uct-pty: execv");
		_exit(127);
	}
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (poll(&pfd, 1, 50) > 0) {
			n = read(master, buf, sizeof(buf));
			if (n <= 0)
				break;	/* EIO: the slave side is closed */
			fwrite(buf, 1, n, stdout);
			/* remember the tail to spot the first frame */
			if (!next_key) {
				size_t k = (size_t)n < sizeof(seen) - 1 - seen_len ? (size_t)n :
					   sizeof(seen) - 1 - seen_len;

				memcpy(seen + seen_len, buf, k);
				seen_len += k;
				seen[seen_len] = 0;
				if (strstr(seen, "q quit"))
					next_key = now() + 0.4;
			}
		}
		if (next_key && *keys && now() >= next_key) {
			const char *seq = *keys == '~' ? "\033[B" : *keys == '^' ? "\033[A" :
					  *keys == '}' ? "\033[6~" : *keys == '{' ? "\033[5~" :
					  *keys == '`' ? "\033" : *keys == '|' ? "\r" :
					  *keys == '<' ? "\177" : NULL;

			if (seq)
				write(master, seq, strlen(seq));
			else
				write(master, keys, 1);
			keys++;
			next_key = now() + 0.4;
			if (!*keys)
				deadline = now() + 30;
		}
		if (deadline && now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			fflush(stdout);
			return 124;
		}
		if (waitpid(pid, &status, WNOHANG) == pid) {
			/* drain what is left */
			while (poll(&pfd, 1, 0) > 0 && (n = read(master, buf, sizeof(buf))) > 0)
				fwrite(buf, 1, n, stdout);
			fflush(stdout);
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		}
	}
	waitpid(pid, &status, 0);
	fflush(stdout);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
