// SPDX-License-Identifier: GPL-2.0
/*
 * loader.c - probe the kernel, choose, load, attach and pin the programs of
 * ucounttop.bpf.c; read snapshots (iterator fd), stats (map) and events.
 *
 * Feature probing (probe.c) asks the kernel's BTF and then the verifier:
 * a hook that is not in vmlinux BTF, or whose minimal probe program the
 * verifier refuses, cannot be attached to, so its program is not loaded
 * at all (bpf_program__set_autoload(false)) and the tool degrades as
 * described in bpf/ucounttop.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "loader_internal.h"
#include "ucounttop.skel.h"

enum {
	P_SNAP_UCOUNTS, P_SNAP_TASK, P_OVERLIMIT, P_UCOUNTS_OVERLIMIT, P_REFUSED, P_ALLOC,
	P_FREE, P_CHARGE, P_UNCHARGE, P_INC, P_DEC, P_INC_GET, P_DEC_PUT, P_SIG_GENERATE,
	P_TASK_LIMITS, P_COUNT
};

/* Every program of ucounttop.bpf.c, none chosen yet. */
static void prog_table(struct uct_loader *l)
{
	struct ucounttop_bpf *s = l->skel;
	struct uct_prog *p = l->progs;

#define PROG(i, name) (p[i] = (struct uct_prog){ s->progs.name, &s->links.name })
	PROG(P_SNAP_UCOUNTS, snap_ucounts);
	PROG(P_SNAP_TASK, snap_task);
	PROG(P_OVERLIMIT, overlimit_exit);
	PROG(P_UCOUNTS_OVERLIMIT, ucounts_overlimit_exit);
	PROG(P_REFUSED, tp_refused);
	PROG(P_ALLOC, tp_alloc);
	PROG(P_FREE, tp_free);
	PROG(P_CHARGE, tp_charge);
	PROG(P_UNCHARGE, tp_uncharge);
	PROG(P_INC, inc_exit);
	PROG(P_DEC, dec_exit);
	PROG(P_INC_GET, inc_get_exit);
	PROG(P_DEC_PUT, dec_put_entry);
	PROG(P_SIG_GENERATE, sig_generate);
	PROG(P_TASK_LIMITS, task_limits);
#undef PROG
	l->nprogs = P_COUNT;
}

static void want(struct uct_loader *l, int i, bool optional, const char *loss)
{
	l->progs[i].want = true;
	l->progs[i].optional = optional;
	l->progs[i].loss = loss;
}

static int loader_open(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len);

/*
 * Decide which programs load, and say in degraded: what this kernel lacks
 * and what that costs the user, so a reading on a stock kernel is never
 * mistaken for a complete one. Returns an exit code.
 */
