// SPDX-License-Identifier: GPL-2.0
/*
 * check_exit.c - check's exit status from its verdict and CMD's outcome,
 * as kselftest's runner reads a test's (check_cmd.h). Apart from running
 * CMD, so that the host tests judge it.
 */
#include <sys/wait.h>
#include "check_cmd.h"

int check_exit_code(bool finding, const struct check_cmd *r)
{
	int st;

	if (finding)
		return UCT_EXIT_FAIL;
	if (r->timed_out)
		return UCT_EXIT_TIMEOUT;
	if (!r->pid || r->interrupted || r->status < 0 || !WIFEXITED(r->status))
		return UCT_EXIT_CMD_FAILED;
	st = WEXITSTATUS(r->status);
	if (st == 0)
		return UCT_EXIT_OK;
	if (st == UCT_EXIT_SKIP)
		return UCT_EXIT_SKIP;
	if (st == UCT_EXIT_TIMEOUT)
		return UCT_EXIT_TIMEOUT;
	return UCT_EXIT_CMD_FAILED;
}
