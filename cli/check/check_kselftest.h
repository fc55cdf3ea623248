/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_kselftest.h - `ucounttop check --kselftest DIR...`: every test of
 * kselftest collections under check, the programs loaded once for the
 * run, reported as kselftest's runner reports a run (one KTAP document:
 * a result line "selftests: COLLECTION: TEST" per test, check's own
 * document nested under it, and the "# Totals:" line).
 *
 * DIR is a collection (every executable file in it, by name; its
 * "settings" file's timeout=N bounds each, 45 s when it has none, 0
 * none) or an installed tree (`make -C tools/testing/selftests install`:
 * its kselftest-list.txt names the tests, "COLLECTION:TEST" a line).
 */
#ifndef UCT_CHECK_KSELFTEST_H
#define UCT_CHECK_KSELFTEST_H

#include <stddef.h>
#include "opts.h"

struct check_bpf;
struct check_user;

#define KSFT_DEFAULT_TIMEOUT	45	/* kselftest's runner, with no settings */

struct ksft_test {
	char *collection;	/* the result line's COLLECTION */
	char *dir;		/* where it runs (its collection's directory) */
	char *path;		/* what runs: dir/name */
	const char *name;	/* the file's name, in path */
	double timeout;		/* seconds, 0: none */
};

struct ksft_plan {
	struct ksft_test *t;
	size_t n;
};

/*
 * The tests of o->cmd_argv's directories, in order, and each one's
 * timeout (o->timeout, when given, instead of every settings file's).
 * 0, or UCT_EXIT_USAGE with msg naming the directory or file that is
 * wrong.
 */
int check_kselftest_plan(const struct uct_opts *o, struct ksft_plan *p, char *msg, size_t len);
void check_kselftest_plan_free(struct ksft_plan *p);

/*
 * Run each test of p as `check --ktap` runs one command (check_one(), in
 * a child process, from its directory), with b attached for the whole
 * run; print the runner's document to standard output. SIGINT, SIGTERM
 * and SIGHUP go to the test that runs, and the tests after it do not
 * run. Returns 0 every test passed or was skipped, 1 a test left an
 * imbalance, 7 none did but a test failed, timed out or did not run.
 */
int check_kselftest(struct check_bpf *b, const struct uct_opts *o, const struct check_user *user,
		    const struct ksft_plan *p);

#endif /* UCT_CHECK_KSELFTEST_H */
