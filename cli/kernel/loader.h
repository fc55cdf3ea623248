/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader.h - everything that talks to the kernel's BPF subsystem. It
 * includes what the kernel and process can do (probe.h) and the program
 * table that check's programs go through too (progs.h); declared here,
 * by the file that implements it: ucounttop.bpf.c's programs chosen,
 * loaded, attached (loader.c) and pinned (pin.c), its iterators read
 * (iter.c), its statistics and counters read (stats.c).
 */
#ifndef UCT_LOADER_H
#define UCT_LOADER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "mapdump.h"
#include "probe.h"
#include "progs.h"
#include "ucounttop.h"

struct ring_buffer;
struct ucounttop_bpf;
struct bpf_link;

/* What the loader is asked for: the command line's part of it, which the
 * caller (ucounttop.c) fills from its options. */
struct uct_loader_config {
	bool view;		/* the live view: leaf limits from the task iterator */
	bool trace;		/* `ucounttop trace`: events on the ring buffer */
	bool events;		/* --events: every charge counted */
	bool stack;		/* trace --stack */
	bool no_tracepoints;	/* --no-tracepoints */
	bool force_task_iter;	/* --task-iter */
	bool verbose;		/* -v: libbpf's messages */
	long long ns_filter;	/* --ns, 0: all */
	long long uid_filter;	/* --uid, -1: all */
	int type_filter;	/* -t, -1: all */
	unsigned max_entries;	/* --max-entries */
	unsigned ringbuf_kb;	/* --ringbuf-kb */
	const char *pin_dir;	/* --pin, NULL: none */
	bool keep_pinned;	/* --keep-pinned */
};

/* One object's charge counts, summed over the CPUs (user space only) */
struct uct_ev_kv {
	__u64 id;
	struct uct_evcount c;
};

struct uct_loader {
	/* loader.c: the programs chosen for this kernel */
	struct ucounttop_bpf *skel;
	struct uct_features feat;
	struct uct_prog progs[24];	/* every program; want: chosen */
	size_t nprogs;
	struct bpf_link *iter_link;	/* the snapshot iterator (skel->links.*) */
	const char *snapshot_src;	/* "iter/ucounts" or "iter/task" */
	char hooks[256];		/* attached hooks, for the views */
	char degraded[1024];		/* what this kernel lacks, and the effect */
	bool events;
	bool frees_tracked;	/* ucounts_free attached: the maps prune themselves */
	struct ring_buffer *rb;
	/* pin.c */
	char pin_dir[PATH_MAX];
	bool pinned, keep_pinned;
	/* iter.c */
	struct bpf_link *tlim_link;	/* task_limits iterator, or NULL */
	char *tlim_buf;			/* its read buffer */
	size_t tlim_cap;
	char *snap_buf;			/* snapshot read buffer */
	size_t snap_cap;
	/* stats.c */
	struct uct_dump stats;		/* stats map read buffer */
	struct uct_dump cg_denials;	/* cg_denials map read buffer */
	struct uct_dump evcounts;	/* per-CPU charge counts (--events) */
	struct uct_evslot *evcache;	/* mmap of the per-CPU slots, or NULL */
	size_t evcache_slots;		/* CPUs (up to a bound) * UCT_EVCACHE_SLOTS; 0: off */
	struct uct_ev_kv *evs;		/* evcounts + evcache, folded by id */
	size_t evs_cap;
	struct uct_stat_kv *merged;	/* stats + summed evcounts, by id */
	size_t merged_cap;
	unsigned long long events_seen;	/* their charges + uncharges */
};

/* loader.c */
/* Probe, pick programs, load, attach (and pin with c->pin_dir); when
 * iter/ucounts is there but does not load, again with the task iterator. */
int uct_loader_open(struct uct_loader *l, const struct uct_loader_config *c, char *msg,
		    size_t len);
void uct_loader_close(struct uct_loader *l);
/* Ring buffer of trace events; cb gets each struct uct_event. */
typedef int (*uct_event_fn)(void *ctx, void *data, size_t size);
int uct_loader_open_events(struct uct_loader *l, uct_event_fn cb, void *ctx);
int uct_loader_poll_events(struct uct_loader *l, int timeout_ms);

/* iter.c */
/* Run an iterator link once, reading all of it into *buf (grown as needed). */
int uct_read_iter(struct bpf_link *link, char **buf, size_t *cap, size_t *used);
/* One snapshot: records valid until the next call. 0 or -errno. */
int uct_loader_snapshot(struct uct_loader *l, const struct uct_rec **recs, size_t *n);
/* Every process's leaf limits (struct uct_tlim) from the task_limits
 * iterator; -ENOENT when it is not loaded (read /proc instead). */
int uct_loader_task_limits(struct uct_loader *l, const struct uct_tlim **v, size_t *n);

/* stats.c */
/* The whole stats map, with --events' charge counts merged in: one entry
 * per object address, valid until the next call. 0 or -errno. */
int uct_loader_stats(struct uct_loader *l, const struct uct_stat_kv **kv, size_t *n);
/* Refusals by row and cgroup (the cg_denials map), valid until the next
 * call. 0 or -errno. */
int uct_loader_cg_denials(struct uct_loader *l, const struct uct_cgdeny_kv **kv, size_t *n);
/* The drop counters; UCT_CNT_EVENTS and UCT_CNT_MISSED are user space's */
void uct_loader_counters(struct uct_loader *l, unsigned long long out[UCT_NCOUNTERS]);
/* Refusals per type since attach (kept when their ucounts is freed). */
void uct_loader_denials(struct uct_loader *l, unsigned long long out[UCT_NTYPES]);
/* Delete the statistics and --events counts of the objects at ids, and
 * the refusals by cgroup of the rows named in rows (as the last
 * uct_loader_cg_denials() read them): what ucounts_free does where the
 * kernel has it. */
void uct_loader_prune(struct uct_loader *l, const __u64 *ids, size_t n, const struct uct_key *rows,
		      size_t nrows);

#endif /* UCT_LOADER_H */