static int choose(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len)
{
	const struct uct_features *f = &l->feat;
	char *deg = l->degraded;
	size_t dlen = sizeof(l->degraded);
	bool tps = !o->no_tracepoints;
	/* our series reports every refusal: no other hook needs to */
	bool use_tp_refused = tps && f->tp_refused;

	prog_table(l);
	/* snapshot: the complete iterator when the kernel has it */
	if (f->iter_ucounts && !o->force_task_iter) {
		want(l, P_SNAP_UCOUNTS, false, NULL);
		l->snapshot_src = "iter/ucounts";
	} else if (f->iter_task) {
		want(l, P_SNAP_TASK, false, NULL);
		l->snapshot_src = "iter/task";
		uct_degraded_add(deg, dlen, "no iter/ucounts (kernel without the ucounttop series): "
				 "tree seeded from live tasks' creds, so ucounts held only by IPC "
				 "objects or signals are missed");
	} else {
		snprintf(msg, len, "kernel lacks a BPF iterator to read ucounts with (neither "
			 "iter/ucounts nor iter/task)");
		return UCT_EXIT_KERNEL;
	}

	/* the live view's leaf limits and namespace names: an iterator pass
	 * instead of two /proc files per process per refresh */
	if (o->cmd == UCT_CMD_TOP && f->iter_task)
		want(l, P_TASK_LIMITS, true, "leaf limits read from /proc/PID/limits, two files "
		     "per process per refresh; namespaces not named by their processes");

	/* refusals: exact from our series, else the NPROC checks */
	if (use_tp_refused) {
		want(l, P_REFUSED, true, "no denials counted");
	} else {
		if (f->fn_ucounts_overlimit)
			want(l, P_UCOUNTS_OVERLIMIT, true, "no nproc denials counted");
		else if (f->fn_overlimit)
			want(l, P_OVERLIMIT, true, "no nproc denials counted");
		uct_degraded_add(deg, dlen, "no ucounts_rlimit_refused tracepoint: %s",
				 f->fn_ucounts_overlimit || f->fn_overlimit ?
				 "exact for nproc only (--events adds the others, at a per-charge "
				 "cost)" : "no denials counted (--events counts them, at a "
				 "per-charge cost)");
	}

	/* lifetime: a freed object's statistics go with it */
	if (tps && f->tp_free)
		want(l, P_FREE, true, "statistics of a freed ucounts may pass to a new one at "
		     "its address");
	else
		uct_degraded_add(deg, dlen, "no ucounts_free tracepoint: statistics of a freed "
				 "ucounts may pass to a new one at its address and name");
	if (o->cmd == UCT_CMD_TRACE && tps && f->tp_alloc)
		want(l, P_ALLOC, true, "no alloc events");

	/* every charge: --events, trace */
	if (o->events) {
		if (use_tp_refused && f->tp_charge && f->tp_uncharge) {
			want(l, P_CHARGE, false, NULL);
			want(l, P_UNCHARGE, false, NULL);
		} else {
			const char *missing = !f->fn_inc ? "inc_rlimit_ucounts" :
					      !f->fn_dec ? "dec_rlimit_ucounts" :
					      !f->fn_inc_get ? "inc_rlimit_get_ucounts" :
					      !f->fn_dec_put ? "dec_rlimit_put_ucounts" : NULL;
			if (missing) {
				snprintf(msg, len, "the kernel cannot trace %s (%s), needed for "
					 "--events and trace", missing,
					 strstr(f->refused, missing) ? "the verifier refused a "
					 "tracing program for it" : "not in its BTF");
				return UCT_EXIT_KERNEL;
			}
			want(l, P_INC, false, NULL);
			want(l, P_DEC, false, NULL);
			want(l, P_INC_GET, false, NULL);
			want(l, P_DEC_PUT, false, NULL);
		}
		if (!use_tp_refused && f->tp_signal_generate)
			want(l, P_SIG_GENERATE, true, "no sigpending denials counted");
	}
	if (f->refused[0])
		uct_degraded_add(deg, dlen, "refused by the verifier: %s", f->refused);
	uct_progs_autoload(l->progs, l->nprogs);
	l->skel->rodata->emit_events = o->cmd == UCT_CMD_TRACE;
	l->skel->rodata->want_stack = o->stack;
	/* trace: one wake-up per quarter of the ring, not per event; the
	 * reader's 100 ms poll takes the rest */
	l->skel->rodata->wakeup_bytes = o->cmd == UCT_CMD_TRACE ? o->ringbuf_kb * 1024 / 4 : 0;
	l->skel->rodata->filter_ns = (__u32)o->ns_filter;
	l->skel->rodata->filter_uid = o->uid_filter;
	l->skel->rodata->filter_type = o->type_filter;
	l->skel->rodata->page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE));
	return UCT_EXIT_OK;
}

int uct_loader_open(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len)
{
	struct uct_opts retry;
	int err;

	err = loader_open(l, o, msg, len);
	if (err != UCT_EXIT_FAIL || !l->skel || l->snapshot_src == NULL ||
	    strcmp(l->snapshot_src, "iter/ucounts") || l->iter_link)
		return err;
	/* iter/ucounts exists but did not load (an iterator ABI other than
	 * ours?): the task iterator still works */
	fprintf(stderr, "ucounttop: warning: %s; retrying with the task iterator\n", msg);
	uct_loader_close(l);
	retry = *o;
	retry.force_task_iter = true;
	return loader_open(l, &retry, msg, len);
}

