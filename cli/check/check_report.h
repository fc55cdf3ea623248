/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_report.h - `ucounttop check` reports: human text whose every line
 * is a KTAP diagnostic ("# ..."), so it nests inside kselftest output, and
 * JSON (schema ucounttop-check/1, one document on one line). Pure: stacks
 * come through a callback, so the unit tests need no kernel.
 */
#ifndef UCT_CHECK_REPORT_H
#define UCT_CHECK_REPORT_H

#include <stdio.h>
#include "judge.h"
#include "check_cmd.h"

struct check_run_info {
	char *const *argv;		/* the command */
	int pid;			/* its pid, 0 if it never ran */
	int status;			/* wait status; -1 unknown */
	double duration;		/* seconds it (and its descendants) ran */
	double settle_waited;		/* seconds spent settling afterwards */
	double settle_limit;		/* --settle */
	const char *snapshot;		/* "iter/ucounts" or "iter/task" */
	const char *hooks;		/* attached programs */
	const char *degraded;		/* hooks dropped, and what it costs */
	double timeout;			/* --timeout, 0 none */
	const struct check_cmd *run;	/* timeout, interruption, left running */
	unsigned long long counters[UCK_NCOUNTERS];
	int exit_code;			/* what check exits with */
};

/* Symbolized frames of a stack: fills up to max, returns the count. */
typedef size_t (*check_frames_fn)(void *ctx, __s32 stack_id, const char **frames, size_t max);

#define CHECK_REPORT_STACKS	6	/* stacks shown per finding (text) */
#define CHECK_REPORT_FRAMES	UCK_STACK_DEPTH

void check_report_text(FILE *f, const struct judge_result *r, const struct check_run_info *ri,
		       check_frames_fn frames, void *ctx);
void check_report_json(FILE *f, const struct judge_result *r, const struct check_run_info *ri,
		       check_frames_fn frames, void *ctx);
/*
 * check --ktap, after CMD's output (nested as subtest 1 of a KTAP
 * document whose header check_report_ktap_start() wrote): CMD's result
 * line, then check's verdict as subtest 2, a test per class judged (not
 * ok with a failing finding; # SKIP with the reason for a class not
 * judged) with the text report's lines as its diagnostics, and its
 * result line.
 */
void check_report_ktap_start(FILE *f);
/* n bytes of buf to f, each line indented as a KTAP subtest's (4
 * columns); *line_start: the next byte starts a line, kept across calls */
void check_report_nest(FILE *f, const char *buf, size_t n, bool *line_start);
void check_report_ktap(FILE *f, const struct judge_result *r, const struct check_run_info *ri,
		       check_frames_fn frames, void *ctx);

/* "open charge", "charge", "uncharge", ... */
const char *check_report_stack_kind(unsigned kind);

#endif /* UCT_CHECK_REPORT_H */
