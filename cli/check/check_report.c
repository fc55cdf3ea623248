// SPDX-License-Identifier: GPL-2.0
/* check_report.c - `ucounttop check` reports: KTAP-diagnostic text, JSON. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "check_report.h"
#include "check_cmd.h"
#include "fmt.h"

static const char *const counter_names[UCK_NCOUNTERS] = {
	[UCK_CNT_EVENTS] = "events", [UCK_CNT_AGG_FULL] = "agg_full",
	[UCK_CNT_SEEN_FULL] = "seen_full", [UCK_CNT_CHAIN_CUT] = "chain_cut",
	[UCK_CNT_FIFO_FULL] = "fifo_full", [UCK_CNT_ITEM_FULL] = "item_full",
	[UCK_CNT_TALLY_FULL] = "tally_full", [UCK_CNT_STACK_ERR] = "stack_errors",
	[UCK_CNT_OVER_FULL] = "over_full", [UCK_CNT_PEND_FULL] = "pend_full",
	[UCK_CNT_FREE_FULL] = "free_full", [UCK_CNT_OBJ_FULL] = "obj_full",
	[UCK_CNT_INV_FULL] = "inv_full", [UCK_CNT_INV_TRUNC] = "inv_truncated",
	[UCK_CNT_FREES] = "frees", [UCK_CNT_SHM_GONE] = "shm_gone",
	[UCK_CNT_RACED] = "raced",
};

const char *check_report_stack_kind(unsigned kind)
{
	static const char *const n[JUDGE_STACK_NKINDS] = {
		"open", "charge", "uncharge", "unmatched", "negative", "free", "check", "over",
	};

	return kind < JUDGE_STACK_NKINDS ? n[kind] : "?";
}

/* Longer words for the text report. */
static const char *stackref_title(unsigned kind)
{
	switch (kind) {
	case JUDGE_STACK_OPEN: return "charged and never uncharged";
	case JUDGE_STACK_CHARGE: return "charged";
	case JUDGE_STACK_UNCHARGE: return "uncharged";
	case JUDGE_STACK_UNMATCHED: return "uncharged with no matching charge since attach";
	case JUDGE_STACK_NEGATIVE: return "uncharged below zero";
	case JUDGE_STACK_FREE: return "freed while charged";
	case JUDGE_STACK_CHECK: return "limit check said within limits";
	default: return "charged over the limit";
	}
}

/* How CMD ended when it did not end by itself, and what it left running. */
static void text_run(FILE *f, const struct check_run_info *ri)
{
	const struct check_cmd *run = ri->run;
	size_t i;

	if (!run)
		return;
	if (run->timed_out)
		fprintf(f, "# timed out: --timeout %.1f s expired, its process group and "
			"descendants got SIGTERM%s\n",
			ri->timeout, run->killed ? ", then SIGKILL" : "");
	if (run->interrupted)
		fprintf(f, "# interrupted: check got signal %d and forwarded it to the command's "
			"process group%s\n", run->interrupted,
			run->killed && !run->timed_out ? ", then SIGKILL" : "");
	for (i = 0; i < run->nleft; i++) {
		const struct check_left *l = &run->left[i];

		fprintf(f, "# left running, not waited for: pid %d ", (int)l->pid);
		uct_text_str(f, l->comm, sizeof(l->comm));
		fprintf(f, " uid %u userns %llu: holds nproc %u (one per thread); its other "
			"charges are among the outstanding\n", l->uid, l->userns, l->threads);
	}
}

