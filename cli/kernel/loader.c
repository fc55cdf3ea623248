// SPDX-License-Identifier: GPL-2.0
/*
 * loader.c - the live view's and trace's programs of ucounttop.bpf.c:
 * which load on this kernel (and what the rest costs, in degraded:),
 * their maps' sizes; open (load, attach, pin) and close; trace's ring
 * buffer. Reading the iterators is iter.c's, the statistics stats.c's.
 *
 * Feature probing (probe.c) asks the kernel's BTF and then the verifier:
 * a hook that is not in vmlinux BTF, or whose minimal probe program the
 * verifier refuses, cannot be attached to, so its program is not loaded
 * at all (bpf_program__set_autoload(false)) and the tool degrades as
 * described in bpf/ucounttop.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "common.h"
#include "loader.h"
#include "loader_internal.h"
#include "ucounttop.skel.h"

enum {
	P_SNAP_UCOUNTS, P_SNAP_TASK, P_OVERLIMIT, P_UCOUNTS_OVERLIMIT, P_REFUSED, P_ALLOC,
	P_FREE, P_CHARGE, P_UNCHARGE, P_INC, P_INC_OVER, P_INC_REFUSAL, P_INC_OVER_REFUSAL,
	P_DEC, P_INC_GET, P_INC_GET_ENTRY, P_DEC_PUT, P_SIG_GENERATE, P_TIMER_SIGQ_ENTRY,
	P_TIMER_SIGQ_EXIT, P_SIGQ_ALLOC_ENTRY, P_SIGQ_ALLOC_EXIT, P_SIG_CHARGE, P_TASK_LIMITS,
	P_COUNT
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
	PROG(P_INC_OVER, inc_over_exit);
	PROG(P_INC_REFUSAL, inc_refusal_exit);
	PROG(P_INC_OVER_REFUSAL, inc_over_refusal_exit);
	PROG(P_DEC, dec_exit);
	PROG(P_INC_GET, inc_get_exit);
	PROG(P_INC_GET_ENTRY, inc_get_entry);
	PROG(P_DEC_PUT, dec_put_entry);
	PROG(P_SIG_GENERATE, sig_generate);
	PROG(P_TIMER_SIGQ_ENTRY, timer_sigq_entry);
	PROG(P_TIMER_SIGQ_EXIT, timer_sigq_exit);
	PROG(P_SIGQ_ALLOC_ENTRY, sigq_alloc_entry);
	PROG(P_SIGQ_ALLOC_EXIT, sigq_alloc_exit);
	PROG(P_SIG_CHARGE, sig_charge_exit);
	PROG(P_TASK_LIMITS, task_limits);
#undef PROG
	_Static_assert(P_COUNT <= ARRAY_SIZE(l->progs), "struct uct_loader: progs[] too short");
	l->nprogs = P_COUNT;
}

static void want(struct uct_loader *l, int i, bool optional, const char *loss)
{
	l->progs[i].want = true;
	l->progs[i].optional = optional;
	l->progs[i].loss = loss;
}

/* timer_create()'s charge function on this kernel (7.x's, else 6.x's):
 * its entry program (entry) or its return program; -1 when it has none */
static int timer_prog(const struct uct_features *f, bool entry)
{
	if (f->fn_timer_sigq)
		return entry ? P_TIMER_SIGQ_ENTRY : P_TIMER_SIGQ_EXIT;
	if (f->fn_sigq_alloc)
		return entry ? P_SIGQ_ALLOC_ENTRY : P_SIGQ_ALLOC_EXIT;
	return -1;
}

/*
 * Decide which programs load, and say in degraded: what this kernel lacks
 * and what that costs the user, so a reading on a stock kernel is never
 * mistaken for a complete one. Returns an exit code.
 */
