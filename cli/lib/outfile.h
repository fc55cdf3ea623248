/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - -o FILE, written safely by a process that may run as root
 * where others can write: FILE's directory is opened once, its path
 * resolved without following a symbolic link (openat2
 * RESOLVE_NO_SYMLINKS: no link an ancestor's owner planted redirects
 * it), and refused when users other than its owner and our group may
 * write in it and it has no sticky bit (they could replace FILE at
 * will). In that directory, by its descriptor: a new file under a random
 * name (O_EXCL, O_NOFOLLOW: nothing planted is followed or written),
 * with the mode the umask gives (0666 & ~umask, as fopen() would),
 * renamed over FILE when complete (a symlink planted at FILE is
 * replaced, never followed; readers never see half a file).
 */
#ifndef UCT_OUTFILE_H
#define UCT_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

struct uct_outfile {
	FILE *f;			/* write here, then uct_outfile_commit() */
	int dirfd;			/* FILE's directory */
	char name[NAME_MAX + 1];	/* FILE's name in it */
	char tmp[NAME_MAX + 1];		/* the temporary's */
};

/* Open FILE's directory and create the temporary: 0, or -1 with errno
 * and what is wrong in msg (ELOOP: a symbolic link on the way; EPERM:
 * a directory others may write without the sticky bit; ENAMETOOLONG: no
 * room for the temporary's name; EISDIR: FILE names a directory). */
int uct_outfile_open(struct uct_outfile *o, const char *path, char *msg, size_t len);

/* Whether users other than st's owner and our group may write it (its
 * mode's o+w, or g+w for another group than ours); the sticky bit is the
 * caller's to weigh */
bool uct_others_may_write(const struct stat *st);

/* Close the temporary and rename it over FILE (or, with ok false, remove
 * it): 0, or -1 with errno; the temporary is gone either way. */
int uct_outfile_commit(struct uct_outfile *o, int ok);

#endif /* UCT_OUTFILE_H */