static void text_command(FILE *f, const struct check_run_info *ri)
{
	char *const *a;

	fputs("# command:", f);
	for (a = ri->argv; a && *a; a++) {
		fputc(' ', f);
		uct_text_str(f, *a, (size_t)-1);
	}
	if (!ri->pid) {
		fputs(" (did not run)\n", f);
		return;
	}
	fprintf(f, " (pid %d)", ri->pid);
	if (ri->status >= 0 && WIFEXITED(ri->status))
		fprintf(f, " exited %d%s", WEXITSTATUS(ri->status),
			WEXITSTATUS(ri->status) == UCT_EXIT_SKIP ? " (skipped)" :
			WEXITSTATUS(ri->status) == UCT_EXIT_TIMEOUT ? " (timed out)" : "");
	else if (ri->status >= 0 && WIFSIGNALED(ri->status))
		fprintf(f, " killed by signal %d", WTERMSIG(ri->status));
	fprintf(f, "; it ran %.2f s, settled %.2f s (at most %.1f)\n",
		ri->duration, ri->settle_waited, ri->settle_limit);
	text_run(f, ri);
}

static void text_finding(FILE *f, const struct judge_finding *x, check_frames_fn frames, void *ctx)
{
	const char *fr[CHECK_REPORT_FRAMES];
	size_t i, j, n;

	fprintf(f, "# %s %s: ns %u level %u uid %u %s %lld %s\n", x->failing ? "FAIL" : "ok",
		judge_class_name(x->cls), x->ns_inum, x->level, x->uid, uct_type_name(x->type),
		x->amount, uct_type_unit(x->type));
	/* the explanation, wrapped on "; " */
	{
		const char *p = x->how, *q;

		while (*p) {
			q = strstr(p, "; ");
			n = q ? (size_t)(q - p) : strlen(p);
			fprintf(f, "#   %.*s\n", (int)n, p);
			p += n;
			if (q)
				p += 2;
		}
	}
	for (i = 0; i < x->nstacks && i < CHECK_REPORT_STACKS; i++) {
		const struct judge_stackref *s = &x->stacks[i];

		fprintf(f, "#   %s: %lld %s in %llu call%s, last by pid %u (",
			stackref_title(s->kind), s->total, uct_type_unit(x->type), s->count,
			s->count == 1 ? "" : "s", s->pid);
		/* a comm is whatever PR_SET_NAME was given, newlines included */
		uct_text_str(f, s->comm, UCT_COMM_LEN);
		fputs(")\n", f);
		n = s->stack_id >= 0 && frames ?
		    frames(ctx, s->stack_id, fr, CHECK_REPORT_FRAMES) : 0;
		if (!n)
			fputs("#       (no kernel stack recorded)\n", f);
		for (j = 0; j < n; j++)
			fprintf(f, "#       %s\n", fr[j]);
	}
	if (x->nstacks > CHECK_REPORT_STACKS)
		fprintf(f, "#   ... %zu more stacks (--json lists them all)\n",
			x->nstacks - CHECK_REPORT_STACKS);
}

#define UNDECIDED_LINES	20	/* in the text report; JSON lists them all */

/* The rows the skipped classes left unjudged (judge_undecided), a line
 * each up to a bound */
static void text_undecided(FILE *f, const struct judge_result *r)
{
	size_t i;
	int c;

	for (i = 0; i < r->nu && i < UNDECIDED_LINES; i++) {
		const struct judge_undecided *u = &r->u[i];
		bool first = true;

		fprintf(f, "# undecided: ns %u level %u uid %u %s:", u->ns_inum, u->level, u->uid,
			uct_type_name(u->type));
		for (c = 0; c < JUDGE_NCLASSES; c++) {
			if (!(u->classes & (1u << c)))
				continue;
			fprintf(f, "%s %s", first ? "" : ",", judge_class_name(c));
			first = false;
		}
		fputs(" not judged (SKIP above)\n", f);
	}
	if (r->nu > UNDECIDED_LINES)
		fprintf(f, "# undecided: %zu more rows and types (the JSON report lists them)\n",
			r->nu - UNDECIDED_LINES);
}

