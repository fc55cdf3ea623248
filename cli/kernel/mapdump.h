/* SPDX-License-Identifier: GPL-2.0 */
/* mapdump.h - read a whole BPF hash map, each entry once. */
#ifndef UCT_MAPDUMP_H
#define UCT_MAPDUMP_H

#include <stddef.h>

/*
 * A map read into an array of elements of esz bytes each: the key at
 * offset 0, the value at voff. The buffer is kept across calls (grown as
 * needed) and freed by uct_dump_free().
 */
struct uct_dump {
	char *elems;
	size_t n;		/* elements read */
	size_t cap;		/* elements the buffer holds */
	size_t esz, voff;
	/* scratch for the batch calls */
	void *keys, *vals;
	size_t scratch;		/* entries keys/vals hold */
	unsigned batches;	/* BPF_MAP_LOOKUP_BATCH calls in the last read */
	int fallback;		/* the kernel had no batch lookup for this map */
};

/*
 * Read every entry of the hash map fd. With BPF_MAP_LOOKUP_BATCH (5.6+)
 * the kernel walks the buckets once, so an entry added or deleted meanwhile
 * is read at most once; map_get_next_key restarts from the first bucket
 * when its cursor is deleted and may return entries twice, so the fallback
 * drops repeated keys. Returns 0 or -errno.
 */
int uct_dump_map(int fd, struct uct_dump *d);
void uct_dump_free(struct uct_dump *d);

/*
 * The same read into an array of its own: *out holds the *n entries of
 * the hash map fd, each esz bytes with the key at 0 and the value at
 * voff, for the caller to free (NULL when there are none). 0 or -errno,
 * *out and *n then untouched.
 */
int uct_dump_map_array(int fd, size_t esz, size_t voff, void **out, size_t *n);

/* Delete every entry of the map fd (a hash or a stack trace map; keys of
 * at most 64 bytes). 0 or -errno. */
int uct_clear_map(int fd);

#endif /* UCT_MAPDUMP_H */
