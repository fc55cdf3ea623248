// SPDX-License-Identifier: GPL-2.0
/*
 * uct-tty-probe - what a command can do to the terminal it was started
 * from, as a hostile CMD of `check --user` would try:
 *
 *   uct-tty-probe
 *
 * prints one line, "ctty=yes|no stdin=PATH tiocsti=ok|ERRNO": whether it
 * has a controlling terminal (/dev/tty opens), what its standard input
 * is, and whether TIOCSTI on its standard input (pushing "id -u\n" into
 * the terminal's input, for a root shell to run) worked. Then it writes
 * an escape sequence that sets the terminal's title and clears the
 * screen, and a carriage return, for the caller to look for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(void)
{
	const char *inject = "id -u\n", *p;
	char in[256] = "";
	ssize_t n = readlink("/proc/self/fd/0", in, sizeof(in) - 1);
	int tty = open("/dev/tty", O_RDWR | O_NOCTTY), err = 0;

	if (n > 0)
		in[n] = 0;
	for (p = inject; *p && !err; p++)
		if (ioctl(0, TIOCSTI, p))
			err = errno;
	printf("ctty=%s stdin=%s tiocsti=%s\n", tty >= 0 ? "yes" : "no", in,
	       err ? strerror(err) : "ok");
	printf("\033]0;pwned\007\033[2J\rtail\n");
	return 0;
}