void check_report_text(FILE *f, const struct judge_result *r, const struct check_run_info *ri,
		       check_frames_fn frames, void *ctx)
{
	size_t i;
	int c;
	bool first;

	if (r->nfail) {
		fprintf(f, "# ucounttop check: FAIL, %zu finding%s:", r->nfail,
			r->nfail == 1 ? "" : "s");
		for (c = 0; c < JUDGE_NCLASSES; c++) {
			size_t k, n = 0;

			for (k = 0; k < r->n; k++)
				n += r->f[k].cls == (enum judge_class)c && r->f[k].failing;
			if (n)
				fprintf(f, " %zu %s", n, judge_class_name(c));
		}
		fputc('\n', f);
	} else {
		fputs("# ucounttop check: clean, no imbalance\n", f);
	}
	text_command(f, ri);
	fputs("# checked:", f);
	for (c = 0; c < JUDGE_OUTSTANDING; c++)
		if (r->checked[c])
			fprintf(f, " %s", judge_class_name(c));
	fputc('\n', f);
	for (c = 0; c < JUDGE_NCLASSES; c++)
		if (r->skipped[c][0])
			fprintf(f, "# SKIP %s: %s\n", judge_class_name(c), r->skipped[c]);
	text_undecided(f, r);
	fprintf(f, "# %llu charges/uncharges seen in %zu rows; over-limit charges: %llu refused "
		"and rolled back, %llu allowed to privileged callers, %llu by set*uid/unshare "
		"(not enforced there)\n", ri->counters[UCK_CNT_EVENTS], r->rows,
		r->refused_rolled_back, r->privileged_over, r->deferred_nproc);
	fprintf(f, "# snapshots: %s; hooks: %s\n", ri->snapshot ? ri->snapshot : "-",
		ri->hooks ? ri->hooks : "-");
	if (ri->degraded && ri->degraded[0]) {
		fputs("# degraded: ", f);
		uct_text_str(f, ri->degraded, (size_t)-1);
		fputc('\n', f);
	}
	for (i = 0; i < r->n; i++)
		text_finding(f, &r->f[i], frames, ctx);
	if (r->notes[0]) {
		const char *p = r->notes, *q;

		while (*p) {
			q = strchr(p, '\n');
			fprintf(f, "# note: %.*s\n", (int)(q ? q - p : (long)strlen(p)), p);
			p = q ? q + 1 : p + strlen(p);
		}
	}
	if (ri->counters[UCK_CNT_RACED])
		fprintf(f, "# raced: %llu times another charge or uncharge overlapped the kernel's "
			"own read, so whether a level was over while it said within was not asked "
			"(what it said is judged)\n", ri->counters[UCK_CNT_RACED]);
	if (judge_missed_total(r->missed)) {
		fprintf(f, "# missed: %llu runs of check's programs skipped by the kernel's "
			"recursion guard (a program preempted or interrupted while another task "
			"on its CPU entered it):", judge_missed_total(r->missed));
		for (c = 0, first = true; c < JUDGE_NMISS; c++) {
			if (!r->missed[c])
				continue;
			fprintf(f, "%s %s %llu", first ? "" : ",", judge_miss_name(c),
				r->missed[c]);
			first = false;
		}
		fputc('\n', f);
	}
	first = true;
	for (c = 0; c < UCK_NCOUNTERS; c++) {
		if (c == UCK_CNT_EVENTS || c == UCK_CNT_FREES || c == UCK_CNT_RACED ||
		    !ri->counters[c])
			continue;
		fprintf(f, "%s %s=%llu", first ? "# dropped:" : ",", counter_names[c],
			ri->counters[c]);
		first = false;
	}
	/* a skipped event is lost data like any other */
	if (judge_missed_total(r->missed)) {
		fprintf(f, "%s recursion_misses=%llu", first ? "# dropped:" : ",",
			judge_missed_total(r->missed));
		first = false;
	}
	if (!first)
		fputc('\n', f);
	fprintf(f, "# exit %d\n", ri->exit_code);
}

void check_report_ktap_start(FILE *f)
{
	fputs("KTAP version 1\n1..2\n", f);
	fflush(f);
}