/*
 * Turn the per-CPU slots on once the program that empties them on a free is
 * attached; without it (or without the mapping) every charge goes to the
 * hash, which tp_free or LRU eviction keep right.
 */
static void evcache_start(struct uct_loader *l)
{
	size_t sz = l->evcache_slots * sizeof(struct uct_evslot);
	void *p;

	if (!l->evcache_slots || !*l->progs[P_FREE].link) {
		l->evcache_slots = 0;
		return;
	}
	p = mmap(NULL, sz, PROT_READ, MAP_SHARED, bpf_map__fd(l->skel->maps.evcache), 0);
	if (p == MAP_FAILED) {
		l->evcache_slots = 0;
		return;
	}
	l->evcache = p;
	__atomic_store_n(&l->skel->bss->evcache_cpus, l->evcache_slots / UCT_EVCACHE_SLOTS,
			 __ATOMIC_RELEASE);
}

static int loader_open(struct uct_loader *l, const struct uct_opts *o, char *msg, size_t len)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	int err;

	memset(l, 0, sizeof(*l));
	uct_libbpf_setup(o->verbose);
	err = uct_probe_features(&l->feat, msg, len);
	if (err)
		return err;
	open_opts.kernel_log_level = uct_kernel_log_level();
	l->skel = ucounttop_bpf__open_opts(&open_opts);
	if (!l->skel) {
		snprintf(msg, len, "cannot open the BPF object: %s", strerror(errno));
		return UCT_EXIT_FAIL;
	}
	err = choose(l, o, msg, len);
	if (err)
		return err;
	l->events = o->events;
	bpf_map__set_max_entries(l->skel->maps.stats, o->max_entries);
	/* only --events counts charges: keep the map tiny otherwise */
	bpf_map__set_max_entries(l->skel->maps.evcounts, o->events ? o->max_entries : 1);
	/* without ucounts_free nothing deletes a dead object's entry: let the
	 * least recently used go first when the map is full */
	if (!l->progs[P_FREE].want) {
		bpf_map__set_type(l->skel->maps.stats, BPF_MAP_TYPE_LRU_HASH);
		bpf_map__set_type(l->skel->maps.evcounts, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	}
	/* the slots in front of evcounts, one set per CPU (up to a bound) */
	if (o->events && l->progs[P_FREE].want) {
		int ncpus = libbpf_num_possible_cpus();

		if (ncpus > UCT_EVCACHE_MAX_CPUS)
			ncpus = UCT_EVCACHE_MAX_CPUS;
		if (ncpus > 0)
			l->evcache_slots = (size_t)ncpus * UCT_EVCACHE_SLOTS;
	}
	if (l->evcache_slots)
		bpf_map__set_max_entries(l->skel->maps.evcache, l->evcache_slots);
	bpf_map__set_max_entries(l->skel->maps.seen, o->max_entries);
	/* the ring buffer only carries trace events: keep it tiny otherwise */
	bpf_map__set_max_entries(l->skel->maps.events,
				 o->cmd == UCT_CMD_TRACE ? o->ringbuf_kb * 1024 :
				 (unsigned)sysconf(_SC_PAGESIZE));

	err = ucounttop_bpf__load(l->skel);
	if (err) {
		snprintf(msg, len, "loading BPF programs failed: %s%s", strerror(-err),
			 o->verbose ? "" : " (run with -v for libbpf's log)");
		return err == -EPERM ? UCT_EXIT_PRIV : UCT_EXIT_FAIL;
	}
	err = uct_progs_attach(l->progs, l->nprogs, l->hooks, sizeof(l->hooks), l->degraded,
			       sizeof(l->degraded), msg, len);
	if (err)
		return err;
	l->iter_link = *l->progs[l->progs[P_SNAP_UCOUNTS].want ? P_SNAP_UCOUNTS : P_SNAP_TASK].link;
	l->tlim_link = *l->progs[P_TASK_LIMITS].link;
	evcache_start(l);
	if (o->pin_dir) {
		err = uct_pin_all(l, o->pin_dir, o->keep_pinned, msg, len);
		if (err)
			return err;
	}
	return UCT_EXIT_OK;
}