static int choose(struct uct_loader *l, const struct uct_loader_config *o, char *msg,
		  size_t len)
{
	const struct uct_features *f = &l->feat;
	char *deg = l->degraded;
	size_t dlen = sizeof(l->degraded);
	bool tps = !o->no_tracepoints;
	/* our series reports every refusal: no other hook needs to */
	bool use_tp_refused = tps && f->tp_refused;
	int timer_exit = timer_prog(f, false), timer_entry = timer_prog(f, true);
	static const char sigq_nomem_loss[] = "a signal or timer whose sigqueue the kernel "
					      "failed to allocate is counted as a sigpending "
					      "denial";

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
	if (o->view && f->iter_task)
		want(l, P_TASK_LIMITS, true, "leaf limits read from /proc/PID/limits, two files "
		     "per process per refresh; namespaces not named by their processes");

	/* refusals: exact from our series; else where each caller decides:
	 * fork, execve (is_rlimit_overlimit), mq_open and SHM_LOCK (the value
	 * inc_rlimit_ucounts returns; --events' program sees it too) and
	 * signals (signal_generate) */
	if (use_tp_refused) {
		want(l, P_REFUSED, true, "no denials counted");
		/* the target of a refused signal or timer, for the live
		 * view's split by cgroup: the tracepoint runs in the sender.
		 * trace prints the refusal as it is: no program on every
		 * signal for it */
		if (f->tp_signal_generate && !o->trace)
			want(l, P_SIG_GENERATE, true, "a sigpending denial is split by the "
			     "sender's cgroup");
		if (timer_exit >= 0 && !o->trace)
			want(l, timer_exit, true, "a timer_create() sigpending denial "
			     "is split by no cgroup");
		l->skel->rodata->sig_split = true;
	} else {
		if (f->fn_ucounts_overlimit)
			want(l, P_UCOUNTS_OVERLIMIT, true, "no nproc denials counted");
		else if (f->fn_overlimit)
			want(l, P_OVERLIMIT, true, "no nproc denials counted");
		if (!o->events && (f->fn_inc_over || f->fn_inc))
			want(l, f->fn_inc_over ? P_INC_OVER_REFUSAL : P_INC_REFUSAL, true,
			     "no msgqueue or memlock denials counted");
		if (f->tp_signal_generate)
			want(l, P_SIG_GENERATE, true, "no sigpending denials counted");
		/* timer_create(): its sigqueue is charged with no signal */
		if (timer_exit >= 0)
			want(l, timer_exit, true, "no timer_create() sigpending "
			     "denials counted");
		/* what each charge decided: a sigqueue the kernel failed to
		 * allocate is reported as a refusal is */
		if (f->fn_inc_get)
			want(l, P_SIG_CHARGE, true, sigq_nomem_loss);
		else if (f->tp_signal_generate || timer_exit >= 0)
			uct_degraded_add(deg, dlen, "%s", sigq_nomem_loss);
		uct_degraded_add(deg, dlen, "no ucounts_rlimit_refused tracepoint: denials read "
				 "from the callers' checks; a sigpending denial names no level");
	}

	/* lifetime: a freed object's statistics go with it */
	if (tps && f->tp_free)
		want(l, P_FREE, true, "statistics of a freed ucounts may pass to a new one at "
		     "its address");
	else
		uct_degraded_add(deg, dlen, "no ucounts_free tracepoint: --events counts of a "
				 "freed ucounts may pass to a new one at its address; rows gone "
				 "from 5 snapshots lose their statistics");
	if (o->trace && tps && f->tp_alloc)
		want(l, P_ALLOC, true, "no alloc events");

	/* every charge: --events, trace */
	if (o->events) {
		if (use_tp_refused && f->tp_charge && f->tp_uncharge) {
			want(l, P_CHARGE, false, NULL);
			want(l, P_UNCHARGE, false, NULL);
		} else {
			const char *missing = !f->fn_inc && !f->fn_inc_over ?
					      "inc_rlimit_ucounts" :
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
			want(l, f->fn_inc_over ? P_INC_OVER : P_INC, false, NULL);
			want(l, P_DEC, false, NULL);
			want(l, P_DEC_PUT, false, NULL);
			/* signals: counted at fentry, the refusals undone inside
			 * corrected by signal_generate, where nothing can run
			 * between the two on the sender's CPU: not on PREEMPT_RT,
			 * and not for trace, which shows each charge's value */
			if (!o->trace && !f->preempt_rt && f->tp_signal_generate &&
			    !use_tp_refused) {
				want(l, P_INC_GET_ENTRY, false, NULL);
				l->skel->rodata->sig_fentry = true;
				/* a timer's charge refused above the leaf, which
				 * no signal_generate takes back */
				if (timer_entry >= 0)
					want(l, timer_entry, true, "a timer_create() "
					     "refused above the leaf stays counted");
			} else {
				want(l, P_INC_GET, false, NULL);
				/* it records each charge's decision too: the
				 * same function's return, one program less per
				 * signal */
				if (l->progs[P_SIG_CHARGE].want) {
					l->progs[P_SIG_CHARGE].want = false;
					l->skel->rodata->inc_get_notes_charge = true;
				}
			}
		}
	}
	if (f->refused[0])
		uct_degraded_add(deg, dlen, "refused by the verifier: %s", f->refused);
	uct_progs_autoload(l->progs, l->nprogs);
	l->skel->rodata->emit_events = o->trace;
	l->skel->rodata->count_charges = o->events && !o->trace;
	l->skel->rodata->want_stack = o->stack;
	/* trace: one wake-up per quarter of the ring, not per event; the
	 * reader's 100 ms poll takes the rest */
	l->skel->rodata->wakeup_bytes = o->trace ? o->ringbuf_kb * 1024 / 4 : 0;
	l->skel->rodata->filter_ns = (__u32)o->ns_filter;
	l->skel->rodata->filter_uid = o->uid_filter;
	l->skel->rodata->filter_type = o->type_filter;
	l->skel->rodata->page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE));
	return UCT_EXIT_OK;
}