void check_report_nest(FILE *f, const char *buf, size_t n, bool *line_start)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (*line_start)
			fputs("    ", f);
		fputc(buf[i], f);
		*line_start = buf[i] == '\n';
	}
}

/* CMD's name in a result line: its basename, blanks and '#' (which
 * would start a directive) as '_' */
static void ktap_name(FILE *f, const char *a0)
{
	const char *s = a0 && strrchr(a0, '/') ? strrchr(a0, '/') + 1 : a0 ? a0 : "command";

	for (; *s; s++)
		fputc(*s == ' ' || *s == '#' || (unsigned char)*s < 0x20 ? '_' : *s, f);
}

void check_report_ktap(FILE *f, const struct judge_result *r, const struct check_run_info *ri,
		       check_frames_fn frames, void *ctx)
{
	const struct check_cmd ran = { .pid = ri->pid, .status = ri->status };
	const struct check_cmd *run = ri->run ? ri->run : &ran;
	/* CMD's outcome as check's status gives it (check_exit.c) */
	int out = check_exit_code(false, run);
	bool line_start = true;
	char *text = NULL;
	size_t len = 0, k;
	FILE *mem;
	int c, n = 0, last = JUDGE_OUTSTANDING;

	/* outstanding charges are a test only where they fail
	 * (--fail-outstanding) */
	for (k = 0; k < r->n; k++)
		if (r->f[k].cls == JUDGE_OUTSTANDING && r->f[k].failing)
			last = JUDGE_NCLASSES;
	/* 1: CMD, as kselftest's runner reports a test */
	fputs(out == UCT_EXIT_OK || out == UCT_EXIT_SKIP ? "ok 1 " : "not ok 1 ", f);
	ktap_name(f, ri->argv ? ri->argv[0] : NULL);
	if (out == UCT_EXIT_SKIP)
		fputs(" # SKIP", f);
	else if (out == UCT_EXIT_TIMEOUT && run->timed_out)
		fprintf(f, " # TIMEOUT %.0f seconds", ri->timeout);
	else if (out == UCT_EXIT_TIMEOUT)
		fputs(" # TIMEOUT", f);
	fputc('\n', f);
	/* 2: check's verdict, a test per class */
	fputs("    KTAP version 1\n    # Subtest: ucounttop-check\n", f);
	for (c = 0; c < last; c++)
		n += r->checked[c] || r->skipped[c][0] || c == JUDGE_OUTSTANDING;
	fprintf(f, "    1..%d\n", n);
	for (c = 0, n = 0; c < last; c++) {
		bool failing = false;

		if (!r->checked[c] && !r->skipped[c][0] && c != JUDGE_OUTSTANDING)
			continue;
		for (k = 0; k < r->n; k++)
			failing |= r->f[k].cls == (enum judge_class)c && r->f[k].failing;
		if (!r->checked[c] && c != JUDGE_OUTSTANDING) {
			fprintf(f, "    ok %d %s # SKIP ", ++n, judge_class_name(c));
			uct_text_str(f, r->skipped[c], (size_t)-1);
			fputc('\n', f);
			continue;
		}
		fprintf(f, "    %s %d %s\n", failing ? "not ok" : "ok", ++n, judge_class_name(c));
	}
	/* the text report's lines, all "# " diagnostics, in the subtest */
	mem = open_memstream(&text, &len);
	if (mem) {
		check_report_text(mem, r, ri, frames, ctx);
		fclose(mem);
		/* every line of it ends with a newline */
		check_report_nest(f, text, len, &line_start);
		free(text);
	}
	fprintf(f, "%s 2 ucounttop-check\n", r->nfail ? "not ok" : "ok");
	fflush(f);
}

static void json_frames(FILE *f, __s32 sid, check_frames_fn frames, void *ctx)
{
	const char *fr[CHECK_REPORT_FRAMES];
	size_t j, n = sid >= 0 && frames ? frames(ctx, sid, fr, CHECK_REPORT_FRAMES) : 0;

	fputc('[', f);
	for (j = 0; j < n; j++) {
		if (j)
			fputc(',', f);
		uct_json_str(f, fr[j]);
	}
	fputc(']', f);
}