void uct_loader_close(struct uct_loader *l)
{
	if (l->rb)
		ring_buffer__free(l->rb);
	if (l->skel) {
		uct_unpin_all(l);
		/* pinned links stay attached after we exit; detach otherwise */
		ucounttop_bpf__destroy(l->skel);
	}
	free(l->snap_buf);
	free(l->tlim_buf);
	uct_dump_free(&l->stats);
	uct_dump_free(&l->evcounts);
	if (l->evcache)
		munmap(l->evcache, l->evcache_slots * sizeof(struct uct_evslot));
	free(l->evs);
	free(l->merged);
	memset(l, 0, sizeof(*l));
}

static int kv_id_cmp(const void *a, const void *b)
{
	__u64 x = ((const struct uct_stat_kv *)a)->id, y = ((const struct uct_stat_kv *)b)->id;

	return x < y ? -1 : x > y;
}

static int ev_id_cmp(const void *a, const void *b)
{
	__u64 x = ((const struct uct_ev_kv *)a)->id, y = ((const struct uct_ev_kv *)b)->id;

	return x < y ? -1 : x > y;
}

/* c's counts added to the four per-type arrays of a uct_evcount or of a
 * uct_stat (which has the same four first) */
static void counts_add(__u64 *charges, __u64 *uncharges, __s64 *charged, __s64 *uncharged,
		       const struct uct_evcount *c)
{
	int t;

	for (t = 0; t < UCT_NTYPES; t++) {
		charges[t] += c->charges[t];
		uncharges[t] += c->uncharges[t];
		charged[t] += c->charged[t];
		uncharged[t] += c->uncharged[t];
	}
}

static void evcount_add(struct uct_evcount *to, const struct uct_evcount *c)
{
	counts_add(to->charges, to->uncharges, to->charged, to->uncharged, c);
}

/*
 * The charge counts by object: the per-CPU hash (each entry summed over the
 * CPUs) and every CPU's claimed cache slots, sorted by id with one entry
 * per id. Its length, or -errno.
 */
static long collect_evcounts(struct uct_loader *l)
{
	size_t n = 0, i, cap;
	int err, cpu;

	l->evcounts.percpu = 1;
	err = uct_dump_map(bpf_map__fd(l->skel->maps.evcounts), &l->evcounts);
	if (err)
		return err;
	cap = l->evcounts.n + l->evcache_slots;
	if (cap > l->evs_cap) {
		struct uct_ev_kv *p = realloc(l->evs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->evs = p;
		l->evs_cap = cap;
	}
	for (i = 0; i < l->evcounts.n; i++) {
		const char *e = l->evcounts.elems + i * l->evcounts.esz;

		memset(&l->evs[n], 0, sizeof(l->evs[n]));
		l->evs[n].id = *(const __u64 *)e;
		for (cpu = 0; cpu < l->evcounts.ncpus; cpu++)
			evcount_add(&l->evs[n].c, (const void *)(e + l->evcounts.voff +
								 cpu * l->evcounts.cpu_stride));
		n++;
	}
	/* A slot may be emptied and claimed again while it is copied: the
	 * same tear as a map read of a value being updated, no worse. */
	for (i = 0; i < l->evcache_slots; i++) {
		const struct uct_evslot *s = &l->evcache[i];
		__u64 id = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE);

		if (!id)
			continue;
		l->evs[n].id = id;
		l->evs[n].c = s->c;
		n++;
	}
	qsort(l->evs, n, sizeof(*l->evs), ev_id_cmp);
	for (i = 0, cap = 0; i < n; i++) {
		if (cap && l->evs[cap - 1].id == l->evs[i].id)
			evcount_add(&l->evs[cap - 1].c, &l->evs[i].c);
		else
			l->evs[cap++] = l->evs[i];
	}
	return (long)cap;
}

