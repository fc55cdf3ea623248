// SPDX-License-Identifier: GPL-2.0
/* outfile.c - -o FILE written under a random name, then renamed (outfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "outfile.h"

int uct_outfile_open(struct uct_outfile *o, const char *path)
{
	const char *base = strrchr(path, '/');
	int dirlen = base ? (int)(base - path) + 1 : 0, fd, len;
	mode_t mask;

	memset(o, 0, sizeof(*o));
	base = base ? base + 1 : path;
	len = snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.XXXXXX", dirlen, path, base);
	if (len < 0 || len >= (int)sizeof(o->tmp) ||
	    snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0)
		return -1;
	/* mkstemp() makes it 0600: give it what fopen() would, the umask's
	 * (read by setting it, and set back at once: one thread) */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(o->f = fdopen(fd, "w"))) {
		int err = errno;

		close(fd);
		unlink(o->tmp);
		errno = err;
		return -1;
	}
	return 0;
}

int uct_outfile_commit(struct uct_outfile *o, int ok)
{
	int err = 0;

	if (fclose(o->f))
		err = errno;
	o->f = NULL;
	if (ok && !err && rename(o->tmp, o->path))
		err = errno;
	if (!ok || err)
		unlink(o->tmp);
	errno = err;
	return err ? -1 : 0;
}
