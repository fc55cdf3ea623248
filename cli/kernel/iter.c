// SPDX-License-Identifier: GPL-2.0
/*
 * iter.c - reads of BPF iterators: any iterator link (check's too), the
 * live view's snapshot and every process's leaf limits.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader.h"
#include "ucounttop.skel.h"

/*
 * Run an iterator once and read all it writes into *buf (grown as needed,
 * kept by the caller across calls). 0 or -errno.
 */
int uct_read_iter(struct bpf_link *link, char **buf, size_t *cap, size_t *used)
{
	ssize_t got;
	int fd = bpf_iter_create(bpf_link__fd(link));

	if (fd < 0)
		return -errno;
	*used = 0;
	for (;;) {
		if (*cap - *used < 4096) {
			size_t ncap = *cap ? *cap * 2 : 64 * 1024;
			char *p = realloc(*buf, ncap);

			if (!p) {
				close(fd);
				return -ENOMEM;
			}
			*buf = p;
			*cap = ncap;
		}
		got = read(fd, *buf + *used, *cap - *used);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = -errno;

			close(fd);
			return e;
		}
		if (!got)
			break;
		*used += got;
	}
	close(fd);
	return 0;
}

int uct_loader_snapshot(struct uct_loader *l, const struct uct_rec **recs, size_t *n)
{
	size_t used;
	int err;

	/* a new generation makes the task iterator's dedup map stale at once */
	l->skel->bss->snap_gen++;
	err = uct_read_iter(l->iter_link, &l->snap_buf, &l->snap_cap, &used);
	if (err)
		return err;
	*recs = (const struct uct_rec *)l->snap_buf;
	*n = used / sizeof(struct uct_rec);
	return 0;
}

int uct_loader_task_limits(struct uct_loader *l, const struct uct_tlim **v, size_t *n)
{
	size_t used;
	int err;

	if (!l->tlim_link)
		return -ENOENT;
	err = uct_read_iter(l->tlim_link, &l->tlim_buf, &l->tlim_cap, &used);
	if (err)
		return err;
	*v = (const struct uct_tlim *)l->tlim_buf;
	*n = used / sizeof(struct uct_tlim);
	return 0;
}
