/* SPDX-License-Identifier: GPL-2.0 */
/*
 * views.h - renderings of a uct_model: table (batch and tty share it),
 * JSON (one document per line per iteration), OpenMetrics text.
 */
#ifndef UCT_VIEWS_H
#define UCT_VIEWS_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include "model.h"

/* What the views need to know besides the model. */
struct uct_view_ctx {
	const char *snapshot_src;	/* "iter/ucounts" or "iter/task" */
	const char *hooks;		/* loaded hooks, human readable */
	const char *degraded;		/* features this kernel lacks; "" if none */
	bool events;			/* per-event (--events) statistics */
	bool no_tenant_labels;		/* metrics without names tenants choose */
	double delay;			/* seconds between refreshes */
	struct timespec wall;		/* wall-clock time of the update */
	/* metrics about the exporter: set by whoever takes the snapshots */
	double scrape_seconds;		/* the snapshot shown + the last render */
	unsigned long long scrape_errors;	/* snapshots that failed */
	int width;			/* columns; 0 = unlimited (batch) */
	int height;			/* rows (tty only) */
	bool tty;			/* full-screen view: collapse markers */
	int cursor;			/* tty: selected line, -1 none */
	int scroll;			/* tty: first line shown */
	bool paused;			/* tty */
};

/* ---- table (view_table.c) ---- */

/* Summary lines above the table; returns how many were written to f. */
int uct_table_summary(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c);
/* Width of the name column for the current lines. */
int uct_table_name_width(const struct uct_model *m, const struct uct_view_ctx *c);
/* Column header / one display line, without newline, at most len-1 chars. */
void uct_table_header(char *buf, size_t len, const struct uct_model *m,
		      const struct uct_view_ctx *c, int name_w);
/* The line under the header: what a cell of each kind of line holds. */
#define UCT_TABLE_LEGEND \
	"(ns lines: creator row/namespace max; uid lines: value[+change]/limit)"
void uct_table_legend(char *buf, size_t len, const struct uct_model *m,
		      const struct uct_view_ctx *c);
/* Returns the line's length. */
size_t uct_table_line(char *buf, size_t len, const struct uct_model *m,
		      const struct uct_view_ctx *c, const struct uct_line *ln, int name_w);
/* What holds a namespace without a process (UCT_HELD_* bits of held),
 * appended to b: the names joined by ',', as JSON strings ("queue") or
 * as the table's short ones ("mq"). */
struct uct_sb;
void uct_sb_held_by(struct uct_sb *b, unsigned held, bool json);
/* Batch: summary, header, legend, every line, blank line. No escape
 * sequences. */
void uct_view_batch(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c);

/* ---- JSON (view_json.c): one document on one line. ---- */
void uct_view_json(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c);

/* ---- OpenMetrics text (view_openmetrics.c); --prometheus's text format:
 * uct_view_metrics(), for node_exporter's textfile collector. ---- */
void uct_view_openmetrics(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c);
/* The same samples in either exposition format (--listen serves both). */
enum uct_metrics_fmt {
	UCT_METRICS_OPENMETRICS,	/* OpenMetrics 1.0.0, ends in "# EOF" */
	UCT_METRICS_TEXT,		/* Prometheus text format 0.0.4 */
	UCT_METRICS_NFMT
};
void uct_view_metrics(FILE *f, const struct uct_model *m, const struct uct_view_ctx *c,
		      enum uct_metrics_fmt fmt);

#endif /* UCT_VIEWS_H */
