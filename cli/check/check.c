// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - `ucounttop check`: load check's programs (check_load.c), take
 * a baseline, run the command as a child subreaper and wait for every
 * descendant (check_cmd.c), settle while capturing and judging
 * (check_capture.c, judge/), then report (check_report.c) with the
 * kernel stacks by name (check_stacks.c). With --kselftest, the same for
 * each test of kselftest collections, loaded once (check_kselftest.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "check_capture.h"
#include "check_cmd.h"
#include "check_kselftest.h"
#include "check_load.h"
#include "check_report.h"
#include "check_stacks.h"
#include "clock.h"
#include "outfile.h"

/* The report to stdout or -o (written as the live view's -o is: CMD ran
 * meanwhile, and may have planted a symlink at FILE; outfile.h); the exit
 * code stays unless writing fails. */
static int write_report(const struct uct_opts *o, const struct judge_result *res,
			const struct check_run_info *ri, struct check_stacks *st, int rc)
{
	struct uct_outfile of;
	FILE *out = stdout;
	char msg[256];

	if (o->output_file) {
		if (uct_outfile_open(&of, o->output_file, msg, sizeof(msg))) {
			fprintf(stderr, "ucounttop: -o %s: %s\n", o->output_file, msg);
			return UCT_EXIT_TOOL;
		}
		out = of.f;
	}
	if (o->output == UCT_OUT_JSON)
		check_report_json(out, res, ri, check_stacks_frames, st);
	else if (o->output == UCT_OUT_KTAP)
		check_report_ktap(out, res, ri, check_stacks_frames, st);
	else
		check_report_text(out, res, ri, check_stacks_frames, st);
	if (out != stdout && uct_outfile_commit(&of, 1)) {
		fprintf(stderr, "ucounttop: -o %s: %s\n", o->output_file, strerror(errno));
		return UCT_EXIT_TOOL;
	}
	if (out == stdout)
		fflush(stdout);
	return rc;
}

int check_one(struct check_bpf *b, const struct uct_opts *o, const struct check_user *user,
	      char *const *argv, double timeout, bool restart)
{
	struct check_stacks st = {};
	struct judge_input in = {};
	struct judge_result res = {};
	struct check_run_info ri = {};
	struct check_cmd cmd = {};
	char msg[1024] = "";
	double t1;
	int rc, err;

	err = restart ? check_bpf_restart(b) : 0;
	if (err) {
		fprintf(stderr, "ucounttop: clearing the last command's events: %s\n",
			strerror(-err));
		return UCT_EXIT_TOOL;
	}
	err = check_baseline(b, &in.base);
	if (err) {
		fprintf(stderr, "ucounttop: taking the baseline: %s\n", strerror(-err));
		rc = UCT_EXIT_TOOL;
		goto out;
	}
	in.complete = b->complete;
	in.have_free_tp = b->have_free;
	in.have_overlimit = b->have_overlimit;
	in.have_mq_hooks = b->have_mq;
	in.have_shm_hooks = b->have_shm;
	in.fail_outstanding = o->fail_outstanding;

	if (o->output == UCT_OUT_KTAP)
		check_report_ktap_start(stdout);
	rc = check_cmd_run(argv, user, timeout, o->settle, o->output == UCT_OUT_KTAP, &cmd, msg,
			   sizeof(msg));
	if (rc) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		/* the document's two results, all the same */
		if (o->output == UCT_OUT_KTAP)
			printf("not ok 1 %s\nnot ok 2 ucounttop-check # did not run\n", argv[0]);
		goto out;
	}
	/* CMD has ended: --settle counts from here, and reaping its
	 * descendants already took cmd.reap_s of it */
	t1 = uct_now_s() - cmd.reap_s;
	rc = check_settle(b, &in, t1, o->settle, &res, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		goto out;
	}

	ri.argv = argv;
	ri.pid = cmd.pid;
	ri.status = cmd.status;
	ri.duration = cmd.cmd_s;
	ri.run = &cmd;
	ri.timeout = timeout;
	ri.settle_waited = uct_now_s() - t1;
	ri.settle_limit = o->settle;
	ri.snapshot = b->complete ? "iter/ucounts" : "iter/task";
	ri.hooks = b->hooks;
	ri.degraded = b->degraded;
	memcpy(ri.counters, in.counters, sizeof(ri.counters));
	/* a finding first; else CMD's own failure: never 0 unless both pass */
	rc = check_exit_code(res.nfail != 0, &cmd);
	ri.exit_code = rc;
	st.map_fd = b->stacks_fd;
	rc = write_report(o, &res, &ri, &st, rc);
out:
	judge_result_free(&res);
	check_cmd_free(&cmd);
	judge_input_free(&in);
	check_stacks_free(&st);
	return rc;
}

int check_main(const struct uct_opts *o)
{
	struct check_bpf b = {};
	struct check_user user = {};
	struct ksft_plan plan = {};
	char msg[1024] = "";
	int rc;

	/* before anything is loaded: an unknown user fails at once */
	if (o->cmd_user && (rc = check_cmd_user(o->cmd_user, &user, msg, sizeof(msg)))) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		return rc;
	}
	/* and so does a directory with no test to run */
	if (o->kselftest && (rc = check_kselftest_plan(o, &plan, msg, sizeof(msg)))) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		return rc;
	}
	rc = check_bpf_open(&b, o, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "ucounttop: %s\n", msg);
		check_bpf_close(&b);
		check_kselftest_plan_free(&plan);
		/* nothing could be judged here: a skip to kselftest's runner */
		return rc == UCT_EXIT_PRIV ? UCT_EXIT_SKIP : rc;
	}
	if (o->kselftest)
		rc = check_kselftest(&b, o, &user, &plan);
	else
		rc = check_one(&b, o, &user, o->cmd_argv, o->timeout, false);
	check_bpf_close(&b);
	check_kselftest_plan_free(&plan);
	return rc;
}
