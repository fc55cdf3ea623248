// SPDX-License-Identifier: GPL-2.0
/* mapdump.c - read a whole BPF hash map, each entry once (see mapdump.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "grow.h"
#include "mapdump.h"

static int grow(struct uct_dump *d, size_t need)
{
	return uct_grow((void **)&d->elems, &d->cap, need, d->esz);
}

static int grow_scratch(struct uct_dump *d, size_t entries, size_t ksz, size_t vsz)
{
	void *k, *v;

	if (entries <= d->scratch)
		return 0;
	k = realloc(d->keys, entries * ksz);
	if (!k)
		return -ENOMEM;
	d->keys = k;
	v = realloc(d->vals, entries * vsz);
	if (!v)
		return -ENOMEM;
	d->vals = v;
	d->scratch = entries;
	return 0;
}

static void add(struct uct_dump *d, const void *key, size_t ksz, const void *val, size_t vsz)
{
	char *e = d->elems + d->n * d->esz;

	memset(e, 0, d->esz);
	memcpy(e, key, ksz);
	memcpy(e + d->voff, val, vsz);
	d->n++;
}

static int dump_batch(int fd, struct uct_dump *d, size_t ksz, size_t vsz, size_t max)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	/* the batch cursor of a hash map is a bucket index (u32); give it
	 * room for a key in case the map type uses one */
	char in[64], out[64];
	size_t chunk = max ? max : 1024, i;
	bool first = true;
	int err;

	for (;;) {
		__u32 count;

		err = grow_scratch(d, chunk, ksz, vsz);
		if (err)
			return err;
		count = chunk;
		err = bpf_map_lookup_batch(fd, first ? NULL : in, out, d->keys, d->vals, &count,
					   &opts);
		if (err && errno == ENOSPC && !count) {
			/* one bucket holds more than chunk entries */
			chunk *= 2;
			continue;
		}
		if (err && errno != ENOENT)
			return -errno;
		d->batches++;
		if (grow(d, d->n + count))
			return -ENOMEM;
		for (i = 0; i < count; i++)
			add(d, (char *)d->keys + i * ksz, ksz, (char *)d->vals + i * vsz, vsz);
		if (err)	/* ENOENT: that was the last batch */
			return 0;
		memcpy(in, out, sizeof(in));
		first = false;
	}
}

static int key_cmp(const void *a, const void *b, void *ksz)
{
	return memcmp(a, b, *(size_t *)ksz);
}

/* get_next_key walk; a restart after a concurrent delete repeats entries,
 * which are dropped by key. */
static int dump_walk(int fd, struct uct_dump *d, size_t ksz, size_t vsz)
{
	char key[64], next[64];
	void *prev = NULL, *val;
	size_t i, j;

	val = malloc(vsz);
	if (!val)
		return -ENOMEM;
	while (bpf_map_get_next_key(fd, prev, next) == 0) {
		if (grow(d, d->n + 1)) {
			free(val);
			return -ENOMEM;
		}
		/* an entry may vanish between next_key and lookup: skip it */
		if (bpf_map_lookup_elem(fd, next, val) == 0)
			add(d, next, ksz, val, vsz);
		memcpy(key, next, ksz);
		prev = key;
	}
	free(val);
	qsort_r(d->elems, d->n, d->esz, key_cmp, &ksz);
	for (i = j = 0; i < d->n; i++) {
		if (j && !memcmp(d->elems + (j - 1) * d->esz, d->elems + i * d->esz, ksz))
			continue;
		if (i != j)
			memcpy(d->elems + j * d->esz, d->elems + i * d->esz, d->esz);
		j++;
	}
	d->n = j;
	return 0;
}

int uct_dump_map(int fd, struct uct_dump *d)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	size_t ksz, vsz;
	int err;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	ksz = info.key_size;
	vsz = info.value_size;
	if (ksz > 64 || d->voff < ksz || d->esz < d->voff + vsz)
		return -EINVAL;
	d->n = 0;
	d->batches = 0;
	if (!d->fallback) {
		err = dump_batch(fd, d, ksz, vsz, info.max_entries);
		if (!err)
			return 0;
		if (err != -EINVAL && err != -ENOTSUP && err != -EOPNOTSUPP && err != -524)
			return err;
		d->fallback = 1;	/* ENOTSUPP (524): no batch ops for this map */
		d->n = 0;
	}
	return dump_walk(fd, d, ksz, vsz);
}

void uct_dump_free(struct uct_dump *d)
{
	free(d->elems);
	free(d->keys);
	free(d->vals);
	memset(d, 0, sizeof(*d));
}

int uct_dump_map_array(int fd, size_t esz, size_t voff, void **out, size_t *n)
{
	struct uct_dump d = { .esz = esz, .voff = voff };
	int err = uct_dump_map(fd, &d);

	if (!err) {
		*out = d.elems;
		*n = d.n;
		d.elems = NULL;
	}
	uct_dump_free(&d);
	return err;
}

int uct_clear_map(int fd)
{
	char key[64];

	/* always the first key: deleting it moves every cursor */
	while (bpf_map_get_next_key(fd, NULL, key) == 0)
		if (bpf_map_delete_elem(fd, key) && errno != ENOENT)
			return -errno;
	return errno == ENOENT ? 0 : -errno;
}
