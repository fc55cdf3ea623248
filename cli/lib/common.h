/* SPDX-License-Identifier: GPL-2.0 */
/* common.h - exit codes and small helpers shared by every cli/ file. */
#ifndef UCT_COMMON_H
#define UCT_COMMON_H

#include <linux/types.h>
#include "ucounttop.h"

/* Documented exit codes (see --help and ucounttop(8)). */
#define UCT_EXIT_OK	 0	/* success */
#define UCT_EXIT_FAIL	 1	/* runtime failure (load/attach/IO error) */
#define UCT_EXIT_USAGE	 2	/* invalid options */
#define UCT_EXIT_PRIV	 3	/* not root / missing CAP_BPF+CAP_PERFMON */
#define UCT_EXIT_KERNEL	 4	/* kernel/system lacks a required feature */
/* check only (1 there means "imbalance found") */
#define UCT_EXIT_CMD	 5	/* check: CMD could not be started */
#define UCT_EXIT_TOOL	 6	/* check: the tool failed while running */
#define UCT_EXIT_CMD_FAILED 7	/* check: no imbalance, but CMD failed or was
				 * interrupted */
/* check, as kselftest's runner reads a test's status: KSFT_SKIP (CMD
 * skipped, or check cannot judge here: no privilege, no kernel feature),
 * and timeout(1)'s status (CMD, or check's --timeout on it, timed out) */
#define UCT_EXIT_SKIP	 4
#define UCT_EXIT_TIMEOUT 124

#define UCT_VERSION "0.1"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* UCT_COMMON_H */