static int loader_open(struct uct_loader *l, const struct uct_loader_config *o, char *msg,
		       size_t len)
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
	/* only --events counts charges (trace attaches the same programs
	 * to print them): keep the map tiny otherwise */
	l->events = o->events && !o->trace;
	bpf_map__set_max_entries(l->skel->maps.stats, o->max_entries);
	bpf_map__set_max_entries(l->skel->maps.cg_denials, o->max_entries);
	bpf_map__set_max_entries(l->skel->maps.evcounts, l->events ? o->max_entries : 1);
	/* Without ucounts_free nothing deletes a dead object's entry, and the
	 * maps can fill: they stay plain hashes, so that a full map refuses
	 * the new entry and counts it (stats_full, shown as drops), where an
	 * LRU map would evict a live row's counts without a trace. */
	/* the slots in front of evcounts, one set per CPU (up to a bound) */
	if (l->events)
		l->evcache_slots = uct_evcache_slots();
	if (l->evcache_slots)
		bpf_map__set_max_entries(l->skel->maps.evcache, l->evcache_slots);
	bpf_map__set_max_entries(l->skel->maps.seen, o->max_entries);
	/* the ring buffer only carries trace events: keep it tiny otherwise */
	bpf_map__set_max_entries(l->skel->maps.events,
				 o->trace ? o->ringbuf_kb * 1024 :
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
	/* the slots only while something empties them on a free */
	l->frees_tracked = l->progs[P_FREE].want && *l->progs[P_FREE].link;
	uct_evcache_start(l, l->frees_tracked);
	if (o->pin_dir) {
		err = uct_pin_all(l, o->pin_dir, o->keep_pinned, msg, len);
		if (err)
			return err;
	}
	return UCT_EXIT_OK;
}

int uct_loader_open(struct uct_loader *l, const struct uct_loader_config *o, char *msg,
		    size_t len)
{
	struct uct_loader_config retry;
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
	uct_stats_free(l);
	memset(l, 0, sizeof(*l));
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