/*
 * The stats map (refusals; entries made for a known object) and, with
 * --events, the charge counts (entries named by address only), merged by
 * address and sorted by it.
 */
int uct_loader_stats(struct uct_loader *l, const struct uct_stat_kv **kv, size_t *n)
{
	const struct uct_stat_kv *st;
	size_t i, cnt, nstats;
	long nev = 0;
	int err;

	l->stats.esz = sizeof(struct uct_stat_kv);
	l->stats.voff = offsetof(struct uct_stat_kv, st);
	err = uct_dump_map(bpf_map__fd(l->skel->maps.stats), &l->stats);
	if (err)
		return err;
	if (l->events) {
		nev = collect_evcounts(l);
		if (nev < 0)
			return (int)nev;
	}
	cnt = l->stats.n + (size_t)nev;
	if (cnt > l->merged_cap) {
		struct uct_stat_kv *p = realloc(l->merged, cnt * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->merged = p;
		l->merged_cap = cnt;
	}
	st = (const struct uct_stat_kv *)l->stats.elems;
	memcpy(l->merged, st, l->stats.n * sizeof(*st));
	nstats = cnt = l->stats.n;
	qsort(l->merged, cnt, sizeof(*l->merged), kv_id_cmp);
	for (i = 0; i < (size_t)nev; i++) {
		const struct uct_ev_kv *e = &l->evs[i];
		struct uct_stat_kv key = { .id = e->id }, *hit;
		struct uct_stat *to;

		hit = bsearch(&key, l->merged, nstats, sizeof(key), kv_id_cmp);
		if (!hit) {
			/* charged, never refused: named by its address only */
			hit = &l->merged[cnt++];
			memset(hit, 0, sizeof(*hit));
			hit->id = key.id;
		}
		to = &hit->st;
		counts_add(to->charges, to->uncharges, to->charged, to->uncharged, &e->c);
	}
	l->events_seen = 0;
	for (i = 0; i < cnt; i++)
		for (int t = 0; t < UCT_NTYPES; t++)
			l->events_seen += l->merged[i].st.charges[t] + l->merged[i].st.uncharges[t];
	*kv = l->merged;
	*n = cnt;
	return 0;
}

void uct_loader_counters(struct uct_loader *l, unsigned long long out[UCT_NCOUNTERS])
{
	int i;

	for (i = 0; i < UCT_NCOUNTERS; i++)
		out[i] = __atomic_load_n(&l->skel->bss->counters[i], __ATOMIC_RELAXED);
	/* not counted in BPF, to keep the per-charge path to one lookup */
	out[UCT_CNT_EVENTS] = l->events_seen;
	/* events no program saw: the kernel's count, not ours */
	out[UCT_CNT_MISSED] = uct_progs_misses(l->progs, l->nprogs);
}

void uct_loader_denials(struct uct_loader *l, unsigned long long out[UCT_NTYPES])
{
	int t;

	for (t = 0; t < UCT_NTYPES; t++)
		out[t] = __atomic_load_n(&l->skel->bss->denied[t], __ATOMIC_RELAXED);
}

int uct_loader_open_events(struct uct_loader *l, uct_event_fn cb, void *ctx)
{
	l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.events), cb, ctx, NULL);
	return l->rb ? 0 : -errno;
}

int uct_loader_poll_events(struct uct_loader *l, int timeout_ms)
{
	int n = ring_buffer__poll(l->rb, timeout_ms), more;

	/* records submitted without a wake-up (trace's batching) do not make
	 * the ring ready for epoll: take them once the wait is over */
	if (n < 0 && n != -EINTR)
		return n;
	more = ring_buffer__consume(l->rb);
	if (more < 0)
		return more;
	return (n > 0 ? n : 0) + more;
}
