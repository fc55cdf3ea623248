// SPDX-License-Identifier: GPL-2.0
/* outfile.c - -o FILE written under a random name, then renamed (outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "outfile.h"

static int fail(char *msg, size_t len, int err, const char *what)
{
	snprintf(msg, len, "%s", what);
	errno = err;
	return -1;
}

/* path's directory (its first dirlen bytes; slash: path has one),
 * resolved without a symbolic link */
static int open_dir(const char *path, size_t dirlen, bool slash, char *msg, size_t len)
{
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS };
	char dir[PATH_MAX];
	int fd;

	if (dirlen >= sizeof(dir))
		return fail(msg, len, ENAMETOOLONG, "its directory's path is too long");
	/* "x": here; "/x": the root */
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (!dirlen)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)dirlen, path);
	fd = (int)syscall(SYS_openat2, AT_FDCWD, dir, &how, sizeof(how));
	if (fd < 0 && errno == ELOOP)
		return fail(msg, len, ELOOP, "a component of its directory is a symbolic link "
			    "(-o follows none: name the directory as it is)");
	if (fd < 0) {
		int err = errno;

		snprintf(msg, len, "its directory: %s", strerror(err));
		errno = err;
	}
	return fd;
}

bool uct_others_may_write(const struct stat *st)
{
	return (st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid != getegid());
}

int uct_outfile_open(struct uct_outfile *o, const char *path, char *msg, size_t len)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const char *base = strrchr(path, '/');
	size_t dirlen = base ? (size_t)(base - path) : 0;
	bool slash = base != NULL;
	unsigned char rnd[6];
	struct stat st;
	int fd = -1, i, tries;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	base = base ? base + 1 : path;
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return fail(msg, len, EISDIR, "names a directory, not a file");
	if (strlen(base) + 8 > NAME_MAX)
		return fail(msg, len, ENAMETOOLONG, "its name leaves no room for the temporary's");
	snprintf(o->name, sizeof(o->name), "%s", base);
	o->dirfd = open_dir(path, dirlen, slash, msg, len);
	if (o->dirfd < 0)
		return -1;
	if (fstat(o->dirfd, &st)) {
		int err = errno;

		close(o->dirfd);
		o->dirfd = -1;
		return fail(msg, len, err, strerror(err));
	}
	/* others could replace FILE, unless the directory is sticky */
	if (!(st.st_mode & S_ISVTX) && uct_others_may_write(&st)) {
		close(o->dirfd);
		o->dirfd = -1;
		return fail(msg, len, EPERM, "others may write its directory, which has no "
			    "sticky bit: they could replace the file (write elsewhere, or "
			    "chmod +t or go-w the directory)");
	}
	/* mode 0666 & ~umask, as fopen() gives */
	for (tries = 0; fd < 0 && tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			break;
		snprintf(o->tmp, sizeof(o->tmp), ".%s.", base);
		for (i = 0; i < 6; i++)
			o->tmp[strlen(base) + 2 + i] = abc[rnd[i] % (sizeof(abc) - 1)];
		o->tmp[strlen(base) + 8] = 0;
		fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int err = fd < 0 && errno == EEXIST ? EEXIST : errno;

		if (fd >= 0) {
			close(fd);
			unlinkat(o->dirfd, o->tmp, 0);
		}
		close(o->dirfd);
		o->dirfd = -1;
		snprintf(msg, len, "cannot create a temporary file in its directory: %s",
			 strerror(err));
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
	if (ok && !err && renameat(o->dirfd, o->tmp, o->dirfd, o->name))
		err = errno;
	if (!ok || err)
		unlinkat(o->dirfd, o->tmp, 0);
	close(o->dirfd);
	o->dirfd = -1;
	errno = err;
	return err ? -1 : 0;
}
