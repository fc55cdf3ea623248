/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader.h - everything that talks to the kernel's BPF subsystem:
 * privilege and feature probing, choosing/loading/attaching the programs
 * of ucounttop.bpf.c, reading snapshots, stats and counters, pinning.
 */
#ifndef UCT_LOADER_H
#define UCT_LOADER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "model.h"
#include "opts.h"

/* What the running kernel offers, from its BTF (/sys/kernel/btf/vmlinux). */
struct uct_features {
	bool iter_ucounts;	/* our series: SEC("iter/ucounts") */
	bool iter_task;
	bool fn_inc, fn_dec, fn_inc_get, fn_dec_put, fn_overlimit;
	bool fn_ucounts_overlimit;	/* our series: is_rlimit_overlimit() calls it */
	bool tp_alloc, tp_free, tp_charge, tp_uncharge, tp_refused;
	bool tp_signal_generate;
};

struct ring_buffer;
struct ucounttop_bpf;
struct bpf_link;

struct uct_loader {
	struct ucounttop_bpf *skel;
	struct uct_features feat;
	struct bpf_link *iter_link;	/* the snapshot iterator (skel->links.*) */
	const char *snapshot_src;	/* "iter/ucounts" or "iter/task" */
	char hooks[256];		/* loaded hooks, for the views */
	char degraded[512];		/* what this kernel lacks, and the effect */
	bool events;
	struct ring_buffer *rb;
	char pin_dir[PATH_MAX];
	bool pinned, keep_pinned;
	char *snap_buf;			/* snapshot read buffer */
	size_t snap_cap;
	struct uct_stat_kv *stats;	/* stats read buffer */
	size_t stats_cap;
};

/*
 * Each returns UCT_EXIT_OK or an exit code with a message (what is wrong and
 * what to do) in msg.
 */
int uct_check_privileges(char *msg, size_t len);
int uct_check_btf(char *msg, size_t len);
int uct_probe_features(struct uct_features *f, char *msg, size_t len);
int uct_check_bpffs(const char *dir, char *msg, size_t len);

/* Probe, pick programs, load, attach (and pin with o->pin_dir). */
int uct_loader_open(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len);
void uct_loader_close(struct uct_loader *l);

/* Run an iterator link once, reading all of it into *buf (grown as needed). */
int uct_read_iter(struct bpf_link *link, char **buf, size_t *cap, size_t *used);

/* One snapshot: records valid until the next call. 0 or -errno. */
int uct_loader_snapshot(struct uct_loader *l, const struct uct_rec **recs, size_t *n);
/* The whole stats map: valid until the next call. 0 or -errno. */
int uct_loader_stats(struct uct_loader *l, const struct uct_stat_kv **kv, size_t *n);
void uct_loader_counters(struct uct_loader *l, unsigned long long out[UCT_NCOUNTERS]);

/* Ring buffer of trace events; cb gets each struct uct_event. */
typedef int (*uct_event_fn)(void *ctx, void *data, size_t size);
int uct_loader_open_events(struct uct_loader *l, uct_event_fn cb, void *ctx);
int uct_loader_poll_events(struct uct_loader *l, int timeout_ms);

#endif /* UCT_LOADER_H */
