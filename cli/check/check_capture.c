// SPDX-License-Identifier: GPL-2.0
/* check_capture.c - captures, the baseline, settling (see check_capture.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "check_capture.h"
#include "check_cmd.h"
#include "clock.h"
#include "mapdump.h"
#include "sleep.h"
#include "ucounttop_check.skel.h"

#define QUIET_S		1.0	/* settle: stop after this long without events */
#define POLL_S		0.1
#define CAPTURE_TRIES	50
#define BASELINE_TRIES	20

/* Read a map into (in)->arr and (in)->n<arr>: elements of the array's
 * own type, a key and then its value v. 0 or -errno. */
#define READ_MAP(b, map, in, arr) ({							\
	void *p_ = NULL;								\
	int e_ = uct_dump_map_array(bpf_map__fd((b)->skel->maps.map),			\
				    sizeof(*(in)->arr), offsetof(__typeof__(*(in)->arr), v), \
				    &p_, &(in)->n##arr);				\
	if (!e_)									\
		(in)->arr = p_;								\
	e_;										\
})

/* One capture with no charge, uncharge or free while it was taken; after
 * CAPTURE_TRIES the last one, marked torn. */
static int capture(struct check_bpf *b, struct judge_capture *cap)
{
	int attempt, err;

	for (attempt = 1;; attempt++) {
		unsigned long long e0 = check_bpf_events(b);
		size_t used = 0, dummy = 0;
		char *ibuf = NULL;
		void *inv = NULL;

		judge_capture_free(cap);
		b->skel->bss->snap_gen++;
		err = uct_read_iter(b->snap_link, &b->snap_buf, &b->snap_cap, &used);
		if (err)
			return err;
		cap->nrecs = used / sizeof(struct uck_rec);
		cap->recs = malloc((cap->nrecs ? cap->nrecs : 1) * sizeof(struct uck_rec));
		if (!cap->recs)
			return -ENOMEM;
		memcpy(cap->recs, b->snap_buf, cap->nrecs * sizeof(struct uck_rec));
		/* the inventory iterator adds to the map: start it empty */
		err = uct_clear_map(bpf_map__fd(b->skel->maps.inv));
		if (!err)
			err = uct_read_iter(b->inv_link, &ibuf, &dummy, &used);
		free(ibuf);
		if (err)
			return err;
		/* its value is a bare count, n */
		err = uct_dump_map_array(bpf_map__fd(b->skel->maps.inv), sizeof(*cap->inv),
					 offsetof(struct judge_inv_kv, n), &inv, &cap->ninv);
		if (!err) {
			cap->inv = inv;
			err = READ_MAP(b, tally, cap, tally);
		}
		if (err)
			return err;
		if (check_bpf_events(b) == e0)
			return 0;
		if (attempt >= CAPTURE_TRIES) {
			cap->torn = true;
			return 0;
		}
		usleep(2000);
	}
}

/* Two captures in a row that saw one state (judge_same_state(): a fork or
 * a signal half done while one was taken makes them differ). If none of
 * BASELINE_TRIES pairs agree, the last capture is marked torn: what stands
 * on it is then not judged, rather than judged from a state that never
 * held still. */
int check_baseline(struct check_bpf *b, struct judge_capture *base)
{
	struct judge_capture again = {};
	int i, err;

	err = capture(b, base);
	for (i = 0; !err; i++) {
		if (i == BASELINE_TRIES) {
			base->torn = true;
			break;
		}
		usleep(20000);
		err = capture(b, &again);
		if (err)
			break;
		if (judge_same_state(base, &again))
			break;
		judge_capture_free(base);
		*base = again;
		memset(&again, 0, sizeof(again));
	}
	judge_capture_free(&again);
	return err;
}

/* The event maps, the counters and the misses into in (its arrays its
 * own: judge_input_free() frees them). */
static int read_maps(struct check_bpf *b, struct judge_input *in)
{
	int err;

	judge_input_free_maps(in);
	if ((err = READ_MAP(b, agg, in, agg)) || (err = READ_MAP(b, item, in, items)) ||
	    (err = READ_MAP(b, over, in, over)) || (err = READ_MAP(b, pend, in, pend)) ||
	    (err = READ_MAP(b, freed, in, freed)) || (err = READ_MAP(b, obj, in, objs)) ||
	    (err = READ_MAP(b, pre_rel, in, pre_rel)) || (err = READ_MAP(b, gone, in, gone)))
		return err;
	check_bpf_counters(b, in->counters);
	check_bpf_misses(b, in->missed);
	return 0;
}

int check_settle(struct check_bpf *b, struct judge_input *in, double t1, double settle,
		 struct judge_result *res, char *msg, size_t len)
{
	unsigned long long ev = check_bpf_events(b);
	unsigned int nsig = check_cmd_signals();
	struct judge_result prev = {};
	double last_change = t1;
	int judged, err;

	/* until nothing failing could still go away, the kernel went quiet,
	 * or settle is up; a failing state-based finding needs two captures
	 * in a row to stand (see judge_result_confirm()) */
	for (judged = 0;; judged++) {
		double now;

		err = capture(b, &in->fin);
		if (!err)
			err = read_maps(b, in);
		if (err) {
			snprintf(msg, len, "reading the results: %s", strerror(-err));
			goto fail;
		}
		judge_result_free(&prev);
		prev = *res;
		memset(res, 0, sizeof(*res));
		err = judge_run(in, res);
		if (err) {
			snprintf(msg, len, "out of memory");
			goto fail;
		}
		now = uct_now_s();
		if (check_bpf_events(b) != ev) {
			ev = check_bpf_events(b);
			last_change = now;
		}
		/* a final capture that never held still judged nothing: try
		 * again while settle allows */
		if (judge_result_settled(res) && !in->fin.torn)
			break;
		/* a signal since CMD ended: report now, but from two captures
		 * (judge_result_confirm()), never from one taken as the group
		 * died */
		if (judged && check_cmd_signals() != nsig)
			break;
		/* time is up, but a failing finding has not been seen twice yet */
		if (judged && (now - t1 >= settle ||
			       now - last_change >= (settle < QUIET_S ? settle : QUIET_S)))
			break;
		/* the whole pause even when a signal comes: the loop's own
		 * test above ends settling, after one more capture, never with
		 * two captures back to back */
		uct_sleep_s(POLL_S, true);
	}
	if (judged)
		judge_result_confirm(res, &prev);
	judge_result_free(&prev);
	return 0;
fail:
	judge_result_free(&prev);
	return UCT_EXIT_TOOL;
}
