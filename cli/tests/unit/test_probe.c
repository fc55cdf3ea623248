// SPDX-License-Identifier: GPL-2.0
/*
 * test_probe.c - the kernel-layout check (probe.c) on synthetic BTF: a
 * kernel with the 6.1 layout passes, one without ucounts.rlimit[] (the
 * 5.14..6.0 layout, counters in ucount[]) or without rlimit_max[] is
 * refused with the missing member named, and so is one whose enum
 * rlimit_type numbers the counters otherwise. Also the bpffs check on
 * ordinary directories and the test-hook lists. No kernel involved.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include "common.h"
#include "loader_internal.h"
#include "probe.h"

/* struct NAME { long MEMBER[4]; } */
static void add_struct(struct btf *btf, int arr, const char *name, const char *member)
{
	assert_true(btf__add_struct(btf, name, 32) > 0);
	assert_int_equal(btf__add_field(btf, member, arr, 0, 0), 0);
}

/* enum rlimit_type, its first value first (0 on every kernel so far) */
static void add_rlimit_enum(struct btf *btf, int first)
{
	assert_true(btf__add_enum(btf, "rlimit_type", 4) > 0);
	assert_int_equal(btf__add_enum_value(btf, "UCOUNT_RLIMIT_NPROC", first), 0);
	assert_int_equal(btf__add_enum_value(btf, "UCOUNT_RLIMIT_MSGQUEUE", 1), 0);
	assert_int_equal(btf__add_enum_value(btf, "UCOUNT_RLIMIT_SIGPENDING", 2), 0);
	assert_int_equal(btf__add_enum_value(btf, "UCOUNT_RLIMIT_MEMLOCK", 3), 0);
	assert_int_equal(btf__add_enum_value(btf, "UCOUNT_RLIMIT_COUNTS", 4), 0);
}

static struct btf *kernel_enum(const char *ucounts_member, const char *ns_member, int first)
{
	struct btf *btf = btf__new_empty();
	int l, arr;

	assert_non_null(btf);
	l = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	arr = btf__add_array(btf, l, l, 4);
	add_struct(btf, arr, "ucounts", ucounts_member);
	add_struct(btf, arr, "user_namespace", ns_member);
	add_struct(btf, arr, "cred", "ucounts");
	add_rlimit_enum(btf, first);
	return btf;
}

static struct btf *kernel(const char *ucounts_member, const char *ns_member)
{
	return kernel_enum(ucounts_member, ns_member, 0);
}

/* a kernel that renumbered enum rlimit_type is refused, the value named */
static void test_layout_renumbered_enum(void **state)
{
	struct btf *btf = kernel_enum("rlimit", "rlimit_max", 5);
	char msg[512] = "";

	assert_int_equal(uct_probe_kernel_layout(btf, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "numbers UCOUNT_RLIMIT_NPROC 5"));
	btf__free(btf);
}

static void test_layout_6_1(void **state)
{
	struct btf *btf = kernel("rlimit", "rlimit_max");
	char msg[512] = "";

	assert_int_equal(uct_probe_kernel_layout(btf, msg, sizeof(msg)), 0);
	btf__free(btf);
}

static void test_layout_without_rlimit(void **state)
{
	struct btf *btf = kernel("ucount", "rlimit_max");
	char msg[512] = "";

	assert_int_equal(uct_probe_kernel_layout(btf, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "struct ucounts has no member rlimit"));
	assert_non_null(strstr(msg, "6.1 is the oldest tested"));
	btf__free(btf);
}

static void test_layout_without_rlimit_max(void **state)
{
	struct btf *btf = kernel("rlimit", "ucount_max");
	char msg[512] = "";

	assert_int_equal(uct_probe_kernel_layout(btf, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "struct user_namespace has no member rlimit_max"));
	btf__free(btf);
}

/* --pin under a directory that does not exist yet: its nearest existing
 * ancestor is asked, and an ordinary filesystem is refused by name */
static void test_bpffs_not_bpffs(void **state)
{
	char dir[] = "/tmp/test_probe.XXXXXX", pin[64], msg[512] = "";

	assert_non_null(mkdtemp(dir));
	snprintf(pin, sizeof(pin), "%s/a/b", dir);
	assert_int_equal(uct_probe_bpffs(pin, msg, sizeof(msg)), UCT_EXIT_KERNEL);
	assert_non_null(strstr(msg, pin));
	assert_non_null(strstr(msg, " is not on a BPF filesystem"));
	assert_int_equal(rmdir(dir), 0);
}

/* a path through a regular file is an error, not a directory to make */
static void test_bpffs_through_a_file(void **state)
{
	char dir[] = "/tmp/test_probe.XXXXXX", file[64], pin[80], msg[512] = "";
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/file", dir);
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(pin, sizeof(pin), "%s/pins", file);
	assert_int_equal(uct_probe_bpffs(pin, msg, sizeof(msg)), UCT_EXIT_FAIL);
	assert_non_null(strstr(msg, "--pin "));
	assert_int_equal(unlink(file), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* UCOUNTTOP_TEST_REFUSE and _FAIL_ATTACH: whole items of a comma list */
static void test_listed(void **state)
{
	const char *var = "UCOUNTTOP_TEST_PROBE_LIST";

	unsetenv(var);
	assert_false(uct_test_listed(var, "fexit:x"));
	setenv(var, "fexit:inc,tp_btf:ucounts_free", 1);
	assert_true(uct_test_listed(var, "fexit:inc"));
	assert_true(uct_test_listed(var, "tp_btf:ucounts_free"));
	assert_false(uct_test_listed(var, "fexit:in"));
	assert_false(uct_test_listed(var, "fexit:inc_get"));
	assert_false(uct_test_listed(var, "fentry:inc"));
	assert_false(uct_test_listed(var, "tp_btf:ucounts"));
	unsetenv(var);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_6_1),
		cmocka_unit_test(test_layout_renumbered_enum),
		cmocka_unit_test(test_layout_without_rlimit),
		cmocka_unit_test(test_layout_without_rlimit_max),
		cmocka_unit_test(test_bpffs_not_bpffs),
		cmocka_unit_test(test_bpffs_through_a_file),
		cmocka_unit_test(test_listed),
	};

	return cmocka_run_group_tests_name("probe", tests, NULL, NULL);
}
