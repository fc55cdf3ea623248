/* SPDX-License-Identifier: GPL-2.0 */
/* trace.h - `ucounttop trace`: print ring-buffer events as they come. */
#ifndef UCT_TRACE_H
#define UCT_TRACE_H

#include <signal.h>
#include "loader.h"
#include "opts.h"

/* Runs until *stop, --duration or --count. Returns an exit code. */
int uct_run_trace(struct uct_loader *l, const struct uct_opts *o, volatile sig_atomic_t *stop);

/* trace -r FILE: print a recording of trace -w. An exit code. */
int uct_run_trace_read(const struct uct_opts *o);

#endif /* UCT_TRACE_H */
