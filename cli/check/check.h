/* SPDX-License-Identifier: GPL-2.0 */
/* check.h - `ucounttop check [options] -- CMD [ARGS...]`, and
 * `ucounttop check --kselftest DIR...`. */
#ifndef UCT_CHECK_H
#define UCT_CHECK_H

#include <stdbool.h>
#include "opts.h"

struct check_bpf;
struct check_user;

/*
 * Attach, then run o->cmd_argv as check_one() does, or with --kselftest
 * every test of o->cmd_argv's directories (check_kselftest()). Returns
 * the exit code of ucounttop(8), EXIT STATUS: 0 clean, 1 imbalance found,
 * 2 usage, 4 skip (CMD's, or check cannot judge here), 5 CMD could not be
 * started, 6 tool failure, 7 no imbalance but CMD failed or check was
 * interrupted, 124 CMD timed out.
 */
int check_main(const struct uct_opts *o);

/*
 * With b attached: take a baseline, run argv (as user, bounded by timeout,
 * 0 none) and wait for it and its descendants, let deferred frees settle,
 * judge, report as o says. restart: b served a command before, whose
 * events are cleared first (check_bpf_restart()). Returns check's exit
 * code for argv (check_exit_code()), or 5, 6 or 7 as check_main().
 */
int check_one(struct check_bpf *b, const struct uct_opts *o, const struct check_user *user,
	      char *const *argv, double timeout, bool restart);

#endif /* UCT_CHECK_H */
