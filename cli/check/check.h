/* SPDX-License-Identifier: GPL-2.0 */
/* check.h - `ucounttop check [options] -- CMD [ARGS...]`. */
#ifndef UCT_CHECK_H
#define UCT_CHECK_H

#include "opts.h"

/*
 * Attach, take a baseline, run o->cmd_argv and wait for it and all its
 * descendants, let deferred frees settle, judge, report. Returns the exit
 * code: 0 clean, 1 imbalance found, 3 the kernel refused to load the
 * programs (EPERM; privileges are checked before), 4 kernel feature
 * missing, 5 CMD could not be started, 6 tool failure, 7 no imbalance but
 * CMD failed, timed out or was interrupted.
 */
int check_main(const struct uct_opts *o);

#endif /* UCT_CHECK_H */
