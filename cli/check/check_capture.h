/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_capture.h - what the judge reads, off check's BPF side: captures
 * (snapshot, inventory, tally map, read while nothing moved), the
 * baseline, the event maps, and the settling after CMD that ends in a
 * verdict.
 */
#ifndef UCT_CHECK_CAPTURE_H
#define UCT_CHECK_CAPTURE_H

#include "check_load.h"
#include "judge.h"

/*
 * The baseline: two captures in a row that saw one state. 0 or -errno.
 */
int check_baseline(struct check_bpf *b, struct judge_capture *base);

/*
 * After CMD ended (at t1 on uct_now_s()'s clock): capture, read the event
 * maps and judge until nothing failing could still go away, the kernel
 * went quiet, a signal came, or settle seconds are up. *res is the
 * verdict, confirmed against the one before (judge_result_confirm()).
 * 0, or UCT_EXIT_TOOL with msg.
 */
int check_settle(struct check_bpf *b, struct judge_input *in, double t1, double settle,
		 struct judge_result *res, char *msg, size_t len);

#endif /* UCT_CHECK_CAPTURE_H */
