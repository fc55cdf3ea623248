// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the live view's statistics: the stats map merged with the
 * charge counts of --events (a hash and, in front of it, per-CPU slots
 * mapped into user space), and the drop and denial counters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "grow.h"
#include "loader.h"
#include "loader_internal.h"
#include "ucounttop.skel.h"

size_t uct_evcache_slots(void)
{
	int ncpus = libbpf_num_possible_cpus();

	if (ncpus > UCT_EVCACHE_MAX_CPUS)
		ncpus = UCT_EVCACHE_MAX_CPUS;
	return ncpus > 0 ? (size_t)ncpus * UCT_EVCACHE_SLOTS : 0;
}

void uct_evcache_start(struct uct_loader *l, bool free_attached)
{
	size_t sz = l->evcache_slots * sizeof(struct uct_evslot);
	void *p;

	if (!l->evcache_slots || !free_attached) {
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
		/* every SIGPENDING charge is of one signal: the programs of
		 * the stock kernels' signal path keep no sum */
		charged[t] += t == UCT_SIGPENDING ? (__s64)c->charges[t] : c->charged[t];
		uncharged[t] += t == UCT_SIGPENDING ? (__s64)c->uncharges[t] : c->uncharged[t];
	}
}

static void evcount_add(struct uct_evcount *to, const struct uct_evcount *c)
{
	counts_add(to->charges, to->uncharges, to->charged, to->uncharged, c);
}

/*
 * The charge counts by object: the shared hash and every CPU's claimed
 * cache slots, sorted by id with one entry per id. Its length, or -errno.
 */
static long collect_evcounts(struct uct_loader *l)
{
	size_t n, i, cap;
	int err;

	l->evcounts.esz = sizeof(struct uct_ev_kv);
	l->evcounts.voff = offsetof(struct uct_ev_kv, c);
	err = uct_dump_map(bpf_map__fd(l->skel->maps.evcounts), &l->evcounts);
	if (err)
		return err;
	cap = l->evcounts.n + l->evcache_slots;
	if (uct_grow((void **)&l->evs, &l->evs_cap, cap, sizeof(*l->evs)))
		return -ENOMEM;
	n = l->evcounts.n;
	memcpy(l->evs, l->evcounts.elems, n * sizeof(*l->evs));
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
 * address: the map's entries sorted by it, then those charged only.
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
	if (uct_grow((void **)&l->merged, &l->merged_cap, cnt, sizeof(*l->merged)))
		return -ENOMEM;
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

int uct_loader_cg_denials(struct uct_loader *l, const struct uct_cgdeny_kv **kv, size_t *n)
{
	int err;

	l->cg_denials.esz = sizeof(struct uct_cgdeny_kv);
	l->cg_denials.voff = offsetof(struct uct_cgdeny_kv, d);
	err = uct_dump_map(bpf_map__fd(l->skel->maps.cg_denials), &l->cg_denials);
	if (err)
		return err;
	*kv = (const struct uct_cgdeny_kv *)l->cg_denials.elems;
	*n = l->cg_denials.n;
	return 0;
}

void uct_loader_denials(struct uct_loader *l, unsigned long long out[UCT_NTYPES])
{
	int t;

	for (t = 0; t < UCT_NTYPES; t++)
		out[t] = __atomic_load_n(&l->skel->bss->denied[t], __ATOMIC_RELAXED);
}

void uct_stats_free(struct uct_loader *l)
{
	uct_dump_free(&l->stats);
	uct_dump_free(&l->cg_denials);
	uct_dump_free(&l->evcounts);
	if (l->evcache)
		munmap(l->evcache, l->evcache_slots * sizeof(struct uct_evslot));
	free(l->evs);
	free(l->merged);
}

void uct_loader_prune(struct uct_loader *l, const __u64 *ids, size_t n, const struct uct_key *rows,
		      size_t nrows)
{
	const struct uct_cgdeny_kv *cg = (const struct uct_cgdeny_kv *)l->cg_denials.elems;
	size_t i, j;

	for (i = 0; i < n; i++) {
		bpf_map_delete_elem(bpf_map__fd(l->skel->maps.stats), &ids[i]);
		if (l->events)
			bpf_map_delete_elem(bpf_map__fd(l->skel->maps.evcounts), &ids[i]);
	}
	for (i = 0; cg && i < l->cg_denials.n; i++)
		for (j = 0; j < nrows; j++)
			if (cg[i].key.ns_inum == rows[j].ns_inum && cg[i].key.uid == rows[j].uid) {
				bpf_map_delete_elem(bpf_map__fd(l->skel->maps.cg_denials),
						    &cg[i].key);
				break;
			}
}
