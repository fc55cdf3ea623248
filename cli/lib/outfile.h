/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - -o FILE, written safely by a process that may run as root in
 * a directory others can write to: a new file under a random name next to
 * FILE (O_EXCL: nothing planted is followed or written), with the mode the
 * umask gives (0666 & ~umask, as fopen() would), renamed over FILE when
 * complete (rename() replaces a symlink planted at FILE, never its target;
 * readers never see half a file).
 */
#ifndef UCT_OUTFILE_H
#define UCT_OUTFILE_H

#include <limits.h>
#include <stdio.h>

struct uct_outfile {
	FILE *f;			/* write here, then uct_outfile_commit() */
	char path[PATH_MAX];		/* FILE */
	char tmp[PATH_MAX];		/* the temporary next to it */
};

/* Create the temporary: 0, or -1 with errno (ENAMETOOLONG for a path
 * whose temporary name does not fit). */
int uct_outfile_open(struct uct_outfile *o, const char *path);

/* Close the temporary and rename it over FILE (or, with ok false, remove
 * it): 0, or -1 with errno; the temporary is gone either way. */
int uct_outfile_commit(struct uct_outfile *o, int ok);

#endif /* UCT_OUTFILE_H */