static void json_finding(FILE *f, const struct judge_finding *x, check_frames_fn frames, void *ctx)
{
	size_t i;

	/* fixed prefix: line tools can find a finding without a JSON parser */
	fprintf(f, "{\"class\":\"%s\",\"failing\":%s,\"ns\":%u,\"level\":%u,\"uid\":%u,"
		"\"type\":\"%s\",\"amount\":%lld,", judge_class_key(x->cls),
		x->failing ? "true" : "false", x->ns_inum, x->level, x->uid,
		uct_type_name(x->type), x->amount);
	fprintf(f, "\"baseline\":%lld,\"final\":%lld,\"seen\":\"%s\",\"inferred\":%s,",
		x->baseline, x->final, x->in_base && x->in_final ? "both" : x->in_base ?
		"baseline" : x->in_final ? "final" : "none", x->inferred ? "true" : "false");
	fprintf(f, "\"tally\":%lld,\"charged\":%lld,\"uncharged\":%lld,"
		"\"evidence\":{\"baseline\":%lld,\"final\":%lld},", x->tally, x->charged,
		x->uncharged, x->ev_base, x->ev_final);
	if (x->at_level >= 0)
		fprintf(f, "\"at\":{\"ns\":%u,\"level\":%d,\"uid\":%u,\"value\":%lld,"
			"\"limit\":%lld},", x->at_ns, x->at_level, x->at_uid, x->value, x->limit);
	else
		fputs("\"at\":null,", f);
	fputs("\"how\":", f);
	uct_json_str(f, x->how);
	fputs(",\"stacks\":[", f);
	for (i = 0; i < x->nstacks; i++) {
		const struct judge_stackref *s = &x->stacks[i];
		char comm[UCT_COMM_LEN + 1];

		memcpy(comm, s->comm, UCT_COMM_LEN);
		comm[UCT_COMM_LEN] = 0;
		fprintf(f, "%s{\"kind\":\"%s\",\"count\":%llu,\"total\":%lld,\"pid\":%u,\"comm\":",
			i ? "," : "", check_report_stack_kind(s->kind), s->count, s->total, s->pid);
		uct_json_str(f, comm);
		fprintf(f, ",\"stack_id\":%d,\"frames\":", s->stack_id);
		json_frames(f, s->stack_id, frames, ctx);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void json_run(FILE *f, const struct check_run_info *ri)
{
	const struct check_cmd *run = ri->run;
	size_t i;

	fprintf(f, "\"timeout\":%.3f,\"timed_out\":%s,\"interrupted_by\":", ri->timeout,
		run && run->timed_out ? "true" : "false");
	if (run && run->interrupted)
		fprintf(f, "%d", run->interrupted);
	else
		fputs("null", f);
	fputs(",\"left_running\":[", f);
	for (i = 0; run && i < run->nleft; i++) {
		const struct check_left *l = &run->left[i];

		fprintf(f, "%s{\"pid\":%d,\"comm\":", i ? "," : "", (int)l->pid);
		uct_json_str(f, l->comm);
		fprintf(f, ",\"uid\":%u,\"userns\":%llu,\"threads\":%u}", l->uid, l->userns,
			l->threads);
	}
	fputc(']', f);
}

void check_report_json(FILE *f, const struct judge_result *r, const struct check_run_info *ri,
		       check_frames_fn frames, void *ctx)
{
	char *const *a;
	bool first;
	size_t i;
	int c;

	fprintf(f, "{\"schema\":\"ucounttop-check/1\",\"result\":\"%s\",\"exit_code\":%d,",
		r->nfail ? "fail" : "clean", ri->exit_code);
	fputs("\"command\":{\"argv\":[", f);
	for (a = ri->argv; a && *a; a++) {
		if (a != ri->argv)
			fputc(',', f);
		uct_json_str(f, *a);
	}
	fprintf(f, "],\"pid\":%d,", ri->pid);
	if (ri->status >= 0 && WIFEXITED(ri->status))
		fprintf(f, "\"exit_status\":%d,\"signal\":null,", WEXITSTATUS(ri->status));
	else if (ri->status >= 0 && WIFSIGNALED(ri->status))
		fprintf(f, "\"exit_status\":null,\"signal\":%d,", WTERMSIG(ri->status));
	else
		fputs("\"exit_status\":null,\"signal\":null,", f);
	fprintf(f, "\"duration\":%.3f,", ri->duration);
	json_run(f, ri);
	fprintf(f, "},\"settle\":{\"waited\":%.3f,\"limit\":%.3f},",
		ri->settle_waited, ri->settle_limit);
	fputs("\"snapshot\":", f);
	uct_json_str(f, ri->snapshot ? ri->snapshot : "");
	fputs(",\"hooks\":", f);
	uct_json_str(f, ri->hooks ? ri->hooks : "");
	fputs(",\"degraded\":", f);
	uct_json_str(f, ri->degraded ? ri->degraded : "");
	fputs(",\"classes\":{", f);
	for (c = 0; c < JUDGE_NCLASSES; c++) {
		fprintf(f, "%s\"%s\":{\"checked\":%s,\"findings\":%zu", c ? "," : "",
			judge_class_key(c), r->checked[c] ? "true" : "false", r->counts[c]);
		if (r->skipped[c][0]) {
			fputs(",\"reason\":", f);
			uct_json_str(f, r->skipped[c]);
		}
		fputc('}', f);
	}
	fprintf(f, "},\"stats\":{\"rows\":%zu,\"refused_rolled_back\":%llu,"
		"\"privileged_over\":%llu,\"deferred_nproc\":%llu},\"counters\":{",
		r->rows, r->refused_rolled_back, r->privileged_over, r->deferred_nproc);
	for (c = 0; c < UCK_NCOUNTERS; c++)
		fprintf(f, "%s\"%s\":%llu", c ? "," : "", counter_names[c], ri->counters[c]);
	fprintf(f, ",\"recursion_misses\":%llu},\"missed\":{", judge_missed_total(r->missed));
	for (c = 0; c < JUDGE_NMISS; c++)
		fprintf(f, "%s\"%s\":%llu", c ? "," : "", judge_miss_key(c), r->missed[c]);
	fputs("},\"undecided\":[", f);
	for (i = 0; i < r->nu; i++) {
		const struct judge_undecided *u = &r->u[i];

		fprintf(f, "%s{\"ns\":%u,\"level\":%u,\"uid\":%u,\"type\":\"%s\",\"classes\":[",
			i ? "," : "", u->ns_inum, u->level, u->uid, uct_type_name(u->type));
		for (c = 0, first = true; c < JUDGE_NCLASSES; c++) {
			if (!(u->classes & (1u << c)))
				continue;
			fprintf(f, "%s\"%s\"", first ? "" : ",", judge_class_key(c));
			first = false;
		}
		fputs("]}", f);
	}
	fputs("],\"notes\":[", f);
	{
		const char *p = r->notes, *q;
		char buf[sizeof(r->notes)];
		bool first = true;

		while (*p) {
			q = strchr(p, '\n');
			snprintf(buf, sizeof(buf), "%.*s", (int)(q ? q - p : (long)strlen(p)), p);
			if (!first)
				fputc(',', f);
			uct_json_str(f, buf);
			first = false;
			p = q ? q + 1 : p + strlen(p);
		}
	}
	fputs("],\"findings\":[", f);
	for (i = 0; i < r->n; i++) {
		if (i)
			fputc(',', f);
		json_finding(f, &r->f[i], frames, ctx);
	}
	fputs("]}\n", f);
}
